// Four float32 lanes, the same operations in WebAssembly SIMD and SSE2, for
// the layouts' hand-vectorised loops (table.cpp, pca_krylov.cpp,
// umap_repulsion.cpp): the one SIMD shim of the layouts. Each
// operation rounds as its scalar counterpart does, lane by lane, and none
// fuses a multiply with an add, so a loop written with them gives the same
// bits on either backend as the plain loop it replaces.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define EMBEDDINGS_LAYOUT_SIMD 1
#elif defined(__SSE2__)
#include <emmintrin.h>
#define EMBEDDINGS_LAYOUT_SIMD 1
#endif

#if defined(EMBEDDINGS_LAYOUT_SIMD)
namespace embeddings::layout::simd {

#if defined(__wasm_simd128__)
using Vector = v128_t;
using Bits = v128_t;  // eight 16-bit numbers, or four 32-bit ones
inline Vector zero() { return wasm_f32x4_splat(0.0f); }
inline Vector splat(float x) { return wasm_f32x4_splat(x); }
inline Vector add(Vector x, Vector y) { return wasm_f32x4_add(x, y); }
inline Vector sub(Vector x, Vector y) { return wasm_f32x4_sub(x, y); }
inline Vector mul(Vector x, Vector y) { return wasm_f32x4_mul(x, y); }
inline Vector divide(Vector x, Vector y) { return wasm_f32x4_div(x, y); }
// x < y ? x : y and x > y ? x : y, lane by lane, as the scalar ternaries.
inline Vector min(Vector x, Vector y) { return wasm_f32x4_pmin(y, x); }
inline Vector max(Vector x, Vector y) { return wasm_f32x4_pmax(y, x); }
inline Vector floor(Vector x) { return wasm_f32x4_floor(x); }
// All ones in the lanes where x > y, else zero: a mask for select and keep.
inline Vector greater(Vector x, Vector y) { return wasm_f32x4_gt(x, y); }
inline Vector select(Vector mask, Vector if_set, Vector if_clear) {
  return wasm_v128_bitselect(if_set, if_clear, mask);
}
inline Vector keep(Vector v, Vector mask) { return wasm_v128_and(v, mask); }
// A positive normal number's unbiased exponent, as a float, and its mantissa
// as a number in [1, 2); and 2^n for whole n in [-126, 127].
inline Vector exponent_of(Vector x) {
  return wasm_f32x4_convert_i32x4(wasm_i32x4_sub(wasm_u32x4_shr(x, 23), wasm_i32x4_splat(127)));
}
inline Vector mantissa_of(Vector x) {
  return wasm_v128_or(wasm_v128_and(x, wasm_i32x4_splat(0x007FFFFF)), wasm_i32x4_splat(0x3F800000));
}
inline Vector two_to_the(Vector n) {
  return wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
}
inline Vector load_floats(const float* p) { return wasm_v128_load(p); }
inline void store(float* out, Vector v) { wasm_v128_store(out, v); }
inline Bits load(const std::uint16_t* p) { return wasm_v128_load(p); }
// A vector of eight bfloat16 numbers as float32: the even elements (shifted
// into the high half of each 32-bit lane) and the odd ones (already there).
inline Vector bf16_even(Bits v) { return wasm_i32x4_shl(v, 16); }
inline Vector bf16_odd(Bits v) { return wasm_v128_and(v, wasm_i32x4_splat(static_cast<int>(0xFFFF0000u))); }
// Four halves in the low 16 bits of each lane, as float32 (finite ones: the
// table is checked before it is read).
inline Vector f16_widen(Bits h) {
  const Vector sign = wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x8000)), 16);
  const Vector moved = wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x7FFF)), 13);
  return wasm_v128_or(wasm_f32x4_mul(moved, wasm_f32x4_splat(0x1p112f)), sign);
}
inline Vector f16_even(Bits v) { return f16_widen(wasm_v128_and(v, wasm_i32x4_splat(0xFFFF))); }
inline Vector f16_odd(Bits v) { return f16_widen(wasm_u32x4_shr(v, 16)); }
// Eight bfloat16 numbers as float32, in order: the first four, the last four.
inline Vector bf16_low(Bits v) {
  return wasm_i16x8_shuffle(wasm_i16x8_splat(0), v, 0, 8, 1, 9, 2, 10, 3, 11);
}
inline Vector bf16_high(Bits v) {
  return wasm_i16x8_shuffle(wasm_i16x8_splat(0), v, 4, 12, 5, 13, 6, 14, 7, 15);
}
// Four numbers less four doubles, each difference taken in double and
// rounded once to float32 (the centring of pca.cpp).
inline Vector sub_in_double(Vector x, const double* minus) {
  using F64x2 = double __attribute__((vector_size(16)));
  using F32x2 = float __attribute__((vector_size(8)));
  using F32x4 = float __attribute__((vector_size(16)));
  const F32x4 lanes = (F32x4)x;
  const F32x2 low_in = __builtin_shufflevector(lanes, lanes, 0, 1),
              high_in = __builtin_shufflevector(lanes, lanes, 2, 3);
  const F64x2 low = __builtin_convertvector(low_in, F64x2) - (F64x2)wasm_v128_load(minus);
  const F64x2 high = __builtin_convertvector(high_in, F64x2) - (F64x2)wasm_v128_load(minus + 2);
  const F32x2 low_out = __builtin_convertvector(low, F32x2), high_out = __builtin_convertvector(high, F32x2);
  return (Vector)__builtin_shufflevector(low_out, high_out, 0, 1, 2, 3);
}
#else
using Vector = __m128;
using Bits = __m128i;
inline Vector zero() { return _mm_setzero_ps(); }
inline Vector splat(float x) { return _mm_set1_ps(x); }
inline Vector add(Vector x, Vector y) { return _mm_add_ps(x, y); }
inline Vector sub(Vector x, Vector y) { return _mm_sub_ps(x, y); }
inline Vector mul(Vector x, Vector y) { return _mm_mul_ps(x, y); }
inline Vector divide(Vector x, Vector y) { return _mm_div_ps(x, y); }
inline Vector min(Vector x, Vector y) { return _mm_min_ps(x, y); }
inline Vector max(Vector x, Vector y) { return _mm_max_ps(x, y); }
// SSE2 has no floor: the truncation, less one where it rounded up (exact for
// |x| < 2^31; the layouts' arguments are far smaller).
inline Vector floor(Vector x) {
  const Vector truncated = _mm_cvtepi32_ps(_mm_cvttps_epi32(x));
  return _mm_sub_ps(truncated, _mm_and_ps(_mm_cmpgt_ps(truncated, x), _mm_set1_ps(1.0f)));
}
inline Vector greater(Vector x, Vector y) { return _mm_cmpgt_ps(x, y); }
inline Vector select(Vector mask, Vector if_set, Vector if_clear) {
  return _mm_or_ps(_mm_and_ps(mask, if_set), _mm_andnot_ps(mask, if_clear));
}
inline Vector keep(Vector v, Vector mask) { return _mm_and_ps(v, mask); }
inline Vector exponent_of(Vector x) {
  return _mm_cvtepi32_ps(_mm_sub_epi32(_mm_srli_epi32(_mm_castps_si128(x), 23), _mm_set1_epi32(127)));
}
inline Vector mantissa_of(Vector x) {
  return _mm_castsi128_ps(_mm_or_si128(_mm_and_si128(_mm_castps_si128(x), _mm_set1_epi32(0x007FFFFF)),
                                       _mm_set1_epi32(0x3F800000)));
}
inline Vector two_to_the(Vector n) {
  return _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(_mm_cvttps_epi32(n), _mm_set1_epi32(127)), 23));
}
inline Vector load_floats(const float* p) { return _mm_loadu_ps(p); }
inline void store(float* out, Vector v) { _mm_storeu_ps(out, v); }
inline Bits load(const std::uint16_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline Vector bf16_even(Bits v) { return _mm_castsi128_ps(_mm_slli_epi32(v, 16)); }
inline Vector bf16_odd(Bits v) {
  return _mm_castsi128_ps(_mm_and_si128(v, _mm_set1_epi32(static_cast<int>(0xFFFF0000u))));
}
inline Vector f16_widen(Bits h) {
  const __m128i sign = _mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x8000)), 16);
  const __m128i moved = _mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x7FFF)), 13);
  return _mm_or_ps(_mm_mul_ps(_mm_castsi128_ps(moved), _mm_set1_ps(0x1p112f)), _mm_castsi128_ps(sign));
}
inline Vector f16_even(Bits v) { return f16_widen(_mm_and_si128(v, _mm_set1_epi32(0xFFFF))); }
inline Vector f16_odd(Bits v) { return f16_widen(_mm_srli_epi32(v, 16)); }
inline Vector bf16_low(Bits v) { return _mm_castsi128_ps(_mm_unpacklo_epi16(_mm_setzero_si128(), v)); }
inline Vector bf16_high(Bits v) { return _mm_castsi128_ps(_mm_unpackhi_epi16(_mm_setzero_si128(), v)); }
inline Vector sub_in_double(Vector x, const double* minus) {
  const __m128d low = _mm_sub_pd(_mm_cvtps_pd(x), _mm_loadu_pd(minus));
  const __m128d high = _mm_sub_pd(_mm_cvtps_pd(_mm_movehl_ps(x, x)), _mm_loadu_pd(minus + 2));
  return _mm_movelh_ps(_mm_cvtpd_ps(low), _mm_cvtpd_ps(high));
}
#endif

// sum + x * y, rounded after the product and after the sum.
inline Vector mul_add(Vector sum, Vector x, Vector y) { return add(sum, mul(x, y)); }

}  // namespace embeddings::layout::simd
#endif
