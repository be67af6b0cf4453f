// tokenizers' Digits: digits (General_Category N, unicode.h) apart from the
// rest, each alone with `individual_digits`, else in runs.
#include <memory>

#include "embeddings/text/unicode/unicode.h"
#include "pre_tokenizers/characters.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

class Digits : public PreTokenizer {
 public:
  explicit Digits(bool individual) : individual_(individual) {}
  void split(std::string_view text, bool, PreTokenizerBuffers& own, StageScratch&, TextBudget&,
             PieceSink& sink) const override {
    split_by_characters(text, individual_ ? Behavior::Isolated : Behavior::Contiguous, unicode::is_number,
                        own, sink);
  }
  bool keeps_text() const override { return true; }

 private:
  const bool individual_;
};

}  // namespace

bool read_digits(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                 PreTokenizers& out) {
  bool individual = false;
  if (!reading.read_bool(value, "individual_digits", where, individual)) return false;
  out.push_back(std::make_shared<Digits>(individual));
  return true;
}

}  // namespace embeddings::pre_tokenizers
