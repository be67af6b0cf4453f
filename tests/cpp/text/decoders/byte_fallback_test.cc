// decoders/byte_fallback.cpp: runs of "<0xNN>" tokens back to their text.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::byte_fallback_test {

using component_testing::decoded;
using component_testing::Strings;

TEST(ByteFallbackDecoder, RunsOfBytesBecomeText) {
  constexpr const char* kByteFallback = R"({"type": "ByteFallback"})";
  EXPECT_EQ(decoded(kByteFallback, {"Hey", "friend!"}), Strings({"Hey", "friend!"}));
  EXPECT_EQ(decoded(kByteFallback, {"<0x61>"}), Strings({"a"}));
  EXPECT_EQ(decoded(kByteFallback, {"<0xE5>", "<0x8f>", "<0xab>", "a"}), Strings({"\xE5\x8F\xAB", "a"}));
  // Not UTF-8: one U+FFFD per byte.
  EXPECT_EQ(decoded(kByteFallback, {"<0xE5>", "<0x8f>", "a"}),
            Strings({"\xEF\xBF\xBD", "\xEF\xBF\xBD", "a"}));
  // from_str_radix reads "+A" as 10; "<0xG0>" is no byte.
  EXPECT_EQ(decoded(kByteFallback, {"<0x+A>", "<0xG0>"}), Strings({"\n", "<0xG0>"}));
}

}  // namespace embeddings::byte_fallback_test
