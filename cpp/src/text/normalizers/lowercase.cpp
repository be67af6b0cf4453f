// tokenizers' Lowercase: each character's full lowercase mapping (Rust's
// char::to_lowercase, one character at a time: Σ is always σ). No settings.
#include <memory>

#include "embeddings/text/unicode/unicode.h"
#include "normalizers/characters.h"
#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {
namespace {

class Lowercase : public Normalizer {
 public:
  bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const override {
    return map_characters(text, scratch.spare, budget, growth(), [](std::uint32_t code, auto&& emit) {
      if (code < 0x80) {
        if (code < 'A' || code > 'Z') return false;
        emit(code + ('a' - 'A'));
        return true;
      }
      const std::uint32_t* parts = nullptr;
      const std::size_t count = unicode::lowercase_mapping(code, parts);
      for (std::size_t i = 0; i < count; ++i) emit(parts[i]);
      return count != 0;
    });
  }
  // "İ" (2 bytes) becomes "i" and U+0307 (3 bytes).
  Growth growth() const override { return {2, 0}; }
};

}  // namespace

bool read_lowercase(const json::Value&, const std::string&, tokenizer_json::Reading&, Normalizers& out) {
  out.push_back(std::make_shared<Lowercase>());
  return true;
}

}  // namespace embeddings::normalizers
