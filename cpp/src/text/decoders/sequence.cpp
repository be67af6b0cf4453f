// tokenizers' decoders Sequence: each decoder in turn. Read into the list
// around it (pipeline.h), so a Sequence in a Sequence is spliced in.
#include "tokenizer_json/reading.h"

namespace embeddings::decoders {

bool read_sequence(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                   Decoders& out) {
  return reading.read_sequence(value, "decoders", where, out, &tokenizer_json::Reading::read_decoder);
}

}  // namespace embeddings::decoders
