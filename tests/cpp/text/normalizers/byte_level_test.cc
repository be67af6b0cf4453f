// normalizers/byte_level.cpp: every byte as its character of GPT-2's alphabet.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::byte_level_normalizer_test {

using component_testing::normalized;

TEST(ByteLevelNormalizer, EveryByteAsItsCharacter) {
  EXPECT_EQ(normalized(R"({"type": "ByteLevel"})", "a b\n"),
            "a\xC4\xA0"
            "b\xC4\x8A");                                                             // ĠĊ
  EXPECT_EQ(normalized(R"({"type": "ByteLevel"})", "\xC3\xA9"), "\xC3\x83\xC2\xA9");  // é: Ã©
  EXPECT_EQ(normalized(R"({"type": "ByteLevel"})", "  ", 1), "(refused)");
}

}  // namespace embeddings::byte_level_normalizer_test
