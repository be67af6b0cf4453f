// Character sets of Split patterns (regex.h's CharSet) and their algebra:
// classes are unions of items, negated or intersected (&&), so every set,
// a property or a class, is resolved into code point ranges once, when the
// pattern is compiled.
#include <algorithm>

#include "embeddings/text/regex/regex.h"
#include "regex_internal.h"

namespace embeddings::regex {

using detail::kInvalidByte;

namespace {
constexpr std::uint32_t kLastCode = 0x10FFFF;
}  // namespace

bool Regex::CharSet::contains_slowly(std::uint32_t code) const {
  if (code == kInvalidByte) return invalid_bytes;
  // The first range that ends at or after `code`.
  const auto found = std::lower_bound(ranges.begin(), ranges.end(), code,
                                      [](const auto& range, std::uint32_t c) { return range.second < c; });
  return found != ranges.end() && found->first <= code;
}

void Regex::CharSet::finish() {
  std::sort(ranges.begin(), ranges.end());
  std::size_t kept = 0;
  for (const auto& range : ranges) {
    if (kept > 0 && range.first <= ranges[kept - 1].second + 1) {
      ranges[kept - 1].second = std::max(ranges[kept - 1].second, range.second);
    } else {
      ranges[kept++] = range;
    }
  }
  ranges.resize(kept);
  ascii[0] = ascii[1] = 0;
  for (const auto& [first, last] : ranges) {
    for (std::uint32_t code = first; code <= std::min<std::uint32_t>(last, 127); ++code)
      ascii[code >> 6] |= std::uint64_t{1} << (code & 63);
  }
  beyond_ascii = invalid_bytes || (!ranges.empty() && ranges.back().second >= 128);
}

void Regex::CharSet::add(const CharSet& other) {
  ranges.insert(ranges.end(), other.ranges.begin(), other.ranges.end());
  invalid_bytes = invalid_bytes || other.invalid_bytes;
  finish();
}

void Regex::CharSet::complement() {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> gaps;
  std::uint32_t next = 0;
  for (const auto& [first, last] : ranges) {
    if (first > next) gaps.emplace_back(next, first - 1);
    next = last + 1;
  }
  if (next <= kLastCode) gaps.emplace_back(next, kLastCode);
  ranges = std::move(gaps);
  invalid_bytes = !invalid_bytes;
  finish();
}

void Regex::CharSet::intersect(const CharSet& other) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> both;
  auto a = ranges.begin();
  auto b = other.ranges.begin();
  while (a != ranges.end() && b != other.ranges.end()) {
    const std::uint32_t first = std::max(a->first, b->first);
    const std::uint32_t last = std::min(a->second, b->second);
    if (first <= last) both.emplace_back(first, last);
    if (a->second < b->second) {
      ++a;
    } else {
      ++b;
    }
  }
  ranges = std::move(both);
  invalid_bytes = invalid_bytes && other.invalid_bytes;
  finish();
}

}  // namespace embeddings::regex
