// decoders/strip.cpp: up to `start` and `stop` characters off each token.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::strip_decoder_test {

using component_testing::decoded;
using component_testing::Strings;

TEST(StripDecoder, TakesTheCharacterOffEachEnd) {
  EXPECT_EQ(
      decoded(R"({"type": "Strip", "content": "H", "start": 1, "stop": 0})", {"Hey", " friend!", "HHH"}),
      Strings({"ey", " friend!", "HH"}));
  EXPECT_EQ(decoded(R"({"type": "Strip", "content": "y", "start": 0, "stop": 1})", {"Hey", " friend!"}),
            Strings({"He", " friend!"}));
  // More than a token has: all of it (where the Rust library panics).
  EXPECT_EQ(decoded(R"({"type": "Strip", "content": "\u2581", "start": 5, "stop": 5})",
                    {"\xE2\x96\x81\xE2\x96\x81"}),
            Strings({""}));
}

}  // namespace embeddings::strip_decoder_test
