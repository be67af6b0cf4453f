// The list of built backends, apart from kernels.cpp so that a binary that
// only calls kernels.h (the WebAssembly module) links no other backend.
#include "embeddings/kernels/backends.h"

namespace embeddings::kernels {

std::vector<const KernelBackend*> built_backends() {
  std::vector<const KernelBackend*> out{&selected_backend()};
  if (out[0] != &kPortableBackend) out.push_back(&kPortableBackend);
  return out;
}

}  // namespace embeddings::kernels
