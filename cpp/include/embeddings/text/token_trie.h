// A trie of byte strings, walked byte by byte from a position of a text:
// the search of the added tokens (added_tokens.h) and of a Unigram
// model's vocabulary (models/unigram.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embeddings {

// A trie of byte strings (added tokens, a Unigram vocabulary): the first
// match in a text, the longest there (leftmost-longest), or every one
// that starts at a given place.
class TokenTrie {
 public:
  // At most one node and one label per byte of content, and the root.
  static constexpr std::size_t kBytesPerNode = 3 * sizeof(std::uint32_t) + 1;

  // `contents[i]` non-empty; `value[i]` is what find() reports for it.
  // False when two contents are the same (`first` and `second` are then
  // their places in `contents`, first < second), the trie left empty.
  bool build(const std::vector<std::string_view>& contents, const std::vector<std::int32_t>& values,
             std::size_t& first, std::size_t& second);
  void build(const std::vector<std::string_view>& contents, const std::vector<std::int32_t>& values) {
    std::size_t first = 0, second = 0;
    build(contents, values, first, second);
  }
  bool empty() const { return labels_.empty(); }
  // The first match starting at `from` or later, the longest there: true
  // with its start, length and value.
  bool find(std::string_view text, std::size_t from, std::size_t& start, std::size_t& length,
            std::int32_t& value) const;
  // Calls found(length, value) for every content that `text` has at `pos`, shortest first.
  template <typename Found>
  void prefixes(std::string_view text, std::size_t pos, Found&& found) const {
    if (empty() || pos >= text.size()) return;
    std::int32_t node = first_[static_cast<unsigned char>(text[pos])];
    for (std::size_t end = pos + 1; node >= 0; ++end) {
      if (nodes_[node].value >= 0) found(end - pos, nodes_[node].value);
      if (end == text.size()) break;
      node = child(nodes_[node], static_cast<unsigned char>(text[end]));
    }
  }
  // Bytes of memory a trie of contents with `content_bytes` bytes in all takes at most.
  static std::size_t memory_bytes(std::size_t content_bytes) { return (content_bytes + 1) * kBytesPerNode; }

 private:
  struct Node {
    std::int32_t value = -1;     // A content ends here: its value; else -1.
    std::uint32_t children = 0;  // First child's index; the children are consecutive...
    std::uint32_t count = 0;     // ...and this many, in increasing order of label.
  };
  std::int32_t child(const Node& node, unsigned char byte) const;

  std::vector<Node> nodes_;            // [0] is the root.
  std::vector<unsigned char> labels_;  // The byte that leads to each node.
  std::int32_t first_[256] = {};       // The root's child for each byte, or -1.
};

}  // namespace embeddings
