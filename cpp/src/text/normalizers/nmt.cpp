// tokenizers' Nmt (SentencePiece's nmt_nfkc rules before the NFKC):
// ASCII controls other than the whitespace ones (and U+008F, U+009F) dropped;
// tabs, line and paragraph breaks, U+1680, U+200B to U+200F, U+2581, U+FEFF
// and U+FFFD become a space. No settings.
#include <memory>

#include "normalizers/characters.h"
#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {
namespace {

bool is_dropped(std::uint32_t code) {
  return (code >= 0x01 && code <= 0x08) || code == 0x0B || (code >= 0x0E && code <= 0x1F) || code == 0x7F ||
         code == 0x8F || code == 0x9F;
}

bool is_space(std::uint32_t code) {
  return code == 0x09 || code == 0x0A || code == 0x0C || code == 0x0D || code == 0x1680 ||
         (code >= 0x200B && code <= 0x200F) || code == 0x2028 || code == 0x2029 || code == 0x2581 ||
         code == 0xFEFF || code == 0xFFFD;
}

class Nmt : public Normalizer {
 public:
  bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const override {
    return map_characters(text, scratch.spare, budget, growth(), [](std::uint32_t code, auto&& emit) {
      if (is_dropped(code)) return true;
      if (!is_space(code)) return false;
      emit(' ');
      return true;
    });
  }
};

}  // namespace

bool read_nmt(const json::Value&, const std::string&, tokenizer_json::Reading&, Normalizers& out) {
  out.push_back(std::make_shared<Nmt>());
  return true;
}

}  // namespace embeddings::normalizers
