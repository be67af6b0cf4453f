// tokenizers' CharDelimiterSplit: cut at `delimiter` (one character), which is dropped.
#include <memory>

#include "pre_tokenizers/characters.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

class CharDelimiterSplit : public PreTokenizer {
 public:
  explicit CharDelimiterSplit(std::uint32_t delimiter) : delimiter_(delimiter) {}
  void split(std::string_view text, bool, PreTokenizerBuffers& own, StageScratch&, TextBudget&,
             PieceSink& sink) const override {
    split_by_characters(
        text, Behavior::Removed, [&](std::uint32_t code) { return code == delimiter_; }, own, sink);
  }

 private:
  const std::uint32_t delimiter_;
};

}  // namespace

bool read_char_delimiter_split(const json::Value& value, const std::string& where,
                               tokenizer_json::Reading& reading, PreTokenizers& out) {
  std::string delimiter;
  if (!reading.read_string(value, "delimiter", where, delimiter, true)) return false;
  std::uint32_t code = 0;
  utf8::decode(delimiter, 0, code);
  out.push_back(std::make_shared<CharDelimiterSplit>(code));
  return true;
}

}  // namespace embeddings::pre_tokenizers
