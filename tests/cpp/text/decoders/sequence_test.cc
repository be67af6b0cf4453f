// decoders/sequence.cpp: each decoder in turn, nested Sequences spliced in.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::decoder_sequence_test {

using component_testing::decoded;
using component_testing::Strings;

TEST(DecoderSequence, EachInTurn) {
  EXPECT_EQ(decoded(R"({"type": "Sequence", "decoders": [
                         {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
                         {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Fuse"}]},
                         {"type": "Strip", "content": " ", "start": 1, "stop": 0}]})",
                    {"\xE2\x96\x81Hey", "<0x21>"}),
            Strings({"Hey!"}));
}

}  // namespace embeddings::decoder_sequence_test
