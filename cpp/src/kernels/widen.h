// IEEE half (F16) and bfloat16 (BF16) numbers widened to float32, exactly:
// every 16-bit value of either format is a float32. The backends' load_f16
// and load_bf16 (ops_*.h) do the same lane by lane, and the kernels' scalar
// tails call these, so a row widens to the same bits wherever it is cut.
#pragma once

#include <cstdint>
#include <cstring>

#include "embeddings/kernels/kernels.h"

namespace embeddings::kernels {

// A half's exponent and mantissa, shifted into float32's places, read as a
// float32 with the wrong bias: multiplying by 2^(127 - 15) rebiases it,
// exactly (a power of two, and every result is a normal float32), subnormal
// halves included, without a loop. Only infinities and NaNs (exponent 31),
// which the multiply would make finite, take their exponent from a mask.
inline constexpr float kF16Rebias = 0x1p112f;

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

// A 16-bit table's numbers as the kernels see them: one type per format, so
// that the kernels written once over a row's element type (generic.h) pick
// each format's load by overload. Each is its 16 bits, stored as the file
// has them (little-endian, like both targets).
struct Half {
  std::uint16_t bits;
  static constexpr NumberFormat kFormat = NumberFormat::F16;
};
struct BFloat16 {
  std::uint16_t bits;
  static constexpr NumberFormat kFormat = NumberFormat::BF16;
};
static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2, "a table of them is its 16-bit numbers");

// One number of a row, widened: the kernels' scalar tails and their double
// fallback read every format through these.
inline float number(float x) { return x; }
inline float number(Half h) { return f16_bits_to_f32(h.bits); }
inline float number(BFloat16 b) { return bf16_bits_to_f32(b.bits); }

}  // namespace embeddings::kernels
