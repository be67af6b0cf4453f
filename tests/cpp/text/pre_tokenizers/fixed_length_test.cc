// pre_tokenizers/fixed_length.cpp: pieces of `length` characters.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::fixed_length_test {

using component_testing::pieces;
using component_testing::Strings;

TEST(FixedLength, PiecesOfLengthCharacters) {
  EXPECT_EQ(pieces(R"({"type": "FixedLength", "length": 5})", "Hello world"),
            Strings({"Hello", " worl", "d"}));
  EXPECT_EQ(pieces(R"({"type": "FixedLength"})", "Short"), Strings({"Short"}));
  EXPECT_EQ(pieces(R"({"type": "FixedLength", "length": 2})", "\xC3\xA9\xC3\xA9\xC3\xA9"),
            Strings({"\xC3\xA9\xC3\xA9", "\xC3\xA9"}));
  EXPECT_EQ(component_testing::refusal(read_pre_tokenizers, R"({"type": "FixedLength", "length": 0})"),
            "pre_tokenizer.length must be at least 1, found 0");
}

}  // namespace embeddings::fixed_length_test
