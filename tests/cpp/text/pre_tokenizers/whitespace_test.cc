// pre_tokenizers/whitespace.cpp: Whitespace and WhitespaceSplit.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::whitespace_test {

using component_testing::pieces;
using component_testing::Strings;

TEST(Whitespace, WordsAndOtherRuns) {
  EXPECT_EQ(pieces(R"({"type": "Whitespace"})", "Hey man!"), Strings({"Hey", "man", "!"}));
  EXPECT_EQ(pieces(R"({"type": "Whitespace"})", "How are you doing?"),
            Strings({"How", "are", "you", "doing", "?"}));
  EXPECT_EQ(pieces(R"({"type": "Whitespace"})", "\n"), Strings({}));
  EXPECT_EQ(pieces(R"({"type": "Whitespace"})", "a_b1..c"), Strings({"a_b1", "..", "c"}));
}

TEST(WhitespaceSplit, CutsAtWhiteSpace) {
  EXPECT_EQ(pieces(R"({"type": "WhitespaceSplit"})", "Hey man!"), Strings({"Hey", "man!"}));
  EXPECT_EQ(pieces(R"({"type": "WhitespaceSplit"})",
                   " a\xE3\x80\x80"
                   "b\t"),
            Strings({"a", "b"}));
}

}  // namespace embeddings::whitespace_test
