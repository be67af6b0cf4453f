// The numeric kernels behind the chapter: dot product, cosine similarity,
// nearest rows, the cosine matrix of a table, and the token-plus-position sum.
//
// Conventions (after llm.c and NumKong): raw pointers, element counts and
// caller-owned outputs; no allocation and no failure inside a kernel; any
// pointer may be unaligned. Tables are row-major: row r of a (rows, cols)
// table starts at table + r * cols.
//
// Backends: the fast kernels are written once (src/kernels/generic.h) over
// a small set of vector operations, one file per backend: AVX2 + FMA in
// every x86-64 binary (ops_haswell.h), WebAssembly SIMD128 (ops_v128.h), and
// a portable one (ops_portable.h) built beside either. The functions below
// run the fastest backend this CPU runs, chosen at the first call;
// kernels/backends.h lists every built one, and the tests hold each one the
// CPU runs to the reference.
//
// Numerics:
// - The `*_reference` kernels accumulate in double, one term at a time.
//   They are the tests' oracle, and the fast kernels' fallback for vectors
//   outside the range where float32 sums are safe (below). A product of two
//   float32 numbers is exact in double and a double sum of them can neither
//   overflow nor underflow, so the reference covers float32's whole range.
// - The fast kernels accumulate in float32 in several independent SIMD
//   accumulators, summed at the end. For n terms the error is bounded by
//   about n * 2^-24 * sum(|a_k * b_k|); the tests hold them to that.
// - Float32's whole range: a sum of squares in float32 overflows for
//   numbers beyond about 1e19 and loses its digits below about 1e-19. So a
//   vector whose float32 squared norm is outside [2^-100, 2^100] (or not a
//   number) is scored with double sums instead (a query of nearest() or
//   cosine_scores() of up to 2048 numbers is first scaled by a power of two
//   into the range, exactly, and keeps the float32 path); inside it every
//   float32 product and partial sum of a cosine is at most 2^100 and the
//   products that underflow change a score by under n * 2^-50. Cosine,
//   nearest's scores and the cosine matrix are therefore right (to float32's
//   precision) for any finite float32 inputs: cosine([1e20, 1], [1e20, 1])
//   is 1, as is the cosine of two parallel vectors of size 1e-25. Ordinary
//   vectors take the float32 path; the check costs one comparison per row.
//   dot() itself is a float32 sum: beyond float32's range it is ±Infinity.
// - Cosine is dot(a, b) / sqrt(dot(a, a) * dot(b, b)), clamped to [-1, 1]
//   (rounding can otherwise give 1.0000001). When either vector has norm
//   zero the direction is undefined; cosine then returns 0, "nothing in
//   common", rather than NaN, so one zero row cannot poison a ranking. A
//   zero query therefore scores 0 against every row, and nearest() returns
//   the k smallest row indices (ties go to the smaller index). NaN or
//   infinite inputs give NaN.
// - Nothing is cached between calls: every call reads the table as it is
//   now (the chapter hands out views that write into the tables).
#pragma once

#include <cstddef>
#include <cstdint>

namespace embeddings::kernels {

// ---- Tables of float32, F16 or BF16 numbers ---------------------------------
// Today's models ship their tables in 16 bits (IEEE half, F16, or bfloat16,
// BF16). The kernels that read a table (cosine_scores, nearest, the cosine
// matrices, embed_tokens, widen) read it as it is stored, half the memory of
// float32, and widen each row to float32 as it is loaded, in registers:
// every 16-bit number is a float32, so the results are bit for bit those of
// the same kernel over the table converted to float32 first.
enum class NumberFormat : std::uint8_t { F32, F16, BF16 };
constexpr std::size_t bytes_per_number(NumberFormat format) { return format == NumberFormat::F32 ? 4 : 2; }

// A row-major table's numbers: row r of a (rows, cols) table starts at
// byte r * cols * bytes_per_number(format) of `data`. A float32 table
// converts implicitly, so a caller with float rows passes a pointer as before.
struct TableNumbers {
  const void* data = nullptr;
  NumberFormat format = NumberFormat::F32;
  TableNumbers() = default;
  TableNumbers(const float* numbers)
      : data(numbers) {}  // NOLINT(google-explicit-constructor): float32 is the default
  TableNumbers(const void* numbers, NumberFormat number_format) : data(numbers), format(number_format) {}
  // The numbers from the one at `index` (row * cols + column) on.
  TableNumbers from(std::size_t index) const {
    return {static_cast<const unsigned char*>(data) + index * bytes_per_number(format), format};
  }
};

// ---- Reference (serial, double accumulator) ---------------------------------

double dot_reference(const float* a, const float* b, std::size_t n);
double cosine_reference(const float* a, const float* b, std::size_t n);
void cosine_scores_reference(const float* query, const float* table, std::size_t rows, std::size_t cols,
                             double* out);
// out[j] = sum over i of x[i] * table[i][j], in double, one row at a time.
void vector_times_table_reference(const float* x, const float* table, std::size_t rows, std::size_t cols,
                                  double* out);

// The three sums cosine needs.
struct DotAndNorms {
  double ab = 0, aa = 0, bb = 0;
};
// The three sums in double, one term at a time.
DotAndNorms dot_and_norms_reference(const float* a, const float* b, std::size_t n);

// ---- Fast kernels -----------------------------------------------------------

// Sum of a[k] * b[k], in float32.
float dot(const float* a, const float* b, std::size_t n);

// The three sums cosine needs, in one pass over both vectors: float32 sums,
// or the reference's double ones when a squared norm is outside the safe range.
DotAndNorms dot_and_norms(const float* a, const float* b, std::size_t n);

// Cosine from the three sums (also used when a caller accumulates long
// vectors chunk by chunk): applies the zero-norm and clamping rules above.
float cosine_from_sums(double ab, double aa, double bb);

// Cosine similarity of a and b.
float cosine(const float* a, const float* b, std::size_t n);

// 1 / sqrt(dot(a, a)) as float32, or 0 for a zero vector; from double sums
// outside the safe range (so it is +Infinity for |a| below about 3e-39,
// beyond float32's range).
float inverse_norm(const float* a, std::size_t n);

// out[r] = inverse_norm(row r) for every row of a (rows, cols) table.
void inverse_row_norms(const float* table, std::size_t rows, std::size_t cols, float* out);

// out[r] = cosine(query, row r) for every row of a (rows, cols) table, each
// row's norm computed in the same pass as its dot product with the query.
void cosine_scores(const float* query, TableNumbers table, std::size_t rows, std::size_t cols, float* out);

// The k best scores, best first: writes up to k row indices and their scores
// and returns how many it wrote (min(k, count) less one if `exclude` is a
// valid index). "Best" is the larger score; equal scores go to the smaller
// index; NaN ranks below every number. `exclude` < 0 excludes nothing.
std::size_t top_k(const float* scores, std::size_t count, std::size_t k, std::int64_t exclude,
                  std::int32_t* out_indices, float* out_scores);

// The k rows of a (rows, cols) table closest to `query` by cosine:
// top_k(cosine_scores(...)), up to k indices and scores, best first, ties to
// the smaller index, `exclude` left out (< 0: none). One pass over the table
// as it is now; scratch holds `rows` floats, out_indices and out_scores k.
std::size_t nearest(const float* query, TableNumbers table, std::size_t rows, std::size_t cols, std::size_t k,
                    std::int64_t exclude, float* scratch, std::int32_t* out_indices, float* out_scores);

// Rows [row_begin, row_end) of the (rows, rows) cosine matrix of a table:
// out is (row_end - row_begin, rows), out[i][j] = cosine(row row_begin + i,
// row j), the same numbers as cosine_scores(row row_begin + i, ...) bit for
// bit. scratch holds `rows` floats (every row's norm, computed per call), or
// `cols` for a 16-bit table (a row, widened).
void cosine_matrix_rows(TableNumbers table, std::size_t rows, std::size_t cols, std::size_t row_begin,
                        std::size_t row_end, float* scratch, float* out);

// The whole (rows, rows) cosine matrix of a table: out[i][j] = cosine(row i,
// row j), the same numbers as cosine_matrix_rows(.., 0, rows, ..) up to the
// last bit (the two norms multiply in the other order below the diagonal),
// computed once per pair and written to both (i, j) and (j, i), so out is
// exactly symmetric. Half the work of cosine_matrix_rows; the chapter's
// position map uses it. scratch holds `rows` floats. For a 16-bit table it
// is cosine_matrix_rows' upper triangle mirrored (the same bits as for the
// table in float32, with cosine_matrix_rows' work), and scratch holds
// `rows + cols` floats.
void cosine_matrix(TableNumbers table, std::size_t rows, std::size_t cols, float* scratch, float* out);

// The embedding step of GPT-2 (llm.c's encoder_forward), keeping its parts:
//   ids is (n), wte is (vocab, d), wpe is (context, d), n <= context,
//   every id < vocab (the caller checks);
//   token_out, position_out and sum_out are (n, d):
//   token_out[i] = wte[ids[i]], position_out[i] = wpe[i], sum_out[i] = their sum.
// Position i here is place i + 1 in the chapter's words. wte and wpe may
// each be of any format; the rows come out as float32, exactly.
void embed_tokens(const std::int32_t* ids, std::size_t n, TableNumbers wte, TableNumbers wpe, std::size_t d,
                  float* token_out, float* position_out, float* sum_out);

// A row vector times a table, the product the chapter's one-hot lookup is:
//   x is (rows), table is (rows, cols), out is (cols), scratch (cols);
//   out[j] += x[i] * table[i][j] for every row i, in row order, in float32
//   (a fused multiply-add where the backend has one); the caller zeroes out
//   for the product itself, or keeps a partial sum to add more rows to it.
// Every row is multiplied, zeros included: it is the product, not a lookup.
// A one-hot x (all 0 but a 1 at t) gives row t exactly, number for number,
// for a finite table (0 * Infinity is NaN). Each row passes through
// scratch, widened exactly from a 16-bit table, so a 16-bit table's product
// is bit for bit that of the table converted to float32.
void vector_times_table(const float* x, TableNumbers table, std::size_t rows, std::size_t cols,
                        float* scratch, float* out);

// n IEEE half (F16) or bfloat16 (BF16) numbers, given by their bits, widened
// to float32 in out, exactly (every such number is a float32; infinities
// keep their sign, NaNs their payload). The building block of kernels that
// read a 16-bit table's rows directly.
void widen_f16(const std::uint16_t* in, std::size_t n, float* out);
void widen_bf16(const std::uint16_t* in, std::size_t n, float* out);
// n numbers of any format as float32: a copy of float32 ones, widen_f16 or widen_bf16.
void widen(TableNumbers in, std::size_t n, float* out);

// Which fast backend the functions above run ("wasm-simd128", "avx2-fma", "portable").
const char* backend_name();

}  // namespace embeddings::kernels
