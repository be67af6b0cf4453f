// The AVX2 + FMA backend, built where the compiler targets it (-march=native
// on such a machine).
#include "embeddings/kernels/backends.h"

#if defined(EMBEDDINGS_KERNELS_HASWELL)
#include "generic.h"
#include "ops_haswell.h"

namespace embeddings::kernels {

const KernelBackend kHaswellBackend = Kernels<HaswellOps>::table();

}  // namespace embeddings::kernels
#endif
