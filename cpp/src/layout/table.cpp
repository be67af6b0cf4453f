// Reading a layout's table (table.h): widening 16-bit numbers exactly, the
// range check, and the dot product of two rows, with 16-bit rows widened in
// registers in layout_dot's grouping.
#include "embeddings/layout/table.h"

#include <cmath>
#include <cstring>

#include "embeddings/common/widen.h"
#include "embeddings/layout/arithmetic.h"
#include "simd.h"

namespace embeddings::layout {

std::size_t bytes_per_number(Numbers numbers) { return numbers == Numbers::Float32 ? 4 : 2; }

float TableView::at(std::size_t r, std::size_t c) const {
  switch (numbers) {
    case Numbers::Float32: return floats(r)[c];
    case Numbers::Float16: return f16_bits_to_f32(halves(r)[c]);
    case Numbers::BFloat16: return bf16_bits_to_f32(halves(r)[c]);
  }
  return 0;
}

void TableView::widen_range(std::size_t r, std::size_t first, std::size_t count, float* out,
                            float scale) const {
  if (numbers == Numbers::Float32) {
    const float* row = floats(r) + first;
    if (scale == 1.0f)
      std::memcpy(out, row, count * sizeof(float));
    else
      for (std::size_t c = 0; c < count; ++c) out[c] = row[c] * scale;
    return;
  }
  const std::uint16_t* row = halves(r) + first;
  if (numbers == Numbers::BFloat16)
    for (std::size_t c = 0; c < count; ++c) out[c] = bf16_bits_to_f32(row[c]);
  else
    for (std::size_t c = 0; c < count; ++c) out[c] = f16_bits_to_f32(row[c]);
  if (scale != 1.0f)
    for (std::size_t c = 0; c < count; ++c) out[c] *= scale;
}

bool TableView::scan(std::size_t first, std::size_t end, float& largest) const {
  if (numbers == Numbers::Float32) {
    float high = largest;
    for (std::size_t k = first * cols; k < end * cols; ++k) {
      const float size = std::fabs(static_cast<const float*>(data)[k]);
      if (!(size <= 3.40282347e38f)) return false;  // infinity or NaN
      high = size > high ? size : high;
    }
    largest = high;
    return true;
  }
  // A 16-bit number's magnitude orders as its bits without the sign.
  const std::uint16_t all_ones = numbers == Numbers::BFloat16 ? 0x7F80u : 0x7C00u;
  std::uint16_t high = 0;
  for (std::size_t k = first * cols; k < end * cols; ++k) {
    const std::uint16_t size = static_cast<const std::uint16_t*>(data)[k] & 0x7FFFu;
    if ((size & all_ones) == all_ones) return false;
    high = size > high ? size : high;
  }
  const float widened = numbers == Numbers::BFloat16 ? bf16_bits_to_f32(high) : f16_bits_to_f32(high);
  largest = widened > largest ? widened : largest;
  return true;
}

float TableView::row_magnitude(std::size_t r) const {
  float largest = 0;
  scan(r, r + 1, largest);
  return largest;
}

float range_scale(float largest) {
  if (!(largest > 0) || (largest >= 0x1p-40f && largest <= 0x1p40f)) return 1.0f;
  int exponent = 0;
  std::frexp(largest, &exponent);  // largest = m 2^exponent, m in [0.5, 1)
  if (exponent > 126) exponent = 126;
  if (exponent < -126) exponent = -126;
  return std::ldexp(1.0f, -exponent);
}

namespace {

// layout_dot of two rows widened and scaled a piece at a time.
float scaled_dot(const TableView& table, std::size_t i, std::size_t j, float scale_i, float scale_j) {
  constexpr std::size_t kPiece = 512;
  float a[kPiece], b[kPiece];
  DotLanes lanes;
  for (std::size_t begin = 0; begin < table.cols; begin += kPiece) {
    const std::size_t n = table.cols - begin < kPiece ? table.cols - begin : kPiece;
    table.widen_range(i, begin, n, a, scale_i);
    table.widen_range(j, begin, n, b, scale_j);
    lanes.add(a, b, n);
  }
  return lanes.sum();
}

// The eight partial sums of layout_dot, taken from two vectors that hold
// the even lanes (0, 2, 4, 6) and the odd ones (1, 3, 5, 7).
template <typename Load>
float finish_sixteen(DotLanes& lanes, const float* even, const float* odd, std::size_t k, std::size_t n,
                     Load widen, const std::uint16_t* a, const std::uint16_t* b) {
  for (int m = 0; m < 4; ++m) {
    lanes.p[2 * m] = even[m];
    lanes.p[2 * m + 1] = odd[m];
  }
  for (std::size_t lane = 0; k < n; ++k, ++lane) lanes.p[lane] += widen(a[k]) * widen(b[k]);
  return lanes.sum();
}

#if defined(EMBEDDINGS_LAYOUT_SIMD)
using namespace simd;
#endif

#if defined(EMBEDDINGS_LAYOUT_SIMD)
template <bool kBFloat16>
float sixteen_dot(const std::uint16_t* a, const std::uint16_t* b, std::size_t n) {
  Vector even = zero(), odd = zero();
  std::size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const auto va = load(a + k), vb = load(b + k);
    if (kBFloat16) {
      even = mul_add(even, bf16_even(va), bf16_even(vb));
      odd = mul_add(odd, bf16_odd(va), bf16_odd(vb));
    } else {
      even = mul_add(even, f16_even(va), f16_even(vb));
      odd = mul_add(odd, f16_odd(va), f16_odd(vb));
    }
  }
  float even_lanes[4], odd_lanes[4];
  store(even_lanes, even);
  store(odd_lanes, odd);
  DotLanes lanes;
  return finish_sixteen(lanes, even_lanes, odd_lanes, k, n, kBFloat16 ? bf16_bits_to_f32 : f16_bits_to_f32, a,
                        b);
}

template <bool kBFloat16>
void four_sixteen_dots(const std::uint16_t* u, const std::uint16_t* const v[4], std::size_t n, float out[4]) {
  Vector even[4] = {zero(), zero(), zero(), zero()}, odd[4] = {zero(), zero(), zero(), zero()};
  std::size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const auto a = load(u + k);
    const Vector a_even = kBFloat16 ? bf16_even(a) : f16_even(a),
                 a_odd = kBFloat16 ? bf16_odd(a) : f16_odd(a);
    for (int j = 0; j < 4; ++j) {
      const auto b = load(v[j] + k);
      even[j] = mul_add(even[j], a_even, kBFloat16 ? bf16_even(b) : f16_even(b));
      odd[j] = mul_add(odd[j], a_odd, kBFloat16 ? bf16_odd(b) : f16_odd(b));
    }
  }
  for (int j = 0; j < 4; ++j) {
    float even_lanes[4], odd_lanes[4];
    store(even_lanes, even[j]);
    store(odd_lanes, odd[j]);
    DotLanes lanes;
    out[j] = finish_sixteen(lanes, even_lanes, odd_lanes, k, n,
                            kBFloat16 ? bf16_bits_to_f32 : f16_bits_to_f32, u, v[j]);
  }
}
#endif

}  // namespace

void row_dots4(const TableView& table, std::size_t u, const std::size_t v[4], const float scales[5],
               float out[4]) {
#if defined(EMBEDDINGS_LAYOUT_SIMD)
  const bool unscaled =
      scales[0] == 1.0f && scales[1] == 1.0f && scales[2] == 1.0f && scales[3] == 1.0f && scales[4] == 1.0f;
  if (unscaled && table.numbers == Numbers::Float32) {
    const float* rows[4] = {table.floats(v[0]), table.floats(v[1]), table.floats(v[2]), table.floats(v[3])};
    return layout_dots4(table.floats(u), rows, table.cols, out);
  }
  if (unscaled) {
    const std::uint16_t* rows[4] = {table.halves(v[0]), table.halves(v[1]), table.halves(v[2]),
                                    table.halves(v[3])};
    if (table.numbers == Numbers::BFloat16)
      return four_sixteen_dots<true>(table.halves(u), rows, table.cols, out);
    return four_sixteen_dots<false>(table.halves(u), rows, table.cols, out);
  }
#endif
  for (int j = 0; j < 4; ++j) out[j] = row_dot(table, u, v[j], scales[0], scales[j + 1]);
}

float row_dot(const TableView& table, std::size_t i, std::size_t j, float scale_i, float scale_j) {
  if (scale_i != 1.0f || scale_j != 1.0f) return scaled_dot(table, i, j, scale_i, scale_j);
  switch (table.numbers) {
    case Numbers::Float32: return layout_dot(table.floats(i), table.floats(j), table.cols);
#if defined(EMBEDDINGS_LAYOUT_SIMD)
    case Numbers::BFloat16: return sixteen_dot<true>(table.halves(i), table.halves(j), table.cols);
    case Numbers::Float16: return sixteen_dot<false>(table.halves(i), table.halves(j), table.cols);
#else
    default: break;
#endif
  }
  return scaled_dot(table, i, j, 1.0f, 1.0f);
}

}  // namespace embeddings::layout
