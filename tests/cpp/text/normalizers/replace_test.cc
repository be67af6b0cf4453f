// normalizers/replace.cpp: Replace as a normalizer and as a decoder, and
// text that grows past the budget refused before it is written (issue 23's
// cases: a -> 'b' x 100,000 on 40,000 a's, as a normalizer and a decoder).
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::replace_test {

using component_testing::decoded;
using component_testing::normalized;
using component_testing::Strings;

TEST(Replace, StringsAndRegexes) {
  EXPECT_EQ(normalized(R"({"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"})", "a b  c"),
            "a\xE2\x96\x81"
            "b\xE2\x96\x81\xE2\x96\x81"
            "c");
  EXPECT_EQ(normalized(R"({"type": "Replace", "pattern": {"String": "a.b"}, "content": "-"})", "a.b axb"),
            "- axb");
  EXPECT_EQ(normalized(R"({"type": "Replace", "pattern": {"Regex": "\\s+"}, "content": " "})", "a \t\n b"),
            "a b");
  // A pattern that matches the empty string puts the content at every boundary (the Rust library panics).
  EXPECT_EQ(normalized(R"({"type": "Replace", "pattern": {"String": ""}, "content": "."})", "ab"), ".a.b.");
  EXPECT_EQ(
      decoded(R"({"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "})", {"\xE2\x96\x81"
                                                                                          "a",
                                                                                          "b\xE2\x96\x81"}),
      Strings({" a", "b "}));
}

TEST(Replace, GrowthPastTheBudgetIsRefusedBeforeItIsWritten) {
  const std::string huge =
      R"({"type": "Replace", "pattern": {"String": "a"}, "content": ")" + std::string(100000, 'b') + R"("})";
  // 40,000 a's would be 4 GB: refused with 64 MiB to spare, having counted first.
  EXPECT_EQ(normalized(huge, std::string(40000, 'a'), std::size_t{64} << 20), "(refused)");
  EXPECT_EQ(decoded(huge, Strings(40000, "a"), std::size_t{64} << 20), Strings({"(refused)"}));
  // Text without an "a" grows by nothing, so the same budget lets it through.
  EXPECT_EQ(normalized(huge, std::string(40000, 'c'), std::size_t{64} << 20), std::string(40000, 'c'));
  EXPECT_EQ(normalized(huge, "xax", std::size_t{1} << 20), "x" + std::string(100000, 'b') + "x");
}

// As a decoder, every token is counted before any is written: 100 tokens
// adding 999 bytes each pass a budget of one byte less than their 99,900.
TEST(Replace, DecoderCountsAllTokensFirst) {
  const std::string grows =
      R"({"type": "Replace", "pattern": {"String": "a"}, "content": ")" + std::string(1000, 'b') + R"("})";
  EXPECT_EQ(decoded(grows, Strings(100, "a"), 99899), Strings({"(refused)"}));
  EXPECT_EQ(decoded(grows, Strings(100, "a"), 99900), Strings(100, std::string(1000, 'b')));
}

}  // namespace embeddings::replace_test
