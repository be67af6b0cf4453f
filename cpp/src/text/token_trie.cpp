#include "embeddings/text/token_trie.h"

#include <algorithm>

#include "embeddings/common/index_sort.h"
#include "embeddings/text/pipeline.h"

namespace embeddings {

// Breadth first over the contents in sorted order: the contents below a node
// are a consecutive range sharing its prefix, so each node's children can be
// made consecutive, and no recursion follows a hostile token's length.
EMBEDDINGS_SMALL bool TokenTrie::build(const std::vector<std::string_view>& contents,
                                       const std::vector<std::int32_t>& values, std::size_t& first,
                                       std::size_t& second) {
  std::vector<std::uint32_t> order(contents.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  sort_indices(order, [&](std::uint32_t a, std::uint32_t b) { return contents[a] < contents[b]; });
  for (std::size_t i = 1; i < order.size(); ++i) {
    if (contents[order[i]] != contents[order[i - 1]]) continue;
    first = std::min(order[i - 1], order[i]);
    second = std::max(order[i - 1], order[i]);
    nodes_.clear();
    labels_.clear();
    std::fill(std::begin(first_), std::end(first_), -1);
    return false;
  }
  nodes_.assign(1, Node{});
  labels_.assign(1, 0);
  struct Range {
    std::uint32_t node, begin, end, depth;  // order[begin, end) all start with the node's depth-byte prefix.
  };
  std::vector<Range> queue{{0, 0, static_cast<std::uint32_t>(order.size()), 0}};
  for (std::size_t next = 0; next < queue.size(); ++next) {
    Range range = queue[next];
    // A content that ends here sorts first (it is a prefix of the others).
    if (range.begin < range.end && contents[order[range.begin]].size() == range.depth) {
      nodes_[range.node].value = values[order[range.begin]];
      ++range.begin;
    }
    nodes_[range.node].children = static_cast<std::uint32_t>(nodes_.size());
    for (std::uint32_t i = range.begin; i < range.end;) {
      const unsigned char byte = static_cast<unsigned char>(contents[order[i]][range.depth]);
      std::uint32_t j = i + 1;
      while (j < range.end && static_cast<unsigned char>(contents[order[j]][range.depth]) == byte) ++j;
      queue.push_back({static_cast<std::uint32_t>(nodes_.size()), i, j, range.depth + 1});
      nodes_.push_back(Node{});
      labels_.push_back(byte);
      ++nodes_[range.node].count;
      i = j;
    }
  }
  std::fill(std::begin(first_), std::end(first_), -1);
  const Node& root = nodes_[0];
  for (std::uint32_t i = root.children; i < root.children + root.count; ++i)
    first_[labels_[i]] = static_cast<std::int32_t>(i);
  if (contents.empty()) labels_.clear();
  return true;
}

std::int32_t TokenTrie::child(const Node& node, unsigned char byte) const {
  const auto begin = labels_.begin() + node.children, end = begin + node.count;
  const auto it = std::lower_bound(begin, end, byte);
  return it != end && *it == byte ? static_cast<std::int32_t>(it - labels_.begin()) : -1;
}

bool TokenTrie::find(std::string_view text, std::size_t from, std::size_t& start, std::size_t& length,
                     std::int32_t& value) const {
  if (empty()) return false;
  for (std::size_t pos = from; pos < text.size(); ++pos) {
    std::int32_t node = first_[static_cast<unsigned char>(text[pos])];
    std::int32_t best = -1;
    std::size_t best_length = 0;
    for (std::size_t end = pos + 1; node >= 0; ++end) {
      if (nodes_[node].value >= 0) {
        best = nodes_[node].value;
        best_length = end - pos;
      }
      if (end == text.size()) break;
      node = child(nodes_[node], static_cast<unsigned char>(text[end]));
    }
    if (best >= 0) {
      start = pos;
      length = best_length;
      value = best;
      return true;
    }
  }
  return false;
}

}  // namespace embeddings
