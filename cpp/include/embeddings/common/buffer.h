// A heap array whose allocation can fail without ending the program.
//
// Why not std::vector: the WebAssembly build has no exceptions, and there
// operator new calls abort() when malloc returns null, which kills the whole
// WebAssembly instance (and every model table it holds). A Buffer asks
// malloc directly, so a request the instance cannot grow to is a `false`
// the caller turns into a named error. Use it for every allocation whose
// size comes from a file or from the reader (tables, staging, workspace,
// text); small bookkeeping can stay in std containers.
//
// T must be trivially copyable: the contents are raw memory, not objects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

namespace embeddings {

// Largest request a Buffer passes to malloc. Larger sizes are refused
// before malloc sees them: no address space holds them, and sanitizers treat
// a request past their own limit as a bug rather than returning null.
inline constexpr std::uint64_t kMaxBufferBytes = std::uint64_t{1} << 40;

// Every Buffer starts on a cache line, so the kernels' SIMD loads over a
// table (and how they fall across lines) do not depend on where the heap
// happened to be when it was allocated.
inline constexpr std::size_t kBufferAlignment = 64;

template <typename T>
class Buffer {
  static_assert(std::is_trivially_copyable_v<T>, "Buffer holds raw memory");

 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      std::free(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~Buffer() { std::free(data_); }

  // Replaces the contents with `count` uninitialised elements. Returns false,
  // leaving the buffer empty, when count × sizeof(T) overflows, passes
  // kMaxBufferBytes, or malloc has no memory. A zero count still gives a
  // valid (one-element) allocation, so data() is never null after success.
  bool allocate(std::uint64_t count) {
    reset();
    if (count > kMaxBufferBytes / sizeof(T)) return false;
    const std::uint64_t bytes = (count == 0 ? 1 : count) * sizeof(T);
    // aligned_alloc wants a whole number of alignments.
    const std::uint64_t rounded = (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
    if (rounded > std::numeric_limits<std::size_t>::max()) return false;
    void* memory = std::aligned_alloc(kBufferAlignment, static_cast<std::size_t>(rounded));
    if (memory == nullptr) return false;
    data_ = static_cast<T*>(memory);
    size_ = static_cast<std::size_t>(count);
    return true;
  }

  // Same, with every byte zero.
  bool allocate_zeroed(std::uint64_t count) {
    if (!allocate(count)) return false;
    std::memset(static_cast<void*>(data_), 0, (size_ == 0 ? 1 : size_) * sizeof(T));
    return true;
  }

  void reset() {
    std::free(data_);
    data_ = nullptr;
    size_ = 0;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace embeddings
