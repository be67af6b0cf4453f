// decoders/word_piece.cpp: the prefix off continuing tokens, spaces between words, the cleanup.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::word_piece_decoder_test {

using component_testing::decoded;
using component_testing::Strings;

TEST(WordPieceDecoder, PrefixSpacesAndCleanup) {
  EXPECT_EQ(decoded(R"({"type": "WordPiece", "prefix": "##", "cleanup": false})",
                    {"##uelo", "Ara", "##új", "##o", "No", "##guera"}),
            Strings({"##uelo", " Ara", "új", "o", " No", "guera"}));
  EXPECT_EQ(
      decoded(R"({"type": "WordPiece"})", {"I", "do", "not", "want", "it", ".", "isn", "'", "t", "it", "?"}),
      Strings({"I", " do", " not", " want", " it", ".", " isn", " '", " t", " it", "?"}));
  // The cleanup is of each token: " do not" inside one becomes " don't".
  EXPECT_EQ(decoded(R"({"type": "WordPiece", "prefix": "##", "cleanup": true})", {"a do not b", "##'s"}),
            Strings({"a don't b", "'s"}));
}

}  // namespace embeddings::word_piece_decoder_test
