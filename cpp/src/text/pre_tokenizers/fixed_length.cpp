// tokenizers' FixedLength: pieces of `length` characters (default 5), the
// last one shorter. A length of 0 is refused (the Rust library panics on it).
#include <memory>

#include "embeddings/common/utf8.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

class FixedLength : public PreTokenizer {
 public:
  explicit FixedLength(std::size_t length) : length_(length) {}
  void split(std::string_view text, bool, PreTokenizerBuffers&, StageScratch&, TextBudget&,
             PieceSink& sink) const override {
    std::size_t start = 0, characters = 0;
    for (std::size_t pos = 0; pos < text.size() && !sink.stopped();) {
      std::uint32_t code = 0;
      const std::size_t used = utf8::decode(text, pos, code);
      pos += used == 0 ? 1 : used;
      if (++characters == length_ || pos == text.size()) {
        sink.piece(text.substr(start, pos - start), start == 0);
        start = pos;
        characters = 0;
      }
    }
  }
  bool keeps_text() const override { return true; }

 private:
  const std::size_t length_;
};

}  // namespace

bool read_fixed_length(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                       PreTokenizers& out) {
  std::size_t length = 5;
  if (value.find("length") != nullptr && !reading.read_count(value, "length", where, length)) return false;
  if (length == 0) return reading.fail(where + ".length must be at least 1, found 0");
  out.push_back(std::make_shared<FixedLength>(length));
  return true;
}

}  // namespace embeddings::pre_tokenizers
