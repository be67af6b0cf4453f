// pre_tokenizers/delimiter.cpp: CharDelimiterSplit.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::delimiter_test {

using component_testing::pieces;
using component_testing::Strings;

TEST(CharDelimiterSplit, CutsAtTheDelimiterAndDropsIt) {
  EXPECT_EQ(pieces(R"({"type": "CharDelimiterSplit", "delimiter": "-"})", "a-b--c-"),
            Strings({"a", "b", "c"}));
  EXPECT_EQ(pieces(R"({"type": "CharDelimiterSplit", "delimiter": "\u2581"})",
                   "\xE2\x96\x81"
                   "a b"),
            Strings({"a b"}));
  EXPECT_EQ(
      component_testing::refusal(read_pre_tokenizers, R"({"type": "CharDelimiterSplit", "delimiter": ""})"),
      "pre_tokenizer.delimiter must be one character, found the string \"\"");
}

}  // namespace embeddings::delimiter_test
