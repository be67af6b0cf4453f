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

// Issue 34: the Rust library's table is Unicode 9.0's, so the 31,444 code
// points assigned since are Any there ("🫠", U+1FAE0, Unicode 14, is
// dropped: [] in Rust), and Hangul is not Han there.
TEST(UnicodeScripts, TheRustLibrarysOwnTable) {
  constexpr const char* kScripts = R"({"type": "UnicodeScripts"})";
  EXPECT_EQ(pieces(kScripts, "\xF0\x9F\xAB\xA0"), Strings({}));
  EXPECT_EQ(pieces(kScripts,
                   "a\xF0\x9F\xAB\xA0"
                   "b"),
            Strings({"a\xF0\x9F\xAB\xA0"
                     "b"}));
  // U+1F600 😀 (Unicode 6.1) is Common.
  EXPECT_EQ(pieces(kScripts,
                   "a\xF0\x9F\x98\x80"
                   "b"),
            Strings({"a", "\xF0\x9F\x98\x80", "b"}));
  // Hangul, then Han.
  EXPECT_EQ(pieces(kScripts, "\xED\x95\x9C\xE6\xBC\xA2"), Strings({"\xED\x95\x9C", "\xE6\xBC\xA2"}));
}

}  // namespace embeddings::unicode_scripts_test
