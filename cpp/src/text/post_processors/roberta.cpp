// tokenizers' RobertaProcessing: with add_special_tokens, `cls` and `sep`
// around the first text (<s> A </s>) and `sep` on both sides of each other
// one (</s> B </s>). trim_offsets and add_prefix_space affect only offsets
// (tokenizer_offsets.cpp trims them).
#include "post_processors/special_pair.h"

namespace embeddings::post_processors {

bool read_roberta(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                  PostProcessors& out) {
  bool trim_offsets = true, add_prefix_space = true;
  if (!reading.read_bool(value, "trim_offsets", where, trim_offsets) ||
      !reading.read_bool(value, "add_prefix_space", where, add_prefix_space))
    return false;
  if (trim_offsets) reading.offset_trims += static_cast<char>(add_prefix_space);
  return read_special_pair(value, where, reading, true, out);
}

}  // namespace embeddings::post_processors
