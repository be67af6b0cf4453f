// The portable backend, built into every binary (kernels/backends.h).
#include "generic.h"
#include "ops_portable.h"

namespace embeddings::kernels {

const KernelBackend kPortableBackend = Kernels<PortableOps>::table();

}  // namespace embeddings::kernels
