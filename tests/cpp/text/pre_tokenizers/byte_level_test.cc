// pre_tokenizers/byte_level.cpp: ByteLevel as a pre-tokenizer and a
// post-processor (the decoder: decoders/byte_level_test.cc).
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::byte_level_test {

using component_testing::pieces;
using component_testing::processed;
using component_testing::Strings;

TEST(ByteLevelPreTokenizer, Gpt2SplitWithOrWithoutAPrefixSpace) {
  EXPECT_EQ(pieces(R"({"type": "ByteLevel", "add_prefix_space": false})", "Hey  friend's!"),
            Strings({"Hey", " ", " friend", "'s", "!"}));
  EXPECT_EQ(pieces(R"({"type": "ByteLevel", "add_prefix_space": true})", "Hey"), Strings({" Hey"}));
  EXPECT_EQ(pieces(R"({"type": "ByteLevel", "add_prefix_space": true})", " Hey"), Strings({" Hey"}));
  EXPECT_EQ(pieces(R"({"type": "ByteLevel", "add_prefix_space": false, "use_regex": false})", "a  b"),
            Strings({"a  b"}));
  EXPECT_EQ(component_testing::refusal(read_pre_tokenizers, R"({"type": "ByteLevel"})"),
            "pre_tokenizer.add_prefix_space must be true or false, found nothing");
  EXPECT_EQ(pieces(R"({"type": "ByteLevel", "add_prefix_space": true})", "Hey", true, 3),
            Strings({"(refused)"}));
}

TEST(ByteLevelPostProcessor, AddsNoIds) {
  EXPECT_EQ(processed(R"({"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": false})",
                      {{1, 2}, {3}}, true),
            (component_testing::Ids{1, 2, 3}));
}

}  // namespace embeddings::byte_level_test
