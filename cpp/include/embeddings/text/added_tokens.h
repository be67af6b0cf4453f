// Added tokens (special tokens such as "<|endoftext|>", "<unused17>") and how
// they are cut out of a text before anything else sees it, as Hugging
// Face's AddedVocabulary does:
//  - leftmost match wins, the longest if several start at the same place;
//  - tokens with "normalized": false are matched in the raw text, then
//    those with "normalized": true, their contents normalized too, in the
//    gaps after the normalizers;
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
#include <utility>
#include <vector>

#include "embeddings/text/token_trie.h"

namespace embeddings {

struct AddedToken {
  std::int32_t id = 0;
  std::string content;
  bool single_word = false;
  bool lstrip = false;
  bool rstrip = false;
  bool normalized = true;
  bool special = false;
  // With "normalized": true, the content as the normalizers make it (what
  // the normalized pass matches, and what decoding gives, as in Hugging
  // Face); else, or when they leave it as it is, empty.
  std::string normalized_content;
};

// What cutting a text hands on: the gaps between added tokens (to the rest of
// the pipeline) and the tokens' ids. Either may ask to stop.
class AddedTokenSink {
 public:
  virtual ~AddedTokenSink() = default;
  virtual void gap(std::string_view text) = 0;
  // `matched`: the text the token was cut from (its whitespace with lstrip or rstrip).
  virtual void token(std::int32_t id, std::string_view matched) = 0;
  virtual bool stopped() const = 0;
};

class AddedVocabulary {
 public:
  // Hugging Face cuts a text twice: the tokens with "normalized": false out
  // of the raw text, then, after the normalizer, those with true out of the
  // normalized gaps (AddedVocabulary::extract_and_normalize).
  enum class Pass { Raw = 0, Normalized = 1 };

  // False when two tokens of a pass have the same content there (a
  // normalized pass's contents normalized): `first` and `second` are their places.
  bool build(std::vector<AddedToken> tokens, std::size_t& first, std::size_t& second);
  void build(std::vector<AddedToken> tokens) {
    std::size_t first = 0, second = 0;
    build(std::move(tokens), first, second);
  }
  const std::vector<AddedToken>& tokens() const { return tokens_; }
  // The text decoding gives for tokens()[index]: its normalized content, or its content.
  const std::string& decoded_form(std::size_t index) const {
    const AddedToken& token = tokens_[index];
    return token.normalized_content.empty() ? token.content : token.normalized_content;
  }
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
