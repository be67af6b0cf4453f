// tokenizers' Punctuation: punctuation (ASCII punctuation, or General_Category
// P: unicode.h) cut out as `behavior` says (default Isolated).
#include <memory>

#include "embeddings/text/unicode/unicode.h"
#include "pre_tokenizers/characters.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

class Punctuation : public PreTokenizer {
 public:
  explicit Punctuation(Behavior behavior) : behavior_(behavior) {}
  void split(std::string_view text, bool, PreTokenizerBuffers& own, StageScratch&, TextBudget&,
             PieceSink& sink) const override {
    split_by_characters(text, behavior_, unicode::is_punctuation, own, sink);
  }
  bool keeps_text() const override { return behavior_ != Behavior::Removed; }

 private:
  const Behavior behavior_;
};

}  // namespace

bool read_punctuation(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                      PreTokenizers& out) {
  Behavior behavior = Behavior::Isolated;
  if (value.find("behavior") != nullptr && !read_behavior(value, where, reading, behavior)) return false;
  out.push_back(std::make_shared<Punctuation>(behavior));
  return true;
}

}  // namespace embeddings::pre_tokenizers
