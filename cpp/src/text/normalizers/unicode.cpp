// The Unicode normalization forms NFC, NFD, NFKC and NFKD (normalize.h),
// as tokenizers' NFC, NFD, NFKC and NFKD normalizers. No settings.
#include "embeddings/text/unicode/unicode.h"

#include <memory>

#include "embeddings/text/unicode/normalize.h"
#include "normalizers/alignment.h"
#include "normalizers/characters.h"
#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {
namespace {

// Hangul syllables decompose into two or three jamo, by formula.
constexpr std::uint32_t kSBase = 0xAC00, kSCount = 11172, kTCount = 28;

class UnicodeForm : public Normalizer {
 public:
  explicit UnicodeForm(normalize::Form form) : form_(form) {}

  bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const override {
    if (normalize::is_quick_unchanged(form_, text)) return true;
    return apply(text, scratch.spare, budget, nullptr);
  }
  // Offsets: each character's span by the crate's changes, through NormalizedString's transform().
  bool normalize_aligned(std::string& text, std::vector<Span>& spans, StageScratch& scratch,
                         TextBudget& budget) const override {
    std::vector<std::int32_t> changes;
    std::string before = text;
    if (!apply(text, scratch.spare, budget, &changes)) return false;
    std::vector<Span> out;
    transform(before, spans, text, changes, 0, out);
    spans.swap(out);
    return true;
  }
  bool may_change(std::string_view text) const override {
    return !normalize::is_quick_unchanged(form_, text);
  }
  // U+FDFA's compatibility decomposition: 18 characters, 33 bytes, from 3.
  Growth growth() const override { return {kMostGrowth, 0}; }

 private:
  static constexpr std::uint64_t kMostGrowth = 11;

  // `text` in the form (through `spare`), under the budget.
  bool apply(std::string& text, std::string& spare, TextBudget& budget,
             std::vector<std::int32_t>* changes) const {
    // The full decomposition is the longest the result can be (composition
    // only shortens it): counted first, when the budget might not cover it.
    const bool counted = text.size() * (kMostGrowth - 1) > budget.left();
    if (counted) {
      const std::size_t most = decomposed_length(text);
      if (most > text.size() && !budget.take(most - text.size())) return false;
    }
    normalize::apply(form_, text, spare, changes);
    // (Uncounted, the budget covers the most it could have grown.)
    if (!counted && spare.size() > text.size()) budget.take(spare.size() - text.size());
    text.swap(spare);
    return true;
  }

  std::size_t decomposed_length(std::string_view text) const {
    const bool compatibility = form_ == normalize::Form::NFKC || form_ == normalize::Form::NFKD;
    std::size_t length = 0;
    for (std::size_t pos = 0; pos < text.size();) {
      std::uint32_t code = 0;
      const std::size_t used = utf8::decode(text, pos, code);
      pos += used == 0 ? 1 : used;
      if (used == 0) {
        ++length;
        continue;
      }
      if (code >= kSBase && code < kSBase + kSCount) {
        length += (code - kSBase) % kTCount == 0 ? 6 : 9;
        continue;
      }
      const std::uint32_t* parts = nullptr;
      std::size_t count = compatibility ? unicode::compatibility_decomposition(code, parts) : 0;
      if (count == 0) count = unicode::canonical_decomposition(code, parts);
      if (count == 0) length += used;
      for (std::size_t i = 0; i < count; ++i) length += utf8_length(parts[i]);
    }
    return length;
  }

  const normalize::Form form_;
};

bool add(normalize::Form form, Normalizers& out) {
  out.push_back(std::make_shared<UnicodeForm>(form));
  return true;
}

}  // namespace

bool read_nfc(const json::Value&, const std::string&, tokenizer_json::Reading&, Normalizers& out) {
  return add(normalize::Form::NFC, out);
}
bool read_nfd(const json::Value&, const std::string&, tokenizer_json::Reading&, Normalizers& out) {
  return add(normalize::Form::NFD, out);
}
bool read_nfkc(const json::Value&, const std::string&, tokenizer_json::Reading&, Normalizers& out) {
  return add(normalize::Form::NFKC, out);
}
bool read_nfkd(const json::Value&, const std::string&, tokenizer_json::Reading&, Normalizers& out) {
  return add(normalize::Form::NFKD, out);
}

}  // namespace embeddings::normalizers
