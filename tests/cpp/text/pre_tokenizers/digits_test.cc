// pre_tokenizers/digits.cpp: digits in runs, or each alone.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::digits_test {

using component_testing::pieces;
using component_testing::Strings;

TEST(Digits, RunsOrIndividually) {
  EXPECT_EQ(pieces(R"({"type": "Digits", "individual_digits": false})", "Hey 123 friend!"),
            Strings({"Hey ", "123", " friend!"}));
  EXPECT_EQ(pieces(R"({"type": "Digits", "individual_digits": true})", "Hey 123 friend!"),
            Strings({"Hey ", "1", "2", "3", " friend!"}));
  // General_Category N: Arabic-Indic digits and ½ too.
  EXPECT_EQ(pieces(R"({"type": "Digits"})",
                   "a\xD9\xA3\xC2\xBD"
                   "b"),
            Strings({"a", "\xD9\xA3\xC2\xBD", "b"}));
}

}  // namespace embeddings::digits_test
