// normalizers/precompiled.cpp: SentencePiece's charsmap, a darts-clone
// double array read exactly as spm_precompiled reads it, applied grapheme by
// grapheme.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::precompiled_test {

using component_testing::normalized;

// precompiledCharsmap() of tests/js/helpers/charsmap.js, of
// {"Ａ": "A", "ﬁ": "fi", "\r": " ", "é": "e", "e\u0301": "é", "a": "á", "ab": "Z"}.
constexpr const char* kCharsmap =
    "AAQAAAAEAAAAAAAAAAAAAAUAAIAAAAAAAAAAAAAAAAAMAACAAAAAAAcAAIAAAAAADwAAgA09AAAAAACAAgAAgAkAAIAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGGdAQAAAAAAAAAAAAAAAABlhAEAYrkBAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgR0CAAAAAACBEQIAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAoakCAAAAAAAAAAAAAAAAAAAAAAAAAAAAqZECAKyYAgAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAC84AIAAAAAAAAAAAAAAAAAwxgDAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAMwMAwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAADvsAMAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAABBAGZpACAAZQDDqQDDoQBaAA==";

std::string precompiled() {
  return std::string(R"({"type": "Precompiled", "precompiled_charsmap": ")") + kCharsmap + R"("})";
}

TEST(Precompiled, ShortestKeyOfEachGrapheme) {
  EXPECT_EQ(normalized(precompiled(), "\xEF\xBC\xA1\xEF\xAC\x81x"), "Afix");  // ＡﬁX
  // "\r\n" is one grapheme: "\r"'s replacement stands for both.
  EXPECT_EQ(normalized(precompiled(), "a\r\nb"), "\xC3\xA1 b");
  // "a" and "b" are two graphemes: the key "ab" is never looked up.
  EXPECT_EQ(normalized(precompiled(), "ab"),
            "\xC3\xA1"
            "b");
  // A decomposed é is one grapheme, the key "e\u0301"; a precomposed é and
  // a mark after it are one too, whose shortest key is "é": the mark goes.
  EXPECT_EQ(normalized(precompiled(), "e\xCC\x81"), "\xC3\xA9");
  EXPECT_EQ(normalized(precompiled(), "\xC3\xA9\xCC\x81"), "e");
  // A grapheme of 6 bytes or more goes character by character.
  EXPECT_EQ(normalized(precompiled(), "a\xCC\x81\xCC\x81\xCC\x81"), "\xC3\xA1\xCC\x81\xCC\x81\xCC\x81");
  EXPECT_EQ(normalized(precompiled(), "xyz"), "xyz");
  // The longest replacement is 2 bytes: 4 a's may add 4.
  EXPECT_EQ(normalized(precompiled(), "aaaa", 3), "(refused)");
  EXPECT_EQ(normalized(precompiled(), "aaaa", 4), "\xC3\xA1\xC3\xA1\xC3\xA1\xC3\xA1");
}

TEST(Precompiled, BadCharsmapsAreRefused) {
  using component_testing::refusal;
  EXPECT_EQ(refusal(read_normalizers, R"({"type": "Precompiled", "precompiled_charsmap": "abc"})"),
            "normalizer.precompiled_charsmap holds 2 bytes, less than its size");
  // 8 bytes: a trie of 16 bytes (0x10) does not fit.
  EXPECT_EQ(
      refusal(read_normalizers, R"({"type": "Precompiled", "precompiled_charsmap": "EAAAAAAAAAA="})"),
      "normalizer.precompiled_charsmap: its trie of 16 bytes is longer than the 4 bytes after its size");
  // An empty trie maps nothing.
  EXPECT_EQ(normalized(R"({"type": "Precompiled", "precompiled_charsmap": "AAAAAA=="})", "ab"), "ab");
}

// Issue 34: the Rust library reads the charsmap's base64 with or without its
// padding (the base64 crate's 0.13 decode), and gives the same ids; what it
// refuses (a length of 4n + 1, padding a quad has no room for, anything
// after the padding, another alphabet, bits left over) is refused here.
TEST(Precompiled, Base64AsTheRustLibraryReadsIt) {
  using component_testing::refusal;
  const auto charsmap = [](const std::string& base64) {
    return R"({"type": "Precompiled", "precompiled_charsmap": ")" + base64 + R"("})";
  };
  const std::string padded = kCharsmap, bare = padded.substr(0, padded.size() - 2);
  for (const std::string& base64 : {padded, bare, bare + "="}) {
    EXPECT_EQ(normalized(charsmap(base64), "\xEF\xBC\xA1\xEF\xAC\x81x"), "Afix")
        << base64.substr(base64.size() - 4);
  }
  // An empty trie, padded as far as its last quad has room for, or not.
  for (const char* empty : {"AAAAAA", "AAAAAA=", "AAAAAA=="})
    EXPECT_EQ(normalized(charsmap(empty), "ab"), "ab");
  for (const char* bad : {"AAAAAAA==", "AAAAAA===", "AAAAAAAA=", "AAAAA", "AAAA=", "AAAAAA=A",
                          "AAAAAA== ", "AA-AAA", "AAAAAB", "AAAAAAB="}) {
    EXPECT_EQ(refusal(read_normalizers, charsmap(bad)), "normalizer.precompiled_charsmap is not base64")
        << bad;
  }
}

}  // namespace embeddings::precompiled_test
