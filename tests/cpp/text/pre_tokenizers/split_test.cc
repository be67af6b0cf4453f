// pre_tokenizers/split.cpp: each behavior, with and without invert, as
// tokenizers' own tests give them.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::split_test {

using component_testing::pieces;
using component_testing::Strings;

std::string split(const char* behavior, bool invert) {
  return std::string(R"({"type": "Split", "pattern": {"Regex": "\\s+"}, "behavior": ")") + behavior +
         R"(", "invert": )" + (invert ? "true" : "false") + "}";
}

TEST(Split, EachBehavior) {
  const char* text = "How are you doing?";
  EXPECT_EQ(pieces(split("Removed", false), text), Strings({"How", "are", "you", "doing?"}));
  EXPECT_EQ(pieces(split("Isolated", false), text), Strings({"How", " ", "are", " ", "you", " ", "doing?"}));
  EXPECT_EQ(pieces(split("MergedWithPrevious", false), text), Strings({"How ", "are ", "you ", "doing?"}));
  EXPECT_EQ(pieces(split("MergedWithNext", false), text), Strings({"How", " are", " you", " doing?"}));
  EXPECT_EQ(pieces(split("Contiguous", false), "How  are"), Strings({"How", "  ", "are"}));
  EXPECT_EQ(pieces(split("Removed", true), text), Strings({" ", " ", " "}));
  EXPECT_EQ(pieces(R"({"type": "Split", "pattern": {"String": "-"}, "behavior": "Contiguous"})", "a--b-"),
            Strings({"a", "--", "b", "-"}));
  EXPECT_EQ(
      component_testing::refusal(read_pre_tokenizers,
                                 R"({"type": "Split", "pattern": {"String": "-"}, "behavior": "Joined"})"),
      "pre_tokenizer.behavior must be Removed, Isolated, MergedWithPrevious, MergedWithNext or Contiguous, "
      "found the string \"Joined\"");
}

}  // namespace embeddings::split_test
