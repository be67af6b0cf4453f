// The WebAssembly SIMD128 backend, built in the WebAssembly build.
#include "embeddings/kernels/backends.h"

#if defined(EMBEDDINGS_KERNELS_V128)
#include "generic.h"
#include "ops_v128.h"

namespace embeddings::kernels {

const KernelBackend kV128Backend = Kernels<V128Ops>::table();

}  // namespace embeddings::kernels
#endif
