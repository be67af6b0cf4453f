#include "embeddings/text/vocabulary.h"

#include <algorithm>

#include "embeddings/common/merge_sort.h"

namespace embeddings {

void Vocabulary::reserve(std::size_t tokens, std::size_t bytes) {
  entries_.reserve(tokens);
  bytes_.reserve(bytes);
}

void Vocabulary::add(std::int32_t id, std::string_view bytes, bool findable) {
  entries_.push_back(Entry{id, static_cast<std::uint32_t>(bytes_.size()),
                           static_cast<std::uint32_t>(bytes.size()), -1, findable});
  bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
  max_bytes_ = std::max(max_bytes_, bytes.size());
}

// FNV-1a: short keys, and the table's size is a power of two, so every bit
// of the hash must depend on every byte.
std::uint64_t Vocabulary::hash(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char ch : bytes) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  return h ^ (h >> 29);
}

namespace {

// Tokens are a few bytes long: a plain loop, rather than memcmp (a call,
// and a byte loop of its own, in WebAssembly's libc).
bool same_bytes(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace

bool Vocabulary::index(Clash& clash) {
  const auto by_id = [](const Entry& a, const Entry& b) { return a.id < b.id; };
  // Files list their vocabulary in id order, so there is usually nothing to sort.
  if (!std::is_sorted(entries_.begin(), entries_.end(), by_id)) merge_sort(entries_, by_id);
  for (std::size_t i = 1; i < entries_.size(); ++i) {
    if (entries_[i].id == entries_[i - 1].id) {
      clash = Clash{view(entries_[i - 1]), view(entries_[i]), entries_[i - 1].findable, entries_[i].findable,
                    entries_[i].id};
      return false;
    }
  }
  // At most half full: a lookup probes about two slots.
  std::size_t capacity = 16;
  while (capacity < 2 * entries_.size()) capacity *= 2;
  slots_.assign(capacity, 0);
  const std::size_t mask = capacity - 1;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!entries_[i].findable) continue;
    const std::string_view bytes = view(entries_[i]);
    for (std::size_t slot = hash(bytes) & mask;; slot = (slot + 1) & mask) {
      if (slots_[slot] == 0) {
        slots_[slot] = static_cast<std::uint32_t>(i + 1);
        break;
      }
      const Entry& other = entries_[slots_[slot] - 1];
      if (same_bytes(view(other), bytes)) {
        clash = Clash{view(other), bytes, true, true, -1};
        return false;
      }
    }
  }
  return true;
}

const Vocabulary::Entry* Vocabulary::entry(std::int32_t id) const {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), id,
                                   [](const Entry& e, std::int32_t value) { return e.id < value; });
  return it != entries_.end() && it->id == id ? &*it : nullptr;
}

bool Vocabulary::bytes(std::int32_t id, std::string_view& out) const {
  const Entry* e = entry(id);
  if (e == nullptr) return false;
  out = view(*e);
  return true;
}

std::int32_t Vocabulary::find(std::string_view bytes) const {
  if (slots_.empty()) return -1;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = hash(bytes) & mask; slots_[slot] != 0; slot = (slot + 1) & mask) {
    const Entry& e = entries_[slots_[slot] - 1];
    if (same_bytes(view(e), bytes)) return e.id;
  }
  return -1;
}

void Vocabulary::set_added_index(std::int32_t id, std::int32_t added_index) {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), id,
                                   [](const Entry& e, std::int32_t value) { return e.id < value; });
  if (it != entries_.end() && it->id == id) it->added_index = added_index;
}

std::int32_t Vocabulary::added_index(std::int32_t id) const {
  const Entry* e = entry(id);
  return e == nullptr ? -1 : e->added_index;
}

std::size_t Vocabulary::memory_bytes(std::size_t tokens, std::size_t bytes) {
  // The entries, up to four slots a token (at most half full, rounded up to
  // a power of two), the bytes.
  return tokens * (sizeof(Entry) + 4 * sizeof(std::uint32_t)) + bytes;
}

}  // namespace embeddings
