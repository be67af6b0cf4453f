#include "embeddings/text/piece_cache.h"

#include <cstring>

namespace embeddings {

PieceCache::PieceCache(std::size_t slots) {
  if (slots == 0) return;
  std::size_t capacity = 1;
  while (capacity < slots) capacity *= 2;
  slots_.assign(capacity, Slot{});
}

void PieceCache::bind(std::uint64_t owner) {
  if (owner == owner_) return;
  for (Slot& slot : slots_) slot.length = 0;
  owner_ = owner;
}

// Eight bytes at a time, each multiplied in: pieces are short, and the slot
// (the low bits) and the tag (the high bits) must both depend on every byte.
std::uint64_t PieceCache::hash(std::string_view piece) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ piece.size();
  std::size_t i = 0;
  for (; i + 8 <= piece.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, piece.data() + i, 8);
    h = (h ^ word) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  }
  std::uint64_t tail = 0;
  for (unsigned shift = 0; i < piece.size(); ++i, shift += 8)
    tail |= static_cast<std::uint64_t>(static_cast<unsigned char>(piece[i])) << shift;
  h = (h ^ tail) * 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 29);
}

bool PieceCache::find(std::string_view piece, std::vector<std::int32_t>& ids) const {
  if (slots_.empty() || piece.empty() || piece.size() > kMaxPieceBytes) return false;
  const std::uint64_t h = hash(piece);
  const Slot& slot = slots_[h & (slots_.size() - 1)];
  if (slot.tag != static_cast<std::uint32_t>(h >> 32) || slot.length != piece.size()) return false;
  for (std::size_t i = 0; i < piece.size(); ++i) {
    if (slot.bytes[i] != piece[i]) return false;
  }
  ids.insert(ids.end(), slot.ids, slot.ids + slot.count);
  return true;
}

void PieceCache::store(std::string_view piece, const std::int32_t* ids, std::size_t count) {
  if (slots_.empty() || piece.empty() || piece.size() > kMaxPieceBytes || count > kMaxIds) return;
  const std::uint64_t h = hash(piece);
  Slot& slot = slots_[h & (slots_.size() - 1)];
  slot.tag = static_cast<std::uint32_t>(h >> 32);
  slot.length = static_cast<std::uint8_t>(piece.size());
  slot.count = static_cast<std::uint8_t>(count);
  for (std::size_t i = 0; i < piece.size(); ++i) slot.bytes[i] = piece[i];
  for (std::size_t i = 0; i < count; ++i) slot.ids[i] = ids[i];
}

std::size_t PieceCache::pieces() const {
  std::size_t held = 0;
  for (const Slot& slot : slots_) held += slot.length != 0 ? 1 : 0;
  return held;
}

std::size_t PieceCache::memory_bytes(std::size_t slots) {
  std::size_t capacity = 1;
  while (capacity < slots) capacity *= 2;
  return slots == 0 ? 0 : capacity * sizeof(Slot);
}

}  // namespace embeddings
