// post_processors/template.cpp: TemplateProcessing, single and pair.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::template_test {

using component_testing::Ids;
using component_testing::processed;
using component_testing::refusal;

constexpr const char* kBert = R"({"type": "TemplateProcessing",
  "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
             {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
  "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
           {"SpecialToken": {"id": "[SEP]", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}},
           {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
  "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [1], "tokens": ["[CLS]"]},
                     "[SEP]": {"id": "[SEP]", "ids": [0, 9], "tokens": ["[SEP]", "x"]}}})";

TEST(TemplateProcessing, SingleAndPair) {
  EXPECT_EQ(processed(kBert, {{5, 6}}, true), Ids({1, 5, 6, 0, 9}));
  EXPECT_EQ(processed(kBert, {{5, 6}, {7}}, true), Ids({1, 5, 6, 0, 9, 7, 0, 9}));
  EXPECT_EQ(processed(kBert, {{5, 6}, {7}}, false), Ids({5, 6, 7}));
  EXPECT_EQ(processed(kBert, {{}}, true), Ids({1, 0, 9}));
  // The pair in the template's order, and a sequence twice.
  EXPECT_EQ(processed(R"({"type": "TemplateProcessing", "single": [{"Sequence": {"id": "A", "type_id": 0}}],
                         "pair": [{"Sequence": {"id": "B", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                                  {"Sequence": {"id": "B", "type_id": 0}}], "special_tokens": {}})",
                      {{1}, {2}}, false),
            Ids({2, 1, 2}));
}

TEST(TemplateProcessing, WhatTheRustLibraryPanicsOnIsRefused) {
  EXPECT_EQ(refusal(read_post_processors,
                    R"({"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "X", "type_id": 0}}],
                                              "pair": [], "special_tokens": {}})"),
            "post_processor.single[0]: the special token \"X\" is not in special_tokens (the Rust library "
            "panics on it)");
  EXPECT_EQ(refusal(read_post_processors,
                    R"({"type": "TemplateProcessing", "single": [{"Sequence": {"id": "B", "type_id": 0}}],
                                              "pair": [], "special_tokens": {}})"),
            "post_processor.single[0]: the single template uses $B (the Rust library panics on it)");
  // Three sequences from the processor before it.
  EXPECT_EQ(processed(std::string(R"({"type": "Sequence", "processors": [)") + kBert + ", " + kBert + "]}",
                      {{5}}, true),
            Ids({-1}));
}

}  // namespace embeddings::template_test
