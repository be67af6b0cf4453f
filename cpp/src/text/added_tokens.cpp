#include "embeddings/text/added_tokens.h"

#include <algorithm>
#include <utility>

#include "embeddings/common/utf8.h"
#include "embeddings/text/unicode/unicode.h"

namespace embeddings {
namespace {

// The character that ends just before `end`: its start and code point. A byte
// that is not the end of a valid UTF-8 character counts as one character that
// is neither whitespace nor a word character (code set to 0xFFFFFFFF).
std::size_t char_start_before(std::string_view text, std::size_t end, std::uint32_t& code) {
  std::size_t start = end - 1;
  while (start > 0 && end - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  std::uint32_t decoded = 0;
  if (utf8::decode(text, start, decoded) == end - start) {
    code = decoded;
    return start;
  }
  code = 0xFFFFFFFF;
  return end - 1;
}

// The character at `pos` (< text.size()); invalid bytes as above.
std::size_t char_at(std::string_view text, std::size_t pos, std::uint32_t& code) {
  const std::size_t length = utf8::decode(text, pos, code);
  if (length == 0) {
    code = 0xFFFFFFFF;
    return 1;
  }
  return length;
}

}  // namespace

// Breadth first over the contents in sorted order: the contents below a node
// are a consecutive range sharing its prefix, so each node's children can be
// made consecutive, and no recursion follows a hostile token's length.
void TokenTrie::build(const std::vector<std::string_view>& contents,
                      const std::vector<std::int32_t>& values) {
  std::vector<std::uint32_t> order(contents.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return contents[a] < contents[b]; });
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

void AddedVocabulary::build(std::vector<AddedToken> tokens) {
  tokens_ = std::move(tokens);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<std::string_view> contents;
    std::vector<std::int32_t> indices;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      if (tokens_[i].normalized != (pass == 1)) continue;
      contents.push_back(tokens_[i].content);
      indices.push_back(static_cast<std::int32_t>(i));
    }
    tries_[pass].build(contents, indices);
  }
}

std::size_t AddedVocabulary::memory_bytes(std::size_t count, std::size_t content_bytes) {
  return count * sizeof(AddedToken) + content_bytes + (content_bytes + 1) * TokenTrie::kBytesPerNode;
}

// Hugging Face's AddedVocabulary::find_matches over one pass's tokens.
void AddedVocabulary::split(std::string_view text, Pass pass, AddedTokenSink& sink) const {
  const TokenTrie& trie = tries_[static_cast<int>(pass)];
  const auto gap = [&](std::string_view piece) { sink.gap(piece); };
  std::size_t start_offset = 0;  // End of the text already handed out.
  std::size_t pos = 0;           // Where the search for the next match resumes.
  std::size_t match_start = 0, match_length = 0;
  std::int32_t match = -1;
  while (pos < text.size() && !sink.stopped() && trie.find(text, pos, match_start, match_length, match)) {
    const AddedToken& token = tokens_[match];
    std::size_t start = match_start;
    std::size_t stop = match_start + match_length;
    pos = stop;
    if (token.single_word) {
      std::uint32_t before = 0xFFFFFFFF, after = 0xFFFFFFFF;
      if (start > 0) char_start_before(text, start, before);
      if (stop < text.size()) char_at(text, stop, after);
      if (unicode::is_word_character(before) || unicode::is_word_character(after)) continue;
    }
    if (token.lstrip) {
      std::size_t new_start = start;
      while (new_start > start_offset) {  // Whitespace left of start_offset is handed out already.
        std::uint32_t code = 0;
        const std::size_t char_start = char_start_before(text, new_start, code);
        if (!unicode::is_whitespace(code)) break;
        new_start = char_start;
      }
      start = std::max(new_start, start_offset);
    }
    if (token.rstrip) {
      while (stop < text.size()) {
        std::uint32_t code = 0;
        const std::size_t length = char_at(text, stop, code);
        if (!unicode::is_whitespace(code)) break;
        stop += length;
      }
    }
    if (start_offset < start) gap(text.substr(start_offset, start - start_offset));
    if (sink.stopped()) return;
    sink.token(token.id);
    // max(): a match inside whitespace that an rstrip already took must not move backwards.
    start_offset = std::max(start_offset, stop);
  }
  if (start_offset < text.size() && !sink.stopped()) gap(text.substr(start_offset));
}

}  // namespace embeddings
