// The kernels' scalar parts, the same for every backend: the range where
// float32 sums are safe, the double-precision fallback, the ranking order.
// A backend's file (haswell.cpp) includes this before it switches its
// instruction set on, so that these inline functions, like the standard
// library's, compile for the baseline CPU in every file: whichever copy the
// linker keeps runs everywhere.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "embeddings/kernels/backends.h"
#include "embeddings/kernels/kernels.h"
#include "widen.h"

namespace embeddings::kernels {

// Float32 squared norms in this range make every product and partial sum of
// a cosine safe in float32 (kernels.h, "Float32's whole range"): at most
// 2^100, with underflowing products below n * 2^-50 of a score.
inline constexpr float kSafeSquaredNormMin = 0x1p-100f;
inline constexpr float kSafeSquaredNormMax = 0x1p100f;
inline bool squared_norm_is_safe(float squared) {
  return squared >= kSafeSquaredNormMin && squared <= kSafeSquaredNormMax;  // false for NaN
}

// A row's factor in a score, 1 / |row|, or this when the row's cosines must
// be computed in double (squared norm outside the safe range, or NaN).
inline constexpr float kScoreInDouble = -1.0f;
inline float row_factor(float squared_norm) {
  return squared_norm_is_safe(squared_norm)
             ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(squared_norm)))
             : kScoreInDouble;
}

// A query outside the safe range is scaled by a power of two into it (exact,
// bar components below 2^-149 of the largest, far below a score's
// precision) and takes the float32 path; up to this width, on the stack.
// Wider ones are scored in double.
inline constexpr std::size_t kScaledQueryMaxCols = 2048;

// out = q * 2^-e with the largest |q[k]| in [0.5, 1); false for a zero, NaN
// or infinite q (those keep the double path and its rules).
inline bool scale_into_range(const float* q, std::size_t n, float* out) {
  float largest = 0;
  for (std::size_t k = 0; k < n; ++k) largest = std::max(largest, std::fabs(q[k]));  // NaN is dropped here
  if (!(largest > 0) || !std::isfinite(largest)) return false;
  // The exponent from the bits (no libm: frexp and ldexp cost the module a
  // kilobyte): largest < 2^exponent, and at least 2^(exponent - 24) for a
  // subnormal largest, so the scaled squared norm is at least 2^-48.
  std::uint32_t bits;
  std::memcpy(&bits, &largest, sizeof bits);
  const int biased = static_cast<int>((bits >> 23) & 0xff);
  const int exponent = biased == 0 ? -126 : biased - 126;
  const std::uint64_t factor_bits = static_cast<std::uint64_t>(1023 - exponent) << 52;  // 2^-exponent
  double factor;
  std::memcpy(&factor, &factor_bits, sizeof factor);
  for (std::size_t k = 0; k < n; ++k) {
    if (std::isnan(q[k])) return false;
    out[k] = static_cast<float>(static_cast<double>(q[k]) * factor);
  }
  return true;
}

// cosine_reference of a float32 vector and a 16-bit row (either format:
// one function for both, as it is rarely run), with its arithmetic term for
// term: the same double as for that row converted to float32.
[[gnu::noinline]] inline double cosine_in_double_16(const float* a, TableNumbers b, std::size_t n) {
  const auto* bits = static_cast<const std::uint16_t*>(b.data);
  const bool half = b.format == NumberFormat::F16;
  DotAndNorms sums;
  for (std::size_t k = 0; k < n; ++k) {
    const double x = a[k], y = half ? f16_bits_to_f32(bits[k]) : bf16_bits_to_f32(bits[k]);
    sums.ab += x * y;
    sums.aa += x * x;
    sums.bb += y * y;
  }
  if (std::isnan(sums.ab) || std::isnan(sums.aa) || std::isnan(sums.bb)) return NAN;
  if (sums.aa == 0 || sums.bb == 0) return 0;
  return std::clamp(sums.ab / std::sqrt(sums.aa * sums.bb), -1.0, 1.0);
}

// cosine_reference of a float32 vector and a row of any format.
template <class R>
double cosine_in_double(const float* a, const R* b, std::size_t n) {
  if constexpr (std::is_same_v<R, float>) {
    return cosine_reference(a, b, n);
  } else {
    return cosine_in_double_16(a, TableNumbers(b, R::kFormat), n);
  }
}

// The score of a pair from a float32 dot product and the two factors, or the
// reference's when either factor says so.
template <class R>
float pair_score(float dot, float factor_a, float factor_b, const float* a, const R* b, std::size_t n) {
  if (factor_a < 0 || factor_b < 0) return static_cast<float>(cosine_in_double(a, b, n));
  return std::clamp(dot * factor_a * factor_b, -1.0f, 1.0f);
}

// cosine_from_sums (kernels.h), here so that cosine() inlines it.
inline float cosine_of_sums(double ab, double aa, double bb) {
  if (std::isnan(ab) || std::isnan(aa) || std::isnan(bb)) return NAN;
  if (aa <= 0 || bb <= 0) return 0.0f;
  const double c = ab / std::sqrt(aa * bb);
  if (std::isnan(c)) return NAN;  // inf / inf
  return static_cast<float>(std::clamp(c, -1.0, 1.0));
}

// Ranking order for top_k: larger score first, then smaller index; NaN last.
inline bool ranks_before(float score_a, std::int32_t index_a, float score_b, std::int32_t index_b) {
  const bool nan_a = std::isnan(score_a), nan_b = std::isnan(score_b);
  if (nan_a != nan_b) return nan_b;
  if (!nan_a && score_a != score_b) return score_a > score_b;
  return index_a < index_b;
}

}  // namespace embeddings::kernels
