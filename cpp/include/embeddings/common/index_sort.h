// A list of indices sorted by a comparison of what they index: a bottom-up
// merge sort, stable, O(n log n). Used where a load sorts a few hundred
// entries (added tokens) in the page's size-budgeted module: each
// std::sort instantiation there is about 2 to 4 KB of WebAssembly, this a
// few hundred bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace embeddings {

template <typename Index, typename Less>
void sort_indices(std::vector<Index>& order, Less less) {
  std::vector<Index> merged(order.size());
  const std::size_t n = order.size();
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t low = 0; low < n; low += 2 * width) {
      const std::size_t middle = std::min(low + width, n), high = std::min(low + 2 * width, n);
      std::size_t left = low, right = middle, out = low;
      while (left < middle && right < high)
        merged[out++] = less(order[right], order[left]) ? order[right++] : order[left++];
      while (left < middle) merged[out++] = order[left++];
      while (right < high) merged[out++] = order[right++];
    }
    order.swap(merged);
  }
}

}  // namespace embeddings
