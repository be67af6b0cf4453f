// tokenizers' ByteLevel decoder, read with the pre-tokenizer's settings
// (pre_tokenizers/byte_level.cpp). Its decode() is in decoders/byte_level.cpp,
// which only the full module links: the chapter's module decodes GPT-2's
// tokens by their bytes (Tokenizer::decode) and never runs a decoder.
// Internal to the library.
#pragma once

#include "embeddings/text/pipeline.h"

namespace embeddings::decoders {

class ByteLevelDecoder : public Decoder {
 public:
  bool decode(std::vector<std::string>& tokens, StageScratch& scratch, TextBudget& budget) const override;
  // A byte that is not UTF-8 becomes U+FFFD, 3 bytes.
  Growth growth() const override { return {3, 0}; }
  bool byte_level() const override { return true; }
};

}  // namespace embeddings::decoders
