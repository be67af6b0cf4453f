// Byte-level BPE tokenizer compatible with Hugging Face `tokenizers` (the
// GPT-2 family): loads a tokenizer.json and encodes text to exactly the ids
// that library gives, decodes ids back to text, and names tokens for the book.
//
// Encoding, step by step (as Hugging Face does it):
//  1. Added tokens (special tokens such as "<|endoftext|>") are cut out of
//     the raw text first: leftmost match wins, the longest if several start
//     at the same place. Tokens with "normalized": false are matched first,
//     then those with "normalized": true in the remaining gaps (the
//     normalizer is always null here, so only that order differs).
//     "lstrip"/"rstrip" make a match swallow the whitespace to its left or
//     right; "single_word" skips a match that touches a word character (Rust
//     regex \w) on either side.
//  2. Every gap between added tokens is pre-tokenized (pretokenizer.h); with
//     add_prefix_space a space is put in front of a gap that does not
//     already start with one.
//  3. Each piece's bytes become single-byte tokens, which are merged by BPE:
//     always the pair with the lowest merge rank, the leftmost one on ties,
//     over a linked list of symbols with a priority queue (O(n log n) in the
//     piece length). Bytes with no token of their own become unk_token when
//     one is set (fused when fuse_unk) and are dropped otherwise, as in
//     Hugging Face. (A single piece longer than 2^30 bytes, which no real
//     text has, is encoded in 2^30-byte parts.)
//
// A Tokenizer is immutable after loading: every method is const and safe to
// call from several threads at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace embeddings {

namespace json {
class Value;
}

struct AddedToken {
  std::int32_t id = 0;
  std::string content;
  bool single_word = false;
  bool lstrip = false;
  bool rstrip = false;
  bool normalized = true;
  bool special = false;
};

class Tokenizer {
 public:
  // Loads a Hugging Face tokenizer.json. Supported: model BPE (vocab;
  // merges as "a b" strings or ["a", "b"] pairs; ignore_merges; unk_token and
  // fuse_unk; dropout null; byte_fallback false; continuing_subword_prefix
  // and end_of_word_suffix null or ""), pre_tokenizer ByteLevel
  // (add_prefix_space, use_regex), decoder ByteLevel or null, normalizer
  // null, post_processor null or ByteLevel, truncation and padding null,
  // added_tokens. Anything else is refused with a message starting with
  // "tokenizer.json: " that names the field and the problem; `out` is left
  // untouched on failure.
  static bool from_json(std::string_view json_text, Tokenizer& out, std::string& error);

  // The token ids of `utf8_text`. Invalid UTF-8 is accepted: such bytes are
  // encoded like any others (see pretokenizer.h), so decode_bytes() gives
  // them back.
  std::vector<std::int32_t> encode(std::string_view utf8_text) const;
  // Same, appending to `ids`.
  void encode(std::string_view utf8_text, std::vector<std::int32_t>& ids) const;
  // Encodes `utf8_text` into `ids` (replacing their contents) unless it has
  // more than `max_tokens` tokens. Returns true with every id when it has at
  // most that many; false as soon as it is known to have more, with `ids`
  // unspecified. It stops early: after the piece that passes the limit, or
  // before a piece whose length alone proves it (every byte has a token and
  // no token is longer than max_token_bytes()). So refusing a megabyte of
  // text for a context of 1024 tokens costs about as much as encoding the
  // first 1024 tokens.
  bool encode_at_most(std::string_view utf8_text, std::size_t max_tokens,
                      std::vector<std::int32_t>& ids) const;

  // The text of `count` ids: the tokens' bytes joined, then made valid UTF-8
  // with U+FFFD for ill-formed parts (Rust's from_utf8_lossy). Special tokens
  // are included as their content. False, with `error` naming the position
  // and the id, when an id is not in the vocabulary; `text` is then cleared.
  // (Hugging Face silently skips such ids.) A null decoder in the JSON is
  // decoded the same way, not joined with spaces as Hugging Face would.
  bool decode(const std::int32_t* ids, std::size_t count, std::string& text, std::string& error) const;
  // Same without the UTF-8 repair: the exact bytes, so that
  // decode_bytes(encode(s)) == s for any byte string s.
  bool decode_bytes(const std::int32_t* ids, std::size_t count, std::string& bytes, std::string& error) const;

  // Largest id + 1, over the model vocabulary and the added tokens (the rows
  // an embedding table needs). Ids below it may be unused if the file has gaps.
  std::size_t vocab_size() const { return vocab_size_; }
  // Number of distinct ids in use.
  std::size_t token_count() const { return tokens_.size(); }
  bool has_id(std::int32_t id) const { return find(id) != nullptr; }
  bool is_special(std::int32_t id) const;

  // The bytes a token stands for (an added token: its content); empty for an
  // unknown id.
  std::string token_bytes(std::int32_t id) const;
  // The longest token_bytes() over all ids.
  std::size_t max_token_bytes() const { return max_token_bytes_; }

  // How the book shows a token: its bytes as UTF-8 with a space shown as "·"
  // (U+00B7), a newline as "↵" (U+21B5) and a tab as "⇥" (U+21E5); every
  // other control character (C0, DEL, C1), every byte that is not part of a
  // complete UTF-8 character, and the three marks "·" "↵" "⇥" themselves when
  // they occur literally are written as "<0xNN>" per byte, so the display
  // form names exactly one byte string. An added token shows its content
  // unchanged. Empty for an unknown id.
  std::string token_display(std::int32_t id) const;

  // The id of the single token that `text` names, or -1. Looked up in this
  // order: (1) `text` read as a display form ("·", "↵", "⇥" and "<0xNN>"
  // turned back into bytes) against the model vocabulary; (2) `text` as the
  // content of an added token; (3) `text` as raw bytes against the model
  // vocabulary. So "·girl" and " girl" both find the token for " girl";
  // a literal "<0x41>" token is found by (3) only if no token "A" exists.
  std::int32_t token_id(std::string_view text) const;

  const std::vector<AddedToken>& added_tokens() const { return added_tokens_; }
  bool add_prefix_space() const { return add_prefix_space_; }

 private:
  struct Token {
    std::int32_t id = 0;
    std::string bytes;
    std::int32_t added_index = -1;  // Index into added_tokens_, or -1 for a model token.
  };
  struct Merge {
    std::uint32_t rank = 0;
    std::int32_t new_id = 0;
  };

  struct Scratch;

  static bool load(const json::Value& root, Tokenizer& out, std::string& error);
  const Token* find(std::int32_t id) const;
  void encode_gap(std::string_view gap, Scratch& scratch, std::vector<std::int32_t>& ids) const;
  void encode_with(std::string_view utf8_text, Scratch& scratch, std::vector<std::int32_t>& ids) const;
  std::size_t bounded_pretoken_length(std::string_view text, std::size_t pos, Scratch& scratch,
                                      std::size_t ids_so_far) const;
  void encode_piece(std::string_view piece, Scratch& scratch, std::vector<std::int32_t>& ids) const;
  void encode_piece_ids(std::string_view piece, Scratch& scratch, std::vector<std::int32_t>& ids) const;
  void split_added(std::string_view text, bool normalized_pass, Scratch& scratch,
                   std::vector<std::int32_t>& ids) const;
  bool join_bytes(const std::int32_t* ids, std::size_t count, std::string& bytes, std::string& error) const;

  std::vector<Token> tokens_;                                     // Sorted by id.
  std::unordered_map<std::string, std::int32_t> model_by_bytes_;  // Model vocabulary, by raw bytes.
  std::int32_t byte_ids_[256] = {};                               // Single-byte model tokens, or -1.
  std::unordered_map<std::uint64_t, Merge> merges_;               // (left id << 32 | right id) -> merge.
  std::vector<AddedToken> added_tokens_;
  // Indices into added_tokens_ by the first byte of their content, longest
  // first; [0] holds the tokens with normalized false, [1] those with true.
  std::vector<std::int32_t> added_by_first_byte_[2][256];
  bool has_normalized_added_ = false;
  bool has_unnormalized_added_ = false;
  bool every_byte_has_a_token_ = false;  // Then a piece of n bytes has at least n / max_token_bytes_ tokens.
  bool add_prefix_space_ = false;
  bool use_regex_ = true;
  bool ignore_merges_ = false;
  bool fuse_unk_ = false;
  std::int32_t unk_id_ = -1;
  std::size_t vocab_size_ = 0;
  std::size_t max_token_bytes_ = 0;
};

}  // namespace embeddings
