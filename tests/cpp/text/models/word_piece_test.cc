// models/word_piece.cpp: the longest tokens from the start, unk_token for
// a word too long or that cannot be cut.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::word_piece_model_test {

using component_testing::ids;

component_testing::Json word_piece(int max_characters) {
  component_testing::Json json;
  json.model =
      R"({"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                   "max_input_chars_per_word": )" +
      std::to_string(max_characters) +
      R"(, "vocab": {"[UNK]": 0, "un": 1, "##aff": 2, "##able": 3, "a": 4, "##a": 5, "\u00e9": 6, "##\u00e9": 7}})";
  json.pre_tokenizer = R"({"type": "BertPreTokenizer"})";
  json.decoder = R"({"type": "WordPiece", "prefix": "##", "cleanup": true})";
  return json;
}

TEST(WordPieceModel, LongestFirstThenUnknown) {
  const Tokenizer t = word_piece(100).load();
  EXPECT_EQ(component_testing::encode(t, "unaffable"), ids({1, 2, 3}));
  EXPECT_EQ(component_testing::encode(t, "aaa \xC3\xA9\xC3\xA9"), ids({4, 5, 5, 6, 7}));
  EXPECT_EQ(component_testing::encode(t, "unx aa"), ids({0, 4, 5}));  // "unx" cannot be cut.
  EXPECT_EQ(component_testing::decode(t, {1, 2, 3, 4, 5}), "unaffable aa");
  // max_input_chars_per_word counts characters.
  const Tokenizer short_words = word_piece(2).load();
  EXPECT_EQ(component_testing::encode(short_words, "aaa \xC3\xA9\xC3\xA9"), ids({0, 6, 7}));
}

}  // namespace embeddings::word_piece_model_test
