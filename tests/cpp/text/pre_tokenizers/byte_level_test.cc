// pre_tokenizers/byte_level.cpp: ByteLevel as a pre-tokenizer, a decoder and
// a post-processor.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::byte_level_test {

using component_testing::decoded;
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

TEST(ByteLevelDecoder, BytesBackAndUtf8Repaired) {
  // "Ġ" is the space, "Ã©" the two bytes of é; a character outside the
  // alphabet keeps its own bytes; a lone byte becomes U+FFFD.
  EXPECT_EQ(decoded(R"({"type": "ByteLevel"})", {"Hey", "\xC4\xA0" "caf", "\xC3\x83\xC2\xA9", "\xE2\x96\x81", "\xC3\x83"}),
            Strings({"Hey caf\xC3\xA9\xE2\x96\x81\xEF\xBF\xBD"}));
}

TEST(ByteLevelPostProcessor, AddsNoIds) {
  EXPECT_EQ(processed(R"({"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": false})", {{1, 2}, {3}}, true),
            (component_testing::Ids{1, 2, 3}));
}

}  // namespace embeddings::byte_level_test
