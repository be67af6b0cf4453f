// kernels.h's functions: the selected backend's kernels (kernels/backends.h),
// called directly rather than through its table, so that the small ones
// (dot, cosine) inline here. The instantiations are the same functions as
// the backend file's (templates), so the binary holds them once.
#include "embeddings/kernels/kernels.h"

#include "embeddings/kernels/backends.h"
#include "generic.h"
#if defined(EMBEDDINGS_KERNELS_V128)
#include "ops_v128.h"
#elif defined(EMBEDDINGS_KERNELS_HASWELL)
#include "ops_haswell.h"
#else
#include "ops_portable.h"
#endif

namespace embeddings::kernels {

namespace {
#if defined(EMBEDDINGS_KERNELS_V128)
using Selected = Kernels<V128Ops>;
const KernelBackend& selected_table = kV128Backend;
#elif defined(EMBEDDINGS_KERNELS_HASWELL)
using Selected = Kernels<HaswellOps>;
const KernelBackend& selected_table = kHaswellBackend;
#else
using Selected = Kernels<PortableOps>;
const KernelBackend& selected_table = kPortableBackend;
#endif
}  // namespace

const KernelBackend& selected_backend() { return selected_table; }

const char* backend_name() { return selected_table.name; }

float dot(const float* a, const float* b, std::size_t n) { return Selected::dot(a, b, n); }

DotAndNorms dot_and_norms(const float* a, const float* b, std::size_t n) {
  return Selected::dot_and_norms(a, b, n);
}

float cosine(const float* a, const float* b, std::size_t n) { return Selected::cosine(a, b, n); }

float inverse_norm(const float* a, std::size_t n) { return Selected::inverse_norm(a, n); }

void inverse_row_norms(const float* table, std::size_t rows, std::size_t cols, float* out) {
  for (std::size_t r = 0; r < rows; ++r) out[r] = Selected::inverse_norm(table + r * cols, cols);
}

void cosine_scores(const float* query, TableNumbers table, std::size_t rows, std::size_t cols, float* out) {
  Selected::cosine_scores(query, table, rows, cols, out);
}

std::size_t top_k(const float* scores, std::size_t count, std::size_t k, std::int64_t exclude,
                  std::int32_t* out_indices, float* out_scores) {
  return Selected::top_k(scores, count, k, exclude, out_indices, out_scores);
}

std::size_t nearest(const float* query, TableNumbers table, std::size_t rows, std::size_t cols, std::size_t k,
                    std::int64_t exclude, float* scratch, std::int32_t* out_indices, float* out_scores) {
  return Selected::nearest(query, table, rows, cols, k, exclude, scratch, out_indices, out_scores);
}

void cosine_map_rows(TableNumbers table, std::size_t rows, std::size_t cols, std::size_t row_begin,
                     std::size_t row_end, float* scratch, float* out) {
  Selected::cosine_map_rows(table, rows, cols, row_begin, row_end, scratch, out);
}

void cosine_map(TableNumbers table, std::size_t rows, std::size_t cols, float* scratch, float* out) {
  Selected::cosine_map(table, rows, cols, scratch, out);
}

void embed_tokens(const std::int32_t* ids, std::size_t n, TableNumbers wte, TableNumbers wpe, std::size_t d,
                  float* token_out, float* position_out, float* sum_out) {
  Selected::embed_tokens(ids, n, wte, wpe, d, token_out, position_out, sum_out);
}

void widen_f16(const std::uint16_t* in, std::size_t n, float* out) { Selected::widen_f16(in, n, out); }

void widen_bf16(const std::uint16_t* in, std::size_t n, float* out) { Selected::widen_bf16(in, n, out); }

void widen(TableNumbers in, std::size_t n, float* out) { Selected::widen(in, n, out); }

}  // namespace embeddings::kernels
