// Every kernel backend built into this binary, as a table of its kernels,
// so that tests and benchmarks can run each one beside the reference.
// The portable backend is always built. Every x86-64 binary also has AVX2 +
// FMA, compiled with target attributes whatever -march says, and runs it
// where the CPU has it; the WebAssembly build has SIMD128, which every
// browser the page supports runs. kernels.h's functions run the first of
// available_backends().
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "embeddings/kernels/kernels.h"

#if defined(__wasm_simd128__)
#define EMBEDDINGS_KERNELS_V128 1
#elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EMBEDDINGS_KERNELS_HASWELL 1
#endif

namespace embeddings::kernels {

// One backend's kernels; each has the signature and contract of kernels.h's
// function of the same name.
struct KernelBackend {
  const char* name;
  float (*dot)(const float*, const float*, std::size_t);
  DotAndNorms (*dot_and_norms)(const float*, const float*, std::size_t);
  float (*cosine)(const float*, const float*, std::size_t);
  float (*inverse_norm)(const float*, std::size_t);
  void (*cosine_scores)(const float*, TableNumbers, std::size_t, std::size_t, float*);
  std::size_t (*top_k)(const float*, std::size_t, std::size_t, std::int64_t, std::int32_t*, float*);
  std::size_t (*nearest)(const float*, TableNumbers, std::size_t, std::size_t, std::size_t, std::int64_t,
                         float*, std::int32_t*, float*);
  void (*cosine_matrix_rows)(TableNumbers, std::size_t, std::size_t, std::size_t, std::size_t, float*,
                             float*);
  void (*cosine_matrix)(TableNumbers, std::size_t, std::size_t, float*, float*);
  void (*embed_tokens)(const std::int32_t*, std::size_t, TableNumbers, TableNumbers, std::size_t, float*,
                       float*, float*);
  void (*widen_f16)(const std::uint16_t*, std::size_t, float*);
  void (*widen_bf16)(const std::uint16_t*, std::size_t, float*);
  void (*widen)(TableNumbers, std::size_t, float*);
  void (*vector_times_table)(const float*, TableNumbers, std::size_t, std::size_t, float*, float*);
};

extern const KernelBackend kPortableBackend;
#if defined(EMBEDDINGS_KERNELS_HASWELL)
extern const KernelBackend kHaswellBackend;
#endif
#if defined(EMBEDDINGS_KERNELS_V128)
extern const KernelBackend kV128Backend;
#endif

// Every backend built into this binary, the fastest first.
std::vector<const KernelBackend*> built_backends();

// Whether this CPU can run `backend`: for AVX2 + FMA, the CPU has both and
// the operating system saves the AVX registers.
bool runs_here(const KernelBackend& backend);

// The built backends this CPU runs, the fastest first: the first is the
// one kernels.h's functions run.
std::vector<const KernelBackend*> available_backends();

// The backend kernels.h's functions run.
const KernelBackend& selected_backend();

}  // namespace embeddings::kernels
