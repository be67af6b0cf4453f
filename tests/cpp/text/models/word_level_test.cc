// models/word_level.cpp: a piece is its token, or unk_token.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::word_level_test {

using component_testing::ids;

component_testing::Json word_level(const char* unk) {
  component_testing::Json json;
  json.model = std::string(R"({"type": "WordLevel", "unk_token": ")") + unk +
               R"(", "vocab": {"[UNK]": 0, "hello": 1, "world": 2, "!": 3}})";
  json.pre_tokenizer = R"({"type": "Whitespace"})";
  return json;
}

TEST(WordLevel, TokenOrUnknown) {
  const Tokenizer t = word_level("[UNK]").load();
  EXPECT_EQ(component_testing::encode(t, "hello there world!"), ids({1, 0, 2, 3}));
  EXPECT_EQ(component_testing::decode(t, {1, 0, 2}), "hello [UNK] world");  // No decoder: joined with spaces.
  // An unk_token outside the vocabulary fails when a word needs it, as there.
  const Tokenizer no_unk = word_level("<unk>").load();
  EXPECT_EQ(component_testing::encode(no_unk, "hello world"), ids({1, 2}));
  EXPECT_EQ(component_testing::encode(no_unk, "hello you").error,
            "refused: model.unk_token \"<unk>\" is not in model.vocab, and the word \"you\" needs it");
  component_testing::Json missing = word_level("[UNK]");
  missing.model = R"({"type": "WordLevel", "vocab": {"a": 0}})";
  EXPECT_EQ(missing.refusal(), "model.unk_token must be a string, found nothing");
}

}  // namespace embeddings::word_level_test
