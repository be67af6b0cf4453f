// pre_tokenizers/metaspace.cpp: Metaspace as a pre-tokenizer (each prepend
// scheme, split or not) and as a decoder, as tokenizers' own tests give them.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::metaspace_test {

using component_testing::decoded;
using component_testing::pieces;
using component_testing::Strings;

std::string metaspace(const char* scheme, bool split) {
  return std::string(R"({"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": ")") + scheme +
         R"(", "split": )" + (split ? "true" : "false") + "}";
}

const std::string kBar = "\xE2\x96\x81";  // ▁

TEST(MetaspacePreTokenizer, EachScheme) {
  EXPECT_EQ(pieces(metaspace("always", true), "Hey friend!"), Strings({kBar + "Hey", kBar + "friend!"}));
  EXPECT_EQ(pieces(metaspace("always", true), "Hey   friend!"),
            Strings({kBar + "Hey", kBar, kBar, kBar + "friend!"}));
  EXPECT_EQ(pieces(metaspace("always", false), "Hey friend!"), Strings({kBar + "Hey" + kBar + "friend!"}));
  EXPECT_EQ(pieces(metaspace("never", true), "Hey friend!"), Strings({"Hey", kBar + "friend!"}));
  // "first": only the piece that starts the text.
  EXPECT_EQ(pieces(metaspace("first", true), "Hey", true), Strings({kBar + "Hey"}));
  EXPECT_EQ(pieces(metaspace("first", true), "Hey", false), Strings({"Hey"}));
  // A leading space is the replacement already there.
  EXPECT_EQ(pieces(metaspace("always", true), " Hey"), Strings({kBar + "Hey"}));
  // What it writes is counted first: 3 bytes for the prefix and 2 more per space.
  EXPECT_EQ(pieces(metaspace("always", true), "a b", true, 7), Strings({"(refused)"}));
  EXPECT_EQ(pieces(metaspace("always", true), "a b", true, 9), Strings({kBar + "a", kBar + "b"}));
}

TEST(MetaspacePreTokenizer, SettingsAreChecked) {
  using component_testing::refusal;
  EXPECT_EQ(refusal(read_pre_tokenizers, R"({"type": "Metaspace", "replacement": "ab"})"),
            "pre_tokenizer.replacement must be one character, found the string \"ab\"");
  EXPECT_EQ(
      refusal(read_pre_tokenizers, R"({"type": "Metaspace", "replacement": "_", "prepend_scheme": "x"})"),
      "pre_tokenizer.prepend_scheme must be \"always\", \"first\" or \"never\", found the string \"x\"");
  EXPECT_EQ(
      refusal(read_pre_tokenizers, R"({"type": "Metaspace", "replacement": "_", "add_prefix_space": false})"),
      "pre_tokenizer.add_prefix_space false does not match prepend_scheme");
  EXPECT_EQ(
      pieces(
          R"({"type": "Metaspace", "replacement": "_", "add_prefix_space": false, "prepend_scheme": "never"})",
          "a b"),
      Strings({"a", "_b"}));
}

TEST(MetaspaceDecoder, ReplacementBackToSpaces) {
  EXPECT_EQ(decoded(metaspace("always", true), {kBar + "Hey", kBar + "friend!"}),
            Strings({"Hey", " friend!"}));
  EXPECT_EQ(decoded(metaspace("never", true), {kBar + "Hey", kBar + "friend!"}),
            Strings({" Hey", " friend!"}));
}

}  // namespace embeddings::metaspace_test
