// tokenizers' WordPiece decoder: `prefix` (default "##") taken off
// continuing tokens, a space before the others, and with `cleanup` (default
// true) tokenizers' cleanup() of spaces before punctuation and in
// contractions (strings.h).
#include <memory>
#include <utility>

#include "decoders/strings.h"
#include "tokenizer_json/reading.h"

namespace embeddings::decoders {

namespace {

class WordPiece : public Decoder {
 public:
  WordPiece(std::string prefix, bool cleanup) : prefix_(std::move(prefix)), cleanup_(cleanup) {}

  bool decode(std::vector<std::string>& tokens, StageScratch& scratch, TextBudget& budget) const override {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      std::string& token = tokens[i];
      if (i != 0) {
        if (token.compare(0, prefix_.size(), prefix_) == 0) {
          token.erase(0, prefix_.size());
        } else {
          if (!budget.take(1)) return false;
          token.insert(0, 1, ' ');
        }
      }
      if (cleanup_) cleanup(token, scratch.spare);
    }
    return true;
  }
  // A space in front of a token (cleanup only shortens).
  Growth growth() const override { return {1, 1}; }

 private:
  const std::string prefix_;
  const bool cleanup_;
};

}  // namespace

bool read_word_piece(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                     Decoders& out) {
  std::string prefix = "##";
  bool cleanup = true;
  if (value.find("prefix") != nullptr && !reading.read_string(value, "prefix", where, prefix, false))
    return false;
  if (!reading.read_bool(value, "cleanup", where, cleanup)) return false;
  out.push_back(std::make_shared<WordPiece>(std::move(prefix), cleanup));
  return true;
}

}  // namespace embeddings::decoders
