// decoders/ctc.cpp: repeats merged, padding taken out, the word delimiter a space.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::ctc_test {

using component_testing::decoded;
using component_testing::Strings;

constexpr const char* kCtc =
    R"({"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|", "cleanup": true})";

TEST(CtcDecoder, AsTokenizersTestsGiveIt) {
  EXPECT_EQ(decoded(kCtc, {"<pad>", "<pad>", "h", "e", "e", "l", "l", "<pad>", "l", "o", "o", "o", "<pad>"}),
            Strings({"h", "e", "l", "l", "o"}));
  EXPECT_EQ(decoded(kCtc, {"<pad>", "h", "e", "|", "l", "l", "o", "|", "|", "w"}),
            Strings({"h", "e", " ", "l", "o", " ", "w"}));
  EXPECT_EQ(decoded(R"({"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|", "cleanup": false})",
                    {"a", "|", "|", "b"}),
            Strings({"a", "|", "b"}));
  EXPECT_EQ(component_testing::refusal(
                read_decoders, R"({"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|"})"),
            "decoder.cleanup must be true or false, found nothing");
}

}  // namespace embeddings::ctc_test
