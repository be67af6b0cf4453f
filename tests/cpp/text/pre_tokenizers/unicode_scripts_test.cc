// pre_tokenizers/unicode_scripts.cpp: cuts where the script changes.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::unicode_scripts_test {

using component_testing::pieces;
using component_testing::Strings;

TEST(UnicodeScripts, CutsWhereTheScriptChanges) {
  constexpr const char* kScripts = R"({"type": "UnicodeScripts"})";
  // Latin, then Common (digits and punctuation); a space joins the piece before it.
  EXPECT_EQ(pieces(kScripts, "Hello 42, world"), Strings({"Hello ", "42, ", "world"}));
  // Hiragana, Katakana and U+30FC count as Han: one piece; Greek is its own.
  EXPECT_EQ(pieces(kScripts, "\xE6\xBC\xA2\xE3\x81\x8B\xE3\x82\xAB\xE3\x83\xBC\xCE\xB1\xCE\xB2"),
            Strings({"\xE6\xBC\xA2\xE3\x81\x8B\xE3\x82\xAB\xE3\x83\xBC", "\xCE\xB1\xCE\xB2"}));
  // Leading spaces start no piece: they are dropped, as the Rust library drops them.
  EXPECT_EQ(pieces(kScripts, "  ab"), Strings({"ab"}));
  EXPECT_EQ(pieces(kScripts, "   "), Strings({}));
  // An unassigned character (U+0378) has no script: it goes with either side, as a space does.
  EXPECT_EQ(pieces(kScripts, "\xCD\xB8x\xCD\xB8y 1"), Strings({"x\xCD\xB8y ", "1"}));
}

}  // namespace embeddings::unicode_scripts_test
