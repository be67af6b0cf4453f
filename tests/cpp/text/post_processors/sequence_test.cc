// post_processors/sequence.cpp: each in turn, on what the one before gave.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::processor_sequence_test {

using component_testing::Ids;
using component_testing::processed;

TEST(ProcessorSequence, EachOnWhatTheOneBeforeGave) {
  // A template that adds a token in front, then Bert's around what it gave
  // (two encodings now: BertProcessing treats them as a pair).
  EXPECT_EQ(processed(R"({"type": "Sequence", "processors": [
                           {"type": "ByteLevel", "trim_offsets": false},
                           {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                             {"Sequence": {"id": "A", "type_id": 0}}], "pair": [{"Sequence": {"id": "A", "type_id": 0}},
                             {"Sequence": {"id": "B", "type_id": 1}}],
                             "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
                           {"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]}]})",
                      {{5}}, true),
            Ids({101, 1, 102, 5, 102}));
}

}  // namespace embeddings::processor_sequence_test
