// The tokens by id and by bytes (vocabulary.h).
#include "embeddings/text/vocabulary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace embeddings::vocabulary_test {

using Ids = std::vector<std::int32_t>;

TEST(Vocabulary, FindsByIdAndBytesAndCopiesSafely) {
  Vocabulary vocabulary;
  vocabulary.add(2, "ab", true);
  vocabulary.add(0, "a", true);
  vocabulary.add(7, "<s>", false);
  Vocabulary::Clash clash;
  ASSERT_TRUE(vocabulary.index(clash));
  EXPECT_EQ(vocabulary.size(), 3u);
  EXPECT_EQ(vocabulary.id_limit(), 8u);
  EXPECT_EQ(vocabulary.max_bytes(), 3u);
  const Vocabulary copy = vocabulary;  // No pointers into itself.
  vocabulary = Vocabulary{};
  EXPECT_EQ(copy.find("ab"), 2);
  EXPECT_EQ(copy.find("a"), 0);
  EXPECT_EQ(copy.find("<s>"), -1);  // Not findable by bytes.
  EXPECT_EQ(copy.find("b"), -1);
  std::string_view bytes;
  ASSERT_TRUE(copy.bytes(7, bytes));
  EXPECT_EQ(bytes, "<s>");
  EXPECT_FALSE(copy.bytes(1, bytes));
  EXPECT_FALSE(copy.has(3));
}

TEST(Vocabulary, NamesTheTokensThatClash) {
  Vocabulary by_id;
  by_id.add(4, "x", true);
  by_id.add(4, "y", false);
  Vocabulary::Clash clash;
  ASSERT_FALSE(by_id.index(clash));
  EXPECT_EQ(clash.id, 4);
  EXPECT_EQ(clash.first, "x");  // In the order they were added.
  EXPECT_EQ(clash.second, "y");
  Vocabulary by_bytes;
  by_bytes.add(1, "x", true);
  by_bytes.add(2, "x", true);
  ASSERT_FALSE(by_bytes.index(clash));
  EXPECT_EQ(clash.id, -1);
  EXPECT_EQ(clash.first, "x");
}

}  // namespace embeddings::vocabulary_test
