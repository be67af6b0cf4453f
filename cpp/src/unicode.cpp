#include "embeddings/unicode.h"

#include <algorithm>
#include <cstddef>
#include <vector>

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

// kCategoryRuns unpacked (the generator describes the packing): the first
// code point of each run and its category, searched by binary search; the
// Latin-1 range, most of most texts, read straight from a table.
struct CategoryRuns {
  std::vector<std::uint32_t> starts;
  std::vector<Category> categories;
  Category latin1[256];

  CategoryRuns() {
    std::uint32_t code = 0;
    for (std::size_t i = 0; i < sizeof kCategoryRuns;) {
      const unsigned char head = kCategoryRuns[i++];
      std::uint32_t length = (head >> 4) + 1u;
      if (length == 16) {
        length = 0;
        for (unsigned shift = 0;; shift += 7) {
          const unsigned char byte = kCategoryRuns[i++];
          length |= static_cast<std::uint32_t>(byte & 0x7F) << shift;
          if ((byte & 0x80) == 0) break;
        }
      }
      starts.push_back(code);
      categories.push_back(static_cast<Category>(head & 0x0F));
      code += length;
    }
    for (std::uint32_t c = 0; c < 256; ++c) latin1[c] = lookup(c);
  }

  Category lookup(std::uint32_t code) const {
    const auto after = std::upper_bound(starts.begin(), starts.end(), code);
    return categories[static_cast<std::size_t>(after - starts.begin()) - 1];
  }
};

const CategoryRuns& category_runs() {
  static const CategoryRuns runs;  // Built on first use: most tokenizers never ask.
  return runs;
}

}  // namespace

Category general_category(std::uint32_t code) {
  if (code > 0x10FFFF) return Category::Other;
  const CategoryRuns& runs = category_runs();
  return code < 256 ? runs.latin1[code] : runs.lookup(code);
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

}  // namespace embeddings::unicode
