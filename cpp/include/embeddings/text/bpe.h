// The byte-pair-encoding model of a tokenizer, in two layers:
//  - merge(): the pure BPE merge, over token ids and a table of merge
//    ranks, as tiktoken's and Hugging Face's cores are: repeatedly merge the
//    adjacent pair with the lowest rank (the leftmost on ties) until no pair
//    has a merge. It knows nothing of text, files or vocabularies.
//  - BpeModel: what tokenizer.json's "model" of type BPE adds: the
//    vocabulary by bytes, the single-byte tokens a piece starts from,
//    unk_token (fused or not) for bytes without a token, and ignore_merges;
//    and, where a file asks for them, the settings of SentencePiece-style and
//    subword models: a piece that starts as its characters, byte_fallback
//    ("<0xNN>" tokens for a character without one), continuing_subword_prefix
//    and end_of_word_suffix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/text/vocabulary.h"

namespace embeddings::bpe {

struct Merge {
  std::uint32_t rank = 0;   // Position in the file's merges list: lower merges first.
  std::int32_t new_id = 0;  // The token the pair becomes.
};

// (left id, right id) -> merge: an open-addressing table with Fibonacci
// hashing, at most three quarters full. It is the innermost lookup of
// encoding (one per candidate pair), so no division, no node pointers.
class MergeTable {
 public:
  void reserve(std::size_t count);
  // Adds a merge; false (and `existing` set to the rank already there) when
  // the pair has one.
  bool insert(std::int32_t left, std::int32_t right, Merge merge, std::uint32_t& existing);
  const Merge* find(std::int32_t left, std::int32_t right) const {
    if (size_ == 0) return nullptr;
    const std::uint64_t k = key(left, right);
    for (std::size_t slot = home(k);; slot = (slot + 1) & mask_) {
      const Slot& s = slots_[slot];
      if (s.key == k) return &s.merge;
      if (s.key == kEmpty) return nullptr;
    }
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // Bytes of memory a table of `count` merges takes, for loading estimates.
  static std::size_t memory_bytes(std::size_t count) { return capacity_for(count) * sizeof(Slot); }

 private:
  struct Slot {
    std::uint64_t key;
    Merge merge;
  };
  // Ids are non-negative int32, so no pair has this key.
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static std::uint64_t key(std::int32_t left, std::int32_t right) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
           static_cast<std::uint32_t>(right);
  }
  static std::size_t capacity_for(std::size_t count);
  std::size_t home(std::uint64_t k) const {
    return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void rehash(std::size_t capacity);

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
};

// Buffers reused from piece to piece, so a long text does not allocate per piece.
struct MergeWorkspace {
  struct Symbol {
    std::int32_t id;
    std::int32_t prev;
    std::int32_t next;
    bool removed;
  };
  struct Candidate {
    std::uint32_t rank;
    std::uint32_t pos;
    std::int32_t new_id;
  };
  std::vector<Symbol> symbols;
  std::vector<Candidate> heap;
  std::vector<std::int32_t> piece_ids;  // BpeModel: a piece's byte tokens before merging.
  std::string unit;                     // BpeModel: a character with its prefix or suffix.
  std::vector<std::uint32_t> starts;    // WordPiece: where each character of a piece starts.
};

// Appends to `out` the ids that `count` ids become under `merges`: Hugging
// Face's Word::merge_all, a linked list of symbols and a priority queue, so
// O(n log n) in the number of ids.
void merge(const MergeTable& merges, const std::int32_t* ids, std::size_t count, MergeWorkspace& workspace,
           std::vector<std::int32_t>& out);

struct BpeSettings {
  std::int32_t unk_id = -1;    // Token for bytes that have none, or -1 to drop them.
  bool fuse_unk = false;       // A run of such bytes becomes one unk_token.
  bool ignore_merges = false;  // A piece that is a token is that token, whatever the merges say.
  // The vocabulary is spelled as text, not in GPT-2's byte alphabet: a
  // piece starts as its characters (UTF-8 sequences), not its bytes.
  bool by_characters = false;
  bool byte_fallback = false;  // A character without a token becomes its bytes' "<0xNN>" tokens.
  // Around every character but the first, and after the last (as bytes).
  std::string continuing_subword_prefix, end_of_word_suffix;
  // The WordPiece model instead of BPE (BERT's): a piece is cut greedily into
  // the longest tokens from its start, every one but the first with
  // continuing_subword_prefix; a piece of more than max_input_chars_per_word
  // characters, or one that cannot be cut so, is unk_token.
  bool word_piece = false;
  std::size_t max_input_chars_per_word = 100;
};

// The model reads the tokenizer's Vocabulary (its tokens by bytes) and owns
// the merges; it is given the vocabulary on each call rather than keeping a
// pointer, so a tokenizer copies and moves safely.
class BpeModel {
 public:
  // After the vocabulary is complete: finds the single-byte tokens.
  void set_vocabulary(const Vocabulary& vocabulary);
  MergeTable& merges() { return merges_; }
  void set_settings(const BpeSettings& settings) { settings_ = settings; }

  // Whether every byte value has a single-byte token (then a piece of n bytes
  // has at least n / longest-token tokens).
  bool every_byte_has_a_token() const { return every_byte_has_a_token_; }
  // Whether a piece starts as its bytes' single-byte tokens (no byte_fallback,
  // affixes or WordPiece), and every byte has one.
  bool encodes_every_byte_as_itself() const { return !starts_by_units() && every_byte_has_a_token_; }

  // Appends the ids of one pre-tokenized piece.
  void encode_piece(std::string_view piece, const Vocabulary& vocabulary, MergeWorkspace& workspace,
                    std::vector<std::int32_t>& ids) const;

 private:
  // Whether a piece starts from anything but its bytes' single-byte tokens.
  bool starts_by_units() const {
    return settings_.by_characters || settings_.byte_fallback ||
           !settings_.continuing_subword_prefix.empty() || !settings_.end_of_word_suffix.empty() ||
           settings_.word_piece;
  }
  // The tokens a piece starts as, in that case (Hugging Face's BPE::merge_word).
  void start_by_units(std::string_view piece, const Vocabulary& vocabulary, MergeWorkspace& workspace) const;
  // The WordPiece model's tokens of a piece (Hugging Face's WordPiece::tokenize).
  void encode_word_piece(std::string_view piece, const Vocabulary& vocabulary, MergeWorkspace& workspace,
                         std::vector<std::int32_t>& ids) const;

  std::int32_t byte_ids_[256] = {};      // Single-byte tokens, or -1.
  std::int32_t fallback_ids_[256] = {};  // byte_fallback: the "<0xNN>" tokens, or -1.
  MergeTable merges_;
  BpeSettings settings_;
  bool every_byte_has_a_token_ = false;
};

}  // namespace embeddings::bpe
