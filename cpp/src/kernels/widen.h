// The kernels' view of 16-bit numbers: the library's one scalar widener
// (common/widen.h), which the backends' load_f16 and load_bf16 (ops_*.h)
// match lane by lane and the kernels' scalar tails call, so a row widens to
// the same bits wherever it is cut; and one element type per format.
#pragma once

#include <cstdint>

#include "embeddings/common/widen.h"
#include "embeddings/kernels/kernels.h"

namespace embeddings::kernels {

using embeddings::bf16_bits_to_f32;
using embeddings::f16_bits_to_f32;

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
