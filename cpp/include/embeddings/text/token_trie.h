// A trie of byte strings, walked byte by byte from a position of a text:
// the search of the added tokens (added_tokens.h) and of the Unigram and
// WordPiece models' vocabularies (models/unigram.cpp, models/word_piece.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embeddings {

// A trie of byte strings (added tokens, a model's vocabulary): the first
// match in a text, the longest there (leftmost-longest), or every one
// that starts at a given place.
//
// Path-compressed: a run of bytes without a branch is one edge, whose label
// is kept once, so the trie takes a node per content and per branching (at
// most two a content, and the root) and a byte per distinct prefix byte (at
// most the contents' bytes), however long the contents are. A vocabulary of
// 1,000-byte tokens costs about its bytes, not a node per byte.
class TokenTrie {
 public:
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
  // Calls found(length, value) for every content that `text` has at `pos`,
  // shortest first. Returns how many bytes of the text the walk read (the
  // cost of the call: at most the longest content, or to the text's end).
  template <typename Found>
  std::size_t prefixes(std::string_view text, std::size_t pos, Found&& found) const {
    if (empty() || pos >= text.size()) return 0;
    std::int32_t node = first_[static_cast<unsigned char>(text[pos])];
    std::size_t end = pos;
    while (node >= 0) {
      const Node& n = nodes_[static_cast<std::size_t>(node)];
      // Byte by byte: most walks part from the edge within a byte or two
      // (an added token's search, at every place of the text).
      const char* label = labels_.data() + n.label;
      const std::size_t most = std::min<std::size_t>(n.length, text.size() - end);
      std::size_t same = 0;
      while (same < most && label[same] == text[end + same]) ++same;
      if (same < n.length) return end - pos + std::min<std::size_t>(same + 1, most);
      end += n.length;
      if (n.value >= 0) found(end - pos, n.value);
      if (end == text.size()) return end - pos;
      node = child(n, static_cast<unsigned char>(text[end]));
    }
    return end - pos + 1;  // (The byte that no edge goes on with.)
  }
  // Bytes of memory building a trie of `count` contents with `content_bytes`
  // bytes in all takes at most, at its peak (the finished trie takes less).
  static std::size_t memory_bytes(std::size_t count, std::size_t content_bytes);
  // What the built trie holds: its nodes and its labels' bytes.
  std::size_t node_count() const { return nodes_.size(); }
  std::size_t label_bytes() const { return labels_.size(); }

 private:
  struct Node {
    std::int32_t value = -1;     // A content ends here: its value; else -1.
    std::uint32_t label = 0;     // The edge into it: labels_[label, label + length).
    std::uint32_t length = 0;    // (Every edge but the root's has at least one byte.)
    std::uint32_t children = 0;  // First child's index; the children are consecutive,
    std::uint16_t count = 0;     // this many, in increasing order of their label's first byte.
    unsigned char first = 0;     // The label's first byte.
  };
  // The work list of build(): contents order[begin, end) share the node's
  // depth-byte prefix.
  struct Range {
    std::uint32_t node, begin, end, depth;
  };
  std::int32_t child(const Node& node, unsigned char byte) const;

  std::vector<Node> nodes_;       // [0] is the root.
  std::string labels_;            // The edges' bytes.
  std::int32_t first_[256] = {};  // The root's child for each byte, or -1.
};

}  // namespace embeddings
