// The added tokens' and Unigram's trie (token_trie.h), against a naive search.
#include "embeddings/text/token_trie.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace embeddings::token_trie_test {

using Ids = std::vector<std::int32_t>;

// Leftmost start, then the longest content there.
bool reference_find(const std::vector<std::string>& contents, std::string_view text, std::size_t from,
                    std::size_t& start, std::size_t& length, std::int32_t& value) {
  for (std::size_t pos = from; pos < text.size(); ++pos) {
    std::int32_t best = -1;
    for (std::size_t i = 0; i < contents.size(); ++i) {
      if (text.compare(pos, contents[i].size(), contents[i]) == 0 &&
          (best < 0 || contents[i].size() > contents[best].size()))
        best = static_cast<std::int32_t>(i);
    }
    if (best >= 0) {
      start = pos;
      length = contents[best].size();
      value = best;
      return true;
    }
  }
  return false;
}

TEST(TokenTrie, LeftmostLongestLikeTheReference) {
  std::mt19937 random(5);
  for (int round = 0; round < 200; ++round) {
    // Contents over a small alphabet, so they share prefixes and overlap.
    std::vector<std::string> contents;
    const int count = 1 + static_cast<int>(random() % 12);
    while (static_cast<int>(contents.size()) < count) {
      std::string content(1 + random() % 5, 'a');
      for (char& ch : content) ch = static_cast<char>('a' + random() % 3);
      if (std::find(contents.begin(), contents.end(), content) == contents.end()) contents.push_back(content);
    }
    std::vector<std::string_view> views(contents.begin(), contents.end());
    std::vector<std::int32_t> values(contents.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int32_t>(i);
    TokenTrie trie;
    trie.build(views, values);
    std::string text(random() % 30, 'a');
    for (char& ch : text) ch = static_cast<char>('a' + random() % 4);
    for (std::size_t from = 0; from <= text.size(); ++from) {
      std::size_t start = 0, length = 0, expected_start = 0, expected_length = 0;
      std::int32_t value = -1, expected_value = -1;
      const bool found = trie.find(text, from, start, length, value);
      ASSERT_EQ(found, reference_find(contents, text, from, expected_start, expected_length, expected_value));
      if (!found) continue;
      EXPECT_EQ(start, expected_start);
      EXPECT_EQ(length, expected_length);
      EXPECT_EQ(value, expected_value);
    }
  }
}

TEST(TokenTrie, EmptyAndByteValues) {
  TokenTrie trie;
  trie.build({}, {});
  std::size_t start = 0, length = 0;
  std::int32_t value = 0;
  EXPECT_FALSE(trie.find("anything", 0, start, length, value));
  const std::string high = "\xFF\x00\x80";  // Every byte value is a label, 0x00 and 0xFF too.
  const std::string content(high.data(), 3);
  trie.build({content}, {42});
  const std::string text = std::string("x") + content;
  ASSERT_TRUE(trie.find(text, 0, start, length, value));
  EXPECT_EQ(start, 1u);
  EXPECT_EQ(length, 3u);
  EXPECT_EQ(value, 42);
}

}  // namespace embeddings::token_trie_test
