// tokenizers' BertPreTokenizer: cut at whitespace (White_Space), which is
// dropped, then around each punctuation character (ASCII punctuation or
// General_Category P), which is a piece of its own: its two splits in one
// pass. No settings.
#include <memory>

#include "embeddings/common/utf8.h"
#include "embeddings/text/unicode/unicode.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

class Bert : public PreTokenizer {
 public:
  void split(std::string_view text, bool, PreTokenizerBuffers&, StageScratch&, TextBudget&,
             PieceSink& sink) const override {
    std::size_t word = 0;  // Where the piece being gathered starts.
    const auto flush = [&](std::size_t end) {
      if (end > word) sink.piece(text.substr(word, end - word), word == 0);
    };
    for (std::size_t pos = 0; pos < text.size() && !sink.stopped();) {
      std::uint32_t code = 0;
      const std::size_t used = utf8::decode(text, pos, code);
      const std::size_t length = used == 0 ? 1 : used;
      if (used != 0 && unicode::is_whitespace(code)) {
        flush(pos);
        word = pos + length;
      } else if (used != 0 && unicode::is_punctuation(code)) {
        flush(pos);
        sink.piece(text.substr(pos, length), pos == 0);
        word = pos + length;
      }
      pos += length;
    }
    if (!sink.stopped()) flush(text.size());
  }
};

}  // namespace

bool read_bert(const json::Value&, const std::string&, tokenizer_json::Reading&, PreTokenizers& out) {
  out.push_back(std::make_shared<Bert>());
  return true;
}

}  // namespace embeddings::pre_tokenizers
