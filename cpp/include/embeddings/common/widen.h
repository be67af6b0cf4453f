// IEEE half (F16) and bfloat16 (BF16) numbers widened to float32, exactly:
// every 16-bit value of either format is a float32. The one scalar widener
// of the library: the kernels' scalar tails (kernels/widen.h), the layouts'
// row reads (layout/table.cpp) and the loader all call these, and the SIMD
// loads (kernels/ops_*.h, layout/simd.h) do the same lane by lane, so a
// number widens to the same bits wherever it is read.
#pragma once

#include <cstdint>
#include <cstring>

namespace embeddings {

// A half's exponent and mantissa, shifted into float32's places, read as a
// float32 with the wrong bias: multiplying by 2^(127 - 15) rebiases it,
// exactly (a power of two, and every result is a normal float32), subnormal
// halves included, without a loop. Only infinities and NaNs (exponent 31),
// which the multiply would make finite, take their exponent from a mask.
inline constexpr float kF16Rebias = 0x1p112f;

// Out of line: the kernels' scalar tails call it for a handful of numbers,
// and one copy keeps the small module small.
[[gnu::noinline]] inline float f16_bits_to_f32(std::uint16_t half) {
  const std::uint32_t magnitude = static_cast<std::uint32_t>(half & 0x7FFFu) << 13;
  float scaled;
  std::memcpy(&scaled, &magnitude, sizeof scaled);
  scaled *= kF16Rebias;
  std::uint32_t bits;
  std::memcpy(&bits, &scaled, sizeof bits);
  if ((half & 0x7C00u) == 0x7C00u) bits = magnitude | 0x7F800000u;  // Inf or NaN, payload kept.
  bits |= static_cast<std::uint32_t>(half & 0x8000u) << 16;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// A bfloat16 is the top half of a float32.
inline float bf16_bits_to_f32(std::uint16_t bf16) {
  const std::uint32_t bits = static_cast<std::uint32_t>(bf16) << 16;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace embeddings
