// The AVX2 + FMA backend, in every x86-64 binary: compiled for AVX2 + FMA by
// target attributes rather than -march, and run only where the CPU has them
// (backends.cpp), as NumKong and highway do.
//
// Only the backend's own code may be compiled for AVX2 here. An inline
// function or a standard template compiled here with AVX2 has the same
// name as its baseline copy in the other files, and the linker keeps one of
// them for all: it could be this one, on a CPU without AVX2. So everything
// shared is included first, for the baseline CPU (scalar.h, widen.h, the
// standard headers), and only then are the AVX2 operations and the kernels
// over them (Kernels<HaswellOps>, a type of its own) compiled for AVX2.
#include "embeddings/kernels/backends.h"

#if defined(EMBEDDINGS_KERNELS_HASWELL)
#include <immintrin.h>

#include "scalar.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif

#include "generic.h"
#include "ops_haswell.h"

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

namespace embeddings::kernels {

// A constant (Kernels::table() is constexpr), so that setting it up at start
// runs no AVX2 code; the kernels it points to are those compiled above.
const KernelBackend kHaswellBackend = Kernels<HaswellOps>::table();

}  // namespace embeddings::kernels
#endif
