// post_processors/roberta.cpp: <s> A </s> </s> B </s>.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::roberta_processing_test {

using component_testing::Ids;
using component_testing::processed;

TEST(RobertaProcessing, ClsAndSepOnBothSidesOfThePair) {
  constexpr const char* kRoberta =
      R"({"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0], "trim_offsets": true, "add_prefix_space": true})";
  EXPECT_EQ(processed(kRoberta, {{5, 6}}, true), Ids({0, 5, 6, 2}));
  EXPECT_EQ(processed(kRoberta, {{5, 6}, {7}}, true), Ids({0, 5, 6, 2, 2, 7, 2}));
  EXPECT_EQ(processed(kRoberta, {{5}, {7}}, false), Ids({5, 7}));
}

}  // namespace embeddings::roberta_processing_test
