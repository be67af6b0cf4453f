// libFuzzer entry point; the target itself is in targets/tokenizer_models.h, shared
// with the replay test. Built and run by tools/fuzz.sh.
#include <cstddef>
#include <cstdint>

#include "targets/tokenizer_models.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  embeddings::fuzz::Findings findings;
  embeddings::fuzz::tokenizer_models_target(data, size, findings);
  embeddings::fuzz::abort_on(findings);
  return 0;
}
