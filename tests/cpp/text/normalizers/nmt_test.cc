// normalizers/nmt.cpp: SentencePiece's control characters dropped and its spaces made spaces.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::nmt_test {

using component_testing::normalized;

TEST(Nmt, DropsControlsAndSpacesTheRest) {
  EXPECT_EQ(normalized(R"({"type": "Nmt"})", std::string("a\x01"
                                                         "b\tc\x7F"
                                                         "d\xE2\x80\x8B"
                                                         "e\xEF\xBB\xBF",
                                                         14)),
            "ab cd e ");
  EXPECT_EQ(normalized(R"({"type": "Nmt"})", "\xE2\x96\x81x\xEF\xBF\xBD"), " x ");
  EXPECT_EQ(normalized(R"({"type": "Nmt"})", "plain"), "plain");
}

}  // namespace embeddings::nmt_test
