#include "embeddings/text/unicode/normalize.h"

#include <cstdint>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/text/unicode/unicode.h"

namespace embeddings::normalize {
namespace {

// Hangul syllables (Unicode's formula): S = SBase + (L * VCount + V) * TCount + T.
constexpr std::uint32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr std::uint32_t kLCount = 19, kVCount = 21, kTCount = 28;
constexpr std::uint32_t kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

// A decoded character: a code point, or (invalid = true) a byte copied as
// it is; and how it came from the text (normalize.h's changes).
struct Character {
  std::uint32_t code;
  unsigned rank;
  bool invalid;
  std::int32_t change = 0;
};

void decompose(std::uint32_t code, bool compatibility, std::vector<Character>& out) {
  if (code >= kSBase && code < kSBase + kSCount) {
    const std::uint32_t index = code - kSBase;
    out.push_back({kLBase + index / kNCount, 0, false});
    out.push_back({kVBase + (index % kNCount) / kTCount, 0, false, 1});
    if (index % kTCount != 0) out.push_back({kTBase + index % kTCount, 0, false, 1});
    return;
  }
  const std::uint32_t* parts = nullptr;
  std::size_t count = compatibility ? unicode::compatibility_decomposition(code, parts) : 0;
  if (count == 0) count = unicode::canonical_decomposition(code, parts);
  if (count == 0) {
    out.push_back({code, unicode::combining_rank(code), false});
    return;
  }
  for (std::size_t i = 0; i < count; ++i)
    out.push_back({parts[i], unicode::combining_rank(parts[i]), false, i == 0 ? 0 : 1});
}

std::uint32_t compose(std::uint32_t first, std::uint32_t second) {
  if (first >= kLBase && first < kLBase + kLCount && second >= kVBase && second < kVBase + kVCount)
    return kSBase + ((first - kLBase) * kVCount + (second - kVBase)) * kTCount;
  if (first >= kSBase && first < kSBase + kSCount && (first - kSBase) % kTCount == 0 && second > kTBase &&
      second < kTBase + kTCount)
    return first + (second - kTBase);
  return unicode::primary_composite(first, second);
}

}  // namespace

bool is_quick_unchanged(Form form, std::string_view text) {
  // U+0300 is 0xCC 0x80, U+00C0 is 0xC3 0x80 and U+00A0 is 0xC2 0xA0: every
  // character below is written with bytes below those.
  const unsigned char first_changed = form == Form::NFC ? 0xCC : form == Form::NFD ? 0xC3 : 0xC2;
  for (const char c : text) {
    if (static_cast<unsigned char>(c) >= first_changed) return false;
  }
  return true;
}

void apply(Form form, std::string_view text, std::string& out, std::vector<std::int32_t>* changes) {
  out.clear();
  std::vector<Character> characters;
  for (std::size_t pos = 0; pos < text.size();) {
    std::uint32_t code = 0;
    const std::size_t used = utf8::decode(text, pos, code);
    if (used == 0) {
      characters.push_back({static_cast<unsigned char>(text[pos]), 0, true});
      ++pos;
      continue;
    }
    decompose(code, form == Form::NFKC || form == Form::NFKD, characters);
    pos += used;
  }
  // Canonical order: each run of marks sorted by rank, stably (insertion sort; runs are short).
  for (std::size_t i = 1; i < characters.size(); ++i) {
    const Character moving = characters[i];
    if (moving.rank == 0) continue;
    std::size_t j = i;
    while (j > 0 && characters[j - 1].rank > moving.rank) {
      characters[j] = characters[j - 1];
      --j;
    }
    characters[j] = moving;
  }
  if (form == Form::NFC || form == Form::NFKC) {
    std::size_t kept = 0;
    std::size_t starter = 0;
    bool have_starter = false;
    unsigned last_rank = 0;    // of the last character kept after the starter
    bool right_after = false;  // nothing kept since the starter
    for (const Character& c : characters) {
      if (have_starter && !c.invalid && (right_after || (last_rank != 0 && last_rank < c.rank))) {
        const std::uint32_t composite = compose(characters[starter].code, c.code);
        if (composite != 0) {
          characters[starter].code = composite;
          characters[starter].change += c.change - 1;
          continue;
        }
      }
      if (c.invalid) {
        have_starter = false;
      } else if (c.rank == 0) {
        have_starter = true;
        starter = kept;
        right_after = true;
        last_rank = 0;
        characters[kept++] = c;
        continue;
      }
      right_after = false;
      last_rank = c.rank;
      characters[kept++] = c;
    }
    characters.resize(kept);
  }
  if (changes != nullptr) changes->clear();
  for (const Character& c : characters) {
    if (c.invalid) {
      out += static_cast<char>(c.code);
    } else {
      utf8::append(out, c.code);
    }
    if (changes != nullptr) changes->push_back(c.change);
  }
}

}  // namespace embeddings::normalize
