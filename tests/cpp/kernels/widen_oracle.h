// The value of a 16-bit number as float32 bits, by arithmetic rather than by
// the kernels' bit moves: the oracle the 16-bit loads (kernels_widen_test.cc)
// and the kernels over 16-bit tables (kernels_tables16_test.cc) are held to.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace embeddings::test {

inline std::uint32_t bits_of(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

inline float float_of_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// A half from its fields: (-1)^s * 2^(e-15) * (1 + m/1024), subnormals
// 2^-14 * m/1024; exponent 31 is an infinity (m = 0) or a NaN whose float32
// keeps the payload in its top mantissa bits.
inline std::uint32_t f16_oracle_bits(std::uint16_t half) {
  const bool negative = (half & 0x8000) != 0;
  const int exponent = (half >> 10) & 0x1F;
  const int mantissa = half & 0x3FF;
  if (exponent == 0x1F)
    return (negative ? 0x80000000u : 0u) | 0x7F800000u | static_cast<std::uint32_t>(mantissa) << 13;
  const double magnitude =
      exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25);
  return bits_of(static_cast<float>(negative ? -magnitude : magnitude));  // exact: 11 significant bits
}

inline float f16_oracle(std::uint16_t half) { return float_of_bits(f16_oracle_bits(half)); }
// A bfloat16 is a float32's top half.
inline float bf16_oracle(std::uint16_t bf16) { return float_of_bits(static_cast<std::uint32_t>(bf16) << 16); }

}  // namespace embeddings::test
