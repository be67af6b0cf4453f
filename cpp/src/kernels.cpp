#include "embeddings/kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>

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
  float t0 = B::sum(s0), t1 = B::sum(s1), t2 = B::sum(s2), t3 = B::sum(s3);
  for (; k < n; ++k) {
    t0 += q[k] * r0[k];
    t1 += q[k] * r1[k];
    t2 += q[k] * r2[k];
    t3 += q[k] * r3[k];
  }
  out[0] = t0;
  out[1] = t1;
  out[2] = t2;
  out[3] = t3;
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
    const float score = dot_fast(query, table + r * cols, cols) * row_inverse_norms[r] * query_inverse_norm;
    out[r] = std::clamp(score, -1.0f, 1.0f);
  }
}

std::size_t top_k(const float* scores, std::size_t count, std::size_t k, std::int64_t exclude,
                  std::int32_t* out_indices, float* out_scores) {
  // A heap of the best candidates seen so far, worst on top, built in the
  // caller's output: a candidate that does not beat the top costs one compare.
  const auto worse_on_top = [scores](std::int32_t a, std::int32_t b) {
    return ranks_before(scores[a], a, scores[b], b);
  };
  std::size_t size = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (static_cast<std::int64_t>(i) == exclude) continue;
    const auto index = static_cast<std::int32_t>(i);
    if (size < k) {
      out_indices[size++] = index;
      std::push_heap(out_indices, out_indices + size, worse_on_top);
    } else if (k > 0 && ranks_before(scores[i], index, scores[out_indices[0]], out_indices[0])) {
      std::pop_heap(out_indices, out_indices + size, worse_on_top);
      out_indices[size - 1] = index;
      std::push_heap(out_indices, out_indices + size, worse_on_top);
    }
  }
  std::sort_heap(out_indices, out_indices + size, worse_on_top);
  for (std::size_t i = 0; i < size; ++i) out_scores[i] = scores[out_indices[i]];
  return size;
}

void cosine_map_rows(const float* table, const float* row_inverse_norms, std::size_t rows, std::size_t cols,
                     std::size_t row_begin, std::size_t row_end, float* out) {
  for (std::size_t i = row_begin; i < row_end; ++i) {
    cosine_scores(table + i * cols, row_inverse_norms[i], table, row_inverse_norms, rows, cols,
                  out + (i - row_begin) * rows);
  }
}

void add(const float* a, const float* b, float* out, std::size_t n) {
  std::size_t k = 0;
  for (; k + L <= n; k += L) B::store(out + k, B::add(B::load(a + k), B::load(b + k)));
  for (; k < n; ++k) out[k] = a[k] + b[k];
}

void embed_tokens(const std::int32_t* ids, std::size_t n, const float* wte, const float* wpe, std::size_t d,
                  float* token_out, float* position_out, float* sum_out) {
  for (std::size_t i = 0; i < n; ++i) {
    const float* token = wte + static_cast<std::size_t>(ids[i]) * d;
    const float* position = wpe + i * d;
    std::memcpy(token_out + i * d, token, d * sizeof(float));
    std::memcpy(position_out + i * d, position, d * sizeof(float));
    add(token, position, sum_out + i * d, d);
  }
}

}  // namespace embeddings::kernels
