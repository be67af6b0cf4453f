#include "embeddings/text/token_trie.h"

#include <algorithm>

#include "embeddings/common/merge_sort.h"
#include "embeddings/text/pipeline.h"

namespace embeddings {
namespace {

// How many bytes `a` and `b` share from `from` on.
std::size_t common_length(std::string_view a, std::string_view b, std::size_t from) {
  std::size_t end = from;
  const std::size_t most = std::min(a.size(), b.size());
  while (end < most && a[end] == b[end]) ++end;
  return end;
}

}  // namespace

// Breadth first over the contents in sorted order: the contents below a node
// are a consecutive range sharing its prefix, so each node's children can be
// made consecutive, and no recursion follows a hostile token's length. A
// child's edge runs to where its contents part (or the first of them ends):
// each node but the root ends a content or branches, so there are at most
// 2 × count of them, and the labels hold each distinct prefix byte once.
EMBEDDINGS_SMALL bool TokenTrie::build(const std::vector<std::string_view>& contents,
                                       const std::vector<std::int32_t>& values, std::size_t& first,
                                       std::size_t& second) {
  nodes_.clear();
  labels_.clear();
  std::fill(std::begin(first_), std::end(first_), -1);
  std::vector<std::uint32_t> order(contents.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  merge_sort(order, [&](std::uint32_t a, std::uint32_t b) { return contents[a] < contents[b]; });
  // (At most the contents' bytes go into the labels.)
  std::size_t label_bytes = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i > 0 && contents[order[i]] == contents[order[i - 1]]) {
      first = std::min(order[i - 1], order[i]);
      second = std::max(order[i - 1], order[i]);
      return false;
    }
    label_bytes += contents[i].size();
  }
  nodes_.reserve(2 * order.size() + 1);
  labels_.reserve(label_bytes);
  nodes_.emplace_back();
  std::vector<Range> queue;
  queue.reserve(2 * order.size() + 1);
  queue.push_back({0, 0, static_cast<std::uint32_t>(order.size()), 0});
  for (std::size_t next = 0; next < queue.size(); ++next) {
    Range range = queue[next];
    // A content that ends here sorts first (it is a prefix of the others).
    if (range.begin < range.end && contents[order[range.begin]].size() == range.depth) {
      nodes_[range.node].value = values[order[range.begin]];
      ++range.begin;
    }
    nodes_[range.node].children = static_cast<std::uint32_t>(nodes_.size());
    for (std::uint32_t i = range.begin; i < range.end;) {
      const std::string_view lead = contents[order[i]];
      std::uint32_t j = i + 1;
      while (j < range.end && contents[order[j]][range.depth] == lead[range.depth]) ++j;
      // Sorted, so what the first and the last of them share, all share.
      const std::size_t depth = common_length(lead, contents[order[j - 1]], range.depth + 1);
      Node node;
      node.label = static_cast<std::uint32_t>(labels_.size());
      node.length = static_cast<std::uint32_t>(depth - range.depth);
      node.first = static_cast<unsigned char>(lead[range.depth]);
      labels_.append(lead.data() + range.depth, depth - range.depth);
      queue.push_back({static_cast<std::uint32_t>(nodes_.size()), i, j, static_cast<std::uint32_t>(depth)});
      nodes_.push_back(node);
      ++nodes_[range.node].count;
      i = j;
    }
  }
  const Node& root = nodes_[0];
  for (std::uint32_t i = root.children; i < root.children + root.count; ++i)
    first_[nodes_[i].first] = static_cast<std::int32_t>(i);
  return true;
}

EMBEDDINGS_SMALL std::size_t TokenTrie::memory_bytes(std::size_t count, std::size_t content_bytes) {
  // The nodes and the work list (at most 2 × count + 1 each), the order and
  // its sort's buffer, the labels.
  return (2 * count + 1) * (sizeof(Node) + sizeof(Range)) + 2 * count * sizeof(std::uint32_t) + content_bytes;
}

std::int32_t TokenTrie::child(const Node& node, unsigned char byte) const {
  std::uint32_t low = node.children, high = node.children + node.count;
  while (low < high) {
    const std::uint32_t middle = low + (high - low) / 2;
    const unsigned char label = nodes_[middle].first;
    if (label == byte) return static_cast<std::int32_t>(middle);
    if (label < byte) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return -1;
}

bool TokenTrie::find(std::string_view text, std::size_t from, std::size_t& start, std::size_t& length,
                     std::int32_t& value) const {
  for (std::size_t pos = from; pos < text.size() && !empty(); ++pos) {
    std::int32_t best = -1;
    std::size_t best_length = 0;
    prefixes(text, pos, [&](std::size_t found_length, std::int32_t found) {
      best = found;
      best_length = found_length;
    });
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
