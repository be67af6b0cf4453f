// tokenizers' processors Sequence: each post-processor in turn, on what the
// one before gave. Read into the list around it (pipeline.h).
#include "tokenizer_json/reading.h"

namespace embeddings::post_processors {

bool read_sequence(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                   PostProcessors& out) {
  return reading.read_sequence(value, "processors", where, out,
                               &tokenizer_json::Reading::read_post_processor);
}

}  // namespace embeddings::post_processors
