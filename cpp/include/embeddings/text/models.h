// The model stage of a tokenizer: a pre-tokenized piece in, its ids out.
// One class per tokenizer.json "model" type, each in its own file under
// cpp/src/text/models/: BPE (bpe.cpp, with the pure merge of models/bpe.h),
// WordPiece (word_piece.cpp), WordLevel (word_level.cpp), Unigram
// (unigram.cpp). The tokens themselves are the tokenizer's Vocabulary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/text/models/bpe.h"
#include "embeddings/text/vocabulary.h"

namespace embeddings {

// Where an id's token is in the piece (offsets): bytes [begin, end) as
// Hugging Face's model gives its token's offsets, and whether it stands for
// some of a character's bytes but not all (TokenOffsets::partial).
struct TokenSpan {
  std::uint32_t begin = 0, end = 0;
  bool partial = false;
};

// Whether bytes [begin, end) of a piece cut one of its characters (start or
// end inside a UTF-8 sequence).
inline bool cuts_character(std::string_view piece, std::size_t begin, std::size_t end) {
  const auto inside = [&](std::size_t at) {
    return at < piece.size() && (static_cast<unsigned char>(piece[at]) & 0xC0) == 0x80;
  };
  return inside(begin) || inside(end);
}

// Buffers reused from piece to piece, so a long text does not allocate per piece.
struct ModelScratch {
  bpe::MergeWorkspace merge;              // BPE
  std::vector<double> best_score;         // Unigram: the best path's score to each byte,
  std::vector<std::int32_t> best_id;      // its last token,
  std::vector<std::uint32_t> best_start;  // where that starts,
  std::vector<std::uint32_t> path;        // and the best path.
  std::vector<std::uint8_t> starts;       // WordPiece: whether a character starts at each byte.
  std::string error;                      // Why encode_piece() failed.
  // While offsets are kept: where each id encode_piece() appends is, one
  // TokenSpan per id, appended here too.
  std::vector<TokenSpan>* spans = nullptr;
  // What the models that walk a trie (Unigram, WordPiece) may still spend
  // in this call beyond their steps per byte (models/trie_walks.h).
  static constexpr std::uint64_t kSpareSteps = std::uint64_t{1} << 26;
  std::uint64_t spare_steps = kSpareSteps;
};

class Model {
 public:
  virtual ~Model() = default;
  // Appends the ids of one piece. False, with scratch.error, where the Rust
  // library fails too (Unigram meeting a character it has no token for and
  // no unk_id), or where the work the piece needs passes what the call
  // allows (models/trie_walks.h).
  virtual bool encode_piece(std::string_view piece, const Vocabulary& vocabulary, ModelScratch& scratch,
                            std::vector<std::int32_t>& ids) const = 0;
  // Whether every byte of a piece is covered by ids whose tokens are no
  // longer than the bytes they cover: then a piece of n bytes has at least
  // n / (longest token) ids, and encode_at_most() can stop early.
  virtual bool every_byte_has_a_token() const { return false; }
  // Whether a piece always starts as its bytes' single-byte tokens (GPT-2's
  // BPE), so that decode_bytes(encode(s)) == s.
  virtual bool encodes_every_byte_as_itself() const { return false; }
};

}  // namespace embeddings
