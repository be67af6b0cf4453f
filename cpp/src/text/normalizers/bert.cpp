// tokenizers' BertNormalizer: clean_text (NUL, U+FFFD, the controls other
// than tab and line breaks, formats and private use characters dropped,
// whitespace made a space), handle_chinese_chars (a space on each side of a CJK ideograph),
// strip_accents (NFD, then the nonspacing marks Mn dropped; null follows
// lowercase, as in Rust) and lowercase, in that order. Read as the
// normalizers it is made of, spliced into the list around it (pipeline.h),
// so that each keeps its own growth and budget check.
#include <memory>

#include "embeddings/text/unicode/unicode.h"
#include "normalizers/characters.h"
#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {

bool read_nfd(const json::Value&, const std::string&, tokenizer_json::Reading&, Normalizers&);
bool read_lowercase(const json::Value&, const std::string&, tokenizer_json::Reading&, Normalizers&);

namespace {

// unicode_categories' is_other as the Rust library has it: Cc, Cf, Cs and
// Co (its Cn table leaves unassigned characters such as U+0378 in).
bool is_other(std::uint32_t code) {
  switch (unicode::general_category(code)) {
    case unicode::Category::Cc:
    case unicode::Category::Cf:
    case unicode::Category::Cs:
    case unicode::Category::Co: return true;
    default: return false;
  }
}

class CleanText : public Normalizer {
 public:
  bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const override {
    return map_characters(text, scratch.spare, budget, growth(), [](std::uint32_t code, auto&& emit) {
      if (code == '\t' || code == '\n' || code == '\r') {
        emit(' ');
        return true;
      }
      if (code == 0 || code == 0xFFFD || is_other(code)) return true;
      if (code == ' ' || !unicode::is_whitespace(code)) return false;
      emit(' ');
      return true;
    });
  }
};

// tokenizers' is_chinese_char: the CJK Unified Ideographs blocks and their
// compatibility blocks, as BERT's original code lists them.
bool is_chinese(std::uint32_t code) {
  return (code >= 0x4E00 && code <= 0x9FFF) || (code >= 0x3400 && code <= 0x4DBF) ||
         (code >= 0x20000 && code <= 0x2A6DF) || (code >= 0x2A700 && code <= 0x2B73F) ||
         (code >= 0x2B740 && code <= 0x2B81F) || (code >= 0x2B920 && code <= 0x2CEAF) ||
         (code >= 0xF900 && code <= 0xFAFF) || (code >= 0x2F800 && code <= 0x2FA1F);
}

class ChineseChars : public Normalizer {
 public:
  bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const override {
    return map_characters(text, scratch.spare, budget, growth(), [](std::uint32_t code, auto&& emit) {
      if (!is_chinese(code)) return false;
      emit(' ');
      emit(code);
      emit(' ');
      return true;
    });
  }
  bool may_change(std::string_view text) const override {
    // The first ideograph is U+3400, 3 bytes from 0xE3.
    for (const char c : text) {
      if (static_cast<unsigned char>(c) >= 0xE3) return true;
    }
    return false;
  }
  // 3 bytes become 5.
  Growth growth() const override { return {2, 0}; }
};

class StripNonspacingMarks : public Normalizer {
 public:
  bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const override {
    return map_characters(text, scratch.spare, budget, growth(), [](std::uint32_t code, auto&&) {
      return unicode::general_category(code) == unicode::Category::Mn;
    });
  }
  bool may_change(std::string_view text) const override {
    // The first nonspacing mark is U+0300.
    for (const char c : text) {
      if (static_cast<unsigned char>(c) >= 0xCC) return true;
    }
    return false;
  }
};

// Null or absent keeps `value`, as Reading::read_bool does.
bool read_optional_bool(const json::Value& value, const char* key, const std::string& where,
                        tokenizer_json::Reading& reading, bool& out, bool& given) {
  const json::Value* member = value.find(key);
  given = !tokenizer_json::is_null_or_absent(member);
  return reading.read_bool(value, key, where, out);
}

}  // namespace

bool read_bert(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
               Normalizers& out) {
  bool clean_text = true, chinese = true, strip_accents = false, lowercase = true, given = false;
  if (!reading.read_bool(value, "clean_text", where, clean_text) ||
      !reading.read_bool(value, "handle_chinese_chars", where, chinese) ||
      !reading.read_bool(value, "lowercase", where, lowercase) ||
      !read_optional_bool(value, "strip_accents", where, reading, strip_accents, given))
    return false;
  if (!given) strip_accents = lowercase;
  if (clean_text) out.push_back(std::make_shared<CleanText>());
  if (chinese) out.push_back(std::make_shared<ChineseChars>());
  if (strip_accents) {
    if (!read_nfd(value, where, reading, out)) return false;
    out.push_back(std::make_shared<StripNonspacingMarks>());
  }
  return !lowercase || read_lowercase(value, where, reading, out);
}

}  // namespace embeddings::normalizers
