// The pure byte-pair-encoding merge, over token ids and a table of merge
// ranks, as tiktoken's and Hugging Face's cores are: repeatedly merge the
// adjacent pair with the lowest rank (the leftmost on ties) until no pair
// has a merge. It knows nothing of text, files or vocabularies: the BPE
// model of tokenizer.json (cpp/src/text/models/bpe.cpp) starts a piece as
// its tokens and merges them with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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
  std::vector<std::int32_t> piece_ids;  // The BPE model: a piece's tokens before merging.
  // While offsets are kept: each one's length as Hugging Face's Word counts
  // it (bytes of the piece as the vocabulary spells it).
  std::vector<std::uint32_t> piece_units;
  std::string unit;  // Models: a character with its prefix or suffix.
};

// Appends to `out` the ids that `count` ids become under `merges`: Hugging
// Face's Word::merge_all, a linked list of symbols and a priority queue, so
// O(n log n) in the number of ids.
void merge(const MergeTable& merges, const std::int32_t* ids, std::size_t count, MergeWorkspace& workspace,
           std::vector<std::int32_t>& out);

}  // namespace embeddings::bpe
