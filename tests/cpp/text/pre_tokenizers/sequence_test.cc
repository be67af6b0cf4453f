// pre_tokenizers/sequence.cpp and the loop that runs the stages
// (pipeline.cpp): each stage on every piece the one before made, however
// many stages (issue 23: 1,150 of them overflowed the stack when each stage
// called the next).
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::pre_tokenizer_sequence_test {

using component_testing::pieces;
using component_testing::Strings;

TEST(PreTokenizerSequence, EachStageOnEveryPiece) {
  EXPECT_EQ(pieces(R"({"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"},
                       {"type": "Digits", "individual_digits": true}]})",
                   "Hey 12 friends3"),
            Strings({"Hey", "1", "2", "friends", "3"}));
  // Nested Sequences are spliced in; an empty one leaves the text whole.
  EXPECT_EQ(pieces(R"({"type": "Sequence", "pretokenizers": [{"type": "Sequence", "pretokenizers": []},
                       {"type": "Sequence", "pretokenizers": [{"type": "Punctuation"}]}]})",
                   "a.b"),
            Strings({"a", ".", "b"}));
  EXPECT_EQ(pieces(R"({"type": "Sequence", "pretokenizers": []})", "a b"), Strings({"a b"}));
}

TEST(PreTokenizerSequence, ThousandsOfStagesNeedNoDeeperStack) {
  std::string json = R"({"type": "Sequence", "pretokenizers": [)";
  for (int i = 0; i < 1200; ++i)
    json += std::string(i ? ", " : "") + (i % 2 ? R"({"type": "WhitespaceSplit"})" : R"({"type": "Digits"})");
  json += "]}";
  std::string text;
  for (int i = 0; i < 200; ++i) text += "abc 1";
  const Strings cut = pieces(json, text);
  ASSERT_EQ(cut.size(), 400u);
  EXPECT_EQ(cut[0], "abc");
  EXPECT_EQ(cut[1], "1");
  EXPECT_EQ(cut[399], "1");
}

}  // namespace embeddings::pre_tokenizer_sequence_test
