// The merge sort the loaders use in place of std::stable_sort (common/merge_sort.h).
#include "embeddings/common/merge_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace embeddings {
namespace {

// Against std::stable_sort, the reference: every length up to 70 and a few
// long ones, keys with many ties (so that stability shows in the values
// that ride along), and lists already sorted or reversed.
TEST(MergeSort, SortsAsStdStableSortDoes) {
  using Item = std::pair<int, int>;  // (key, where it started)
  const auto by_key = [](const Item& a, const Item& b) { return a.first < b.first; };
  std::mt19937 random(7);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 70; ++n) lengths.push_back(n);
  lengths.insert(lengths.end(), {127, 128, 129, 1000, 4099});
  for (const std::size_t n : lengths) {
    for (const int order : {0, 1, 2}) {
      std::vector<Item> list(n);
      for (std::size_t i = 0; i < n; ++i) {
        const int key =
            order == 0 ? static_cast<int>(random() % 5) : static_cast<int>(order == 1 ? i : n - i);
        list[i] = {key, static_cast<int>(i)};
      }
      std::vector<Item> expected = list;
      std::stable_sort(expected.begin(), expected.end(), by_key);
      merge_sort(list, by_key);
      EXPECT_EQ(list, expected) << n << " items, order " << order;
    }
  }
}

}  // namespace
}  // namespace embeddings
