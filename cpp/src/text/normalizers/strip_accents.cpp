// tokenizers' StripAccents: every combining mark (General_Category M: Mn,
// Mc, Me, as unicode-normalization's is_combining_mark) taken out, so that
// after NFD "é" is "e". No settings.
#include <memory>

#include "embeddings/text/unicode/unicode.h"
#include "normalizers/characters.h"
#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {
namespace {

bool is_mark(std::uint32_t code) {
  const unicode::Category category = unicode::general_category(code);
  return category == unicode::Category::Mn || category == unicode::Category::Mc ||
         category == unicode::Category::Me;
}

class StripAccents : public Normalizer {
 public:
  bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const override {
    return map_characters(text, scratch.spare, budget, growth(),
                          [](std::uint32_t code, auto&&) { return is_mark(code); });
  }
  bool may_change(std::string_view text) const override {
    // The first mark is U+0300.
    for (const char c : text) {
      if (static_cast<unsigned char>(c) >= 0xCC) return true;
    }
    return false;
  }
};

}  // namespace

bool read_strip_accents(const json::Value&, const std::string&, tokenizer_json::Reading&, Normalizers& out) {
  out.push_back(std::make_shared<StripAccents>());
  return true;
}

}  // namespace embeddings::normalizers
