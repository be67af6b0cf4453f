// How much memory a session may still take, and the reserve that lets a
// refusal be built when malloc has already failed. Every session checks
// what a request needs against its MemoryBudget before allocating, so a
// request that cannot fit is refused with its sizes (session/*.h).
#pragma once

#include <cstdint>

namespace embeddings {

// How much more memory malloc can hand out. The default is unbounded (native
// code, where an allocation that fails is reported anyway); the WebAssembly
// bindings ask the heap; tests give a fixed number.
class MemoryBudget {
 public:
  using Probe = std::uint64_t (*)();
  MemoryBudget() = default;
  // `room` is exact and may be slow (it may walk the heap); `fast_room`, a
  // cheap lower bound (what memory can still grow by), answers first.
  MemoryBudget(Probe room, Probe fast_room) : room_(room), fast_room_(fast_room) {}
  std::uint64_t room() const;
  bool has_room(std::uint64_t bytes) const;

 private:
  Probe room_ = nullptr;
  Probe fast_room_ = nullptr;
};

// A rainy-day reserve. Where there are no exceptions (the WebAssembly build),
// operator new aborts the program when malloc fails, and even a refusal
// allocates (its message). So a little memory is kept aside from the start;
// operator new's new_handler gives it back when malloc fails, which lets the
// message be built and returned. Entry points that can fail for lack of
// memory call this to re-arm it.
void arm_reserve();

}  // namespace embeddings
