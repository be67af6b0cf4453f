// normalizers/bert.cpp: BertNormalizer's four steps, and strip_accents
// following lowercase when it is null.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::bert_normalizer_test {

using component_testing::normalized;

TEST(BertNormalizer, CleansSpacesOutIdeographsStripsAndLowercases) {
  constexpr const char* kDefault =
      R"({"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                                       "strip_accents": null, "lowercase": true})";
  // Tab and line breaks become spaces; NUL, U+FFFD, other controls and formats (U+200B) go.
  EXPECT_EQ(normalized(kDefault, std::string("a\tb\nc\x01"
                                             "d\xEF\xBF\xBD"
                                             "e\xE2\x80\x8B"
                                             "f\0g",
                                             17)),
            "a b cdefg");
  // A space on each side of an ideograph; "É" lowercased and stripped (null follows lowercase).
  EXPECT_EQ(normalized(kDefault, "\xC3\x89t\xC3\xA9\xE4\xB8\xAD\xE6\x96\x87!"),
            "ete \xE4\xB8\xAD  \xE6\x96\x87 !");
  // No-break space is whitespace: a space.
  EXPECT_EQ(normalized(kDefault,
                       "a\xC2\xA0"
                       "b"),
            "a b");
}

TEST(BertNormalizer, EachStepByItsFlag) {
  constexpr const char* kCased =
      R"({"type": "BertNormalizer", "clean_text": false, "handle_chinese_chars": false,
                                     "strip_accents": null, "lowercase": false})";
  EXPECT_EQ(normalized(kCased, "\xC3\x89\t\xE4\xB8\xAD"), "\xC3\x89\t\xE4\xB8\xAD");
  constexpr const char* kStripOnly =
      R"({"type": "BertNormalizer", "clean_text": false, "handle_chinese_chars": false,
                                         "strip_accents": true, "lowercase": false})";
  EXPECT_EQ(normalized(kStripOnly, "\xC3\x89t\xC3\xA9"), "Ete");
  constexpr const char* kLowerKeepAccents =
      R"({"type": "BertNormalizer", "strip_accents": false, "lowercase": true})";
  EXPECT_EQ(normalized(kLowerKeepAccents, "\xC3\x89T\xC3\xA9"), "\xC3\xA9t\xC3\xA9");
}

TEST(BertNormalizer, IdeographsHeldToTheBudget) {
  constexpr const char* kChinese =
      R"({"type": "BertNormalizer", "clean_text": false, "handle_chinese_chars": true,
                                       "strip_accents": false, "lowercase": false})";
  std::string text;
  for (int i = 0; i < 50; ++i) text += "\xE4\xB8\xAD";
  // Each ideograph gains two spaces: 100 bytes.
  EXPECT_EQ(normalized(kChinese, text, 99), "(refused)");
  EXPECT_EQ(normalized(kChinese, text, 100).size(), 250u);
}

}  // namespace embeddings::bert_normalizer_test
