// The regex engine on what JavaScript cannot give it (tests/js/regex.test.js
// compares it with JavaScript's RegExp on well-formed text): invalid UTF-8,
// and agreement with the hand-written GPT-2 pre-tokenizer, itself checked
// against the Rust library, on random bytes. Also the general categories
// and the normalizers against a few known values.
#include "embeddings/text/regex/regex.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "embeddings/text/pretokenizer.h"
#include "embeddings/text/unicode/normalize.h"
#include "embeddings/text/unicode/unicode.h"

namespace embeddings {
namespace {

constexpr const char* kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

std::vector<std::string> matches(const regex::Regex& regex, std::string_view text) {
  regex::Regex::Scratch scratch;
  std::vector<std::string> found;
  std::size_t from = 0, begin = 0, end = 0;
  while (regex.search(text, from, begin, end, scratch)) {
    found.emplace_back(text.substr(begin, end - begin));
    from = end;
  }
  return found;
}

regex::Regex compiled(const char* pattern) {
  regex::Regex regex;
  std::string error;
  EXPECT_TRUE(regex::Regex::compile(pattern, regex, error)) << pattern << ": " << error;
  return regex;
}

TEST(Regex, Gpt2PatternCutsRandomBytesAsTheHandWrittenPreTokenizer) {
  const regex::Regex regex = compiled(kGpt2Pattern);
  std::mt19937 random(14);
  // Bytes that make every kind of character and every kind of invalid sequence.
  const std::string alphabet = "aZ 1\n\t'sld.!\x80\xBF\xC0\xC3\xA9\xE2\x80\x83\xF0\x9F\x98\x80\xFF\xED\xA0";
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const int length = 1 + static_cast<int>(random() % 24);
    for (int i = 0; i < length; ++i) text += alphabet[random() % alphabet.size()];
    std::vector<std::string> expected;
    for (std::string_view piece : pretokenize(text)) expected.emplace_back(piece);
    ASSERT_EQ(matches(regex, text), expected) << testing::PrintToString(text);
  }
}

TEST(Regex, AnInvalidByteIsOneCharacterInNoClass) {
  EXPECT_EQ(matches(compiled("[^a]"),
                    "a\xFF"
                    "b"),
            (std::vector<std::string>{"\xFF", "b"}));
  EXPECT_EQ(matches(compiled("\\p{L}+"), "ab\xC3z"), (std::vector<std::string>{"ab", "z"}));
  EXPECT_EQ(matches(compiled("\\S+"), "\xE2\x80 x"), (std::vector<std::string>{"\xE2\x80", "x"}));
  EXPECT_EQ(matches(compiled("."), "\xF0\x9F"), (std::vector<std::string>{"\xF0", "\x9F"}));
}

TEST(Regex, LeftmostFirstAndGreedyAsOniguruma) {
  EXPECT_EQ(matches(compiled("a|ab"), "ab"), (std::vector<std::string>{"a"}));
  EXPECT_EQ(matches(compiled("\\s+(?!\\S)|\\s+"), "a   b"), (std::vector<std::string>{"  ", " "}));
  EXPECT_EQ(matches(compiled("\\p{N}{1,3}"), "1234567"), (std::vector<std::string>{"123", "456", "7"}));
  EXPECT_EQ(matches(compiled("(?i:'s)"), "'S'\xC5\xBF's"),
            (std::vector<std::string>{"'S", "'\xC5\xBF", "'s"}));
}

// The program regex.h runs (Star for a repeated set, alternatives pruned by
// their first characters) against the plain program, the reference: the same
// matches at the same places, for the patterns of real files and for ones
// that make a Star give back over multi-byte and invalid characters, on
// random bytes.
TEST(Regex, FastProgramMatchesAsThePlainOne) {
  const std::vector<std::string> patterns = {
      kGpt2Pattern,
      R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|)"
      R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|)"
      R"(\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
      R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
      R"(\p{L}*a)",
      R"([^x]*\p{Lu})",
      R"([^x]*[^y])",
      R"([^x]*[^\p{L}])",
      R"(\S*\S)",
      R"(.*\xFF?é)",
      R"([^a]+b|[^b]+)",
      R"(\S*\s)",
      R"(a*)",
      R"((?:ab|a)*c)",
      R"(\p{L}+(?=\p{N})|\p{N}*)",
      R"([\x{80}-\x{10FFFF}]*\x{1F600})",
      R"(x?y*z+(?!\S)|\s*)"};
  std::mt19937 random(15);
  // Whole characters of one to four bytes, and bytes that begin none.
  const std::vector<std::string> alphabet = {
      "a",      "A",      "b",          "x",    "y",    "z",    "Z",    " ",        "1",    "\n",      "\r",
      "\t",     "'",      "s",          "S",    "l",    "d",    ".",    "/",        "!",    "é",       "É",
      "\u2003", "\u65e5", "\U0001F600", "\x80", "\xBF", "\xC0", "\xC3", "\xE2\x80", "\xFF", "\xED\xA0"};
  const auto all = [](const regex::Regex& regex, std::string_view text) {
    regex::Regex::Scratch scratch;
    std::vector<std::pair<std::size_t, std::size_t>> found;
    std::size_t from = 0, begin = 0, end = 0;
    while (from <= text.size() && regex.search(text, from, begin, end, scratch)) {
      found.emplace_back(begin, end);
      from = end > begin ? end : end + 1;
    }
    return found;
  };
  for (const std::string& pattern : patterns) {
    regex::Regex fast, plain;
    std::string error;
    ASSERT_TRUE(regex::Regex::compile(pattern, fast, error)) << pattern << ": " << error;
    ASSERT_TRUE(regex::Regex::compile(pattern, plain, error, false)) << pattern << ": " << error;
    for (int round = 0; round < 4000; ++round) {
      std::string text;
      const int length = static_cast<int>(random() % 20);
      for (int i = 0; i < length; ++i) text += alphabet[random() % alphabet.size()];
      ASSERT_EQ(all(fast, text), all(plain, text)) << pattern << " on " << testing::PrintToString(text);
    }
  }
}

TEST(Unicode, GeneralCategories) {
  using unicode::Category;
  EXPECT_EQ(unicode::general_category('A'), Category::Lu);
  EXPECT_EQ(unicode::general_category('z'), Category::Ll);
  EXPECT_EQ(unicode::general_category(0x01C5), Category::Lt);  // ǅ
  EXPECT_EQ(unicode::general_category(0x02B0), Category::Lm);  // ʰ
  EXPECT_EQ(unicode::general_category(0x65E5), Category::Lo);  // 日
  EXPECT_EQ(unicode::general_category(0x0301), Category::Mn);
  EXPECT_EQ(unicode::general_category(0x0903), Category::Mc);
  EXPECT_EQ(unicode::general_category(0x20DD), Category::Me);
  EXPECT_EQ(unicode::general_category('7'), Category::Nd);
  EXPECT_EQ(unicode::general_category(0x2167), Category::Nl);
  EXPECT_EQ(unicode::general_category(0x00BD), Category::No);
  EXPECT_EQ(unicode::general_category(' '), Category::Other);
  EXPECT_EQ(unicode::general_category(0xD800), Category::Other);
  EXPECT_EQ(unicode::general_category(0x10FFFF), Category::Other);
  EXPECT_EQ(unicode::general_category(0x110000), Category::Other);
}

TEST(Normalize, KnownForms) {
  std::string out;
  normalize::apply(normalize::Form::NFC, "cafe\xCC\x81", out);  // e + U+0301
  EXPECT_EQ(out, "caf\xC3\xA9");
  normalize::apply(normalize::Form::NFD, "\xC3\xA9", out);
  EXPECT_EQ(out, "e\xCC\x81");
  normalize::apply(normalize::Form::NFC, "\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8", out);  // jamo G A K
  EXPECT_EQ(out, "\xEA\xB0\x81");                                                       // 각
  normalize::apply(normalize::Form::NFC, "a\xCC\xA3\xCC\x87", out);  // a, dot below, dot above
  EXPECT_EQ(out, "\xE1\xBA\xA1\xCC\x87");                            // ạ + dot above
  normalize::apply(normalize::Form::NFC, "e\xFF\xCC\x81", out);      // an invalid byte blocks
  EXPECT_EQ(out, "e\xFF\xCC\x81");
  EXPECT_TRUE(normalize::is_quick_unchanged(normalize::Form::NFC, "caf\xC3\xA9"));
  EXPECT_FALSE(normalize::is_quick_unchanged(normalize::Form::NFD, "caf\xC3\xA9"));
}

}  // namespace
}  // namespace embeddings
