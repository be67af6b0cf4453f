// models/unigram.cpp: the best-scoring cut (Viterbi), unknown characters
// fused into unk_id, byte_fallback, and where the Rust library fails.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::unigram_test {

using component_testing::ids;

component_testing::Json unigram(const std::string& unk_id, bool byte_fallback = false,
                                const std::string& extra = "") {
  component_testing::Json json;
  json.model = R"({"type": "Unigram", "unk_id": )" + unk_id + R"(, "byte_fallback": )" +
               (byte_fallback ? "true" : "false") +
               R"(, "vocab": [["<unk>", 0.0], ["a", 0.0], ["b", 0.0], ["c", 0.0], ["d", 0.0], ["cd", 1.0],
                              ["ab", 2.0], ["abc", 5.0], ["abcd", 10.0])" +
               extra + "]}";
  return json;
}

// tokenizers' own example: "abcdacdxx" is abcd, a, cd and the unknown "xx", fused.
TEST(Unigram, BestPathAndFusedUnknowns) {
  const Tokenizer t = unigram("0").load();
  EXPECT_EQ(component_testing::encode(t, "abcdacdxx"), ids({8, 1, 5, 0}));
  EXPECT_EQ(component_testing::encode(t, "xax"), ids({0, 1, 0}));
  EXPECT_EQ(component_testing::encode(t, ""), ids({}));
  EXPECT_EQ(component_testing::decode(t, {8, 1}), "abcd a");
}

// A tie keeps the first path found (a later one must score strictly
// higher): "ab" scores 2 as one token and 1 + 1 as two, and the one token
// is found first, from the first character.
TEST(Unigram, TiesKeepTheFirstPath) {
  component_testing::Json json;
  json.model = R"({"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0], ["a", 1], ["b", 1], ["ab", 2]]})";
  EXPECT_EQ(component_testing::encode(json.load(), "ab"), ids({3}));
  json.model =
      R"({"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0], ["a", 1], ["b", 1], ["ab", 1.5]]})";
  EXPECT_EQ(component_testing::encode(json.load(), "ab"), ids({1, 2}));
}

TEST(Unigram, ByteFallbackAndNoUnknownId) {
  std::string bytes;
  for (const char* hex : {"78", "C3", "A9"}) bytes += std::string(R"(, ["<0x)") + hex + R"(>", -5.0])";
  const Tokenizer fallback = unigram("0", true, bytes).load();
  // "x" and "é" have no token: the fused run "xé" becomes its three bytes' tokens.
  EXPECT_EQ(component_testing::encode(fallback, "ax\xC3\xA9"), ids({1, 9, 10, 11}));
  // Without a "<0xNN>" for every byte of the run, unk_id.
  EXPECT_EQ(component_testing::encode(fallback, "ay"), ids({1, 0}));
  const Tokenizer no_unk = unigram("null").load();
  EXPECT_EQ(component_testing::encode(no_unk, "abc"), ids({7}));
  EXPECT_EQ(component_testing::encode(no_unk, "ax").error,
            "refused: the model has no token for \"x\" and no unk_id (the Rust library fails here too)");
}

TEST(Unigram, BadFilesAreRefused) {
  EXPECT_EQ(unigram("9").refusal(), "model.unk_id 9 is not an index of model.vocab (9 entries)");
  component_testing::Json json;
  json.model = R"({"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0], ["a"]]})";
  EXPECT_EQ(json.refusal(), "model.vocab[1] must be a [\"token\", score] pair, found an array");
  json.model = R"({"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0], ["a", 1e999]]})";
  EXPECT_EQ(json.refusal(), "model.vocab[1]: the score \"1e999\" is not a finite number");
  json.model = R"({"type": "Unigram", "unk_id": 0, "vocab": {"a": 0}})";
  EXPECT_EQ(json.refusal(), "model.vocab must be an array, found an object");
}

// Issue 34: with one 5,000-letter token, the lattice walked up to 5,000
// bytes from each of a megabyte's characters (38-45 s for trace to refuse).
// The bytes the walks read are counted, and the search stops by name once
// they pass what a text of its length may read (about 7,500 walks here);
// within that the ids are the search's.
TEST(Unigram, WalksPastWhatTheTextAllowsAreStoppedByName) {
  component_testing::Json json;
  json.model = R"({"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0], ["a", -1], [")" +
               std::string(5000, 'a') + R"(", -2], ["b", -1]]})";
  const Tokenizer t = json.load();
  const component_testing::Encoded refused = component_testing::encode(t, std::string(1 << 20, 'a'));
  EXPECT_TRUE(refused.ids.empty());
  EXPECT_EQ(
      refused.error,
      "refused: the Unigram model's search of a piece of 1048576 bytes would read more than the 100663296 "
      "bytes a text of its length may (32 a byte, and 67108864 more in all): the model has tokens of up to "
      "5000 bytes, and the text matches them on and on");
  // A megabyte whose characters start no long token costs a step a byte.
  EXPECT_EQ(component_testing::encode(t, std::string(1 << 20, 'b')).ids.size(), std::size_t{1} << 20);
  // Within it: the long token, found from the first "a" (and read on from every other).
  EXPECT_EQ(component_testing::encode(t, std::string(5000, 'a') + "b"), ids({2, 3}));
}

}  // namespace embeddings::unigram_test
