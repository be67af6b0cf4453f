// tokenizers' normalizers Sequence: its normalizers, each in turn. Read
// into the list around it (pipeline.h), so a Sequence in a Sequence is
// spliced in and running them is a loop.
#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {

bool read_sequence(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                   Normalizers& out) {
  return reading.read_sequence(value, "normalizers", where, out, &tokenizer_json::Reading::read_normalizer);
}

}  // namespace embeddings::normalizers
