// top_k and nearest of every built backend against a brute-force full sort
// (ties, exclusion, NaN and infinities, awkward counts), and nearest as
// top_k of cosine_scores bit for bit. The WebAssembly build runs this file
// under Node too (tools/test.sh wasm).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "backend_param_name.h"
#include "embeddings/kernels/backends.h"
#include "embeddings/kernels/kernels.h"
#include "kernels_testing.h"

namespace {

namespace k = embeddings::kernels;
using k::KernelBackend;
using namespace embeddings::test;

class Nearest : public ::testing::TestWithParam<const KernelBackend*> {
 protected:
  const KernelBackend& be = *GetParam();
};

// Brute force: sort every index by (score desc, index asc, NaN last).
std::vector<std::int32_t> brute_force_top_k(const std::vector<float>& scores, std::size_t k,
                                            std::int64_t exclude) {
  std::vector<std::int32_t> order;
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (static_cast<std::int64_t>(i) != exclude) order.push_back(static_cast<std::int32_t>(i));
  std::sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    const bool na = std::isnan(scores[a]), nb = std::isnan(scores[b]);
    if (na != nb) return nb;
    if (!na && scores[a] != scores[b]) return scores[a] > scores[b];
    return a < b;
  });
  order.resize(std::min(k, order.size()));
  return order;
}

void expect_top_k(const KernelBackend& be, const std::vector<float>& scores, std::size_t k,
                  std::int64_t exclude) {
  std::vector<std::int32_t> ids(k + 1);
  std::vector<float> out_scores(k + 1);
  const std::size_t got = be.top_k(scores.data(), scores.size(), k, exclude, ids.data(), out_scores.data());
  const auto expected = brute_force_top_k(scores, k, exclude);
  ASSERT_EQ(got, expected.size()) << scores.size() << " " << k << " " << exclude;
  for (std::size_t i = 0; i < got; ++i) {
    EXPECT_EQ(ids[i], expected[i]) << scores.size() << " k=" << k << " i=" << i;
    EXPECT_TRUE(same_score(out_scores[i], scores[ids[i]]));
  }
}

TEST_P(Nearest, TopKMatchesFullSortWithTiesExclusionAndNaN) {
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> coarse(-3, 3);  // many ties
  for (std::size_t count : {0, 1, 2, 10, 100, 4096}) {
    std::vector<float> scores(count);
    for (auto& s : scores) s = coarse(rng) / 3.0f;
    if (count > 5) scores[5] = std::nanf("");
    for (std::size_t kk : {0, 1, 3, 10, 99, 100, 101, 5000}) {
      for (std::int64_t exclude : {std::int64_t{-1}, std::int64_t{0}, std::int64_t{7},
                                   static_cast<std::int64_t>(count) - 1, std::int64_t{100000}}) {
        expect_top_k(be, scores, kk, exclude);
      }
    }
  }
}

TEST_P(Nearest, TopKWithManyNaNsInfinitiesAndAwkwardCounts) {
  std::mt19937 rng(8);
  std::uniform_int_distribution<int> pick(0, 9);
  const float inf = std::numeric_limits<float>::infinity();
  for (std::size_t count : {3, 7, 9, 17, 33, 127, 129, 1000}) {
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<float> scores(count);
      for (auto& s : scores) {
        const int p = pick(rng);
        s = p == 0 ? std::nanf("") : p == 1 ? inf : p == 2 ? -inf : p == 3 ? 0.5f : (p - 6) / 4.0f;
      }
      for (std::size_t kk : {1, 2, 5, 10, 64}) {
        for (std::int64_t exclude :
             {std::int64_t{-1}, std::int64_t{1}, static_cast<std::int64_t>(count) - 1}) {
          expect_top_k(be, scores, kk, exclude);
        }
      }
    }
  }
}

// nearest() is top_k(cosine_scores()), bit for bit; checked for queries from
// the table and outside it.
void expect_nearest_exact(const KernelBackend& be, const std::vector<float>& table, std::size_t rows,
                          std::size_t cols, const std::vector<float>& query, std::int64_t exclude,
                          const std::string& what) {
  std::vector<float> all(rows), scratch(rows);
  be.cosine_scores(query.data(), table.data(), rows, cols, all.data());
  for (std::size_t kk : {1, 3, 10, 64}) {
    std::vector<std::int32_t> ids(kk);
    std::vector<float> scores(kk);
    const std::size_t got = be.nearest(query.data(), table.data(), rows, cols, kk, exclude, scratch.data(),
                                       ids.data(), scores.data());
    const auto expected = brute_force_top_k(all, kk, exclude);
    ASSERT_EQ(got, expected.size()) << what << " k " << kk;
    for (std::size_t j = 0; j < got; ++j) {
      ASSERT_EQ(ids[j], expected[j]) << what << " k " << kk << " rank " << j;
      ASSERT_TRUE(same_score(scores[j], all[ids[j]])) << what << " k " << kk << " rank " << j;
    }
  }
}

TEST_P(Nearest, NearestIsTopKOfCosineScores) {
  std::mt19937 rng(9);
  for (std::size_t cols : {1, 3, 7, 16, 17, 128, 129, 768}) {
    for (std::size_t rows : {1, 5, 63, 64, 65, 257}) {
      auto table = random_floats(rows * cols, rng);
      if (rows > 5) std::fill_n(table.begin() + 3 * cols, cols, 0.0f);           // a zero row
      if (rows > 5) std::copy_n(table.begin(), cols, table.begin() + 4 * cols);  // a duplicate row
      const std::string what = std::to_string(rows) + "x" + std::to_string(cols);
      for (std::size_t q : {std::size_t{0}, rows / 3, rows - 1}) {
        expect_nearest_exact(be, table, rows, cols,
                             {table.begin() + q * cols, table.begin() + (q + 1) * cols},
                             static_cast<std::int64_t>(q), what);
      }
      expect_nearest_exact(be, table, rows, cols, random_floats(cols, rng), -1, what + " random query");
    }
  }
}

TEST_P(Nearest, NearestWithOddQueriesAndTables) {
  std::mt19937 rng(11);
  const std::size_t rows = 300, cols = 128;
  auto table = random_floats(rows * cols, rng);
  std::vector<float> zero(cols, 0.0f), nan_query = random_floats(cols, rng), huge = random_floats(cols, rng),
                                       tiny = random_floats(cols, rng);
  nan_query[7] = std::nanf("");
  for (auto& x : huge) x *= 1e30f;
  for (auto& x : tiny) x *= 1e-35f;
  for (const auto* query : {&zero, &nan_query, &huge, &tiny})
    expect_nearest_exact(be, table, rows, cols, *query, 2, "odd");
  // A huge or tiny query ranks as the same direction at size 1 does.
  std::vector<float> unit = huge, scratch(rows), expected_scores(10), scores(10);
  for (auto& x : unit) x *= 1e-30f;
  std::vector<std::int32_t> expected_ids(10), ids(10);
  be.nearest(unit.data(), table.data(), rows, cols, 10, -1, scratch.data(), expected_ids.data(),
             expected_scores.data());
  for (const float size : {1e-30f, 1e30f}) {
    std::vector<float> scaled = unit;
    for (auto& x : scaled) x *= size;
    be.nearest(scaled.data(), table.data(), rows, cols, 10, -1, scratch.data(), ids.data(), scores.data());
    EXPECT_EQ(ids, expected_ids) << size;
    for (std::size_t j = 0; j < 10; ++j) EXPECT_NEAR(scores[j], expected_scores[j], 1e-5) << size;
  }
  // A zero query has no direction: every score is 0, so the k smallest ids.
  be.nearest(zero.data(), table.data(), rows, cols, 10, 2, scratch.data(), ids.data(), scores.data());
  EXPECT_EQ(ids, (std::vector<std::int32_t>{0, 1, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(scores, std::vector<float>(10, 0.0f));
  // NaN and infinities in the table: NaN scores, ranked last.
  table[5 * cols + 3] = std::nanf("");
  table[6 * cols + 3] = std::numeric_limits<float>::infinity();
  expect_nearest_exact(be, table, rows, cols, random_floats(cols, rng), -1, "NaN and infinity rows");
  EXPECT_EQ(
      be.nearest(table.data(), table.data(), rows, cols, 0, -1, scratch.data(), ids.data(), scores.data()),
      0u);
}

// Nothing is kept between calls: after a write into the table, nearest and
// the maps see the numbers as they are now.
TEST_P(Nearest, EveryCallSeesTheTableAsItIsNow) {
  std::mt19937 rng(12);
  const std::size_t rows = 200, cols = 64, girl = 17, cat = 150, boy = 42;
  auto table = random_floats(rows * cols, rng);
  std::vector<float> scratch(rows), scores(5), map(rows * rows);
  std::vector<std::int32_t> ids(5);
  const float* girl_row = table.data() + girl * cols;
  std::copy_n(girl_row, cols, table.begin() + boy * cols);  // boy is girl's twin
  be.nearest(girl_row, table.data(), rows, cols, 5, girl, scratch.data(), ids.data(), scores.data());
  EXPECT_EQ(ids[0], static_cast<std::int32_t>(boy));
  std::copy_n(girl_row, cols, table.begin() + cat * cols);
  std::fill_n(table.begin() + boy * cols, cols, 0.0f);
  be.nearest(girl_row, table.data(), rows, cols, 5, girl, scratch.data(), ids.data(), scores.data());
  EXPECT_EQ(ids[0], static_cast<std::int32_t>(cat));
  EXPECT_NEAR(scores[0], 1.0f, 1e-6);
  EXPECT_EQ(std::count(ids.begin(), ids.end(), static_cast<std::int32_t>(boy)), 0);
  be.cosine_matrix(table.data(), rows, cols, scratch.data(), map.data());
  EXPECT_NEAR(map[girl * rows + cat], 1.0f, 1e-6);
  EXPECT_EQ(map[girl * rows + boy], 0.0f);
  be.cosine_matrix_rows(table.data(), rows, cols, girl, girl + 1, scratch.data(), map.data());
  EXPECT_NEAR(map[cat], 1.0f, 1e-6);
  EXPECT_EQ(map[boy], 0.0f);
}

INSTANTIATE_TEST_SUITE_P(Backends, Nearest, ::testing::ValuesIn(k::available_backends()), backend_param_name);

}  // namespace
