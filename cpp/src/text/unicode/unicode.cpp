#include "embeddings/text/unicode/unicode.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace embeddings::unicode {
namespace {

struct CodeRange {
  std::uint32_t first;
  std::uint32_t last;
};
struct DecompositionEntry {
  std::uint32_t code;
  std::uint16_t offset;
  std::uint8_t length;
};
struct CombiningRank {
  std::uint32_t code;
  std::uint8_t rank;
};
struct Composition {
  std::uint32_t first;
  std::uint32_t second;
  std::uint32_t composite;
};
struct PropertyName {
  using Kind = Property::Kind;
  const char* name;
  Kind kind;
  std::uint32_t value;
};

#include "unicode_tables.inc"

template <std::size_t N>
bool in_ranges(const CodeRange (&ranges)[N], std::uint32_t code) {
  std::size_t low = 0;
  std::size_t high = N;
  // Invariant: every range before `low` ends below `code`, every range from `high` on starts above it.
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    if (ranges[mid].last < code) {
      low = mid + 1;
    } else if (ranges[mid].first > code) {
      high = mid;
    } else {
      return true;
    }
  }
  return false;
}

// Reads a base-128 length (the generator describes it) at `bytes[i]`.
std::uint32_t read_length(const unsigned char* bytes, std::size_t& i) {
  std::uint32_t length = 0;
  for (unsigned shift = 0;; shift += 7) {
    const unsigned char byte = bytes[i++];
    length |= static_cast<std::uint32_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return length;
  }
}

// A property with one value per code point (the general category, the
// script) unpacked from its generated runs: the first code point of each
// run and its value, searched by binary search; the Latin-1 range, most
// of most texts, read straight from a table.
struct ValueRuns {
  std::vector<std::uint32_t> starts;
  std::vector<std::uint8_t> values;
  std::uint8_t latin1[256];

  void add(std::uint32_t& code, std::uint8_t value, std::uint32_t length) {
    starts.push_back(code);
    values.push_back(value);
    code += length;
  }
  void finish() {
    for (std::uint32_t c = 0; c < 256; ++c) latin1[c] = lookup(c);
  }
  std::uint8_t lookup(std::uint32_t code) const {
    const auto after = std::upper_bound(starts.begin(), starts.end(), code);
    return values[static_cast<std::size_t>(after - starts.begin()) - 1];
  }
  std::uint8_t at(std::uint32_t code) const {
    if (code > 0x10FFFF) return 0;
    return code < 256 ? latin1[code] : lookup(code);
  }
  // The code points whose value passes `wanted`, merged into ranges.
  template <typename Wanted>
  Ranges ranges(Wanted&& wanted) const {
    Ranges out;
    for (std::size_t i = 0; i < starts.size(); ++i) {
      if (!wanted(values[i])) continue;
      const std::uint32_t last = (i + 1 < starts.size() ? starts[i + 1] : 0x110000u) - 1;
      if (!out.empty() && out.back().second + 1 == starts[i]) {
        out.back().second = last;
      } else {
        out.emplace_back(starts[i], last);
      }
    }
    return out;
  }
};

// Built on first use: most tokenizers never ask.
const ValueRuns& category_runs() {
  static const ValueRuns runs = [] {
    ValueRuns unpacked;
    std::uint32_t code = 0;
    for (std::size_t i = 0; i < sizeof kCategoryRuns;) {
      const unsigned char head = kCategoryRuns[i++];
      const std::uint32_t short_length = (head >> 5) + 1u;
      unpacked.add(code, head & 0x1F, short_length == 8 ? read_length(kCategoryRuns, i) : short_length);
    }
    unpacked.finish();
    return unpacked;
  }();
  return runs;
}

const ValueRuns& script_runs() {
  static const ValueRuns runs = [] {
    ValueRuns unpacked;
    std::uint32_t code = 0;
    for (std::size_t i = 0; i < sizeof kScriptRuns;) {
      const unsigned char script = kScriptRuns[i++];
      unpacked.add(code, script, read_length(kScriptRuns, i));
    }
    unpacked.finish();
    return unpacked;
  }();
  return runs;
}

}  // namespace

Category general_category(std::uint32_t code) { return static_cast<Category>(category_runs().at(code)); }

unsigned script(std::uint32_t code) { return script_runs().at(code); }

unsigned script_count() { return static_cast<unsigned>(std::size(kScriptNames)); }

const char* script_name(unsigned script) { return script < script_count() ? kScriptNames[script] : ""; }

Ranges category_ranges(std::uint32_t categories) {
  return category_runs().ranges([&](std::uint8_t category) { return (categories >> category) & 1u; });
}

Ranges script_ranges(unsigned script) {
  return script_runs().ranges([&](std::uint8_t value) { return value == script; });
}

Ranges white_space_ranges() {
  Ranges out;
  for (const CodeRange& range : kWhitespaceRanges) out.emplace_back(range.first, range.last);
  return out;
}

bool find_property(std::string_view name, Property& out) {
  // Oniguruma's loose matching: only ASCII, case and " -_" ignored.
  std::string loose;
  for (const char c : name) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
    if (c == ' ' || c == '-' || c == '_') continue;
    loose += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  const auto* end = std::end(kPropertyNames);
  const auto* found =
      std::lower_bound(std::begin(kPropertyNames), end, loose,
                       [](const PropertyName& entry, const std::string& key) { return entry.name < key; });
  if (found == end || found->name != loose) return false;
  out.kind = found->kind;
  out.value = found->value;
  return true;
}

Ranges property_ranges(const Property& property) {
  switch (property.kind) {
    case Property::Kind::Categories: return category_ranges(property.value);
    case Property::Kind::Script: return script_ranges(property.value);
    case Property::Kind::Ascii: break;
  }
  return {{0, 0x7F}};
}

bool is_letter(std::uint32_t code) {
  // ASCII dominates English text; skip the search for it.
  if (code < 0x80) return (code | 0x20) >= 'a' && (code | 0x20) <= 'z';
  return in_ranges(kLetterRanges, code);
}

bool is_number(std::uint32_t code) {
  if (code < 0x80) return code >= '0' && code <= '9';
  return in_ranges(kNumberRanges, code);
}

bool is_whitespace(std::uint32_t code) {
  if (code < 0x80) return code == ' ' || (code >= 0x09 && code <= 0x0D);
  return in_ranges(kWhitespaceRanges, code);
}

bool is_word_character(std::uint32_t code) {
  if (code < 0x80) return is_letter(code) || is_number(code) || code == '_';
  return in_ranges(kWordRanges, code);
}

// The mapping of `code` in a generated {code, offset, length} index over `codes`.
template <std::size_t N>
std::size_t find_mapping(const DecompositionEntry (&index)[N], const std::uint32_t* codes, std::uint32_t code,
                         const std::uint32_t*& parts) {
  const auto* end = std::end(index);
  const auto* found =
      std::lower_bound(std::begin(index), end, code,
                       [](const DecompositionEntry& entry, std::uint32_t c) { return entry.code < c; });
  if (found == end || found->code != code) return 0;
  parts = codes + found->offset;
  return found->length;
}

std::size_t canonical_decomposition(std::uint32_t code, const std::uint32_t*& parts) {
  return find_mapping(kDecompositionIndex, kDecompositionCodes, code, parts);
}

std::size_t compatibility_decomposition(std::uint32_t code, const std::uint32_t*& parts) {
  if (code < 0xA0) return 0;  // U+00A0 NO-BREAK SPACE is the first.
  return find_mapping(kCompatibilityIndex, kCompatibilityCodes, code, parts);
}

std::size_t lowercase_mapping(std::uint32_t code, const std::uint32_t*& parts) {
  return find_mapping(kLowercaseIndex, kLowercaseCodes, code, parts);
}

bool is_punctuation(std::uint32_t code) {
  if (code < 0x80)
    return (code >= 0x21 && code <= 0x2F) || (code >= 0x3A && code <= 0x40) ||
           (code >= 0x5B && code <= 0x60) || (code >= 0x7B && code <= 0x7E);
  return in_ranges(kPunctuationRanges, code);
}

unsigned combining_rank(std::uint32_t code) {
  if (code < 0x300) return 0;  // No mark comes before U+0300.
  const auto* end = std::end(kCombiningRanks);
  const auto* found =
      std::lower_bound(std::begin(kCombiningRanks), end, code,
                       [](const CombiningRank& entry, std::uint32_t c) { return entry.code < c; });
  return found != end && found->code == code ? found->rank : 0;
}

std::uint32_t primary_composite(std::uint32_t first, std::uint32_t second) {
  const auto* end = std::end(kCompositions);
  const auto* found = std::lower_bound(
      std::begin(kCompositions), end, std::make_pair(first, second),
      [](const Composition& entry, const std::pair<std::uint32_t, std::uint32_t>& key) {
        return entry.first < key.first || (entry.first == key.first && entry.second < key.second);
      });
  return found != end && found->first == first && found->second == second ? found->composite : 0;
}

}  // namespace embeddings::unicode
