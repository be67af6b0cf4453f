// Unicode's tables and the canonical normalization forms against known
// values (tests/js/tokenizer.test.js checks the generated tables against
// the runtime's Unicode data, and the normalizers against the Rust library).
#include "embeddings/text/unicode/unicode.h"

#include <gtest/gtest.h>

#include <string>

#include "embeddings/text/unicode/normalize.h"

namespace embeddings {
namespace {

TEST(Unicode, GeneralCategories) {
  using unicode::Category;
  EXPECT_EQ(unicode::general_category('A'), Category::Lu);
  EXPECT_EQ(unicode::general_category('z'), Category::Ll);
  EXPECT_EQ(unicode::general_category(0x01C5), Category::Lt);  // ǅ
  EXPECT_EQ(unicode::general_category(0x02B0), Category::Lm);  // ʰ
  EXPECT_EQ(unicode::general_category(0x65E5), Category::Lo);  // 日
  EXPECT_EQ(unicode::general_category(0x0301), Category::Mn);
  EXPECT_EQ(unicode::general_category(0x0903), Category::Mc);
  EXPECT_EQ(unicode::general_category(0x20DD), Category::Me);
  EXPECT_EQ(unicode::general_category('7'), Category::Nd);
  EXPECT_EQ(unicode::general_category(0x2167), Category::Nl);
  EXPECT_EQ(unicode::general_category(0x00BD), Category::No);
  EXPECT_EQ(unicode::general_category(' '), Category::Other);
  EXPECT_EQ(unicode::general_category(0xD800), Category::Other);
  EXPECT_EQ(unicode::general_category(0x10FFFF), Category::Other);
  EXPECT_EQ(unicode::general_category(0x110000), Category::Other);
}

TEST(Normalize, KnownForms) {
  std::string out;
  normalize::apply(normalize::Form::NFC, "cafe\xCC\x81", out);  // e + U+0301
  EXPECT_EQ(out, "caf\xC3\xA9");
  normalize::apply(normalize::Form::NFD, "\xC3\xA9", out);
  EXPECT_EQ(out, "e\xCC\x81");
  normalize::apply(normalize::Form::NFC, "\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8", out);  // jamo G A K
  EXPECT_EQ(out, "\xEA\xB0\x81");                                                       // 각
  normalize::apply(normalize::Form::NFC, "a\xCC\xA3\xCC\x87", out);  // a, dot below, dot above
  EXPECT_EQ(out, "\xE1\xBA\xA1\xCC\x87");                            // ạ + dot above
  normalize::apply(normalize::Form::NFC, "e\xFF\xCC\x81", out);      // an invalid byte blocks
  EXPECT_EQ(out, "e\xFF\xCC\x81");
  EXPECT_TRUE(normalize::is_quick_unchanged(normalize::Form::NFC, "caf\xC3\xA9"));
  EXPECT_FALSE(normalize::is_quick_unchanged(normalize::Form::NFD, "caf\xC3\xA9"));
}

}  // namespace
}  // namespace embeddings
