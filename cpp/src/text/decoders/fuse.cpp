// tokenizers' Fuse decoder: every token joined into one. No settings.
#include <memory>
#include <utility>

#include "tokenizer_json/reading.h"

namespace embeddings::decoders {
namespace {

class Fuse : public Decoder {
 public:
  bool decode(std::vector<std::string>& tokens, StageScratch&, TextBudget&) const override {
    std::string joined;
    for (const std::string& token : tokens) joined += token;
    tokens.assign(1, std::move(joined));
    return true;
  }
};

}  // namespace

bool read_fuse(const json::Value&, const std::string&, tokenizer_json::Reading&, Decoders& out) {
  out.push_back(std::make_shared<Fuse>());
  return true;
}

}  // namespace embeddings::decoders
