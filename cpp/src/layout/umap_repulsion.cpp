// UMAP's negative samples (umap.cpp), four at a time: the repulsion of four
// random points from the moving one, in WebAssembly SIMD, SSE4.1 or plain
// C++ with the same float32 operations lane by lane, and one lane of it
// (repulsion_scalar), the tests' oracle (layout.h).
#include <cmath>
#include <cstdint>
#include <cstring>

#include "embeddings/layout/layout.h"
#include "umap_internal.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace embeddings::layout {
namespace {

// The repulsion of four random points (differences nx, ny from the moving
// point), summed: the same float32 operations lane by lane in WebAssembly
// SIMD, SSE4.1 or plain C++, so the bits agree everywhere. Lanes whose
// distance is 0 (the point itself, or padding) push nothing. x^b is
// exp(b log x) to about 2e-7 relative: log by the atanh series to s^7 around
// a mantissa in [sqrt(1/2), sqrt(2)), exp by a degree-6 polynomial.
constexpr float kSqrt2 = 1.41421356f, kLn2f = 0.693147181f, kLog2ef = 1.44269504f;
constexpr float kLn2Highf = 0.693145752f, kLn2Lowf = 1.42860677e-6f;  // kLn2Highf * n is exact for |n| < 2^11

}  // namespace

float repulsion_scalar(float nx, float ny, const Repulsion& r, float& out_y) {
  const float d2 = nx * nx + ny * ny;
  std::uint32_t bits;
  std::memcpy(&bits, &d2, sizeof bits);
  float e = static_cast<float>(static_cast<std::int32_t>(bits >> 23) - 127);
  bits = (bits & 0x007FFFFFu) | 0x3F800000u;
  float m;
  std::memcpy(&m, &bits, sizeof m);
  const bool high = m > kSqrt2;
  m = high ? m * 0.5f : m;
  e = high ? e + 1.0f : e;
  const float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
  const float log_d2 =
      (2.0f * s) * (1.0f + s2 * (0.333333343f + s2 * (0.2f + s2 * 0.142857149f))) + e * kLn2f;
  float t = r.b * log_d2;
  t = t > 80.0f ? 80.0f : (t < -80.0f ? -80.0f : t);
  const float n = std::floor(t * kLog2ef + 0.5f);
  const float q = (t - n * kLn2Highf) - n * kLn2Lowf, q2 = q * q;
  const float poly = ((1.0f + q) + q2 * (0.5f + q * 0.166666672f)) +
                     (q2 * q2) * ((0.0416666679f + q * 0.00833333377f) + q2 * 0.00138888892f);
  const std::uint32_t scale_bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  const float power = poly * scale;  // d2^b
  const float push = r.two_gamma_b / ((0.001f + d2) * (r.a * power + 1.0f));
  const bool live = d2 > 0.0f;
  out_y = live ? clip(push * ny) * r.alpha : 0.0f;
  return live ? clip(push * nx) * r.alpha : 0.0f;
}

// Sums of the four lanes' pushes, ((0 + 1) + (2 + 3)), into push_x, push_y.
void repulsion4(const float* nx, const float* ny, const Repulsion& r, float& push_x, float& push_y) {
  float gx[4], gy[4];
#if defined(__wasm_simd128__)
  const v128_t x = wasm_v128_load(nx), y = wasm_v128_load(ny);
  const v128_t d2 = wasm_f32x4_add(wasm_f32x4_mul(x, x), wasm_f32x4_mul(y, y));
  v128_t e = wasm_f32x4_convert_i32x4(wasm_i32x4_sub(wasm_u32x4_shr(d2, 23), wasm_i32x4_splat(127)));
  v128_t m = wasm_v128_or(wasm_v128_and(d2, wasm_i32x4_splat(0x007FFFFF)), wasm_i32x4_splat(0x3F800000));
  const v128_t high = wasm_f32x4_gt(m, wasm_f32x4_splat(kSqrt2));
  m = wasm_v128_bitselect(wasm_f32x4_mul(m, wasm_f32x4_splat(0.5f)), m, high);
  e = wasm_v128_bitselect(wasm_f32x4_add(e, wasm_f32x4_splat(1.0f)), e, high);
  const v128_t one = wasm_f32x4_splat(1.0f);
  const v128_t s = wasm_f32x4_div(wasm_f32x4_sub(m, one), wasm_f32x4_add(m, one)), s2 = wasm_f32x4_mul(s, s);
  v128_t series = wasm_f32x4_add(wasm_f32x4_splat(0.2f), wasm_f32x4_mul(s2, wasm_f32x4_splat(0.142857149f)));
  series = wasm_f32x4_add(wasm_f32x4_splat(0.333333343f), wasm_f32x4_mul(s2, series));
  series = wasm_f32x4_add(one, wasm_f32x4_mul(s2, series));
  const v128_t log_d2 = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_add(s, s), series),
                                       wasm_f32x4_mul(e, wasm_f32x4_splat(kLn2f)));
  v128_t t = wasm_f32x4_mul(wasm_f32x4_splat(r.b), log_d2);
  t = wasm_f32x4_pmax(wasm_f32x4_pmin(t, wasm_f32x4_splat(80.0f)), wasm_f32x4_splat(-80.0f));
  const v128_t n =
      wasm_f32x4_floor(wasm_f32x4_add(wasm_f32x4_mul(t, wasm_f32x4_splat(kLog2ef)), wasm_f32x4_splat(0.5f)));
  const v128_t q = wasm_f32x4_sub(wasm_f32x4_sub(t, wasm_f32x4_mul(n, wasm_f32x4_splat(kLn2Highf))),
                                  wasm_f32x4_mul(n, wasm_f32x4_splat(kLn2Lowf)));
  const v128_t q2 = wasm_f32x4_mul(q, q);
  const v128_t low_part = wasm_f32x4_add(
      wasm_f32x4_add(one, q),
      wasm_f32x4_mul(
          q2, wasm_f32x4_add(wasm_f32x4_splat(0.5f), wasm_f32x4_mul(q, wasm_f32x4_splat(0.166666672f)))));
  const v128_t high_part = wasm_f32x4_add(
      wasm_f32x4_add(wasm_f32x4_splat(0.0416666679f), wasm_f32x4_mul(q, wasm_f32x4_splat(0.00833333377f))),
      wasm_f32x4_mul(q2, wasm_f32x4_splat(0.00138888892f)));
  const v128_t poly = wasm_f32x4_add(low_part, wasm_f32x4_mul(wasm_f32x4_mul(q2, q2), high_part));
  const v128_t scale =
      wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
  const v128_t power = wasm_f32x4_mul(poly, scale);
  const v128_t push =
      wasm_f32x4_div(wasm_f32x4_splat(r.two_gamma_b),
                     wasm_f32x4_mul(wasm_f32x4_add(wasm_f32x4_splat(0.001f), d2),
                                    wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(r.a), power), one)));
  const v128_t live = wasm_f32x4_gt(d2, wasm_f32x4_splat(0.0f));
  const v128_t four = wasm_f32x4_splat(4.0f), minus_four = wasm_f32x4_splat(-4.0f),
               alpha = wasm_f32x4_splat(r.alpha);
  auto clipped = [&](v128_t v) { return wasm_f32x4_pmax(wasm_f32x4_pmin(v, four), minus_four); };
  wasm_v128_store(gx, wasm_v128_and(wasm_f32x4_mul(clipped(wasm_f32x4_mul(push, x)), alpha), live));
  wasm_v128_store(gy, wasm_v128_and(wasm_f32x4_mul(clipped(wasm_f32x4_mul(push, y)), alpha), live));
#elif defined(__SSE4_1__)
  const __m128 x = _mm_loadu_ps(nx), y = _mm_loadu_ps(ny);
  const __m128 d2 = _mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y));
  const __m128i bits = _mm_castps_si128(d2);
  __m128 e = _mm_cvtepi32_ps(_mm_sub_epi32(_mm_srli_epi32(bits, 23), _mm_set1_epi32(127)));
  __m128 m = _mm_castsi128_ps(
      _mm_or_si128(_mm_and_si128(bits, _mm_set1_epi32(0x007FFFFF)), _mm_set1_epi32(0x3F800000)));
  const __m128 high = _mm_cmpgt_ps(m, _mm_set1_ps(kSqrt2));
  m = _mm_blendv_ps(m, _mm_mul_ps(m, _mm_set1_ps(0.5f)), high);
  e = _mm_blendv_ps(e, _mm_add_ps(e, _mm_set1_ps(1.0f)), high);
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 s = _mm_div_ps(_mm_sub_ps(m, one), _mm_add_ps(m, one)), s2 = _mm_mul_ps(s, s);
  __m128 series = _mm_add_ps(_mm_set1_ps(0.2f), _mm_mul_ps(s2, _mm_set1_ps(0.142857149f)));
  series = _mm_add_ps(_mm_set1_ps(0.333333343f), _mm_mul_ps(s2, series));
  series = _mm_add_ps(one, _mm_mul_ps(s2, series));
  const __m128 log_d2 = _mm_add_ps(_mm_mul_ps(_mm_add_ps(s, s), series), _mm_mul_ps(e, _mm_set1_ps(kLn2f)));
  __m128 t = _mm_mul_ps(_mm_set1_ps(r.b), log_d2);
  t = _mm_max_ps(_mm_min_ps(t, _mm_set1_ps(80.0f)), _mm_set1_ps(-80.0f));
  const __m128 n = _mm_floor_ps(_mm_add_ps(_mm_mul_ps(t, _mm_set1_ps(kLog2ef)), _mm_set1_ps(0.5f)));
  const __m128 q =
      _mm_sub_ps(_mm_sub_ps(t, _mm_mul_ps(n, _mm_set1_ps(kLn2Highf))), _mm_mul_ps(n, _mm_set1_ps(kLn2Lowf)));
  const __m128 q2 = _mm_mul_ps(q, q);
  const __m128 low_part =
      _mm_add_ps(_mm_add_ps(one, q),
                 _mm_mul_ps(q2, _mm_add_ps(_mm_set1_ps(0.5f), _mm_mul_ps(q, _mm_set1_ps(0.166666672f)))));
  const __m128 high_part =
      _mm_add_ps(_mm_add_ps(_mm_set1_ps(0.0416666679f), _mm_mul_ps(q, _mm_set1_ps(0.00833333377f))),
                 _mm_mul_ps(q2, _mm_set1_ps(0.00138888892f)));
  const __m128 poly = _mm_add_ps(low_part, _mm_mul_ps(_mm_mul_ps(q2, q2), high_part));
  const __m128 scale =
      _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(_mm_cvttps_epi32(n), _mm_set1_epi32(127)), 23));
  const __m128 power = _mm_mul_ps(poly, scale);
  const __m128 push = _mm_div_ps(
      _mm_set1_ps(r.two_gamma_b),
      _mm_mul_ps(_mm_add_ps(_mm_set1_ps(0.001f), d2), _mm_add_ps(_mm_mul_ps(_mm_set1_ps(r.a), power), one)));
  const __m128 live = _mm_cmpgt_ps(d2, _mm_setzero_ps());
  const __m128 four = _mm_set1_ps(4.0f), minus_four = _mm_set1_ps(-4.0f), alpha = _mm_set1_ps(r.alpha);
  auto clipped = [&](__m128 v) { return _mm_max_ps(_mm_min_ps(v, four), minus_four); };
  _mm_storeu_ps(gx, _mm_and_ps(_mm_mul_ps(clipped(_mm_mul_ps(push, x)), alpha), live));
  _mm_storeu_ps(gy, _mm_and_ps(_mm_mul_ps(clipped(_mm_mul_ps(push, y)), alpha), live));
#else
  for (int lane = 0; lane < 4; ++lane) gx[lane] = repulsion_scalar(nx[lane], ny[lane], r, gy[lane]);
#endif
  push_x += (gx[0] + gx[1]) + (gx[2] + gx[3]);
  push_y += (gy[0] + gy[1]) + (gy[2] + gy[3]);
}

}  // namespace embeddings::layout
