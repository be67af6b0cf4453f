// tokenizers' pre-tokenizers Sequence: each stage on every piece the one
// before it made. Read into the list around it (pipeline.h), so a Sequence
// in a Sequence is spliced in and running them is a loop (pipeline.cpp).
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {

bool read_sequence(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                   PreTokenizers& out) {
  return reading.read_sequence(value, "pretokenizers", where, out,
                               &tokenizer_json::Reading::read_pre_tokenizer);
}

}  // namespace embeddings::pre_tokenizers
