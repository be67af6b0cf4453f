// A list sorted by a comparison: a bottom-up merge sort, stable, O(n log n),
// for lists of indices, pointers or small values. Used wherever a load sorts
// (the added tokens, the trie's tokens, the vocabulary when a file lists it
// out of id order, a safetensors header's tensors by offset) in the page's
// size-budgeted module: each std::sort or std::stable_sort instantiation
// there is about 2 to 4 KB of WebAssembly, this a few hundred bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace embeddings {

template <typename Item, typename Less>
void merge_sort(std::vector<Item>& list, Less less) {
  std::vector<Item> merged(list.size());
  const std::size_t n = list.size();
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t low = 0; low < n; low += 2 * width) {
      const std::size_t middle = std::min(low + width, n), high = std::min(low + 2 * width, n);
      std::size_t left = low, right = middle, out = low;
      while (left < middle && right < high)
        merged[out++] = less(list[right], list[left]) ? list[right++] : list[left++];
      while (left < middle) merged[out++] = list[left++];
      while (right < high) merged[out++] = list[right++];
    }
    list.swap(merged);
  }
}

}  // namespace embeddings
