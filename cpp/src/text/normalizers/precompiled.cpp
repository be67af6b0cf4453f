// tokenizers' Precompiled: SentencePiece's own normalizer (T5, ALBERT,
// XLNet, XLM-R, mBART), as its precompiled_charsmap gives it. The charsmap
// is base64 of: a little-endian u32, the trie's size in bytes; the trie, a
// darts-clone double array of u32 units; then the replacement strings, each
// ended by a NUL. The trie maps byte strings to the offsets of their
// replacements. As the spm_precompiled crate applies it, each extended
// grapheme cluster (UAX #29) of fewer than 6 bytes whose bytes start with a
// key is replaced whole by the shortest such key's string; otherwise each
// of its characters that starts with a key is. A key's search stops at a
// NUL byte, as there.
//
// Where the Rust library panics (a unit or a replacement offset outside the
// charsmap, an offset inside a character) this reads the entry as absent.
#include <algorithm>
#include <memory>
#include <utility>

#include "embeddings/common/utf8.h"
#include "normalizers/alignment.h"
#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {
namespace {

#include "normalizers/grapheme_breaks.inc"

template <std::size_t N>
bool in(const std::uint32_t (&ranges)[N][2], std::uint32_t code) {
  const auto* it =
      std::upper_bound(std::begin(ranges), std::end(ranges), code,
                       [](std::uint32_t c, const std::uint32_t(&range)[2]) { return c < range[0]; });
  return it != std::begin(ranges) && code <= (*(it - 1))[1];
}

// The Grapheme_Cluster_Break values the rules below tell apart.
enum class Break { Other, Control, CR, LF, Join, Prepend, L, V, T, LV, LVT, RegionalIndicator };

Break break_of(std::uint32_t code, bool valid) {
  if (!valid) return Break::Control;
  if (code == 0x0D) return Break::CR;
  if (code == 0x0A) return Break::LF;
  if (in(kControlRanges, code)) return Break::Control;
  if (in(kJoinRanges, code)) return Break::Join;
  if (in(kPrependRanges, code)) return Break::Prepend;
  if ((code >= 0x1100 && code <= 0x115F) || (code >= 0xA960 && code <= 0xA97C)) return Break::L;
  if ((code >= 0x1160 && code <= 0x11A7) || (code >= 0xD7B0 && code <= 0xD7C6)) return Break::V;
  if ((code >= 0x11A8 && code <= 0x11FF) || (code >= 0xD7CB && code <= 0xD7FB)) return Break::T;
  if (code >= 0xAC00 && code <= 0xD7A3) return (code - 0xAC00) % 28 == 0 ? Break::LV : Break::LVT;
  if (code >= 0x1F1E6 && code <= 0x1F1FF) return Break::RegionalIndicator;
  return Break::Other;
}

// Whether `next` stays in the grapheme whose last character is `previous`
// (`indicators`: regional indicators in a row so far).
bool continues(Break previous, Break next, std::size_t indicators) {
  if (previous == Break::CR && next == Break::LF) return true;                                     // GB3
  if (previous == Break::Control || previous == Break::CR || previous == Break::LF) return false;  // GB4
  if (next == Break::Control || next == Break::CR || next == Break::LF) return false;              // GB5
  if (previous == Break::L)                                                                        // GB6
    return next == Break::L || next == Break::V || next == Break::LV || next == Break::LVT;
  if ((previous == Break::LV || previous == Break::V) && (next == Break::V || next == Break::T))
    return true;                                                                          // GB7
  if ((previous == Break::LVT || previous == Break::T) && next == Break::T) return true;  // GB8
  if (next == Break::Join || previous == Break::Prepend) return true;                     // GB9, GB9a, GB9b
  return previous == Break::RegionalIndicator && next == Break::RegionalIndicator &&
         indicators % 2 == 1;  // GB12, 13
}

// The length of the character at `pos` (1 for a byte that is not UTF-8) and its break class.
std::size_t character(std::string_view text, std::size_t pos, Break& kind) {
  std::uint32_t code = 0;
  const std::size_t used = utf8::decode(text, pos, code);
  kind = break_of(code, used != 0);
  return used == 0 ? 1 : used;
}

// Where the grapheme that starts at `pos` ends.
std::size_t grapheme_end(std::string_view text, std::size_t pos) {
  Break previous;
  std::size_t end = pos + character(text, pos, previous);
  std::size_t indicators = previous == Break::RegionalIndicator ? 1 : 0;
  while (end < text.size()) {
    Break next;
    const std::size_t length = character(text, end, next);
    if (!continues(previous, next, indicators)) break;
    indicators = next == Break::RegionalIndicator ? indicators + 1 : 0;
    previous = next;
    end += length;
  }
  return end;
}

class Precompiled : public Normalizer {
 public:
  Precompiled(std::vector<std::uint32_t> units, std::string strings)
      : units_(std::move(units)), strings_(std::move(strings)) {
    std::size_t longest = 0, run = 0;
    for (const char c : strings_) {
      run = c == 0 ? 0 : run + 1;
      longest = std::max(longest, run);
    }
    growth_ = Growth{std::max<std::uint64_t>(longest, 1), 0};
  }

  bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const override {
    const std::uint64_t most = growth_.of(text.size());
    const bool counted = most > text.size() && most - text.size() > budget.left();
    if (counted) {
      std::size_t length = 0;
      rewrite(text, [&](std::string_view part, std::string_view, bool) { length += part.size(); });
      if (length > text.size() && !budget.take(length - text.size())) return false;
    }
    std::string& out = scratch.spare;
    out.clear();
    rewrite(text, [&](std::string_view part, std::string_view, bool) { out += part; });
    if (!counted && out.size() > text.size()) budget.take(out.size() - text.size());
    text.swap(out);
    return true;
  }
  Growth growth() const override { return growth_; }
  // Offsets: the transformations Precompiled::normalize makes, through
  // NormalizedString's transform(). As its replace() makes them, a part
  // with fewer characters than it replaced gives the difference to the
  // last transformation so far, even an earlier part's when it is empty.
  bool normalize_aligned(std::string& text, std::vector<Span>& spans, StageScratch& scratch,
                         TextBudget& budget) const override {
    std::vector<std::int32_t> changes;
    bool modified = false;
    rewrite(text, [&](std::string_view part, std::string_view old, bool replaced) {
      const std::size_t first = changes.size();
      changes.insert(changes.end(), utf8::count(part), 0);
      if (!replaced) return;
      modified = true;
      const std::ptrdiff_t diff =
          static_cast<std::ptrdiff_t>(changes.size() - first) - static_cast<std::ptrdiff_t>(utf8::count(old));
      for (std::ptrdiff_t i = 0; i < diff; ++i) changes[changes.size() - 1 - static_cast<std::size_t>(i)] = 1;
      if (diff < 0 && !changes.empty()) changes.back() += static_cast<std::int32_t>(diff);
    });
    if (!modified) return true;
    const std::string before = text;
    if (!normalize(text, scratch, budget)) return false;
    std::vector<Span> out;
    normalizers::transform(before, spans, text, changes, 0, out);
    spans.swap(out);
    return true;
  }

 private:
  // Precompiled::normalize, handing each part of the result to
  // `emit(part, what it replaces, whether it is a replacement)`.
  template <typename Emit>
  void rewrite(std::string_view text, Emit&& emit) const {
    std::string_view replacement;
    for (std::size_t pos = 0; pos < text.size();) {
      const std::size_t end = grapheme_end(text, pos);
      const std::string_view grapheme = text.substr(pos, end - pos);
      pos = end;
      if (grapheme.size() < 6 && transform(grapheme, replacement)) {
        emit(replacement, grapheme, true);
        continue;
      }
      for (std::size_t at = 0; at < grapheme.size();) {
        Break kind;
        const std::size_t length = character(grapheme, at, kind);
        const std::string_view part = grapheme.substr(at, length);
        const bool replaced = transform(part, replacement);
        emit(replaced ? replacement : part, part, replaced);
        at += length;
      }
    }
  }

  // The replacement of the shortest key that `chunk` starts with (the
  // double array's common prefix search, first result).
  bool transform(std::string_view chunk, std::string_view& replacement) const {
    const auto offset = [](std::uint32_t unit) { return (unit >> 10) << ((unit & (1u << 9)) >> 6); };
    if (units_.empty()) return false;
    std::size_t node = offset(units_[0]);
    for (const char byte : chunk) {
      const auto c = static_cast<unsigned char>(byte);
      if (c == 0) return false;
      node ^= c;
      if (node >= units_.size()) return false;
      const std::uint32_t unit = units_[node];
      if ((unit & ((1u << 31) | 0xFF)) != c) return false;  // label
      node ^= offset(unit);
      if (((unit >> 8) & 1) == 0) continue;  // no leaf
      if (node >= units_.size()) return false;
      return string_at(units_[node] & ((1u << 31) - 1), replacement);
    }
    return false;
  }
  // The NUL-ended string at `at` in the strings; false where the Rust library panics.
  bool string_at(std::size_t at, std::string_view& out) const {
    if (at > strings_.size()) return false;
    if (at < strings_.size() && (static_cast<unsigned char>(strings_[at]) & 0xC0) == 0x80) return false;
    const std::size_t end = std::min(strings_.find('\0', at), strings_.size());
    out = std::string_view(strings_).substr(at, end - at);
    return true;
  }

  const std::vector<std::uint32_t> units_;
  const std::string strings_;
  Growth growth_;
};

// Base64 as the Rust library reads the charsmap (the base64 crate's 0.13
// decode: the standard alphabet, padding optional): n symbols, n % 4 not 1,
// then at most as much padding as a quad has room for ("xx", "xx=", "xx==",
// "xxx", "xxx="; nothing after it), and the bits a last symbol leaves over zero.
bool base64_decode(std::string_view text, std::string& out) {
  const auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
  };
  std::size_t symbols = text.size();
  while (symbols > 0 && text[symbols - 1] == '=') --symbols;
  const std::size_t padding = text.size() - symbols, rest = symbols % 4;
  if (rest == 1 || padding > 2 || (padding == 1 && rest < 2) || (padding == 2 && rest != 2)) return false;
  out.clear();
  std::uint32_t bits = 0;
  for (std::size_t i = 0; i < symbols; ++i) {
    const int v = value(text[i]);
    if (v < 0) return false;
    bits = bits << 6 | static_cast<std::uint32_t>(v);
    if (i % 4 != 3) continue;
    out += static_cast<char>(bits >> 16);
    out += static_cast<char>(bits >> 8);
    out += static_cast<char>(bits);
    bits = 0;
  }
  // A last quad of 2 symbols is a byte and 4 bits over, of 3 two bytes and 2 over.
  if (rest == 2) {
    if ((bits & 0xF) != 0) return false;
    out += static_cast<char>(bits >> 4);
  } else if (rest == 3) {
    if ((bits & 0x3) != 0) return false;
    out += static_cast<char>(bits >> 10);
    out += static_cast<char>(bits >> 2);
  }
  return true;
}

}  // namespace

bool read_precompiled(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                      Normalizers& out) {
  std::string base64, bytes;
  if (!reading.read_string(value, "precompiled_charsmap", where, base64, false)) return false;
  const std::string at = where + ".precompiled_charsmap";
  if (!base64_decode(base64, bytes)) return reading.fail(at + " is not base64");
  if (bytes.size() < 4)
    return reading.fail(at + " holds " + std::to_string(bytes.size()) + " bytes, less than its size");
  const std::uint32_t trie_bytes = static_cast<unsigned char>(bytes[0]) |
                                   static_cast<unsigned char>(bytes[1]) << 8 |
                                   static_cast<unsigned char>(bytes[2]) << 16 |
                                   static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[3])) << 24;
  const std::size_t units = trie_bytes / 4;
  if (units > (bytes.size() - 4) / 4) {
    return reading.fail(at + ": its trie of " + std::to_string(trie_bytes) + " bytes is longer than the " +
                        std::to_string(bytes.size() - 4) + " bytes after its size");
  }
  std::vector<std::uint32_t> trie(units);
  for (std::size_t i = 0; i < units; ++i) {
    const std::size_t b = 4 + 4 * i;
    trie[i] = static_cast<unsigned char>(bytes[b]) | static_cast<unsigned char>(bytes[b + 1]) << 8 |
              static_cast<unsigned char>(bytes[b + 2]) << 16 |
              static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[b + 3])) << 24;
  }
  std::string strings = bytes.substr(4 + 4 * units);
  if (!utf8::is_valid(strings)) return reading.fail(at + ": its replacement strings are not UTF-8");
  out.push_back(std::make_shared<Precompiled>(std::move(trie), std::move(strings)));
  return true;
}

}  // namespace embeddings::normalizers
