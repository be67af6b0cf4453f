#include "embeddings/unicode.h"

#include <cstddef>

namespace embeddings::unicode {
namespace {

struct CodeRange {
  std::uint32_t first;
  std::uint32_t last;
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

}  // namespace

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

}  // namespace embeddings::unicode
