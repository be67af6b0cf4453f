// The regex engine on what JavaScript cannot give it
// (tests/js/tokenizer/regex.test.js compares it with JavaScript's RegExp on
// well-formed text): invalid UTF-8, and agreement with the hand-written
// GPT-2 pre-tokenizer, itself checked against the Rust library, on random
// bytes; the linear-time machine against backtracking; patterns that
// backtrack exponentially.
#include "embeddings/text/regex/regex.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "embeddings/text/pre_tokenizers/gpt2_split.h"

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

// Character classes as Oniguruma reads them: properties by any of their
// names, negated three ways, nested classes and intersections; and what it
// refuses, refused.
TEST(Regex, ClassesAndPropertiesAsOniguruma) {
  const std::string text = "Ab1 \xCE\xB1\xE6\x97\xA5\xE3\x81\x82!\xC2\xAB";  // Ab1 α日あ!«
  const std::vector<std::string> letters = {"Ab", "\xCE\xB1\xE6\x97\xA5\xE3\x81\x82"};
  for (const char* pattern : {"\\p{L}+", "\\p{Letter}+", "\\p{ l }+", "[^\\P{L}]+", "\\P{^L}+",
                              "[\\p{L}&&\\P{N}]+", "[[\\p{Lu}][\\p{Ll}\\p{Lo}]]+"})
    EXPECT_EQ(matches(compiled(pattern), text), letters) << pattern;
  EXPECT_EQ(matches(compiled("\\p{Han}|\\p{Hiragana}"), text),
            (std::vector<std::string>{"\xE6\x97\xA5", "\xE3\x81\x82"}));
  EXPECT_EQ(matches(compiled("[\\p{P}&&[^!]]"), text), std::vector<std::string>{"\xC2\xAB"});
  EXPECT_EQ(matches(compiled("[a-z&&[^aeiou]]+"), "hello"), (std::vector<std::string>{"h", "ll"}));
  EXPECT_EQ(matches(compiled("[\\p{L}-]+"), "a-b c"), (std::vector<std::string>{"a-b", "c"}));
  for (const char* refused : {"[\\p{L}-z]", "[a-\\p{L}]", "[\\s-z]", "\\p{L&}", "\\p{Sidetic}", "[[:alpha:]]",
                              "(?i:[\\p{Lu}])", "[a&&", "\\p{Lu"}) {
    regex::Regex regex;
    std::string error;
    EXPECT_FALSE(regex::Regex::compile(refused, regex, error)) << refused;
    EXPECT_FALSE(error.empty()) << refused;
  }
}

// The linear-time machine against backtracking (the plain program, and
// search(), which hands over to it), on random patterns of every construct
// and random texts: the same matches at the same places.
std::string random_pattern(std::mt19937& random, int depth) {
  static const std::vector<std::string> atoms = {"a", "b",    "[ab]",     "\\p{L}", "\\s",
                                                 ".", "[^a]", "\\p{Han}", "\\P{L}"};
  std::string out;
  const int items = 1 + static_cast<int>(random() % 3);
  for (int i = 0; i < items; ++i) {
    const unsigned kind = depth < 3 ? random() % 10 : random() % 6;
    if (kind < 6) {
      out += atoms[random() % atoms.size()];
    } else if (kind < 8) {
      out += "(?:" + random_pattern(random, depth + 1) + "|" + random_pattern(random, depth + 1) + ")";
    } else {
      out += std::string(random() % 2 ? "(?=" : "(?!") + random_pattern(random, depth + 1) + ")";
      continue;
    }
    static const char* quantifiers[] = {"", "", "?", "*", "+", "{0,3}", "{2}", "{1,}"};
    out += quantifiers[random() % 8];
  }
  return out;
}

TEST(Regex, LinearMachineMatchesAsBacktracking) {
  std::mt19937 random(16);
  const std::vector<std::string> alphabet = {"a", "b", " ", "\n", "\u65e5", "\xC3\xA9", "1", "\xFF"};
  const auto all = [](const regex::Regex& regex, std::string_view text, bool linear) {
    regex::Regex::Scratch scratch;
    std::vector<std::pair<std::size_t, std::size_t>> found;
    std::size_t from = 0, begin = 0, end = 0;
    while (from <= text.size() && (linear ? regex.search_linear(text, from, begin, end, scratch)
                                          : regex.search(text, from, begin, end, scratch))) {
      found.emplace_back(begin, end);
      from = end > begin ? end : end + 1;
    }
    return found;
  };
  int compiled = 0;
  for (int round = 0; round < 1500; ++round) {
    const std::string pattern = random_pattern(random, 0);
    regex::Regex fast, plain;
    std::string error;
    if (!regex::Regex::compile(pattern, fast, error)) continue;  // e.g. a repeated part that can match ""
    ASSERT_TRUE(regex::Regex::compile(pattern, plain, error, false)) << pattern;
    ++compiled;
    for (int i = 0; i < 6; ++i) {
      std::string text;
      const int length = static_cast<int>(random() % 12);
      for (int j = 0; j < length; ++j) text += alphabet[random() % alphabet.size()];
      const auto expected = all(plain, text, false);
      ASSERT_EQ(all(fast, text, true), expected) << pattern << " on " << testing::PrintToString(text);
      ASSERT_EQ(all(plain, text, true), expected) << pattern << " on " << testing::PrintToString(text);
      ASSERT_EQ(all(fast, text, false), expected) << pattern << " on " << testing::PrintToString(text);
    }
  }
  EXPECT_GT(compiled, 750);
}

// Patterns that take a backtracking engine time exponential in the text
// finish at once, with the match backtracking would find.
TEST(Regex, ExponentialBacktrackingPatternsTakeLinearTime) {
  const std::string many(100000, 'a');
  EXPECT_EQ(matches(compiled("(a+)+b"), many + "c"), std::vector<std::string>{});
  EXPECT_EQ(matches(compiled("(a+)+b"), many + "b"), std::vector<std::string>{many + "b"});
  EXPECT_EQ(matches(compiled("(a?){25}a{25}"), std::string(22, 'a')), std::vector<std::string>{});
  EXPECT_EQ(matches(compiled("(a?){25}a{25}"), std::string(60, 'a')),
            std::vector<std::string>{std::string(50, 'a')});
  EXPECT_EQ(matches(compiled("(?:a|aa)+c"), many + "b"), std::vector<std::string>{});
  // A lookahead inside: decided by the linear machine too.
  EXPECT_EQ(matches(compiled("(?:a(?!b))+c"), many + "c"), std::vector<std::string>{many + "c"});
}

}  // namespace
}  // namespace embeddings
