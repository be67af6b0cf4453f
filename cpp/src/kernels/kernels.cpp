// kernels.h's functions: the selected backend's kernels (kernels/backends.h).
// In WebAssembly the one SIMD backend is known when compiling, so its table
// is a constant here and the calls below are direct (the small kernels, dot
// and cosine, inline). Natively the backend is chosen once, at the first
// call, from those this CPU runs.
#include "embeddings/kernels/kernels.h"

#include "embeddings/kernels/backends.h"
#if defined(EMBEDDINGS_KERNELS_V128)
#include "generic.h"
#include "ops_v128.h"
#endif

namespace embeddings::kernels {

#if defined(EMBEDDINGS_KERNELS_V128)
namespace {
// kV128Backend's kernels, as a constant here.
constexpr KernelBackend kSelected = Kernels<V128Ops>::table();
const KernelBackend& selected() { return kSelected; }
}  // namespace

const KernelBackend& selected_backend() { return kV128Backend; }
#else
const KernelBackend& selected_backend() {
  static const KernelBackend& chosen = *available_backends().front();
  return chosen;
}

namespace {
const KernelBackend& selected() { return selected_backend(); }
}  // namespace
#endif

const char* backend_name() { return selected().name; }

float dot(const float* a, const float* b, std::size_t n) { return selected().dot(a, b, n); }

DotAndNorms dot_and_norms(const float* a, const float* b, std::size_t n) {
  return selected().dot_and_norms(a, b, n);
}

float cosine(const float* a, const float* b, std::size_t n) { return selected().cosine(a, b, n); }

float inverse_norm(const float* a, std::size_t n) { return selected().inverse_norm(a, n); }

void inverse_row_norms(const float* table, std::size_t rows, std::size_t cols, float* out) {
  const KernelBackend& backend = selected();
  for (std::size_t r = 0; r < rows; ++r) out[r] = backend.inverse_norm(table + r * cols, cols);
}

void cosine_scores(const float* query, TableNumbers table, std::size_t rows, std::size_t cols, float* out) {
  selected().cosine_scores(query, table, rows, cols, out);
}

std::size_t top_k(const float* scores, std::size_t count, std::size_t k, std::int64_t exclude,
                  std::int32_t* out_indices, float* out_scores) {
  return selected().top_k(scores, count, k, exclude, out_indices, out_scores);
}

std::size_t nearest(const float* query, TableNumbers table, std::size_t rows, std::size_t cols, std::size_t k,
                    std::int64_t exclude, float* scratch, std::int32_t* out_indices, float* out_scores) {
  return selected().nearest(query, table, rows, cols, k, exclude, scratch, out_indices, out_scores);
}

void cosine_matrix_rows(TableNumbers table, std::size_t rows, std::size_t cols, std::size_t row_begin,
                        std::size_t row_end, float* scratch, float* out) {
  selected().cosine_matrix_rows(table, rows, cols, row_begin, row_end, scratch, out);
}

void cosine_matrix(TableNumbers table, std::size_t rows, std::size_t cols, float* scratch, float* out) {
  selected().cosine_matrix(table, rows, cols, scratch, out);
}

void embed_tokens(const std::int32_t* ids, std::size_t n, TableNumbers wte, TableNumbers wpe, std::size_t d,
                  float* token_out, float* position_out, float* sum_out) {
  selected().embed_tokens(ids, n, wte, wpe, d, token_out, position_out, sum_out);
}

void widen_f16(const std::uint16_t* in, std::size_t n, float* out) { selected().widen_f16(in, n, out); }

void widen_bf16(const std::uint16_t* in, std::size_t n, float* out) { selected().widen_bf16(in, n, out); }

void widen(TableNumbers in, std::size_t n, float* out) { selected().widen(in, n, out); }

void vector_times_table(const float* x, TableNumbers table, std::size_t rows, std::size_t cols,
                        float* scratch, float* out) {
  selected().vector_times_table(x, table, rows, cols, scratch, out);
}

}  // namespace embeddings::kernels
