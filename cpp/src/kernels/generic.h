// The fast kernels of kernels.h, written once over a backend's vector
// operations (Ops: ops_portable.h, ops_haswell.h, ops_v128.h). Each
// <backend>.cpp instantiates Kernels<Ops> and lists it in a
// KernelBackend table (kernels/backends.h).
//
// Bit-for-bit promises the code keeps: a row's dot product and squared
// norm come out the same whether it was computed alone or in a group of
// four (one accumulator per row, the same horizontal sum, the same tail),
// so nearest(), cosine_scores() and cosine_matrix_rows() agree exactly. The
// kernels' sources are compiled with -ffp-contract=off (its CMakeLists.txt) so
// the scalar tails round the same way wherever they are inlined; the SIMD
// code asks for fused multiply-adds explicitly where it wants them.
//
// A backend's file may include this where it has switched its instruction
// set on (haswell.cpp), so everything compiled here must be Kernels<Ops>'s
// own: the shared inline functions and the standard headers come from
// scalar.h, which that file includes first. Include nothing else here.
#pragma once

#include "scalar.h"

// Loops kept as written where their size matters more than their speed (clang only).
#if defined(__clang__)
#define EMBEDDINGS_LOOP_NOT_UNROLLED _Pragma("clang loop unroll(disable)")
#define EMBEDDINGS_LOOP_SCALAR _Pragma("clang loop unroll(disable) vectorize(disable)")
#else
#define EMBEDDINGS_LOOP_NOT_UNROLLED
#define EMBEDDINGS_LOOP_SCALAR
#endif

namespace embeddings::kernels {

template <class B>
struct Kernels {
  using V = typename B::V;
  static constexpr std::size_t L = B::kLanes;

  // Four independent accumulators hide the latency of the add (or FMA) chain.
  static float dot(const float* a, const float* b, std::size_t n) {
    V s0 = B::zero(), s1 = B::zero(), s2 = B::zero(), s3 = B::zero();
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
  static DotAndNorms dot_and_norms(const float* a, const float* b, std::size_t n) {
    V ab0 = B::zero(), ab1 = B::zero(), aa0 = B::zero(), aa1 = B::zero(), bb0 = B::zero(), bb1 = B::zero();
    std::size_t k = 0;
    for (; k + 2 * L <= n; k += 2 * L) {
      const V x0 = B::load(a + k), y0 = B::load(b + k);
      const V x1 = B::load(a + k + L), y1 = B::load(b + k + L);
      ab0 = B::mul_add(ab0, x0, y0);
      aa0 = B::mul_add(aa0, x0, x0);
      bb0 = B::mul_add(bb0, y0, y0);
      ab1 = B::mul_add(ab1, x1, y1);
      aa1 = B::mul_add(aa1, x1, x1);
      bb1 = B::mul_add(bb1, y1, y1);
    }
    float ab = B::sum(B::add(ab0, ab1)), aa = B::sum(B::add(aa0, aa1)), bb = B::sum(B::add(bb0, bb1));
    for (; k < n; ++k) {
      ab += a[k] * b[k];
      aa += a[k] * a[k];
      bb += b[k] * b[k];
    }
    if (!squared_norm_is_safe(aa) || !squared_norm_is_safe(bb)) return dot_and_norms_reference(a, b, n);
    return DotAndNorms{ab, aa, bb};
  }

  static float cosine(const float* a, const float* b, std::size_t n) {
    const DotAndNorms sums = dot_and_norms(a, b, n);
    return cosine_of_sums(sums.ab, sums.aa, sums.bb);
  }

  static float inverse_norm(const float* a, std::size_t n) {
    double squared = dot(a, a, n);
    if (!squared_norm_is_safe(static_cast<float>(squared))) squared = dot_reference(a, a, n);
    if (!(squared > 0)) return std::isnan(squared) ? NAN : 0.0f;
    return static_cast<float>(1.0 / std::sqrt(squared));
  }

  // A vector of a row's numbers as float32, whatever their format (widen.h).
  static V load(const float* p) { return B::load(p); }
  static V load(const Half* p) { return B::load_f16(reinterpret_cast<const std::uint16_t*>(p)); }
  static V load(const BFloat16* p) { return B::load_bf16(reinterpret_cast<const std::uint16_t*>(p)); }

  // cosine_scores is written over a table row's type R (float, Half or
  // BFloat16): the same loops and the same order of operations for every
  // format, so a 16-bit table scores exactly as its float32 conversion. The
  // cosine matrices of a 16-bit table are its rows' cosine_scores (the matrices'
  // arithmetic is cosine_scores' by construction, see generic_tables.h), so
  // each format adds one loop, not four, to the module.

  // One row's dot product with q and its own squared norm, with exactly the
  // arithmetic dot_and_norm_four_rows applies to each of its rows.
  // Out of line: it is called rarely (a table's last rows, a matrix's
  // diagonal), and inlined copies cost size.
  template <class R>
  [[gnu::noinline]] static void dot_and_norm_row(const float* q, const R* r, std::size_t n, float& dot_out,
                                                 float& norm_out) {
    V s = B::zero(), m = B::zero();
    std::size_t k = 0;
    for (; k + L <= n; k += L) {
      const V x = load(r + k);
      s = B::mul_add(s, B::load(q + k), x);
      m = B::mul_add(m, x, x);
    }
    float out[4];
    B::sum4(s, m, s, m, out);
    for (; k < n; ++k) {
      const float x = number(r[k]);
      out[0] += q[k] * x;
      out[1] += x * x;
    }
    dot_out = out[0];
    norm_out = out[1];
  }

  // The dot products of q with four rows and the rows' squared norms, in one
  // pass: each query load feeds four multiply-adds, each row load two.
  template <class R>
  static void dot_and_norm_four_rows(const float* q, const R* r0, const R* r1, const R* r2, const R* r3,
                                     std::size_t n, float dots[4], float norms[4]) {
    V s0 = B::zero(), s1 = B::zero(), s2 = B::zero(), s3 = B::zero();
    V m0 = B::zero(), m1 = B::zero(), m2 = B::zero(), m3 = B::zero();
    std::size_t k = 0;
    for (; k + L <= n; k += L) {
      const V x = B::load(q + k);
      V r = load(r0 + k);
      s0 = B::mul_add(s0, x, r);
      m0 = B::mul_add(m0, r, r);
      r = load(r1 + k);
      s1 = B::mul_add(s1, x, r);
      m1 = B::mul_add(m1, r, r);
      r = load(r2 + k);
      s2 = B::mul_add(s2, x, r);
      m2 = B::mul_add(m2, r, r);
      r = load(r3 + k);
      s3 = B::mul_add(s3, x, r);
      m3 = B::mul_add(m3, r, r);
    }
    B::sum4(s0, s1, s2, s3, dots);
    B::sum4(m0, m1, m2, m3, norms);
    const R* rows[4] = {r0, r1, r2, r3};
    for (; k < n; ++k) {
      for (int i = 0; i < 4; ++i) {
        const float x = number(rows[i][k]);
        dots[i] += q[k] * x;
        norms[i] += x * x;
      }
    }
  }

  // The dot products alone, with dot_and_norm_four_rows' arithmetic.
  static void dot_four_rows(const float* q, const float* r0, const float* r1, const float* r2,
                            const float* r3, std::size_t n, float dots[4]) {
    V s0 = B::zero(), s1 = B::zero(), s2 = B::zero(), s3 = B::zero();
    std::size_t k = 0;
    for (; k + L <= n; k += L) {
      const V x = B::load(q + k);
      s0 = B::mul_add(s0, x, B::load(r0 + k));
      s1 = B::mul_add(s1, x, B::load(r1 + k));
      s2 = B::mul_add(s2, x, B::load(r2 + k));
      s3 = B::mul_add(s3, x, B::load(r3 + k));
    }
    B::sum4(s0, s1, s2, s3, dots);
    const float* rows[4] = {r0, r1, r2, r3};
    for (; k < n; ++k) {
      for (int i = 0; i < 4; ++i) dots[i] += q[k] * rows[i][k];
    }
  }

  // Dot products of two rows a, b with four rows at once (a 2 x 4 tile): each
  // load feeds two or four multiply-adds, eight chains run independently, and
  // twelve vector registers suffice (WebAssembly engines on x86 have sixteen).
  // out[0..3] = a . r0..r3, out[4..7] = b . r0..r3, each with dot_and_norm_row's arithmetic.
  static void dot_two_by_four(const float* a, const float* b, const float* r0, const float* r1,
                              const float* r2, const float* r3, std::size_t n, float out[8]) {
    V a0 = B::zero(), a1 = B::zero(), a2 = B::zero(), a3 = B::zero();
    V b0 = B::zero(), b1 = B::zero(), b2 = B::zero(), b3 = B::zero();
    std::size_t k = 0;
    for (; k + L <= n; k += L) {
      const V x = B::load(a + k), y = B::load(b + k);
      V r = B::load(r0 + k);
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
    const float* rows[4] = {r0, r1, r2, r3};
    for (; k < n; ++k) {
      for (int i = 0; i < 4; ++i) {
        out[i] += a[k] * rows[i][k];
        out[4 + i] += b[k] * rows[i][k];
      }
    }
  }

  // A row's squared norm alone, with dot_and_norm_four_rows' arithmetic.
  // Out of line: it runs once per row of a matrix or per query, and its five
  // inlined copies cost the page's module more than the calls cost.
  [[gnu::noinline]] static float squared_norm_row(const float* r, std::size_t n) {
    V m = B::zero();
    std::size_t k = 0;
    for (; k + L <= n; k += L) {
      const V x = B::load(r + k);
      m = B::mul_add(m, x, x);
    }
    float out[4];
    B::sum4(m, m, m, m, out);
    for (; k < n; ++k) out[0] += r[k] * r[k];
    return out[0];
  }

  // The factor (1 / |row|, or kScoreInDouble) of every row; returns whether
  // any row must be scored in double.
  static bool row_factors(const float* table, std::size_t rows, std::size_t cols, float* out) {
    bool any_in_double = false;
    for (std::size_t r = 0; r < rows; ++r) {
      out[r] = row_factor(squared_norm_row(table + r * cols, cols));
      any_in_double |= out[r] < 0;
    }
    return any_in_double;
  }

  // The query as cosine_scores scores it (scaled into `scaled` when its
  // squared norm is outside the safe range), and its factor. Out of line:
  // one copy for every row type.
  [[gnu::noinline]] static const float* prepared_query(const float* query, std::size_t cols, float* scaled,
                                                       float& factor) {
    float query_norm = squared_norm_row(query, cols);
    if (!squared_norm_is_safe(query_norm) && cols <= kScaledQueryMaxCols &&
        scale_into_range(query, cols, scaled)) {
      query = scaled;
      query_norm = squared_norm_row(scaled, cols);
    }
    factor = row_factor(query_norm);
    return query;
  }

  template <class R>
  static void cosine_scores_of(const float* query, const R* table, std::size_t rows, std::size_t cols,
                               float* out) {
    alignas(16) float scaled[kScaledQueryMaxCols];
    float query_factor;
    query = prepared_query(query, cols, scaled, query_factor);
    std::size_t r = 0;
    float dots[4], norms[4];
    for (; r + 4 <= rows; r += 4) {
      const R* row = table + r * cols;
      dot_and_norm_four_rows(query, row, row + cols, row + 2 * cols, row + 3 * cols, cols, dots, norms);
      for (std::size_t i = 0; i < 4; ++i) {
        out[r + i] = pair_score(dots[i], row_factor(norms[i]), query_factor, query, row + i * cols, cols);
      }
    }
    for (; r < rows; ++r) {
      dot_and_norm_row(query, table + r * cols, cols, dots[0], norms[0]);
      out[r] = pair_score(dots[0], row_factor(norms[0]), query_factor, query, table + r * cols, cols);
    }
  }

  static void cosine_scores(const float* query, TableNumbers table, std::size_t rows, std::size_t cols,
                            float* out) {
    if (table.format != NumberFormat::F32) return cosine_scores_16(query, table, rows, cols, out);
    cosine_scores_of(query, static_cast<const float*>(table.data), rows, cols, out);
  }

#if !EMBEDDINGS_CHAPTER_MODULE
  // A 16-bit table's rows read as they are stored, widened in registers.
  static void cosine_scores_16(const float* query, TableNumbers table, std::size_t rows, std::size_t cols,
                               float* out) {
    if (table.format == NumberFormat::F16)
      return cosine_scores_of(query, static_cast<const Half*>(table.data), rows, cols, out);
    cosine_scores_of(query, static_cast<const BFloat16*>(table.data), rows, cols, out);
  }
#else
  // The chapter's module (EMBEDDINGS_CHAPTER_MODULE) scores a 16-bit table a block of
  // rows at a time, widened into float32 and put through the float32 loop:
  // the same numbers (widening is exact) in the same order of operations, so
  // the same scores, without the two 16-bit copies of the loop, which would
  // take the module past its 150 kB. The full module and native builds read
  // 16-bit rows in registers instead. Single-threaded, as the module is.
  [[gnu::noinline]] static void cosine_scores_16(const float* query, TableNumbers table, std::size_t rows,
                                                 std::size_t cols, float* out) {
    static constexpr std::size_t kBlockNumbers = 16384;  // 64 KiB of zeroed memory, not of .wasm
    alignas(16) static float block[kBlockNumbers];
    static std::vector<float> wide_row;  // only for rows of more than kBlockNumbers numbers
    float* numbers = block;
    std::size_t rows_per_block = kBlockNumbers / cols;
    if (rows_per_block == 0) {
      if (wide_row.size() < cols) wide_row.resize(cols);
      numbers = wide_row.data();
      rows_per_block = 1;
    }
    for (std::size_t r = 0; r < rows; r += rows_per_block) {
      const std::size_t count = rows - r < rows_per_block ? rows - r : rows_per_block;
      widen(table.from(r * cols), count * cols, numbers);
      cosine_scores_of(query, numbers, count, cols, out + r);
    }
  }
#endif

  static std::size_t top_k(const float* scores, std::size_t count, std::size_t k, std::int64_t exclude,
                           std::int32_t* out_indices, float* out_scores);

  static std::size_t nearest(const float* query, TableNumbers table, std::size_t rows, std::size_t cols,
                             std::size_t k, std::int64_t exclude, float* scratch, std::int32_t* out_indices,
                             float* out_scores) {
    if (k == 0) return 0;
    cosine_scores(query, table, rows, cols, scratch);
    return top_k(scratch, rows, k, exclude, out_indices, out_scores);
  }

  static void cosine_matrix_rows_of(const float* table, std::size_t rows, std::size_t cols,
                                    std::size_t row_begin, std::size_t row_end, float* scratch, float* out);
  static void cosine_matrix_of(const float* table, std::size_t rows, std::size_t cols, float* scratch,
                               float* out);
  // The cosine matrices of a 16-bit table, one function for both formats (generic_tables.h).
  [[gnu::noinline]] static void cosine_matrix_rows_16(TableNumbers table, std::size_t rows, std::size_t cols,
                                                      std::size_t row_begin, std::size_t row_end,
                                                      float* scratch, float* out);
  [[gnu::noinline]] static void cosine_matrix_16(TableNumbers table, std::size_t rows, std::size_t cols,
                                                 float* scratch, float* out);
  static void cosine_matrix_rows(TableNumbers table, std::size_t rows, std::size_t cols,
                                 std::size_t row_begin, std::size_t row_end, float* scratch, float* out) {
    if (table.format != NumberFormat::F32)
      return cosine_matrix_rows_16(table, rows, cols, row_begin, row_end, scratch, out);
    cosine_matrix_rows_of(static_cast<const float*>(table.data), rows, cols, row_begin, row_end, scratch,
                          out);
  }
  static void cosine_matrix(TableNumbers table, std::size_t rows, std::size_t cols, float* scratch,
                            float* out) {
    if (table.format != NumberFormat::F32) return cosine_matrix_16(table, rows, cols, scratch, out);
    cosine_matrix_of(static_cast<const float*>(table.data), rows, cols, scratch, out);
  }
  static void embed_tokens(const std::int32_t* ids, std::size_t n, TableNumbers wte, TableNumbers wpe,
                           std::size_t d, float* token_out, float* position_out, float* sum_out);
  [[gnu::noinline]] static void embed_tokens_16(const std::int32_t* ids, std::size_t n, TableNumbers wte,
                                                TableNumbers wpe, std::size_t d, float* token_out,
                                                float* position_out, float* sum_out);

  // A vector at a time, then widen.h's scalar conversion for the tail.
  static void widen_f16(const std::uint16_t* in, std::size_t n, float* out) {
    std::size_t k = 0;
    for (; k + L <= n; k += L) B::store(out + k, B::load_f16(in + k));
    for (; k < n; ++k) out[k] = f16_bits_to_f32(in[k]);
  }
  static void widen_bf16(const std::uint16_t* in, std::size_t n, float* out) {
    std::size_t k = 0;
    for (; k + L <= n; k += L) B::store(out + k, B::load_bf16(in + k));
    for (; k < n; ++k) out[k] = bf16_bits_to_f32(in[k]);
  }
  // Out of line, as are the 16-bit matrices and trace that call it: each copy
  // inlined into its callers would cost the module about a kilobyte.
  [[gnu::noinline]] static void widen(TableNumbers in, std::size_t n, float* out) {
    const auto* bits = static_cast<const std::uint16_t*>(in.data);
    switch (in.format) {
      case NumberFormat::F16: widen_f16(bits, n, out); return;
      case NumberFormat::BF16: widen_bf16(bits, n, out); return;
      case NumberFormat::F32: break;
    }
    // A copy (no memcpy: see embed_tokens; a row of a trace or of vector_times_table).
    const auto* numbers = static_cast<const float*>(in.data);
    for (std::size_t k = 0; k < n; ++k) out[k] = numbers[k];
  }

  // out[j] += x * row[j]: a vector at a time, then the tail.
  static void add_scaled_row(float* out, float x, const float* row, std::size_t n) {
    const V scale = B::splat(x);
    std::size_t j = 0;
    EMBEDDINGS_LOOP_NOT_UNROLLED
    for (; j + L <= n; j += L) B::store(out + j, B::mul_add(B::load(out + j), scale, B::load(row + j)));
    EMBEDDINGS_LOOP_SCALAR
    for (; j < n; ++j) out[j] += x * row[j];
  }

  // Each row is widened (or copied, for a float32 table) into scratch and
  // added from there: one loop for every format, so a 16-bit table's product
  // has the bits of its float32 conversion's, and the whole kernel is one
  // small function in the page's module.
  [[gnu::noinline]] static void vector_times_table(const float* x, TableNumbers table, std::size_t rows,
                                                   std::size_t cols, float* scratch, float* out) {
    for (std::size_t i = 0; i < rows; ++i) {
      widen(table.from(i * cols), cols, scratch);
      add_scaled_row(out, x[i], scratch, cols);
    }
  }

  static constexpr KernelBackend table() {
    return KernelBackend{
        B::kName,    &dot,     &dot_and_norms,      &cosine,        &inverse_norm, &cosine_scores,
        &top_k,      &nearest, &cosine_matrix_rows, &cosine_matrix, &embed_tokens, &widen_f16,
        &widen_bf16, &widen,   &vector_times_table};
  }
};

template <class B>
std::size_t Kernels<B>::top_k(const float* scores, std::size_t count, std::size_t k, std::int64_t exclude,
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

}  // namespace embeddings::kernels

// The cosine matrices and the token-plus-position sum, in a file of their own.
#include "generic_tables.h"  // IWYU pragma: export
