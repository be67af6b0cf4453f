// Which backends are built and which this CPU runs, apart from kernels.cpp
// so that a binary that only calls kernels.h (the WebAssembly module) links
// no other backend.
#include "embeddings/kernels/backends.h"

namespace embeddings::kernels {

std::vector<const KernelBackend*> built_backends() {
  return {
#if defined(EMBEDDINGS_KERNELS_V128)
    &kV128Backend,
#endif
#if defined(EMBEDDINGS_KERNELS_HASWELL)
        &kHaswellBackend,
#endif
        &kPortableBackend,
  };
}

bool runs_here(const KernelBackend& backend) {
#if defined(EMBEDDINGS_KERNELS_HASWELL)
  if (&backend == &kHaswellBackend) {
    // The compiler's own CPUID reading (libgcc, compiler-rt), which counts
    // AVX only where the operating system saves its registers (XGETBV).
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }
#endif
  (void)backend;
  return true;
}

std::vector<const KernelBackend*> available_backends() {
  std::vector<const KernelBackend*> out;
  for (const KernelBackend* backend : built_backends())
    if (runs_here(*backend)) out.push_back(backend);
  return out;
}

}  // namespace embeddings::kernels
