// tokenizers' Prepend: `prepend` put in front of a text that is not empty
// (so in front of each gap between added tokens).
#include <memory>
#include <utility>

#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {
namespace {

class Prepend : public Normalizer {
 public:
  explicit Prepend(std::string content) : content_(std::move(content)) {}

  bool normalize(std::string& text, StageScratch&, TextBudget& budget) const override {
    if (text.empty()) return true;
    if (!budget.take(content_.size())) return false;
    text.insert(0, content_);
    return true;
  }
  // Offsets: every character put in front takes the first character's span, as prepend() has it.
  bool normalize_aligned(std::string& text, std::vector<Span>& spans, StageScratch& scratch,
                         TextBudget& budget) const override {
    if (text.empty()) return true;
    if (!normalize(text, scratch, budget)) return false;
    spans.insert(spans.begin(), content_.size(), spans[0]);
    return true;
  }
  bool may_change(std::string_view text) const override { return !text.empty() && !content_.empty(); }
  Growth growth() const override { return {1, content_.size()}; }
  bool keeps_text() const override { return content_.empty(); }

 private:
  const std::string content_;
};

}  // namespace

bool read_prepend(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                  Normalizers& out) {
  std::string content;
  if (!reading.read_string(value, "prepend", where, content, false)) return false;
  out.push_back(std::make_shared<Prepend>(std::move(content)));
  return true;
}

}  // namespace embeddings::normalizers
