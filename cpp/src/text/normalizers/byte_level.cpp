// tokenizers' ByteLevel normalizer: every byte of the text as its character
// in GPT-2's byte alphabet (byte_level.h), so that a vocabulary spelled in
// that alphabet is matched by the pre-tokenizers and the model as text.
// No settings.
#include "embeddings/text/byte_level.h"

#include <memory>

#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {
namespace {

class ByteLevel : public Normalizer {
 public:
  bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const override {
    // Each byte becomes one character of one or two bytes: counted exactly.
    std::size_t length = 0;
    for (const char c : text)
      length += byte_level::char_for_byte(static_cast<std::uint8_t>(c)) < 0x80 ? 1 : 2;
    if (length > text.size() && !budget.take(length - text.size())) return false;
    scratch.spare.clear();
    byte_level::append_encoded(scratch.spare, text);
    text.swap(scratch.spare);
    return true;
  }
  bool may_change(std::string_view text) const override { return !text.empty(); }
  Growth growth() const override { return {2, 0}; }
};

}  // namespace

bool read_byte_level(const json::Value&, const std::string&, tokenizer_json::Reading&, Normalizers& out) {
  out.push_back(std::make_shared<ByteLevel>());
  return true;
}

}  // namespace embeddings::normalizers
