#include "embeddings/common/memory_budget.h"

#include <cstdlib>
#include <new>

#include "embeddings/common/buffer.h"

namespace embeddings {

namespace {

// The reserve (memory_budget.h says why): this much is kept aside.
constexpr std::size_t kReserveBytes = 64 << 10;
void* reserve = nullptr;

void release_reserve() {
  std::free(reserve);
  reserve = nullptr;
  std::set_new_handler(nullptr);  // A second failure fails as it would have.
}

// Armed from the start, so that a fresh instance's heap already holds it.
[[maybe_unused]] const bool reserve_armed = (arm_reserve(), true);

}  // namespace

void arm_reserve() {
  if (reserve != nullptr) return;
  reserve = std::malloc(kReserveBytes);
  if (reserve != nullptr) std::set_new_handler(release_reserve);
}

std::uint64_t MemoryBudget::room() const { return room_ != nullptr ? room_() : kMaxBufferBytes; }

bool MemoryBudget::has_room(std::uint64_t bytes) const {
  if (room_ == nullptr) return bytes <= kMaxBufferBytes;
  return (fast_room_ != nullptr && bytes <= fast_room_()) || bytes <= room_();
}

}  // namespace embeddings
