// decoders/bpe.cpp: BPEDecoder, the suffix a space in every token but the last.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::bpe_decoder_test {

using component_testing::decoded;
using component_testing::Strings;

TEST(BpeDecoder, SuffixBecomesASpace) {
  EXPECT_EQ(decoded(R"({"type": "BPEDecoder", "suffix": "</w>"})", {"My</w>", "na", "me</w>", "is</w>"}),
            Strings({"My ", "na", "me ", "is"}));
  EXPECT_EQ(decoded(R"({"type": "BPEDecoder", "suffix": "</w>"})", {"a</w>b</w>"}), Strings({"ab"}));
  // str::replace with an empty pattern: a space at every character boundary.
  EXPECT_EQ(decoded(R"({"type": "BPEDecoder", "suffix": ""})", {"ab", "c"}), Strings({" a b ", "c"}));
  EXPECT_EQ(decoded(R"({"type": "BPEDecoder", "suffix": ""})", {"ab", "c"}, 2), Strings({"(refused)"}));
}

}  // namespace embeddings::bpe_decoder_test
