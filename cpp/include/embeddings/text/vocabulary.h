// A tokenizer's tokens: every id's bytes, and the model's tokens found by
// their bytes. The bytes live in one buffer and the lookup by bytes is an
// open-addressing table of entry numbers, so a 400,000-token vocabulary costs
// its bytes plus about 28 bytes a token, and the object copies and moves
// safely (it holds no pointers into itself).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace embeddings {

class Vocabulary {
 public:
  // Building: add() every token, then index().
  void reserve(std::size_t tokens, std::size_t bytes);
  // `findable`: found by find() (a model token whose bytes the file spells
  // in the pipeline's alphabet); others are found by id only.
  void add(std::int32_t id, std::string_view bytes, bool findable);
  // Sorts by id and builds the lookup by bytes. False when two tokens share
  // an id or two findable tokens share their bytes; `first` and `second` are
  // then the two (in the order they were added).
  struct Clash {
    std::string_view first, second;
    bool first_findable = false, second_findable = false;
    std::int32_t id = -1;  // The shared id, or -1 when the bytes are shared.
  };
  bool index(Clash& clash);

  std::size_t size() const { return entries_.size(); }
  // Largest id + 1 (0 when empty).
  std::size_t id_limit() const {
    return entries_.empty() ? 0 : static_cast<std::size_t>(entries_.back().id) + 1;
  }
  bool has(std::int32_t id) const { return entry(id) != nullptr; }
  // The bytes of `id`; false when there is no such token.
  bool bytes(std::int32_t id, std::string_view& out) const;
  // The findable token with exactly `bytes`, or -1.
  std::int32_t find(std::string_view bytes) const;
  std::size_t max_bytes() const { return max_bytes_; }
  // Marks `id` as the added token `added_index` (see added_index()).
  void set_added_index(std::int32_t id, std::int32_t added_index);
  // The added token `id` is, or -1.
  std::int32_t added_index(std::int32_t id) const;
  // Bytes of memory `tokens` tokens with `bytes` bytes in all take, for loading estimates.
  static std::size_t memory_bytes(std::size_t tokens, std::size_t bytes);

 private:
  struct Entry {
    std::int32_t id;
    std::uint32_t offset;  // Into bytes_.
    std::uint32_t length;
    std::int32_t added_index;  // Into the tokenizer's added tokens, or -1 for a model token...
    bool findable;             // ...and whether find() finds it.
  };
  const Entry* entry(std::int32_t id) const;
  std::string_view view(const Entry& e) const { return {bytes_.data() + e.offset, e.length}; }
  static std::uint64_t hash(std::string_view bytes);

  std::vector<char> bytes_;
  std::vector<Entry> entries_;        // Sorted by id after index().
  std::vector<std::uint32_t> slots_;  // Entry number + 1, or 0 for empty; size a power of two.
  std::size_t max_bytes_ = 0;
};

}  // namespace embeddings
