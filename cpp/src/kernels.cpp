#include "embeddings/kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace embeddings::kernels {

// ---- Reference ---------------------------------------------------------------

double dot_reference(const float* a, const float* b, std::size_t n) {
  double sum = 0;
  for (std::size_t k = 0; k < n; ++k) sum += static_cast<double>(a[k]) * static_cast<double>(b[k]);
  return sum;
}

double cosine_reference(const float* a, const float* b, std::size_t n) {
  const double ab = dot_reference(a, b, n);
  const double aa = dot_reference(a, a, n);
  const double bb = dot_reference(b, b, n);
  if (aa == 0 || bb == 0) return 0;
  return std::clamp(ab / std::sqrt(aa * bb), -1.0, 1.0);
}

void cosine_scores_reference(const float* query, const float* table, std::size_t rows, std::size_t cols,
                             double* out) {
  for (std::size_t r = 0; r < rows; ++r) out[r] = cosine_reference(query, table + r * cols, cols);
}

// ---- Backends ----------------------------------------------------------------
// Each backend is a tiny set of vector operations; the kernels below are
// written once against it. Loads are unaligned: rows of a table start
// wherever the table's width puts them.

namespace {

#if defined(__wasm_simd128__)
struct Backend {
  using V = v128_t;
  static constexpr std::size_t kLanes = 4;
  static constexpr const char* kName = "wasm-simd128";
  static V zero() { return wasm_f32x4_splat(0.0f); }
  static V load(const float* p) { return wasm_v128_load(p); }
  static void store(float* p, V v) { wasm_v128_store(p, v); }
  static V add(V a, V b) { return wasm_f32x4_add(a, b); }
  // No fused multiply-add in baseline WebAssembly SIMD.
  static V mul_add(V acc, V a, V b) { return wasm_f32x4_add(acc, wasm_f32x4_mul(a, b)); }
  static float sum(V v) {
    return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
           (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
  }
  // The sums of four vectors at once, as {sum(a), sum(b), sum(c), sum(d)}.
  static void sum4(V a, V b, V c, V d, float out[4]) {
    const V ab = wasm_f32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
    const V cd = wasm_f32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
    wasm_v128_store(out, wasm_f32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7)));
  }
  // True when every one of the kLanes numbers at p is less than t (false for NaN).
  static bool all_less(const float* p, float t) {
    return wasm_i32x4_all_true(wasm_f32x4_lt(wasm_v128_load(p), wasm_f32x4_splat(t)));
  }
};
#elif defined(__AVX2__) && defined(__FMA__)
struct Backend {
  using V = __m256;
  static constexpr std::size_t kLanes = 8;
  static constexpr const char* kName = "avx2-fma";
  static V zero() { return _mm256_setzero_ps(); }
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V mul_add(V acc, V a, V b) { return _mm256_fmadd_ps(a, b, acc); }
  static float sum(V v) {
    const __m128 half = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 quarter = _mm_add_ps(half, _mm_movehl_ps(half, half));
    return _mm_cvtss_f32(_mm_add_ss(quarter, _mm_movehdup_ps(quarter)));
  }
  static void sum4(V a, V b, V c, V d, float out[4]) {
    const __m128 a4 = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    const __m128 b4 = _mm_add_ps(_mm256_castps256_ps128(b), _mm256_extractf128_ps(b, 1));
    const __m128 c4 = _mm_add_ps(_mm256_castps256_ps128(c), _mm256_extractf128_ps(c, 1));
    const __m128 d4 = _mm_add_ps(_mm256_castps256_ps128(d), _mm256_extractf128_ps(d, 1));
    const __m128 ab = _mm_add_ps(_mm_unpacklo_ps(a4, b4), _mm_unpackhi_ps(a4, b4));
    const __m128 cd = _mm_add_ps(_mm_unpacklo_ps(c4, d4), _mm_unpackhi_ps(c4, d4));
    _mm_storeu_ps(out, _mm_add_ps(_mm_movelh_ps(ab, cd), _mm_movehl_ps(cd, ab)));
  }
  static bool all_less(const float* p, float t) {
    return _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(p), _mm256_set1_ps(t), _CMP_LT_OQ)) == 0xFF;
  }
};
#else
// Portable: four floats in a struct; compilers keep them in registers.
struct Backend {
  struct V {
    float x[4];
  };
  static constexpr std::size_t kLanes = 4;
  static constexpr const char* kName = "portable";
  static V zero() { return V{{0, 0, 0, 0}}; }
  static V load(const float* p) {
    V v;
    std::memcpy(v.x, p, sizeof v.x);
    return v;
  }
  static void store(float* p, V v) { std::memcpy(p, v.x, sizeof v.x); }
  static V add(V a, V b) { return V{{a.x[0] + b.x[0], a.x[1] + b.x[1], a.x[2] + b.x[2], a.x[3] + b.x[3]}}; }
  static V mul_add(V acc, V a, V b) {
    return V{{acc.x[0] + a.x[0] * b.x[0], acc.x[1] + a.x[1] * b.x[1], acc.x[2] + a.x[2] * b.x[2],
              acc.x[3] + a.x[3] * b.x[3]}};
  }
  static float sum(V v) { return (v.x[0] + v.x[1]) + (v.x[2] + v.x[3]); }
  static void sum4(V a, V b, V c, V d, float out[4]) {
    out[0] = sum(a);
    out[1] = sum(b);
    out[2] = sum(c);
    out[3] = sum(d);
  }
  static bool all_less(const float* p, float t) { return p[0] < t && p[1] < t && p[2] < t && p[3] < t; }
};
#endif

using B = Backend;
constexpr std::size_t L = B::kLanes;

// Four independent accumulators hide the latency of the add (or FMA) chain.
inline float dot_fast(const float* a, const float* b, std::size_t n) {
  B::V s0 = B::zero(), s1 = B::zero(), s2 = B::zero(), s3 = B::zero();
  std::size_t k = 0;
  for (; k + 4 * L <= n; k += 4 * L) {
    s0 = B::mul_add(s0, B::load(a + k), B::load(b + k));
    s1 = B::mul_add(s1, B::load(a + k + L), B::load(b + k + L));
    s2 = B::mul_add(s2, B::load(a + k + 2 * L), B::load(b + k + 2 * L));
    s3 = B::mul_add(s3, B::load(a + k + 3 * L), B::load(b + k + 3 * L));
  }
  for (; k + L <= n; k += L) s0 = B::mul_add(s0, B::load(a + k), B::load(b + k));
  float total = B::sum(B::add(B::add(s0, s1), B::add(s2, s3)));
  for (; k < n; ++k) total += a[k] * b[k];
  return total;
}

// One pass for the three sums of a cosine: a and b are read once.
inline DotAndNorms dot_and_norms_fast(const float* a, const float* b, std::size_t n) {
  B::V ab0 = B::zero(), ab1 = B::zero(), aa0 = B::zero(), aa1 = B::zero(), bb0 = B::zero(), bb1 = B::zero();
  std::size_t k = 0;
  for (; k + 2 * L <= n; k += 2 * L) {
    const B::V x0 = B::load(a + k), y0 = B::load(b + k);
    const B::V x1 = B::load(a + k + L), y1 = B::load(b + k + L);
    ab0 = B::mul_add(ab0, x0, y0);
    aa0 = B::mul_add(aa0, x0, x0);
    bb0 = B::mul_add(bb0, y0, y0);
    ab1 = B::mul_add(ab1, x1, y1);
    aa1 = B::mul_add(aa1, x1, x1);
    bb1 = B::mul_add(bb1, y1, y1);
  }
  DotAndNorms sums;
  sums.ab = B::sum(B::add(ab0, ab1));
  sums.aa = B::sum(B::add(aa0, aa1));
  sums.bb = B::sum(B::add(bb0, bb1));
  for (; k < n; ++k) {
    sums.ab += a[k] * b[k];
    sums.aa += a[k] * a[k];
    sums.bb += b[k] * b[k];
  }
  return sums;
}

// Dot products of one query with four rows at once: each query load feeds
// four multiply-adds, and the four chains run independently.
inline void dot_four_rows(const float* q, const float* r0, const float* r1, const float* r2, const float* r3,
                          std::size_t n, float out[4]) {
  B::V s0 = B::zero(), s1 = B::zero(), s2 = B::zero(), s3 = B::zero();
  std::size_t k = 0;
  for (; k + L <= n; k += L) {
    const B::V x = B::load(q + k);
    s0 = B::mul_add(s0, x, B::load(r0 + k));
    s1 = B::mul_add(s1, x, B::load(r1 + k));
    s2 = B::mul_add(s2, x, B::load(r2 + k));
    s3 = B::mul_add(s3, x, B::load(r3 + k));
  }
  B::sum4(s0, s1, s2, s3, out);
  for (; k < n; ++k) {
    out[0] += q[k] * r0[k];
    out[1] += q[k] * r1[k];
    out[2] += q[k] * r2[k];
    out[3] += q[k] * r3[k];
  }
}

// One row's dot product with exactly the arithmetic dot_four_rows applies to
// each of its rows (one accumulator, the same horizontal sum, the same
// tail), so a row scores the same bits whether it was computed in a group
// of four or alone. Out of line: it is called rarely (a table's last rows, a
// map's diagonal, nearest()'s few rescored rows), and inlined copies cost size.
[[gnu::noinline]] float dot_row(const float* q, const float* r, std::size_t n) {
  B::V s = B::zero();
  std::size_t k = 0;
  for (; k + L <= n; k += L) s = B::mul_add(s, B::load(q + k), B::load(r + k));
  float out[4];
  B::sum4(s, s, s, s, out);
  for (; k < n; ++k) out[0] += q[k] * r[k];
  return out[0];
}

// Dot products of two rows a, b with four rows at once (a 2 x 4 tile): each
// load feeds two or four multiply-adds, eight chains run independently, and
// twelve vector registers suffice (WebAssembly engines on x86 have sixteen).
// out[0..3] = a . r0..r3, out[4..7] = b . r0..r3, each with dot_row's arithmetic.
inline void dot_two_by_four(const float* a, const float* b, const float* r0, const float* r1, const float* r2,
                            const float* r3, std::size_t n, float out[8]) {
  B::V a0 = B::zero(), a1 = B::zero(), a2 = B::zero(), a3 = B::zero();
  B::V b0 = B::zero(), b1 = B::zero(), b2 = B::zero(), b3 = B::zero();
  std::size_t k = 0;
  for (; k + L <= n; k += L) {
    const B::V x = B::load(a + k), y = B::load(b + k);
    B::V r = B::load(r0 + k);
    a0 = B::mul_add(a0, x, r);
    b0 = B::mul_add(b0, y, r);
    r = B::load(r1 + k);
    a1 = B::mul_add(a1, x, r);
    b1 = B::mul_add(b1, y, r);
    r = B::load(r2 + k);
    a2 = B::mul_add(a2, x, r);
    b2 = B::mul_add(b2, y, r);
    r = B::load(r3 + k);
    a3 = B::mul_add(a3, x, r);
    b3 = B::mul_add(b3, y, r);
  }
  B::sum4(a0, a1, a2, a3, out);
  B::sum4(b0, b1, b2, b3, out + 4);
  for (; k < n; ++k) {
    out[0] += a[k] * r0[k];
    out[1] += a[k] * r1[k];
    out[2] += a[k] * r2[k];
    out[3] += a[k] * r3[k];
    out[4] += b[k] * r0[k];
    out[5] += b[k] * r1[k];
    out[6] += b[k] * r2[k];
    out[7] += b[k] * r3[k];
  }
}

// ---- Quantized first pass for nearest() ----------------------------------------
// approx[r] = float(q16 . row r of values) * row_factors[r] * query_factor,
// the integer dot product exact (|sum| < 2^31 by the choice of limit).
// width is a multiple of 16; the padding is zero in q16 and in every row.
constexpr std::size_t kQuantizedAlign = 16;

inline std::int32_t quantized_dot_scalar(const std::int16_t* a, const std::int16_t* b, std::size_t width) {
  std::int32_t sum = 0;
  for (std::size_t k = 0; k < width; ++k) sum += static_cast<std::int32_t>(a[k]) * b[k];
  return sum;
}

void quantized_scores(const std::int16_t* q16, const std::int16_t* values, const float* row_factors,
                      float query_factor, std::size_t rows, std::size_t width, float* approx) {
  std::size_t r = 0;
#if defined(__wasm_simd128__)
  // i32x4.dot_i16x8_s: eight multiplies and four adds in one instruction,
  // twice the work per operation of the float kernel, on half the bytes.
  const v128_t factor = wasm_f32x4_splat(query_factor);
  for (; r + 4 <= rows; r += 4) {
    const std::int16_t* w0 = values + r * width;
    const std::int16_t *w1 = w0 + width, *w2 = w1 + width, *w3 = w2 + width;
    v128_t a0 = wasm_i32x4_splat(0), a1 = a0, a2 = a0, a3 = a0;
    // Two steps per iteration (width is a multiple of 16): less loop overhead.
    for (std::size_t k = 0; k < width; k += 16) {
      const v128_t x = wasm_v128_load(q16 + k), y = wasm_v128_load(q16 + k + 8);
      a0 = wasm_i32x4_add(a0, wasm_i32x4_add(wasm_i32x4_dot_i16x8(x, wasm_v128_load(w0 + k)),
                                             wasm_i32x4_dot_i16x8(y, wasm_v128_load(w0 + k + 8))));
      a1 = wasm_i32x4_add(a1, wasm_i32x4_add(wasm_i32x4_dot_i16x8(x, wasm_v128_load(w1 + k)),
                                             wasm_i32x4_dot_i16x8(y, wasm_v128_load(w1 + k + 8))));
      a2 = wasm_i32x4_add(a2, wasm_i32x4_add(wasm_i32x4_dot_i16x8(x, wasm_v128_load(w2 + k)),
                                             wasm_i32x4_dot_i16x8(y, wasm_v128_load(w2 + k + 8))));
      a3 = wasm_i32x4_add(a3, wasm_i32x4_add(wasm_i32x4_dot_i16x8(x, wasm_v128_load(w3 + k)),
                                             wasm_i32x4_dot_i16x8(y, wasm_v128_load(w3 + k + 8))));
    }
    const v128_t ab = wasm_i32x4_add(wasm_i32x4_shuffle(a0, a1, 0, 4, 1, 5), wasm_i32x4_shuffle(a0, a1, 2, 6, 3, 7));
    const v128_t cd = wasm_i32x4_add(wasm_i32x4_shuffle(a2, a3, 0, 4, 1, 5), wasm_i32x4_shuffle(a2, a3, 2, 6, 3, 7));
    const v128_t sums = wasm_i32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
    wasm_v128_store(approx + r, wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(sums),
                                                              wasm_v128_load(row_factors + r)),
                                               factor));
  }
#elif defined(__AVX2__) && defined(__FMA__)
  const __m128 factor = _mm_set1_ps(query_factor);
  for (; r + 4 <= rows; r += 4) {
    const std::int16_t* w0 = values + r * width;
    const std::int16_t *w1 = w0 + width, *w2 = w1 + width, *w3 = w2 + width;
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    for (std::size_t k = 0; k < width; k += 16) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q16 + k));
      a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w0 + k))));
      a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w1 + k))));
      a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w2 + k))));
      a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w3 + k))));
    }
    const __m128i h0 = _mm_add_epi32(_mm256_castsi256_si128(a0), _mm256_extracti128_si256(a0, 1));
    const __m128i h1 = _mm_add_epi32(_mm256_castsi256_si128(a1), _mm256_extracti128_si256(a1, 1));
    const __m128i h2 = _mm_add_epi32(_mm256_castsi256_si128(a2), _mm256_extracti128_si256(a2, 1));
    const __m128i h3 = _mm_add_epi32(_mm256_castsi256_si128(a3), _mm256_extracti128_si256(a3, 1));
    const __m128i ab = _mm_add_epi32(_mm_unpacklo_epi32(h0, h1), _mm_unpackhi_epi32(h0, h1));
    const __m128i cd = _mm_add_epi32(_mm_unpacklo_epi32(h2, h3), _mm_unpackhi_epi32(h2, h3));
    const __m128i sums = _mm_add_epi32(_mm_unpacklo_epi64(ab, cd), _mm_unpackhi_epi64(ab, cd));
    _mm_storeu_ps(approx + r, _mm_mul_ps(_mm_mul_ps(_mm_cvtepi32_ps(sums), _mm_loadu_ps(row_factors + r)), factor));
  }
#endif
  for (; r < rows; ++r) {
    approx[r] = static_cast<float>(quantized_dot_scalar(q16, values + r * width, width)) * row_factors[r] * query_factor;
  }
}

// Largest |q| <= limit with cols * limit^2 < 2^31, at most 2047 (11 bits):
// then every integer dot product, and every partial sum of one, fits int32.
std::int32_t quantization_limit(std::size_t cols) {
  if (cols == 0) return 0;
  std::int64_t limit = static_cast<std::int64_t>(std::sqrt(2147483647.0 / static_cast<double>(cols)));
  limit = std::min<std::int64_t>(limit, 2047);
  while (limit > 0 && static_cast<std::int64_t>(cols) * limit * limit >= 2147483647LL) --limit;
  return static_cast<std::int32_t>(limit);
}

// Beyond this magnitude (or below the smallest normal scale) the error
// bounds below are not trusted; such tables and queries take the exact path.
constexpr float kQuantizeMaxAbs = 1e15f;
constexpr float kQuantizeMinScale = 1e-30f;

// Quantizes one vector: out[k] = round(v[k] / scale), |out[k]| <= limit,
// padding zeroed. Returns false for values that are not finite or too large.
bool quantize_vector(const float* v, std::size_t cols, std::size_t width, std::int32_t limit, std::int16_t* out,
                     float& scale, double& l1) {
  // The largest size and the sum of sizes, four lanes at a time (the loops
  // vectorize); a NaN or an infinity shows in the sum.
  float max_lanes[4] = {0, 0, 0, 0}, sum_lanes[4] = {0, 0, 0, 0};
  std::size_t k = 0;
  for (; k + 4 <= cols; k += 4) {
    for (std::size_t j = 0; j < 4; ++j) {
      const float a = std::fabs(v[k + j]);
      max_lanes[j] = std::max(max_lanes[j], a);
      sum_lanes[j] += a;
    }
  }
  for (; k < cols; ++k) {
    const float a = std::fabs(v[k]);
    max_lanes[0] = std::max(max_lanes[0], a);
    sum_lanes[0] += a;
  }
  const float max_abs = std::max(std::max(max_lanes[0], max_lanes[1]), std::max(max_lanes[2], max_lanes[3]));
  const float sum = (sum_lanes[0] + sum_lanes[1]) + (sum_lanes[2] + sum_lanes[3]);
  if (!(max_abs <= kQuantizeMaxAbs) || !(sum <= kQuantizeMaxAbs * static_cast<float>(cols))) return false;
  // A float32 sum of cols positive terms is within cols 2^-24 of the exact
  // sum, relatively; this makes l1 an upper bound of the exact |v|_1.
  l1 = static_cast<double>(sum) * (1.0 + 2.0 * static_cast<double>(cols + 8) * 0x1p-24);
  scale = max_abs / static_cast<float>(limit);
  if (max_abs > 0 && !(scale >= kQuantizeMinScale)) return false;
  // Multiplying by the reciprocal (rounded) instead of dividing moves a
  // value by under limit * 2 * 2^-24 < 0.0003 of a step: within the bound's margin.
  const float inverse = scale > 0 ? 1.0f / scale : 0.0f, top = static_cast<float>(limit);
  for (k = 0; k < cols; ++k) {
    const float q = std::nearbyint(v[k] * inverse);
    out[k] = static_cast<std::int16_t>(static_cast<std::int32_t>(std::min(std::max(q, -top), top)));
  }
  for (k = cols; k < width; ++k) out[k] = 0;
  return true;
}

// The k-th largest of `count` numbers (k >= 1), index `exclude` left out;
// NaN if there are fewer than k. For finite numbers only: a min-heap of the
// k largest so far, blocks below its smallest passed over in one compare.
float kth_largest(const float* values, std::size_t count, std::size_t k, std::int64_t exclude, float* heap) {
  std::size_t size = 0, i = 0;
  const auto offer = [&](std::size_t index) {
    if (static_cast<std::int64_t>(index) == exclude) return;
    const float value = values[index];
    if (size < k) {
      heap[size++] = value;
      std::push_heap(heap, heap + size, std::greater<float>());
    } else if (value > heap[0]) {
      std::pop_heap(heap, heap + k, std::greater<float>());
      heap[k - 1] = value;
      std::push_heap(heap, heap + k, std::greater<float>());
    }
  };
  for (; i < count && size < k; ++i) offer(i);
  if (size < k) return std::nanf("");
  for (; i < count && i % L != 0; ++i) offer(i);
  for (; i + L <= count; i += L) {
    if (B::all_less(values + i, heap[0])) continue;
    for (std::size_t j = i; j < i + L; ++j) offer(j);
  }
  for (; i < count; ++i) offer(i);
  return heap[0];
}

// Ranking order for top_k: larger score first, then smaller index; NaN last.
inline bool ranks_before(float score_a, std::int32_t index_a, float score_b, std::int32_t index_b) {
  const bool nan_a = std::isnan(score_a), nan_b = std::isnan(score_b);
  if (nan_a != nan_b) return nan_b;
  if (!nan_a && score_a != score_b) return score_a > score_b;
  return index_a < index_b;
}

}  // namespace

// ---- Public fast kernels -----------------------------------------------------

const char* backend_name() { return B::kName; }

float dot(const float* a, const float* b, std::size_t n) { return dot_fast(a, b, n); }

DotAndNorms dot_and_norms(const float* a, const float* b, std::size_t n) { return dot_and_norms_fast(a, b, n); }

float cosine_from_sums(double ab, double aa, double bb) {
  if (std::isnan(ab) || std::isnan(aa) || std::isnan(bb)) return std::nanf("");
  if (aa <= 0 || bb <= 0) return 0.0f;
  const double c = ab / std::sqrt(aa * bb);
  if (std::isnan(c)) return std::nanf("");  // inf / inf
  return static_cast<float>(std::clamp(c, -1.0, 1.0));
}

float cosine(const float* a, const float* b, std::size_t n) {
  const DotAndNorms sums = dot_and_norms_fast(a, b, n);
  return cosine_from_sums(sums.ab, sums.aa, sums.bb);
}

float inverse_norm(const float* a, std::size_t n) {
  const double squared = dot_fast(a, a, n);
  if (!(squared > 0)) return std::isnan(squared) ? std::nanf("") : 0.0f;
  return static_cast<float>(1.0 / std::sqrt(squared));
}

void inverse_row_norms(const float* table, std::size_t rows, std::size_t cols, float* out) {
  for (std::size_t r = 0; r < rows; ++r) out[r] = inverse_norm(table + r * cols, cols);
}

void cosine_scores(const float* query, float query_inverse_norm, const float* table,
                   const float* row_inverse_norms, std::size_t rows, std::size_t cols, float* out) {
  std::size_t r = 0;
  float dots[4];
  for (; r + 4 <= rows; r += 4) {
    const float* row = table + r * cols;
    dot_four_rows(query, row, row + cols, row + 2 * cols, row + 3 * cols, cols, dots);
    for (int i = 0; i < 4; ++i) {
      const float score = dots[i] * row_inverse_norms[r + i] * query_inverse_norm;
      out[r + i] = std::clamp(score, -1.0f, 1.0f);  // clamp keeps NaN as NaN
    }
  }
  for (; r < rows; ++r) {
    const float score = dot_row(query, table + r * cols, cols) * row_inverse_norms[r] * query_inverse_norm;
    out[r] = std::clamp(score, -1.0f, 1.0f);
  }
}

std::size_t top_k(const float* scores, std::size_t count, std::size_t k, std::int64_t exclude,
                  std::int32_t* out_indices, float* out_scores) {
  // A heap of the best candidates seen so far, worst on top, built in the
  // caller's output.
  const auto worse_on_top = [scores](std::int32_t a, std::int32_t b) {
    return ranks_before(scores[a], a, scores[b], b);
  };
  if (k == 0) return 0;
  std::size_t size = 0, i = 0;
  for (; i < count && size < k; ++i) {
    if (static_cast<std::int64_t>(i) == exclude) continue;
    out_indices[size++] = static_cast<std::int32_t>(i);
    std::push_heap(out_indices, out_indices + size, worse_on_top);
  }
  // Once the heap is full, a candidate must beat its top. Most do not: a
  // block of scores all below the top's score (a comparison that is false
  // for NaN, which then takes the exact path) is passed over in one step.
  const auto consider = [&](std::size_t index) {
    if (static_cast<std::int64_t>(index) == exclude) return;
    const auto candidate = static_cast<std::int32_t>(index);
    if (!ranks_before(scores[index], candidate, scores[out_indices[0]], out_indices[0])) return;
    std::pop_heap(out_indices, out_indices + size, worse_on_top);
    out_indices[size - 1] = candidate;
    std::push_heap(out_indices, out_indices + size, worse_on_top);
  };
  if (size == k) {
    for (; i < count && i % L != 0; ++i) consider(i);
    for (; i + L <= count; i += L) {
      if (B::all_less(scores + i, scores[out_indices[0]])) continue;
      for (std::size_t j = i; j < i + L; ++j) consider(j);
    }
    for (; i < count; ++i) consider(i);
  }
  std::sort_heap(out_indices, out_indices + size, worse_on_top);
  for (std::size_t j = 0; j < size; ++j) out_scores[j] = scores[out_indices[j]];
  return size;
}

std::size_t quantized_width(std::size_t cols) { return (cols + kQuantizedAlign - 1) / kQuantizedAlign * kQuantizedAlign; }

bool quantize_rows(const float* table, const float* row_inverse_norms, std::size_t rows, std::size_t cols,
                   std::int16_t* values, float* row_factors, QuantizedRows& out) {
  out = QuantizedRows{};
  const std::size_t width = quantized_width(cols);
  const std::int32_t limit = quantization_limit(cols);
  if (cols == 0 || cols > kQuantizedMaxCols || limit < 64) return false;
  double error_a = 0, error_b = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    float scale;
    double l1;
    if (!quantize_vector(table + r * cols, cols, width, limit, values + r * width, scale, l1)) return false;
    const double inverse = row_inverse_norms[r];
    if (!(inverse >= 0) || !std::isfinite(inverse)) return false;
    row_factors[r] = scale * row_inverse_norms[r];
    // Per row, in units of cosine (see nearest()): the query's rounding
    // meets this row's sizes, and this row's rounding meets the query's.
    error_a = std::max(error_a, 0.5 * scale * inverse);
    error_b = std::max(error_b, (0.5 * l1 + 0.25 * static_cast<double>(cols) * scale) * inverse);
  }
  out.values = values;
  out.row_factors = row_factors;
  out.rows = rows;
  out.cols = cols;
  out.width = width;
  out.limit = limit;
  out.error_a = error_a;
  out.error_b = error_b;
  out.usable = true;
  return true;
}

double quantized_cosine_scores(const float* query, float query_inverse_norm, const QuantizedRows& quantized,
                               float* approx) {
  if (!quantized.usable || !(query_inverse_norm > 0)) return -1;
  alignas(16) std::int16_t q16[kQuantizedMaxCols];
  float query_scale;
  double query_l1;
  if (!quantize_vector(query, quantized.cols, quantized.width, quantized.limit, q16, query_scale, query_l1)) return -1;
  quantized_scores(q16, quantized.values, quantized.row_factors, query_scale * query_inverse_norm, quantized.rows,
                   quantized.width, approx);
  // The bound. Rounding to integers moves each number by at most half a
  // step (scale / 2; the rounded reciprocal adds under 0.0003 of a step),
  // so with D = q . w the real dot product,
  //   |D - scale_q scale_w (Q . W)| <= (scale_w |q|_1 + scale_q |w|_1) / 2 + cols scale_q scale_w / 4,
  // which times the two inverse norms is at most
  // error_a |q|_1 + error_b scale_q (error_a, error_b: the worst row's).
  // The exact path's float32 sums are within (cols + 3) 2^-24 of D in the
  // same units (Cauchy-Schwarz: sum |q_k w_k| <= |q| |w|), and the float32
  // conversion and products here add a few 2^-24 of a score near 1.
  // Margins: 0.2% on the first part (half a step plus 0.0003 of one, squared,
  // is 0.1% over), (cols + 32) 2^-23 for the second.
  return static_cast<double>(query_inverse_norm) * (quantized.error_a * query_l1 + quantized.error_b * query_scale) *
             1.002 +
         static_cast<double>(quantized.cols + 32) * 0x1p-23;
}

std::size_t nearest(const float* query, const float* table, const float* row_inverse_norms,
                    const QuantizedRows* quantized, std::size_t rows, std::size_t cols, std::size_t k,
                    std::int64_t exclude, float* scratch, std::int32_t* index_scratch, std::int32_t* out_indices,
                    float* out_scores) {
  if (k == 0) return 0;
  const float query_inverse = inverse_norm(query, cols);
  const auto exact = [&] {
    cosine_scores(query, query_inverse, table, row_inverse_norms, rows, cols, scratch);
    return top_k(scratch, rows, k, exclude, out_indices, out_scores);
  };
  // The first pass pays off when it can rule out most rows.
  if (quantized == nullptr || quantized->rows != rows || quantized->cols != cols || rows < 64 || k * 16 > rows) {
    return exact();
  }
  // Pass 1: approximate cosines from the int16 copies, and their error bound.
  float* approx = scratch;
  const double error = quantized_cosine_scores(query, query_inverse, *quantized, approx);
  if (!(error >= 0 && error < 0.25)) return exact();
  // The k-th best approximate score: at least k rows score, exactly, at
  // least T = kth - E. A row whose approximate score is below kth - 2E scores
  // below T exactly, so below k others, and cannot be among the k best.
  const float kth_value = kth_largest(approx, rows, k, exclude, out_scores);
  if (std::isnan(kth_value)) return exact();
  const double kth = kth_value;
  const double threshold = kth - error;
  if (!(threshold > -1.0 && threshold <= 1.0)) return exact();  // clamping could tie everything
  float cut = static_cast<float>(kth - 2 * error);
  if (static_cast<double>(cut) > kth - 2 * error) cut = std::nextafter(cut, -INFINITY);

  // Pass 2: exact scores, with the full scan's arithmetic, for the rows that could still make it.
  std::size_t candidates = 0;
  const auto keep = [&](std::size_t r) {
    if (static_cast<std::int64_t>(r) != exclude && !(approx[r] < cut)) index_scratch[candidates++] = static_cast<std::int32_t>(r);
  };
  std::size_t r = 0;
  for (; r + L <= rows; r += L) {
    if (B::all_less(approx + r, cut)) continue;
    for (std::size_t j = r; j < r + L; ++j) keep(j);
  }
  for (; r < rows; ++r) keep(r);
  float* exact_scores = scratch + rows;
  for (std::size_t i = 0; i < candidates; ++i) {
    const std::size_t row = static_cast<std::size_t>(index_scratch[i]);
    const float score = dot_row(query, table + row * cols, cols) * row_inverse_norms[row] * query_inverse;
    exact_scores[i] = std::clamp(score, -1.0f, 1.0f);
  }
  // Candidates are in row order, so ties still go to the smaller row.
  const std::size_t count = top_k(exact_scores, candidates, k, -1, out_indices, out_scores);
  for (std::size_t i = 0; i < count; ++i) out_indices[i] = index_scratch[out_indices[i]];
  return count;
}

void cosine_map_rows(const float* table, const float* row_inverse_norms, std::size_t rows, std::size_t cols,
                     std::size_t row_begin, std::size_t row_end, float* out) {
  for (std::size_t i = row_begin; i < row_end; ++i) {
    cosine_scores(table + i * cols, row_inverse_norms[i], table, row_inverse_norms, rows, cols,
                  out + (i - row_begin) * rows);
  }
}

void cosine_map(const float* table, const float* row_inverse_norms, std::size_t rows, std::size_t cols,
                float* out) {
  // Each pair once, written to both (i, j) and (j, i), so the map is exactly
  // symmetric: rows i and i + 1 against rows i + 2.. four at a time (each
  // load feeds two or four multiply-adds), then what is left pair by pair.
  const auto put = [&](std::size_t i, std::size_t j, float dot_ij) {
    const float c = std::clamp(dot_ij * row_inverse_norms[j] * row_inverse_norms[i], -1.0f, 1.0f);
    out[i * rows + j] = c;
    out[j * rows + i] = c;
  };
  float dots[8];
  std::size_t i = 0;
  for (; i + 2 <= rows; i += 2) {
    const float* a = table + i * cols;
    const float* b = a + cols;
    put(i, i, dot_row(a, a, cols));
    put(i + 1, i + 1, dot_row(b, b, cols));
    put(i, i + 1, dot_row(a, b, cols));
    std::size_t j = i + 2;
    for (; j + 4 <= rows; j += 4) {
      const float* r = table + j * cols;
      dot_two_by_four(a, b, r, r + cols, r + 2 * cols, r + 3 * cols, cols, dots);
      for (std::size_t t = 0; t < 4; ++t) {
        put(i, j + t, dots[t]);
        put(i + 1, j + t, dots[4 + t]);
      }
    }
    for (; j < rows; ++j) {
      put(i, j, dot_row(a, table + j * cols, cols));
      put(i + 1, j, dot_row(b, table + j * cols, cols));
    }
  }
  if (i < rows) put(i, i, dot_row(table + i * cols, table + i * cols, cols));
}

void add(const float* a, const float* b, float* out, std::size_t n) {
  std::size_t k = 0;
  for (; k + L <= n; k += L) B::store(out + k, B::add(B::load(a + k), B::load(b + k)));
  for (; k < n; ++k) out[k] = a[k] + b[k];
}

void embed_tokens(const std::int32_t* ids, std::size_t n, const float* wte, const float* wpe, std::size_t d,
                  float* token_out, float* position_out, float* sum_out) {
  // One pass per row: each number is read once and written three times. (No
  // memcpy: in WebAssembly without bulk memory, a memcpy of 512 bytes or more
  // is a call out to JavaScript.)
  for (std::size_t i = 0; i < n; ++i) {
    const float* token = wte + static_cast<std::size_t>(ids[i]) * d;
    const float* position = wpe + i * d;
    float* t_out = token_out + i * d;
    float* p_out = position_out + i * d;
    float* s_out = sum_out + i * d;
    std::size_t k = 0;
    for (; k + L <= d; k += L) {
      const B::V t = B::load(token + k), p = B::load(position + k);
      B::store(t_out + k, t);
      B::store(p_out + k, p);
      B::store(s_out + k, B::add(t, p));
    }
    for (; k < d; ++k) {
      t_out[k] = token[k];
      p_out[k] = position[k];
      s_out[k] = token[k] + position[k];
    }
  }
}

}  // namespace embeddings::kernels
