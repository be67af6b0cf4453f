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

// Issue 34: the Rust library prepends for "first" only to a piece whose
// first character came from the text's first one; a normalizer that takes
// that character out (Nmt, BertNormalizer's clean_text, NFD then
// StripAccents, a left Strip, Replace with "") moves the start on, so no
// "▁" is put there, with a Split after it or not. A normalizer that changes
// the first character or adds before it keeps the start. Both paths read it
// from the normalizers' alignments: with offsets and without, the same ids.
TEST(MetaspacePreTokenizer, FirstIsWhereTheTextsFirstCharacterWent) {
  const auto first_ids = [](const std::string& normalizer, const std::string& text,
                            const std::string& added_tokens = "[]") {
    component_testing::Json json;
    json.normalizer = normalizer;
    json.added_tokens = added_tokens;
    json.pre_tokenizer =
        R"({"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": true})";
    json.model =
        R"({"type": "WordLevel", "unk_token": "?", "vocab": {"?": 0, "\u2581a": 1, "a": 2, "\u2581x": 3, "x": 4, "<x>": 5, "\u2581qa": 6, "qa": 7}})";
    const Tokenizer tokenizer = json.load();
    const auto ids = component_testing::encode(tokenizer, text).ids;
    EXPECT_EQ(component_testing::encode(tokenizer, text, false, nullptr, true).ids, ids)
        << normalizer << " " << text << ": with offsets";
    return ids;
  };
  using component_testing::Ids;
  for (
      const auto& [normalizer, text] : std::vector<std::pair<std::string, std::string>>{
          {R"({"type": "Nmt"})",
           "\x01"
           "a"},
          {R"({"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": false, "strip_accents": false, "lowercase": false})",
           "\x02"
           "a"},
          {R"({"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]})",
           "\xCC\x81"
           "a"},
          {R"({"type": "Strip", "strip_left": true, "strip_right": false})", "  a"},
          {R"({"type": "Replace", "pattern": {"String": "x"}, "content": ""})", "xa"}}) {
    EXPECT_EQ(first_ids(normalizer, text), Ids({2})) << normalizer;
    EXPECT_EQ(first_ids(normalizer, "a"), Ids({1})) << normalizer;
  }
  EXPECT_EQ(first_ids(R"({"type": "Strip", "strip_left": false, "strip_right": true})", "  a"), Ids({0, 1}));
  EXPECT_EQ(first_ids(R"({"type": "Replace", "pattern": {"String": "x"}, "content": "a"})", "xa"), Ids({0}));
  EXPECT_EQ(first_ids(R"({"type": "Lowercase"})", "Xa"), Ids({0}));
  EXPECT_EQ(first_ids(R"({"type": "Lowercase"})", "X"), Ids({3}));
  // Text a normalizer wrote before the first character, from it, and cut
  // out as an added token: what follows it came from that character too,
  // so it is the start ("qa" is "<x>", "▁qa" in the Rust library; "aqa" is
  // "▁a", "<x>", "qa").
  const std::string replace = R"({"type": "Replace", "pattern": {"String": "q"}, "content": "<x>q"})";
  const std::string added =
      R"([{"id": 5, "content": "<x>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": true, "special": false}])";
  EXPECT_EQ(first_ids(replace, "qa", added), Ids({5, 6}));
  EXPECT_EQ(first_ids(replace, "aqa", added), Ids({1, 5, 7}));
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
