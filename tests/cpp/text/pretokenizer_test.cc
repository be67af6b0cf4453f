#include "embeddings/text/pretokenizer.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "embeddings/text/unicode/unicode.h"

namespace embeddings {
namespace {

std::vector<std::string> split(std::string_view text) {
  std::vector<std::string> pieces;
  for (std::string_view piece : pretokenize(text)) pieces.emplace_back(piece);
  return pieces;
}

using Pieces = std::vector<std::string>;

TEST(Unicode, Classes) {
  EXPECT_TRUE(unicode::is_letter('a'));
  EXPECT_TRUE(unicode::is_letter('Z'));
  EXPECT_FALSE(unicode::is_letter('@'));
  EXPECT_FALSE(unicode::is_letter('['));
  EXPECT_TRUE(unicode::is_letter(0x00E9));   // é
  EXPECT_TRUE(unicode::is_letter(0x65E5));   // 日
  EXPECT_TRUE(unicode::is_letter(0x02B0));   // ʰ, Lm
  EXPECT_FALSE(unicode::is_letter(0x0301));  // combining acute accent is Mn, not a letter
  EXPECT_FALSE(unicode::is_letter(0x1F600));
  EXPECT_TRUE(unicode::is_number('7'));
  EXPECT_TRUE(unicode::is_number(0x00BD));  // ½, No
  EXPECT_TRUE(unicode::is_number(0x2167));  // Ⅷ, Nl
  EXPECT_TRUE(unicode::is_number(0x0663));  // Arabic-Indic three, Nd
  EXPECT_FALSE(unicode::is_number('a'));
  EXPECT_FALSE(unicode::is_number(0x110000));
  EXPECT_FALSE(unicode::is_letter(0xFFFFFFFF));
}

TEST(Unicode, WhitespaceFollowsOnigurumaNotJavaScript) {
  for (std::uint32_t code : {0x09u, 0x0Au, 0x0Bu, 0x0Cu, 0x0Du, 0x20u, 0x85u, 0xA0u, 0x1680u, 0x2000u,
                             0x200Au, 0x2028u, 0x2029u, 0x202Fu, 0x205Fu, 0x3000u}) {
    EXPECT_TRUE(unicode::is_whitespace(code)) << std::hex << code;
  }
  EXPECT_TRUE(unicode::is_whitespace(0x0085));   // NEXT LINE: JavaScript's \s says no
  EXPECT_FALSE(unicode::is_whitespace(0xFEFF));  // BOM: JavaScript's \s says yes
  EXPECT_FALSE(unicode::is_whitespace(0x200B));  // zero width space is not White_Space
  EXPECT_FALSE(unicode::is_whitespace(0x180E));  // Mongolian vowel separator left Zs in Unicode 6.3
  EXPECT_FALSE(unicode::is_whitespace(0x1C));    // JavaScript's \s excludes it too
  EXPECT_FALSE(unicode::is_whitespace('a'));
}

// Expected splits were produced by Hugging Face tokenizers 0.22 (ByteLevel
// pre-tokenizer, add_prefix_space=false, use_regex=true).
TEST(Pretokenizer, Contractions) {
  EXPECT_EQ(split("don't stop"), (Pieces{"don", "'t", " stop"}));
  EXPECT_EQ(split("they're we've I'm you'll he'd it's"),
            (Pieces{"they", "'re", " we", "'ve", " I", "'m", " you", "'ll", " he", "'d", " it", "'s"}));
  // Case-sensitive: only lower-case contractions are pieces of their own.
  EXPECT_EQ(split("DON'T"), (Pieces{"DON", "'", "T"}));
  // Only the ASCII apostrophe.
  EXPECT_EQ(split("don\u2019t"), (Pieces{"don", "\u2019", "t"}));
  // No word boundary is needed after the contraction.
  EXPECT_EQ(split("'ll'llama"), (Pieces{"'ll", "'ll", "ama"}));
  // A run of punctuation swallows the apostrophe.
  EXPECT_EQ(split("''s"), (Pieces{"''", "s"}));
  EXPECT_EQ(split(" 's"), (Pieces{" '", "s"}));
  EXPECT_EQ(split("Lily's dog said, \"Hi!\""),
            (Pieces{"Lily", "'s", " dog", " said", ",", " \"", "Hi", "!\""}));
  EXPECT_EQ(split("'"), (Pieces{"'"}));
  EXPECT_EQ(split("'r"), (Pieces{"'", "r"}));
}

TEST(Pretokenizer, Whitespace) {
  EXPECT_EQ(split(""), (Pieces{}));
  EXPECT_EQ(split(" "), (Pieces{" "}));
  EXPECT_EQ(split("  hello"), (Pieces{" ", " hello"}));
  EXPECT_EQ(split("hello  "), (Pieces{"hello", "  "}));
  EXPECT_EQ(split("hello world "), (Pieces{"hello", " world", " "}));
  EXPECT_EQ(split("a   b"), (Pieces{"a", "  ", " b"}));
  EXPECT_EQ(split("a\n\nb"), (Pieces{"a", "\n", "\n", "b"}));
  EXPECT_EQ(split("\n\n"), (Pieces{"\n\n"}));
  EXPECT_EQ(split("a\t\tb"), (Pieces{"a", "\t", "\t", "b"}));
  EXPECT_EQ(split("\t b"), (Pieces{"\t", " b"}));
  EXPECT_EQ(split("x \n y"), (Pieces{"x", " \n", " y"}));
  EXPECT_EQ(split("a\r\nb"), (Pieces{"a", "\r", "\n", "b"}));
  EXPECT_EQ(split(" \n\n Hi"), (Pieces{" \n\n", " Hi"}));
  EXPECT_EQ(split("a \n"), (Pieces{"a", " \n"}));
  EXPECT_EQ(split("a , b"), (Pieces{"a", " ,", " b"}));
  // Non-ASCII whitespace: it never joins a word, only U+0020 does.
  EXPECT_EQ(split("x\u00A0y"), (Pieces{"x", "\u00A0", "y"}));
  EXPECT_EQ(split("x\u00A0\u00A0y"), (Pieces{"x", "\u00A0", "\u00A0", "y"}));
  EXPECT_EQ(split("\u3000\u3000a"), (Pieces{"\u3000", "\u3000", "a"}));
  EXPECT_EQ(split("x\u0085\u0085y"), (Pieces{"x", "\u0085", "\u0085", "y"}));
  // U+FEFF is not whitespace, so it is an "other" character.
  EXPECT_EQ(split("x\uFEFFy"), (Pieces{"x", "\uFEFF", "y"}));
}

TEST(Pretokenizer, NumbersLettersAndOthers) {
  EXPECT_EQ(split("123 4567 8"), (Pieces{"123", " 4567", " 8"}));
  EXPECT_EQ(split("3.14"), (Pieces{"3", ".", "14"}));
  EXPECT_EQ(split("\u00BD \u2167 \u00B2"), (Pieces{"\u00BD", " \u2167", " \u00B2"}));
  EXPECT_EQ(split("abc123def"), (Pieces{"abc", "123", "def"}));
  EXPECT_EQ(split("<|endoftext|>Once"), (Pieces{"<|", "endoftext", "|>", "Once"}));
}

TEST(Pretokenizer, NonAscii) {
  EXPECT_EQ(split("\U0001F389\U0001F389 yes \U0001F44D\U0001F3FD"),
            (Pieces{"\U0001F389\U0001F389", " yes", " \U0001F44D\U0001F3FD"}));
  EXPECT_EQ(split("日本語のテキスト、です。"), (Pieces{"日本語のテキスト", "、", "です", "。"}));
  EXPECT_EQ(split("café naïve résumé"), (Pieces{"café", " naïve", " résumé"}));
  // A combining accent (Mn) is not a letter, so it splits a decomposed word.
  EXPECT_EQ(split("e\u0301t\u0301\u00E9"), (Pieces{"e", "\u0301", "t", "\u0301", "\u00E9"}));
}

TEST(Pretokenizer, InvalidUtf8BytesAreOneByteOtherCharacters) {
  EXPECT_EQ(split("a\xFF\xFE b"), (Pieces{"a", "\xFF\xFE", " b"}));
  EXPECT_EQ(split(" \x80!"), (Pieces{" \x80!"}));
  EXPECT_EQ(split("ab\xC3"), (Pieces{"ab", "\xC3"}));                // truncated sequence
  EXPECT_EQ(split("\xED\xA0\x80x"), (Pieces{"\xED\xA0\x80", "x"}));  // surrogate
  EXPECT_EQ(split("\xC0\xAF"), (Pieces{"\xC0\xAF"}));                // overlong "/"
  EXPECT_EQ(split(std::string("a\0b", 3)), (Pieces{"a", std::string(1, '\0'), "b"}));
}

TEST(Pretokenizer, PiecesCoverRandomBytesExactly) {
  std::mt19937 random(7);
  const std::string alphabet[] = {" ",        "  ",   "\n",   "'",        "'s",           "a",
                                  "Z",        "1",    ".",    "\xC3\xA9", "\xE2\x80\x99", "\xF0\x9F\x98\x80",
                                  "\xC2\x85", "\xFF", "\x80", "\xE6\x97"};
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const int length = static_cast<int>(random() % 20);
    for (int i = 0; i < length; ++i) text += alphabet[random() % std::size(alphabet)];
    std::string joined;
    for (std::string_view piece : pretokenize(text)) {
      ASSERT_FALSE(piece.empty());
      joined += piece;
    }
    EXPECT_EQ(joined, text);
  }
}

TEST(Pretokenizer, LongRunsAreLinear) {
  // A quadratic matcher would take minutes here.
  const std::string spaces(1 << 20, ' ');
  EXPECT_EQ(split(spaces + "x"), (Pieces{std::string((1 << 20) - 1, ' '), " x"}));
  const std::string letters(1 << 20, 'a');
  EXPECT_EQ(pretokenize(letters).size(), 1u);
  std::string mixed;
  for (int i = 0; i < (1 << 18); ++i) mixed += "\n ";
  EXPECT_EQ(pretokenize(mixed + "x").size(), 2u);
}

}  // namespace
}  // namespace embeddings
