// Added tokens (special tokens such as "<|endoftext|>", "<unused17>") and how
// they are cut out of a text before anything else sees it, as Hugging
// Face's AddedVocabulary does:
//  - leftmost match wins, the longest if several start at the same place;
//  - tokens with "normalized": false are matched in the raw text, then
//    those with "normalized": true in the gaps after the normalizer (there
//    is no normalizer that changes the text yet, so only the order differs);
//  - "lstrip"/"rstrip" make a match swallow the whitespace to its left or
//    right; "single_word" skips a match that touches a word character (Rust
//    regex \w) on either side.
// The search is a walk of a trie of the tokens' bytes from each position,
// so it costs at most (text length × longest added token) steps whatever the
// number of tokens: 6,400 "<unusedN>" tokens cost what one does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embeddings {

struct AddedToken {
  std::int32_t id = 0;
  std::string content;
  bool single_word = false;
  bool lstrip = false;
  bool rstrip = false;
  bool normalized = true;
  bool special = false;
};

// Leftmost-longest search for a set of byte strings.
class TokenTrie {
 public:
  // At most one node and one label per byte of content, and the root.
  static constexpr std::size_t kBytesPerNode = 3 * sizeof(std::uint32_t) + 1;

  // `contents[i]` non-empty and distinct; `value[i]` is what find() reports for it.
  void build(const std::vector<std::string_view>& contents, const std::vector<std::int32_t>& values);
  bool empty() const { return labels_.empty(); }
  // The first match starting at `from` or later, the longest there: true
  // with its start, length and value.
  bool find(std::string_view text, std::size_t from, std::size_t& start, std::size_t& length,
            std::int32_t& value) const;

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

// What cutting a text hands on: the gaps between added tokens (to the rest of
// the pipeline) and the tokens' ids. Either may ask to stop.
class AddedTokenSink {
 public:
  virtual ~AddedTokenSink() = default;
  virtual void gap(std::string_view text) = 0;
  virtual void token(std::int32_t id) = 0;
  virtual bool stopped() const = 0;
};

class AddedVocabulary {
 public:
  // Hugging Face cuts a text twice: the tokens with "normalized": false out
  // of the raw text, then, after the normalizer, those with true out of the
  // normalized gaps (AddedVocabulary::extract_and_normalize).
  enum class Pass { Raw = 0, Normalized = 1 };

  void build(std::vector<AddedToken> tokens);
  const std::vector<AddedToken>& tokens() const { return tokens_; }
  bool empty() const { return tokens_.empty(); }
  // Bytes of memory `count` tokens with `content_bytes` bytes of content in
  // all take (the tokens and their tries), for loading estimates.
  static std::size_t memory_bytes(std::size_t count, std::size_t content_bytes);

  // Cuts `text` at the pass's tokens, handing every gap and token to `sink`
  // in order. With no such tokens, the whole text is one gap.
  void split(std::string_view text, Pass pass, AddedTokenSink& sink) const;

 private:
  std::vector<AddedToken> tokens_;
  TokenTrie tries_[2];  // By Pass; values index tokens_.
};

}  // namespace embeddings
