// A bounded cache of the ids of pre-tokenized pieces. Story text repeats its
// words (" the", " was", "."), and the BPE merge of a piece is most of the
// cost of encoding it, so a session that encodes text after text keeps the
// ids of the pieces it has seen (as gpt-tokenizer and tiktoken do).
//
// The ids of a piece are a pure function of its bytes and the tokenizer, so
// encoding with a cache gives exactly the ids encoding without one gives:
// the cache only saves the merge. It remembers which tokenizer filled it and
// empties itself when used with another.
//
// Bounded: a fixed number of slots (a power of two), 64 bytes each, chosen at
// construction; a piece goes to the one slot its hash names and replaces what
// was there (direct-mapped: no list to keep, no allocation after
// construction). Only pieces of at most kMaxPieceBytes bytes whose ids number
// at most kMaxIds are kept: a story's words, not its rare long pieces.
//
// Not thread-safe: a Tokenizer may be shared between threads, a cache may not
// (one per thread, or per session).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace embeddings {

class PieceCache {
 public:
  static constexpr std::size_t kMaxPieceBytes = 26;
  static constexpr std::size_t kMaxIds = 8;
  static constexpr std::size_t kSlotBytes = 64;

  // `slots` is rounded up to a power of two; 0 makes a cache that keeps nothing.
  explicit PieceCache(std::size_t slots = 0);

  // Empties the cache unless it was filled by the tokenizer `owner` (a
  // Tokenizer's serial()); then it is that tokenizer's.
  void bind(std::uint64_t owner);
  // Appends the ids of `piece` to `ids` and returns true when it has them.
  bool find(std::string_view piece, std::vector<std::int32_t>& ids) const;
  // Keeps the `count` ids of `piece` (nothing when the piece or its ids do not fit a slot).
  void store(std::string_view piece, const std::int32_t* ids, std::size_t count);

  std::size_t slot_count() const { return slots_.size(); }
  // Slots holding a piece now (for the tests: never more than slot_count()).
  std::size_t pieces() const;
  // Bytes of memory a cache of `slots` slots takes.
  static std::size_t memory_bytes(std::size_t slots);

 private:
  struct Slot {
    std::uint32_t tag;    // The hash's high bits: most misses end here.
    std::uint8_t length;  // Of the piece; 0: empty.
    std::uint8_t count;   // Ids.
    char bytes[kMaxPieceBytes];
    std::int32_t ids[kMaxIds];
  };
  static_assert(sizeof(Slot) == kSlotBytes, "a slot is one 64-byte line");
  static std::uint64_t hash(std::string_view piece);

  std::vector<Slot> slots_;
  std::uint64_t owner_ = 0;
};

}  // namespace embeddings
