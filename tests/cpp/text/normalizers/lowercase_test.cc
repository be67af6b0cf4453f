// normalizers/lowercase.cpp: each character's full lowercase mapping.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::lowercase_test {

using component_testing::normalized;

TEST(Lowercase, FullMappingsOneCharacterAtATime) {
  constexpr const char* kLowercase = R"({"type": "Lowercase"})";
  EXPECT_EQ(normalized(kLowercase, "HeLLo World"), "hello world");
  EXPECT_EQ(normalized(kLowercase, "\xC4\xB0"), "i\xCC\x87");  // İ: i and U+0307, 2 bytes to 3
  EXPECT_EQ(normalized(kLowercase, "\xCE\xA3\xCE\xA3"), "\xCF\x83\xCF\x83");  // ΣΣ: σσ, never ς
  EXPECT_EQ(normalized(kLowercase, std::string("A\xFF"
                                               "B",
                                               3)),
            std::string("a\xFF"
                        "b",
                        3));
  std::string dotted;
  for (int i = 0; i < 100; ++i) dotted += "\xC4\xB0";
  EXPECT_EQ(normalized(kLowercase, dotted, 99), "(refused)");
  EXPECT_EQ(normalized(kLowercase, dotted, 100).size(), 300u);
}

}  // namespace embeddings::lowercase_test
