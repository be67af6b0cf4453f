// normalizers/strip.cpp: White_Space off either end.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::strip_normalizer_test {

using component_testing::normalized;

TEST(StripNormalizer, EitherEndOrBoth) {
  const std::string text = "\xE3\x80\x80 \tab c\n\xC2\x85";  // U+3000 ... U+0085
  EXPECT_EQ(normalized(R"({"type": "Strip", "strip_left": true, "strip_right": true})", text), "ab c");
  EXPECT_EQ(normalized(R"({"type": "Strip", "strip_left": true, "strip_right": false})", text),
            "ab c\n\xC2\x85");
  EXPECT_EQ(normalized(R"({"type": "Strip", "strip_left": false, "strip_right": true})", text),
            "\xE3\x80\x80 \tab c");
  EXPECT_EQ(normalized(R"({"type": "Strip", "strip_left": true, "strip_right": true})", "  \t "), "");
  // U+FEFF is not White_Space.
  EXPECT_EQ(normalized(R"({"type": "Strip", "strip_left": true, "strip_right": true})",
                       "\xEF\xBB\xBF"
                       "a"),
            "\xEF\xBB\xBF"
            "a");
}

}  // namespace embeddings::strip_normalizer_test
