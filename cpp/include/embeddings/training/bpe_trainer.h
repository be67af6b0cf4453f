// Learns a byte-level BPE vocabulary from text and writes it as a Hugging
// Face tokenizer.json that Tokenizer (tokenizer.h) and `tokenizers` load.
//
// Training sees text exactly as encoding will: special tokens are cut out
// first, the rest is split by the project's own pre-tokenizer
// (pretokenizer.h), and merges never cross a piece boundary.
//
// The vocabulary, by id:
//   0..255             one token per byte, id = byte value (GPT-2 itself
//                      orders its byte tokens by its byte-to-unicode table;
//                      any order works, this one is easy to read);
//   256..              one token per merge, in the order learned;
//   last ids           the special tokens, in the order given.
// A merge whose result is already a token (two merge paths to the same
// bytes, e.g. "a"+"bc" after "ab"+"c") adds a merge rule but no new token,
// as in Hugging Face's trainer, so merges can outnumber the merged tokens.
//
// Each step merges the adjacent pair with the highest count, weighted by how
// often each piece occurs. Ties go to the pair with the smaller left id,
// then the smaller right id, which makes training deterministic. Counts are
// updated incrementally through an index from each pair to the pieces that
// contain it, so a step costs time in proportion to the pieces it touches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "embeddings/text/added_tokens.h"

namespace embeddings {

struct BpeVocabulary {
  std::vector<std::string> tokens;  // Raw bytes of each id (special tokens: their text).
  std::vector<std::pair<std::int32_t, std::int32_t>> merges;  // (left id, right id), in rank order.
  std::vector<std::string> special_tokens;
  std::int32_t first_special_id = 0;  // special_tokens[i] has id first_special_id + i.
};

class BpeTrainer {
 public:
  explicit BpeTrainer(std::vector<std::string> special_tokens = {"<|endoftext|>"});

  // Counts the pieces of `text` (special-token occurrences are skipped).
  void add_text(std::string_view text);

  std::size_t piece_count() const { return piece_count_; }  // Pieces seen, with repeats.
  std::size_t distinct_pieces() const { return piece_counts_.size(); }

  // Learns merges until the vocabulary (bytes + merged tokens + special
  // tokens) holds exactly `vocab_size` ids. False with a message when
  // vocab_size is too small for the byte and special tokens, or when the text
  // runs out of pairs to merge first. `progress`, when set, is called now and
  // then with the number of tokens so far.
  bool train(std::size_t vocab_size, BpeVocabulary& out, std::string& error,
             const std::function<void(std::size_t)>& progress = nullptr) const;

 private:
  std::vector<std::string> special_tokens_;
  TokenTrie special_trie_;  // The special tokens, found as encode() finds added tokens.
  std::unordered_map<std::string, std::uint64_t> piece_counts_;
  std::size_t piece_count_ = 0;
};

// The complete tokenizer.json for `vocab`, in the layout GPT-2's own file
// uses: ByteLevel pre-tokenizer (no prefix space, regex on), ByteLevel post
// processor and decoder, BPE model with merges written as "left right"
// strings (readable by every `tokenizers` version), special tokens as added
// tokens (special, normalized true, no stripping) that are also in the vocab.
std::string tokenizer_json(const BpeVocabulary& vocab);

}  // namespace embeddings
