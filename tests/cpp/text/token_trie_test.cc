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

// Contents that share long prefixes and run long past where they part,
// over two letters, so that edges of every length and branchings at every
// depth occur.
std::vector<std::string> long_contents(std::mt19937& random, int count) {
  std::vector<std::string> contents;
  while (static_cast<int>(contents.size()) < count) {
    std::string content;
    if (!contents.empty() && random() % 2 == 0)
      content = contents[random() % contents.size()].substr(0, random() % 40);
    content.resize(content.size() + 1 + random() % 60, 'a');
    for (std::size_t i = content.size() - 1; i > 0 && random() % 8 == 0; --i) content[i] = 'b';
    if (std::find(contents.begin(), contents.end(), content) == contents.end()) contents.push_back(content);
  }
  return contents;
}

TEST(TokenTrie, EveryPrefixLikeTheReference) {
  std::mt19937 random(11);
  for (int round = 0; round < 100; ++round) {
    const std::vector<std::string> contents = long_contents(random, 1 + static_cast<int>(random() % 20));
    std::vector<std::string_view> views(contents.begin(), contents.end());
    std::vector<std::int32_t> values(contents.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int32_t>(i);
    TokenTrie trie;
    trie.build(views, values);
    // A text made of the contents and their pieces, so that many match.
    std::string text;
    while (text.size() < 300) text += contents[random() % contents.size()].substr(0, 1 + random() % 80);
    for (std::size_t pos = 0; pos <= text.size(); ++pos) {
      std::vector<std::pair<std::size_t, std::int32_t>> found, expected;
      trie.prefixes(text, pos,
                    [&](std::size_t length, std::int32_t value) { found.emplace_back(length, value); });
      for (std::size_t i = 0; i < contents.size(); ++i) {
        if (pos < text.size() && text.compare(pos, contents[i].size(), contents[i]) == 0)
          expected.emplace_back(contents[i].size(), static_cast<std::int32_t>(i));
      }
      std::sort(expected.begin(), expected.end());  // Shortest first.
      ASSERT_EQ(found, expected) << "round " << round << ", at " << pos;
    }
  }
}

// Issue 34: a trie of a node per byte took 30-80 times its contents (752
// MiB for a 9.6 MiB vocabulary of 1,000-letter tokens). Compressed, long
// distinct contents take a node or two each and their bytes once.
TEST(TokenTrie, LongContentsTakeAboutTheirBytes) {
  std::mt19937 random(3);
  std::vector<std::string> contents;
  std::size_t bytes = 0;
  for (int i = 0; i < 300; ++i) {
    std::string content(1000, 'x');
    for (char& c : content) c = static_cast<char>('a' + random() % 26);
    bytes += content.size();
    contents.push_back(content);
  }
  std::vector<std::string_view> views(contents.begin(), contents.end());
  std::vector<std::int32_t> values(contents.size(), 7);
  TokenTrie trie;
  trie.build(views, values);
  EXPECT_LE(trie.node_count(), 2 * contents.size() + 1);
  EXPECT_LE(trie.label_bytes(), bytes);
  EXPECT_LE(trie.node_count() * 20 + trie.label_bytes(), TokenTrie::memory_bytes(contents.size(), bytes));
  std::size_t start = 0, length = 0;
  std::int32_t value = -1;
  ASSERT_TRUE(trie.find("  " + contents[123], 0, start, length, value));
  EXPECT_EQ(start, 2u);
  EXPECT_EQ(length, 1000u);
}

}  // namespace embeddings::token_trie_test
