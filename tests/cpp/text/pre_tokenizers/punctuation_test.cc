// pre_tokenizers/punctuation.cpp: ASCII punctuation and General_Category P, by behavior.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::punctuation_test {

using component_testing::pieces;
using component_testing::Strings;

TEST(Punctuation, IsolatedByDefaultAndEachBehavior) {
  EXPECT_EQ(pieces(R"({"type": "Punctuation"})", "Hey friend!     How are you?!?"),
            Strings({"Hey friend", "!", "     How are you", "?", "!", "?"}));
  EXPECT_EQ(pieces(R"({"type": "Punctuation", "behavior": "Removed"})", "a,b$c"), Strings({"a", "b", "c"}));
  EXPECT_EQ(pieces(R"({"type": "Punctuation", "behavior": "Contiguous"})", "a,,b"),
            Strings({"a", ",,", "b"}));
  // "«" is General_Category P; "$" is a symbol that ASCII counts as punctuation.
  EXPECT_EQ(pieces(R"({"type": "Punctuation", "behavior": "MergedWithNext"})",
                   "a\xC2\xAB"
                   "b$c"),
            Strings({"a",
                     "\xC2\xAB"
                     "b",
                     "$c"}));
}

}  // namespace embeddings::punctuation_test
