// tokenizers' BertProcessing: with add_special_tokens, `cls` and `sep` around
// the first text ([CLS] A [SEP]) and `sep` after each other one (B [SEP]).
// The RobertaProcessing (roberta.cpp) differs in the second text only.
#include "post_processors/special_pair.h"

namespace embeddings::post_processors {

bool read_bert(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
               PostProcessors& out) {
  return read_special_pair(value, where, reading, false, out);
}

}  // namespace embeddings::post_processors
