// The portable backend, built into every binary (kernels_backends.h).
#include "kernels/generic.h"
#include "kernels/ops_portable.h"

namespace embeddings::kernels {

const KernelBackend kPortableBackend = Kernels<PortableOps>::table();

}  // namespace embeddings::kernels
