// models/word_piece.cpp: the longest tokens from the start, unk_token for
// a word too long or that cannot be cut.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "text/component_testing.h"

namespace embeddings::word_piece_model_test {

using component_testing::ids;
using Ids = std::vector<std::int32_t>;

component_testing::Json word_piece(int max_characters) {
  component_testing::Json json;
  json.model =
      R"({"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                   "max_input_chars_per_word": )" +
      std::to_string(max_characters) +
      R"(, "vocab": {"[UNK]": 0, "un": 1, "##aff": 2, "##able": 3, "a": 4, "##a": 5, "\u00e9": 6, "##\u00e9": 7}})";
  json.pre_tokenizer = R"({"type": "BertPreTokenizer"})";
  json.decoder = R"({"type": "WordPiece", "prefix": "##", "cleanup": true})";
  return json;
}

TEST(WordPieceModel, LongestFirstThenUnknown) {
  const Tokenizer t = word_piece(100).load();
  EXPECT_EQ(component_testing::encode(t, "unaffable"), ids({1, 2, 3}));
  EXPECT_EQ(component_testing::encode(t, "aaa \xC3\xA9\xC3\xA9"), ids({4, 5, 5, 6, 7}));
  EXPECT_EQ(component_testing::encode(t, "unx aa"), ids({0, 4, 5}));  // "unx" cannot be cut.
  EXPECT_EQ(component_testing::decode(t, {1, 2, 3, 4, 5}), "unaffable aa");
  // max_input_chars_per_word counts characters.
  const Tokenizer short_words = word_piece(2).load();
  EXPECT_EQ(component_testing::encode(short_words, "aaa \xC3\xA9\xC3\xA9"), ids({0, 6, 7}));
}

// The Rust library's WordPiece::tokenize as it is written: from each start,
// every end from the word's last character down, looked up with the prefix.
Ids rust_loop(const std::map<std::string, std::int32_t>& vocab, const std::string& word,
              std::size_t max_chars) {
  std::vector<std::size_t> starts;  // Character starts, and the end.
  for (std::size_t i = 0; i < word.size(); ++i)
    if ((static_cast<unsigned char>(word[i]) & 0xC0) != 0x80) starts.push_back(i);
  if (starts.size() > max_chars) return {0};
  starts.push_back(word.size());
  Ids out;
  for (std::size_t start = 0; start + 1 < starts.size();) {
    std::size_t end = starts.size() - 1;
    std::int32_t id = -1;
    for (; end > start; --end) {
      const auto it =
          vocab.find((start == 0 ? "" : "##") + word.substr(starts[start], starts[end] - starts[start]));
      if (it != vocab.end()) {
        id = it->second;
        break;
      }
    }
    if (id < 0) return {0};
    out.push_back(id);
    start = end;
  }
  return out;
}

// The trie's longest match gives the loop's ids, on random vocabularies of
// ASCII and two-byte letters and words over them.
TEST(WordPieceModel, TheTriesCutAsTheRustLoopCuts) {
  std::mt19937 random(17);
  const std::vector<std::string> letters = {"a", "b", "\xC3\xA9", "\xC3\xA8"};
  const auto word_of = [&](std::size_t most) {
    std::string word;
    for (std::size_t n = 1 + random() % most; n > 0; --n) word += letters[random() % letters.size()];
    return word;
  };
  for (int round = 0; round < 60; ++round) {
    std::map<std::string, std::int32_t> vocab = {{"[UNK]", 0}};
    std::string json = R"({"[UNK]": 0)";
    for (int i = 0; i < 12; ++i) {
      // (The prefix alone is a token too, now and then.)
      const std::string token = random() % 8 == 0 ? "##" : (random() % 2 ? "##" : "") + word_of(4);
      if (!vocab.emplace(token, static_cast<std::int32_t>(vocab.size())).second) continue;
      json += ", \"" + token + "\": " + std::to_string(vocab.size() - 1);
    }
    component_testing::Json file;
    file.model = R"({"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                     "max_input_chars_per_word": 6, "vocab": )" +
                 json + "}}";
    const Tokenizer t = file.load();
    for (int w = 0; w < 40; ++w) {
      // (Some start with the prefix, which a first token may too.)
      const std::string word = (random() % 4 == 0 ? "##" : "") + word_of(8);
      EXPECT_EQ(component_testing::encode(t, word), ids(rust_loop(vocab, word, 6))) << word;
    }
  }
}

// Issue 34: with max_input_chars_per_word up to 2^30, a word cost cubic
// time (3,000 letters, 5.8 s). A trie walk from each start is linear in
// the word times the longest token.
TEST(WordPieceModel, LongWordsAreCutByWalksOfTheTrie) {
  component_testing::Json json;
  json.model = R"({"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                   "max_input_chars_per_word": 1073741824, "vocab": {"[UNK]": 0, "a": 1, "##a": 2, "##aa": 3}})";
  const Tokenizer t = json.load();
  const component_testing::Encoded cut = component_testing::encode(t, std::string(1 << 20, 'a'));
  ASSERT_EQ(cut.ids.size(), (std::size_t{1} << 19) + 1);
  EXPECT_EQ(cut.ids[0], 1);
  EXPECT_EQ(cut.ids[1], 3);
  EXPECT_EQ(cut.ids.back(), 2);
  // A token as long as the word is found from its start by one walk.
  json.model = R"({"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                   "max_input_chars_per_word": 1073741824, "vocab": {"[UNK]": 0, "a": 1, ")" +
               std::string(3000, 'b') + R"(": 2}})";
  EXPECT_EQ(component_testing::encode(json.load(), std::string(3000, 'b')), ids({2}));
}

}  // namespace embeddings::word_piece_model_test
