// tokenizers' Strip: whitespace (White_Space) taken off the left and/or
// right end (NormalizedString::lrstrip); strip_left and strip_right.
#include <memory>

#include "embeddings/common/utf8.h"
#include "embeddings/text/unicode/unicode.h"
#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {
namespace {

// Whether the character ending at `end` is White_Space; `start` is where it starts.
bool is_white_space_at_end(std::string_view text, std::size_t end, std::size_t& start) {
  start = end - 1;
  while (start > 0 && end - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  std::uint32_t code = 0;
  if (utf8::decode(text, start, code) != end - start) return false;
  return unicode::is_whitespace(code);
}

class Strip : public Normalizer {
 public:
  Strip(bool left, bool right) : left_(left), right_(right) {}

  bool normalize(std::string& text, StageScratch&, TextBudget&) const override {
    std::size_t begin = 0, end = text.size();
    kept(text, begin, end);
    text.erase(end);
    text.erase(0, begin);
    return true;
  }
  // Offsets: what is kept keeps its spans (lrstrip's transform()).
  bool normalize_aligned(std::string& text, std::vector<Span>& spans, StageScratch& scratch,
                         TextBudget& budget) const override {
    std::size_t begin = 0, end = text.size();
    kept(text, begin, end);
    spans.erase(spans.begin() + static_cast<std::ptrdiff_t>(end), spans.end());
    spans.erase(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(begin));
    return normalize(text, scratch, budget);
  }
  bool may_change(std::string_view text) const override { return (left_ || right_) && !text.empty(); }
  bool keeps_text() const override { return !left_ && !right_; }

 private:
  // The bytes [begin, end) left between the whitespace taken off.
  void kept(std::string_view text, std::size_t& begin, std::size_t& end) const {
    if (left_) {
      while (begin < end) {
        std::uint32_t code = 0;
        const std::size_t used = utf8::decode(text, begin, code);
        if (used == 0 || !unicode::is_whitespace(code)) break;
        begin += used;
      }
    }
    if (right_) {
      std::size_t start = 0;
      while (end > begin && is_white_space_at_end(text, end, start)) end = start;
    }
  }

  const bool left_, right_;
};

}  // namespace

bool read_strip(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                Normalizers& out) {
  bool left = false, right = false;
  if (!reading.read_bool(value, "strip_left", where, left) ||
      !reading.read_bool(value, "strip_right", where, right))
    return false;
  out.push_back(std::make_shared<Strip>(left, right));
  return true;
}

}  // namespace embeddings::normalizers
