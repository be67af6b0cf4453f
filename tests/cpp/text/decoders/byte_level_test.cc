// decoders/byte_level.cpp: the tokens' characters back to their bytes.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::byte_level_decoder_test {

using component_testing::decoded;
using component_testing::Strings;

TEST(ByteLevelDecoder, BytesBackAndUtf8Repaired) {
  // "Ġ" is the space, "Ã©" the two bytes of é; a character outside the
  // alphabet keeps its own bytes; a lone byte becomes U+FFFD.
  EXPECT_EQ(decoded(R"({"type": "ByteLevel"})", {"Hey",
                                                 "\xC4\xA0"
                                                 "caf",
                                                 "\xC3\x83\xC2\xA9", "\xE2\x96\x81", "\xC3\x83"}),
            Strings({"Hey caf\xC3\xA9\xE2\x96\x81\xEF\xBF\xBD"}));
}

}  // namespace embeddings::byte_level_decoder_test
