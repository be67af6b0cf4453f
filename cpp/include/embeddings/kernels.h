// The numeric kernels behind the chapter: dot product, cosine similarity,
// nearest rows, the cosine map of a table, and the token-plus-position sum.
//
// Conventions (after llm.c and NumKong): raw pointers, element counts and
// caller-owned outputs; no allocation and no failure inside a kernel; any
// pointer may be unaligned. Tables are row-major: row r of a (rows, cols)
// table starts at table + r * cols.
//
// Numerics:
// - The `*_reference` kernels accumulate in double, one term at a time. They
//   are the oracle for the tests, never used on a hot path.
// - The fast kernels accumulate in float32 in several independent SIMD
//   accumulators (WebAssembly SIMD128, AVX2+FMA natively, or a portable
//   unrolled loop), summed at the end. For n terms the error is bounded by
//   about n * 2^-24 * sum(|a_k * b_k|); the tests hold them to that.
// - Cosine is dot(a, b) / sqrt(dot(a, a) * dot(b, b)), clamped to [-1, 1]
//   (rounding can otherwise give 1.0000001). When either vector has norm
//   zero the direction is undefined; cosine then returns 0, "nothing in
//   common", rather than NaN, so one zero row cannot poison a ranking.
//   NaN inputs give NaN.
#pragma once

#include <cstddef>
#include <cstdint>

namespace embeddings::kernels {

// ---- Reference (serial, double accumulator) ---------------------------------

double dot_reference(const float* a, const float* b, std::size_t n);
double cosine_reference(const float* a, const float* b, std::size_t n);

// ---- Fast kernels -----------------------------------------------------------

// Sum of a[k] * b[k].
float dot(const float* a, const float* b, std::size_t n);

// The three sums cosine needs, in one pass over both vectors.
struct DotAndNorms {
  float ab = 0, aa = 0, bb = 0;
};
DotAndNorms dot_and_norms(const float* a, const float* b, std::size_t n);

// Cosine from the three sums (also used when a caller accumulates long
// vectors chunk by chunk): applies the zero-norm and clamping rules above.
float cosine_from_sums(double ab, double aa, double bb);

// Cosine similarity of a and b.
float cosine(const float* a, const float* b, std::size_t n);

// 1 / sqrt(dot(a, a)), or 0 for a zero vector (so a zero row scores 0).
float inverse_norm(const float* a, std::size_t n);

// out[r] = inverse_norm(row r) for every row of a (rows, cols) table.
void inverse_row_norms(const float* table, std::size_t rows, std::size_t cols, float* out);

// out[r] = cosine(query, row r) for every row of a (rows, cols) table, given
// the precomputed inverse norms of the rows and of the query.
void cosine_scores(const float* query, float query_inverse_norm, const float* table,
                   const float* row_inverse_norms, std::size_t rows, std::size_t cols, float* out);
void cosine_scores_reference(const float* query, const float* table, std::size_t rows, std::size_t cols,
                             double* out);

// The k best scores, best first: writes up to k row indices and their scores
// and returns how many it wrote (min(k, count) less one if `exclude` is a
// valid index). "Best" is the larger score; equal scores go to the smaller
// index; NaN ranks below every number. `exclude` < 0 excludes nothing.
std::size_t top_k(const float* scores, std::size_t count, std::size_t k, std::int64_t exclude,
                  std::int32_t* out_indices, float* out_scores);

// ---- Nearest rows: a coarse first pass, then exact scores -------------------
//
// nearest() returns exactly what cosine_scores() followed by top_k() would,
// bit for bit, usually in less than half the time: a first pass scores every
// row from int16 copies of the rows and the query (integer dot products, half
// the bytes of the table), then only the rows that could still be among the
// k best are scored exactly, with the same float32 arithmetic as
// cosine_scores(). A rigorous bound on the first pass's error decides which
// rows those are (see kernels.cpp); rows it rules out score, exactly, below
// at least k others. Tables or queries with values that are not finite, or
// beyond 1e15 in size, and widths over kQuantizedMaxCols take the exact path.

inline constexpr std::size_t kQuantizedMaxCols = 2048;

// The int16 copy of a table's rows, made once at load by quantize_rows().
struct QuantizedRows {
  const std::int16_t* values = nullptr;  // (rows, width): round(row / scale), |value| <= limit, zero padding
  const float* row_factors = nullptr;    // (rows): scale of the row times its inverse norm
  std::size_t rows = 0, cols = 0, width = 0;
  std::int32_t limit = 0;                // cols * limit^2 < 2^31: integer sums cannot overflow
  double error_a = 0, error_b = 0;       // worst-row terms of the error bound, in units of cosine
  bool usable = false;
};

// Numbers per row of the int16 copy: cols rounded up to a multiple of 16.
std::size_t quantized_width(std::size_t cols);

// Fills `values` (rows * quantized_width(cols) int16) and `row_factors`
// (rows floats) and describes them in `out`. Returns out.usable: false when
// the table cannot be quantized with a trusted bound (then nearest() scans
// exactly).
bool quantize_rows(const float* table, const float* row_inverse_norms, std::size_t rows, std::size_t cols,
                   std::int16_t* values, float* row_factors, QuantizedRows& out);

// nearest()'s first pass on its own: approx[r] (rows floats) for every row
// of the quantized table, and returns E with |approx[r] - s[r]| <= E for
// every r, s being what cosine_scores() gives with the same query inverse
// norm. Negative when this query cannot take the quantized path (zero
// query, values not finite or too large, unusable table).
double quantized_cosine_scores(const float* query, float query_inverse_norm, const QuantizedRows& quantized,
                               float* approx);

// The k rows of a (rows, cols) table closest to `query` by cosine, as
// top_k(cosine_scores(...)) gives them: up to k indices and scores, best
// first, ties to the smaller index, `exclude` left out (< 0: none).
// `quantized` may be null (exact scan). scratch holds 2 * rows floats,
// index_scratch rows int32; out_indices and out_scores hold k.
std::size_t nearest(const float* query, const float* table, const float* row_inverse_norms,
                    const QuantizedRows* quantized, std::size_t rows, std::size_t cols, std::size_t k,
                    std::int64_t exclude, float* scratch, std::int32_t* index_scratch, std::int32_t* out_indices,
                    float* out_scores);

// Rows [row_begin, row_end) of the (rows, rows) cosine map of a table:
// out is (row_end - row_begin, rows), out[i][j] = cosine(row row_begin + i, row j).
void cosine_map_rows(const float* table, const float* row_inverse_norms, std::size_t rows, std::size_t cols,
                     std::size_t row_begin, std::size_t row_end, float* out);

// The whole (rows, rows) cosine map of a table: out[i][j] = cosine(row i,
// row j), the same numbers as cosine_map_rows(.., 0, rows, out) up to the
// last bit (sums are grouped differently), computed once per pair and
// written to both (i, j) and (j, i), so out is exactly symmetric. Half the
// work of cosine_map_rows; the chapter's position map uses it.
void cosine_map(const float* table, const float* row_inverse_norms, std::size_t rows, std::size_t cols,
                float* out);

// The embedding step of GPT-2 (llm.c's encoder_forward), keeping its parts:
//   ids is (n), wte is (vocab, d), wpe is (context, d), n <= context,
//   every id < vocab (the caller checks);
//   token_out, position_out and sum_out are (n, d):
//   token_out[i] = wte[ids[i]], position_out[i] = wpe[i], sum_out[i] = their sum.
// Position i here is place i + 1 in the chapter's words.
void embed_tokens(const std::int32_t* ids, std::size_t n, const float* wte, const float* wpe, std::size_t d,
                  float* token_out, float* position_out, float* sum_out);

// out[k] = a[k] + b[k].
void add(const float* a, const float* b, float* out, std::size_t n);

// Which fast backend this build uses ("wasm-simd128", "avx2-fma", "portable").
const char* backend_name();

}  // namespace embeddings::kernels
