// tokenizers' BPEDecoder: `suffix` (default "</w>") becomes a space in every
// token but the last, where it is dropped (str::replace, so an empty suffix
// puts a space at every character boundary, as there).
#include <memory>
#include <utility>

#include "decoders/strings.h"
#include "tokenizer_json/reading.h"

namespace embeddings::decoders {
namespace {

class BpeDecoder : public Decoder {
 public:
  explicit BpeDecoder(std::string suffix) : suffix_(std::move(suffix)) {}

  bool decode(std::vector<std::string>& tokens, StageScratch& scratch, TextBudget& budget) const override {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (!replace_all(tokens[i], suffix_, i + 1 == tokens.size() ? "" : " ", scratch.spare, budget))
        return false;
    }
    return true;
  }
  // A suffix becomes at most one byte; an empty one adds a space per boundary.
  Growth growth() const override { return suffix_.empty() ? Growth{2, 1} : Growth{}; }

 private:
  const std::string suffix_;
};

}  // namespace

bool read_bpe(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
              Decoders& out) {
  std::string suffix = "</w>";
  if (value.find("suffix") != nullptr && !reading.read_string(value, "suffix", where, suffix, false))
    return false;
  out.push_back(std::make_shared<BpeDecoder>(std::move(suffix)));
  return true;
}

}  // namespace embeddings::decoders
