// pre_tokenizers/bert.cpp: whitespace dropped, punctuation isolated.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::bert_pre_tokenizer_test {

using component_testing::pieces;
using component_testing::Strings;

TEST(BertPreTokenizer, WhitespaceDroppedPunctuationIsolated) {
  EXPECT_EQ(pieces(R"({"type": "BertPreTokenizer"})", "Hey friend!     How are you?!?"),
            Strings({"Hey", "friend", "!", "How", "are", "you", "?", "!", "?"}));
  EXPECT_EQ(pieces(R"({"type": "BertPreTokenizer"})", "  don't\xE3\x80\x82x "),
            Strings({"don", "'", "t", "\xE3\x80\x82", "x"}));
  // The same as its two splits in turn.
  const char* text =
      "a,b c  ,,d\te\xC2\xBF"
      "f";
  EXPECT_EQ(pieces(R"({"type": "BertPreTokenizer"})", text),
            pieces(R"({"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"},
                       {"type": "Punctuation", "behavior": "Isolated"}]})",
                   text));
}

}  // namespace embeddings::bert_pre_tokenizer_test
