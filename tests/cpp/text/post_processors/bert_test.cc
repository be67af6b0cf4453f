// post_processors/bert.cpp: [CLS] A [SEP] B [SEP].
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::bert_processing_test {

using component_testing::Ids;
using component_testing::processed;

TEST(BertProcessing, ClsAndSep) {
  constexpr const char* kBert = R"({"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]})";
  EXPECT_EQ(processed(kBert, {{5, 6}}, true), Ids({101, 5, 6, 102}));
  EXPECT_EQ(processed(kBert, {{5, 6}, {7}}, true), Ids({101, 5, 6, 102, 7, 102}));
  EXPECT_EQ(processed(kBert, {{5, 6}, {7}}, false), Ids({5, 6, 7}));
  EXPECT_EQ(
      component_testing::refusal(read_post_processors,
                                 R"({"type": "BertProcessing", "sep": ["[SEP]"], "cls": ["[CLS]", 101]})"),
      "post_processor.sep must be a [\"token\", id] pair, found an array");
}

}  // namespace embeddings::bert_processing_test
