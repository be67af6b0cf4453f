// The whole pipeline's options and bounds: special tokens added (single
// and pair) and skipped, added tokens matched on the normalized text as
// Hugging Face matches them, and text that grows or pipelines that are long
// (issue 23) refused or run without harm.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "text/component_testing.h"

namespace embeddings::tokenizer_options_test {

using component_testing::decode;
using component_testing::encode;
using component_testing::ids;
using component_testing::Json;

// A vocabulary spelled as text: <unk> 0, [CLS] 1, [SEP] 2, then a b c x <x> fi ▁ ▁a ab.
Json letters() {
  Json json;
  json.model = R"({"type": "WordLevel", "unk_token": "<unk>", "vocab": {"<unk>": 0, "[CLS]": 1, "[SEP]": 2,
                   "a": 3, "b": 4, "c": 5, "x": 6, "<x>": 7, "fi": 8, "\u2581": 9, "\u2581a": 10, "ab": 11}})";
  json.pre_tokenizer = R"({"type": "WhitespaceSplit"})";
  json.added_tokens =
      R"([{"id": 1, "content": "[CLS]", "special": true, "normalized": false},
          {"id": 2, "content": "[SEP]", "special": true, "normalized": false}])";
  json.post_processor = R"({"type": "BertProcessing", "sep": ["[SEP]", 2], "cls": ["[CLS]", 1]})";
  return json;
}

TEST(TokenizerOptions, SpecialTokensOnlyWhenAskedAndSkippedWhenAsked) {
  const Tokenizer t = letters().load();
  EXPECT_EQ(encode(t, "a b"), ids({3, 4}));
  EXPECT_EQ(encode(t, "a b", true), ids({1, 3, 4, 2}));
  const std::string_view pair = "c";
  EXPECT_EQ(encode(t, "a b", true, &pair), ids({1, 3, 4, 2, 5, 2}));
  EXPECT_EQ(encode(t, "a b", false, &pair), ids({3, 4, 5}));
  EXPECT_EQ(encode(t, "", true), ids({1, 2}));
  EXPECT_EQ(decode(t, {1, 3, 4, 2}), "[CLS] a b [SEP]");
  EXPECT_EQ(decode(t, {1, 3, 4, 2}, true), "a b");
  Json bad = letters();
  bad.post_processor = R"({"type": "BertProcessing", "sep": ["[SEP]", 2], "cls": ["[CLS]", 99]})";
  EXPECT_EQ(bad.refusal(), "post_processor: the special token id 99 is not in the vocabulary");
}

// Issue 25's four cases: an added token with "normalized": true is matched
// in the normalized text, its own content normalized too.
TEST(TokenizerOptions, NormalizedAddedTokensAreMatchedAsNormalized) {
  const auto with = [](const char* normalizer, const char* content, std::int32_t id) {
    Json json = letters();
    json.post_processor = "null";
    json.pre_tokenizer = "null";
    json.normalizer = normalizer;
    json.added_tokens = std::string(R"([{"id": )") + std::to_string(id) + R"(, "content": ")" + content +
                        R"(", "special": false, "normalized": true}])";
    return json.load();
  };
  EXPECT_EQ(encode(with(R"({"type": "Lowercase"})", "<X>", 12), "a<X>"), ids({3, 12}));
  EXPECT_EQ(encode(with(R"({"type": "NFKC"})", "\xEF\xAC\x81", 12), "a\xEF\xAC\x81"), ids({3, 12}));
  EXPECT_EQ(
      encode(with(R"({"type": "Replace", "pattern": {"String": "x"}, "content": "b"})", "<x>", 7), "<x>"),
      ids({7}));
  // Prepend ▁: the token "ab" is "▁ab" once normalized, which "a ab" (▁a ab) does not hold.
  const Tokenizer prepended = with(R"({"type": "Prepend", "prepend": "\u2581"})", "ab", 11);
  EXPECT_EQ(encode(prepended, "ab"), ids({11}));
  // (Decoded, a normalized added token is its normalized content, as there.)
  EXPECT_EQ(decode(with(R"({"type": "Lowercase"})", "<X>", 12), {12}), "<x>");
  Json twice = letters();
  twice.normalizer = R"({"type": "Lowercase"})";
  twice.added_tokens =
      R"([{"id": 12, "content": "<Y>", "normalized": true}, {"id": 13, "content": "<y>", "normalized": true}])";
  EXPECT_EQ(twice.refusal(),
            "added_tokens[1] (\"<y>\") and added_tokens[0] are the same once normalized (not supported)");
}

// Issue 23: 'b' x 100,000 for each "a" of 40,000 is refused, by name,
// before it is written; the tokenizer encodes as before afterwards.
TEST(TokenizerOptions, TextThatWouldGrowPastTheBudgetIsRefused) {
  Json json = letters();
  json.normalizer =
      R"({"type": "Replace", "pattern": {"String": "a"}, "content": ")" + std::string(100000, 'b') + R"("})";
  const Tokenizer t = json.load();
  EXPECT_EQ(t.most_text_bytes(40000), 4000000000u);
  Tokenizer::EncodeOptions options;
  options.max_added_bytes = std::size_t{64} << 20;
  std::vector<std::int32_t> out{1, 2, 3};
  std::string error;
  EXPECT_EQ(t.encode(std::string(40000, 'a'), options, out, error), Tokenizer::Encoded::Refused);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(error,
            "a stage would make the text 3814.7 MiB longer, more than the 64.0 MiB there is memory for");
  EXPECT_EQ(encode(t, "c x"), ids({5, 6}));
}

// Issue 23: a Sequence of 1,150 stages is as good as one: "abc 1" 200 times is 600 ids.
TEST(TokenizerOptions, LongPreTokenizerSequencesEncodeAsShortOnes) {
  std::string stages;
  for (int i = 0; i < 1150; ++i)
    stages += R"({"type": "Split", "pattern": {"String": " "}, "behavior": "Isolated"}, )";
  Json json;
  json.model =
      R"({"type": "WordLevel", "unk_token": "<unk>", "vocab": {"<unk>": 0, "abc": 1, " ": 2, "1abc": 3, "1": 4}})";
  json.pre_tokenizer = R"({"type": "Sequence", "pretokenizers": [)" + stages + R"({"type": "Digits"}]})";
  std::string text;
  for (int i = 0; i < 200; ++i) text += "abc 1";
  const std::vector<std::int32_t> encoded = json.load().encode(text);
  ASSERT_EQ(encoded.size(), 600u);
  EXPECT_EQ(std::vector<std::int32_t>(encoded.begin(), encoded.begin() + 4),
            (std::vector<std::int32_t>{1, 2, 4, 1}));
}

}  // namespace embeddings::tokenizer_options_test
