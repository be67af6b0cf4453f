// normalizers/unicode.cpp: NFC, NFD, NFKC and NFKD, and their growth counted
// before they write.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::unicode_normalizers_test {

using component_testing::normalized;

TEST(UnicodeNormalizers, ComposeAndDecompose) {
  const std::string decomposed = "e\xCC\x81";  // e + U+0301
  EXPECT_EQ(normalized(R"({"type": "NFC"})", decomposed), "\xC3\xA9");
  EXPECT_EQ(normalized(R"({"type": "NFD"})", "\xC3\xA9"), decomposed);
  EXPECT_EQ(normalized(R"({"type": "NFKC"})", "\xEF\xAC\x81"), "fi");  // U+FB01 ﬁ
  EXPECT_EQ(normalized(R"({"type": "NFKD"})", "\xE2\x91\xA0"), "1");   // U+2460 ①
  EXPECT_EQ(normalized(R"({"type": "NFC"})", "plain text"), "plain text");
}

// U+FDFA's compatibility decomposition is 33 bytes from 3: a budget that
// cannot hold what it adds refuses before anything is written.
TEST(UnicodeNormalizers, GrowthPastTheBudgetIsRefused) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "\xEF\xB7\xBA";
  EXPECT_EQ(normalized(R"({"type": "NFKD"})", text, 1000), "(refused)");
  EXPECT_EQ(normalized(R"({"type": "NFKD"})", text, 30000).size(), 33000u);
  // NFD leaves it as it is (it has no canonical decomposition).
  EXPECT_EQ(normalized(R"({"type": "NFD"})", text, 0), text);
}

}  // namespace embeddings::unicode_normalizers_test
