// The pure BPE merge and its table (models/bpe.h), against a naive reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "embeddings/text/models/bpe.h"

namespace embeddings::bpe_merge_test {

using Ids = std::vector<std::int32_t>;

struct MergeRule {
  std::int32_t left, right, new_id;
};

// The definition, quadratically: while some adjacent pair has a merge, merge
// the one with the lowest rank, the leftmost of those.
Ids reference_merge(const std::vector<MergeRule>& rules, Ids ids) {
  for (;;) {
    std::size_t best_rank = rules.size(), best_pos = 0;
    for (std::size_t pos = 0; pos + 1 < ids.size(); ++pos) {
      for (std::size_t rank = 0; rank < best_rank; ++rank) {
        if (rules[rank].left == ids[pos] && rules[rank].right == ids[pos + 1]) {
          best_rank = rank;
          best_pos = pos;
          break;
        }
      }
    }
    if (best_rank == rules.size()) return ids;
    ids[best_pos] = rules[best_rank].new_id;
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(best_pos) + 1);
  }
}

bpe::MergeTable table_of(const std::vector<MergeRule>& rules) {
  bpe::MergeTable table;
  for (std::size_t rank = 0; rank < rules.size(); ++rank) {
    std::uint32_t existing = 0;
    table.insert(rules[rank].left, rules[rank].right, {static_cast<std::uint32_t>(rank), rules[rank].new_id},
                 existing);
  }
  return table;
}

Ids merged(const bpe::MergeTable& table, const Ids& ids) {
  bpe::MergeWorkspace workspace;
  Ids out{-7};  // merge() appends.
  bpe::merge(table, ids.data(), ids.size(), workspace, out);
  out.erase(out.begin());
  return out;
}

TEST(BpeMerge, LowestRankFirstThenLeftmost) {
  // a=0 b=1 c=2; ab=3 (rank 0), abc=4 (rank 1), bc=5 (rank 2), aa=6 (rank 3).
  const std::vector<MergeRule> rules = {{0, 1, 3}, {3, 2, 4}, {1, 2, 5}, {0, 0, 6}};
  const bpe::MergeTable table = table_of(rules);
  EXPECT_EQ(merged(table, {0, 1, 2}), Ids({4}));  // ab before bc
  EXPECT_EQ(merged(table, {1, 2}), Ids({5}));
  EXPECT_EQ(merged(table, {0, 0, 0}), Ids({6, 0}));  // leftmost on a tie
  EXPECT_EQ(merged(table, {0, 0, 0, 0}), Ids({6, 6}));
  EXPECT_EQ(merged(table, {2}), Ids({2}));
  EXPECT_EQ(merged(table, {}), Ids({}));
  EXPECT_EQ(merged(bpe::MergeTable{}, {0, 1}), Ids({0, 1}));
}

TEST(BpeMerge, AgreesWithTheReferenceOnRandomTables) {
  std::mt19937 random(17);
  for (int round = 0; round < 300; ++round) {
    // A few symbols, and merges of earlier ids into new ones.
    const int symbols = 2 + static_cast<int>(random() % 4);
    std::vector<MergeRule> rules;
    std::int32_t next = symbols;
    const int count = static_cast<int>(random() % 12);
    for (int i = 0; i < count; ++i) {
      const auto left = static_cast<std::int32_t>(random() % next),
                 right = static_cast<std::int32_t>(random() % next);
      bool repeat = false;
      for (const MergeRule& rule : rules) repeat |= rule.left == left && rule.right == right;
      if (!repeat) rules.push_back({left, right, next++});
    }
    const bpe::MergeTable table = table_of(rules);
    for (int text = 0; text < 20; ++text) {
      Ids ids(random() % 24);
      for (auto& id : ids) id = static_cast<std::int32_t>(random() % symbols);
      ASSERT_EQ(merged(table, ids), reference_merge(rules, ids)) << "round " << round;
    }
  }
}

TEST(BpeMerge, TableGrowsAndRefusesARepeatedPair) {
  bpe::MergeTable table;  // No reserve(): it grows as it goes.
  for (std::int32_t i = 0; i < 20000; ++i) {
    std::uint32_t existing = 0;
    ASSERT_TRUE(table.insert(i, i * 7 % 20011, {static_cast<std::uint32_t>(i), i + 1}, existing));
  }
  EXPECT_EQ(table.size(), 20000u);
  for (std::int32_t i = 0; i < 20000; ++i) {
    const bpe::Merge* merge = table.find(i, i * 7 % 20011);
    ASSERT_NE(merge, nullptr);
    EXPECT_EQ(merge->rank, static_cast<std::uint32_t>(i));
    EXPECT_EQ(merge->new_id, i + 1);
    EXPECT_EQ(table.find(i, i * 7 % 20011 + 1), nullptr);
  }
  std::uint32_t existing = 0;
  EXPECT_FALSE(table.insert(5, 35, {99, 1}, existing));
  EXPECT_EQ(existing, 5u);
  EXPECT_GE(bpe::MergeTable::memory_bytes(20000), 20000 * sizeof(std::uint64_t));
}

}  // namespace embeddings::bpe_merge_test
