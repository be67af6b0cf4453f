// tokenizers' ByteLevel decoder (decoders/byte_level.h): each token through
// GPT-2's byte alphabet when every character is in it, else its own bytes;
// then from_utf8_lossy over the whole.
#include "decoders/byte_level.h"

#include "embeddings/text/byte_level.h"

namespace embeddings::decoders {

bool ByteLevelDecoder::decode(std::vector<std::string>& tokens, StageScratch& scratch, TextBudget&) const {
  std::string& bytes = scratch.spare;
  bytes.clear();
  std::string token_bytes;
  for (const std::string& token : tokens) {
    if (byte_level::decode(token, token_bytes)) {
      bytes += token_bytes;
    } else {
      bytes += token;
    }
  }
  tokens.assign(1, std::string());
  byte_level::append_utf8_lossy(tokens[0], bytes);
  return true;
}

}  // namespace embeddings::decoders
