// tokenizers' CTC decoder (speech models' character vocabularies): runs of
// the same token become one, `pad_token` is taken out, and with `cleanup`
// the WordPiece cleanup is done and `word_delimiter_token` becomes a space;
// tokens left empty are dropped. pad_token, word_delimiter_token and
// cleanup are required, as there.
#include <memory>
#include <utility>

#include "decoders/strings.h"
#include "tokenizer_json/reading.h"

namespace embeddings::decoders {
namespace {

class Ctc : public Decoder {
 public:
  Ctc(std::string pad, std::string delimiter, bool cleanup)
      : pad_(std::move(pad)), delimiter_(std::move(delimiter)), cleanup_(cleanup) {}

  bool decode(std::vector<std::string>& tokens, StageScratch& scratch, TextBudget& budget) const override {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (i > 0 && tokens[i] == tokens[i - 1])
        continue;  // itertools' dedup: compared before anything is replaced.
      std::string token = tokens[i];
      if (!replace_all(token, pad_, "", scratch.spare, budget)) return false;
      if (cleanup_) {
        cleanup(token, scratch.spare);
        if (!replace_all(token, delimiter_, " ", scratch.spare, budget)) return false;
      }
      if (!token.empty()) out.push_back(std::move(token));
    }
    tokens.swap(out);
    return true;
  }
  // An empty word delimiter puts a space at every character boundary.
  Growth growth() const override { return cleanup_ && delimiter_.empty() ? Growth{2, 1} : Growth{}; }

 private:
  const std::string pad_, delimiter_;
  const bool cleanup_;
};

}  // namespace

bool read_ctc(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
              Decoders& out) {
  std::string pad, delimiter;
  bool cleanup = true;
  if (!reading.read_string(value, "pad_token", where, pad, false) ||
      !reading.read_string(value, "word_delimiter_token", where, delimiter, false)) {
    return false;
  }
  const json::Value* member = value.find("cleanup");
  if (member == nullptr || !member->is_bool())
    return reading.fail(where + ".cleanup must be true or false, found " + tokenizer_json::describe(member));
  cleanup = member->boolean;
  out.push_back(std::make_shared<Ctc>(std::move(pad), std::move(delimiter), cleanup));
  return true;
}

}  // namespace embeddings::decoders
