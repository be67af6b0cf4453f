// Every fast kernel of every built backend against the double-precision
// reference, over awkward lengths and misaligned starts (after highway's
// dot_test.cc). The WebAssembly build runs this file under Node too
// (tools/test.sh wasm), so the shipped wasm-simd128 backend is held to the
// same oracle as the native ones.
#include "embeddings/kernels/kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backend_param_name.h"
#include "embeddings/kernels/backends.h"

namespace {

namespace k = embeddings::kernels;
using k::KernelBackend;

const std::size_t kLengths[] = {0, 1, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 127, 128, 129, 768, 1000};

std::vector<float> random_floats(std::size_t n, std::mt19937& rng, float scale = 1.0f) {
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> out(n);
  for (auto& x : out) x = normal(rng);
  return out;
}

// Float32 accumulation error bound: a few ulps per term of sum(|a_k b_k|).
double dot_tolerance(const float* a, const float* b, std::size_t n) {
  double magnitude = 0;
  for (std::size_t i = 0; i < n; ++i) magnitude += std::fabs(double(a[i]) * double(b[i]));
  return (double(n) + 2) * std::numeric_limits<float>::epsilon() * magnitude + 1e-30;
}

bool same_score(float a, float b) { return a == b || (std::isnan(a) && std::isnan(b)); }

class Kernels : public ::testing::TestWithParam<const KernelBackend*> {
 protected:
  const KernelBackend& be = *GetParam();
};

// Every backend of the target is built, whatever -march says: AVX2 + FMA in
// every x86-64 binary (target attributes), SIMD128 in WebAssembly.
TEST(KernelBackends, EveryBackendOfTheTargetIsBuilt) {
  std::vector<std::string> names;
  for (const KernelBackend* backend : k::built_backends()) names.push_back(backend->name);
#if defined(__wasm_simd128__)
  EXPECT_EQ(names, (std::vector<std::string>{"wasm-simd128", "portable"}));
#elif defined(__x86_64__)
  EXPECT_EQ(names, (std::vector<std::string>{"avx2-fma", "portable"}));
#else
  EXPECT_EQ(names, std::vector<std::string>{"portable"});
#endif
}

// The tests below run on every available backend: those this CPU runs.
TEST(KernelBackends, TheSelectedOneIsTheFastestThisCpuRuns) {
  const auto built = k::built_backends();
  const auto available = k::available_backends();
  ASSERT_FALSE(available.empty());
  EXPECT_EQ(available.front(), &k::selected_backend());
  EXPECT_STREQ(k::backend_name(), k::selected_backend().name);
  EXPECT_EQ(available.back(), &k::kPortableBackend);
  std::vector<const KernelBackend*> runnable;
  for (const KernelBackend* backend : built)
    if (k::runs_here(*backend)) runnable.push_back(backend);
  EXPECT_EQ(available, runnable);
}

// A built backend this CPU cannot run is not tested here: said as a skip.
TEST(KernelBackends, EveryBuiltBackendRunsHere) {
  EXPECT_TRUE(k::runs_here(k::kPortableBackend));
  std::string missing;
  for (const KernelBackend* backend : k::built_backends())
    if (!k::runs_here(*backend)) missing += std::string(missing.empty() ? "" : ", ") + backend->name;
  if (!missing.empty()) GTEST_SKIP() << "this CPU does not run " << missing << ": not tested here";
}

TEST_P(Kernels, DotMatchesReferenceOverAwkwardLengthsAndOffsets) {
  std::mt19937 rng(1);
  for (std::size_t n : kLengths) {
    for (std::size_t offset_a : {0, 1, 2, 3}) {
      for (std::size_t offset_b : {0, 3}) {
        const auto a = random_floats(n + offset_a, rng);
        const auto b = random_floats(n + offset_b, rng);
        const float* pa = a.data() + offset_a;
        const float* pb = b.data() + offset_b;
        const double expected = k::dot_reference(pa, pb, n);
        EXPECT_NEAR(be.dot(pa, pb, n), expected, dot_tolerance(pa, pb, n)) << "n=" << n;
        const k::DotAndNorms sums = be.dot_and_norms(pa, pb, n);
        EXPECT_NEAR(sums.ab, expected, dot_tolerance(pa, pb, n));
        EXPECT_NEAR(sums.aa, k::dot_reference(pa, pa, n), dot_tolerance(pa, pa, n));
        EXPECT_NEAR(sums.bb, k::dot_reference(pb, pb, n), dot_tolerance(pb, pb, n));
      }
    }
  }
}

TEST_P(Kernels, DotOfTheChaptersExampleIsExactlyOne) {
  const float a[] = {1, 2, 3}, b[] = {4, 0, -1};
  EXPECT_EQ(be.dot(a, b, 3), 1.0f);
  EXPECT_EQ(k::dot_reference(a, b, 3), 1.0);
}

TEST_P(Kernels, CosineMatchesReference) {
  std::mt19937 rng(2);
  for (std::size_t n : kLengths) {
    if (n == 0) continue;
    for (std::size_t offset : {0, 1, 3}) {
      const auto a = random_floats(n + offset, rng, 0.05f);
      const auto b = random_floats(n + offset, rng, 3.0f);
      const double expected = k::cosine_reference(a.data() + offset, b.data() + offset, n);
      EXPECT_NEAR(be.cosine(a.data() + offset, b.data() + offset, n), expected, 1e-5 * std::sqrt(double(n)))
          << "n=" << n;
    }
  }
}

TEST_P(Kernels, CosineRulesForZeroParallelAndNaN) {
  const float zero[] = {0, 0, 0}, a[] = {1, 2, 3}, minus_a[] = {-2, -4, -6};
  EXPECT_EQ(be.cosine(zero, a, 3), 0.0f);
  EXPECT_EQ(be.cosine(a, zero, 3), 0.0f);
  EXPECT_EQ(be.cosine(zero, zero, 3), 0.0f);
  EXPECT_EQ(be.cosine(a, a, 0), 0.0f);
  EXPECT_EQ(k::cosine_reference(zero, a, 3), 0.0);
  EXPECT_LE(be.cosine(a, a, 3), 1.0f);
  EXPECT_NEAR(be.cosine(a, a, 3), 1.0f, 1e-6);
  EXPECT_GE(be.cosine(a, minus_a, 3), -1.0f);
  EXPECT_NEAR(be.cosine(a, minus_a, 3), -1.0f, 1e-6);
  const float nan_vector[] = {1, std::nanf(""), 3};
  EXPECT_TRUE(std::isnan(be.cosine(a, nan_vector, 3)));
  EXPECT_EQ(be.inverse_norm(zero, 3), 0.0f);
  // Parallel vectors of very different size still score 1, and never above.
  std::vector<float> big(768, 1e3f), small(768, 1e-3f);
  EXPECT_NEAR(be.cosine(big.data(), small.data(), 768), 1.0f, 1e-6);
  EXPECT_LE(be.cosine(big.data(), small.data(), 768), 1.0f);
}

// Vectors across float32's whole range: huge ones whose float32 squares
// overflow, tiny ones whose squares underflow, and subnormals.
std::vector<std::vector<float>> extreme_vectors(std::size_t n, std::mt19937& rng) {
  std::vector<std::vector<float>> out;
  for (float size : {1e-44f, 1e-38f, 1e-25f, 1e-20f, 1.0f, 1e20f, 1e30f, 3e38f}) {
    auto v = random_floats(n, rng);
    for (auto& x : v) x = std::clamp(x, -1.0f, 1.0f) * size;
    out.push_back(v);
  }
  auto mixed = random_floats(n, rng, 1e-30f);  // tiny numbers beside one huge one
  mixed[n / 2] = 1e30f;
  out.push_back(mixed);
  return out;
}

TEST_P(Kernels, CosineAndNormsOverFloat32sWholeRange) {
  const float big[] = {1e20f, 1}, tiny[] = {1e-25f, 1e-25f}, tiny_twice[] = {2e-25f, 2e-25f};
  EXPECT_EQ(be.cosine(big, big, 2), 1.0f);                  // was NaN: 1e40 overflows float32
  EXPECT_NEAR(be.cosine(tiny, tiny_twice, 2), 1.0f, 1e-6);  // was 0: 1e-50 underflows
  const float largest = std::numeric_limits<float>::max();
  const float edge[] = {largest, largest, -largest};
  EXPECT_NEAR(be.cosine(edge, edge, 3), 1.0f, 1e-6);
  EXPECT_NEAR(be.inverse_norm(big, 2), 1e-20f, 1e-26f);
  std::mt19937 rng(3);
  for (std::size_t n : {1, 5, 128, 129}) {
    const auto vectors = extreme_vectors(n, rng);
    for (const auto& a : vectors) {
      for (const auto& b : vectors) {
        const double expected = k::cosine_reference(a.data(), b.data(), n);
        ASSERT_TRUE(std::isfinite(expected));
        EXPECT_NEAR(be.cosine(a.data(), b.data(), n), expected, 1e-5)
            << "n=" << n << " " << a[0] << " " << b[0];
        const k::DotAndNorms sums = be.dot_and_norms(a.data(), b.data(), n);
        EXPECT_NEAR(sums.aa, k::dot_reference(a.data(), a.data(), n),
                    1e-5 * k::dot_reference(a.data(), a.data(), n));
      }
      // Scores of a query against a table of rows of every size.
      std::vector<float> table;
      for (const auto& row : vectors) table.insert(table.end(), row.begin(), row.end());
      const std::size_t rows = vectors.size();
      std::vector<float> scores(rows), map(rows * rows), by_rows(rows * rows), scratch(rows);
      std::vector<double> expected(rows);
      be.cosine_scores(a.data(), table.data(), rows, n, scores.data());
      k::cosine_scores_reference(a.data(), table.data(), rows, n, expected.data());
      for (std::size_t r = 0; r < rows; ++r)
        EXPECT_NEAR(scores[r], expected[r], 2e-5) << "n=" << n << " row " << r;
      be.cosine_map(table.data(), rows, n, scratch.data(), map.data());
      be.cosine_map_rows(table.data(), rows, n, 0, rows, scratch.data(), by_rows.data());
      for (std::size_t i = 0; i < rows; ++i) {
        EXPECT_NEAR(map[i * rows + i], 1.0f, 1e-5) << "n=" << n << " row " << i;
        EXPECT_NEAR(by_rows[i * rows + i], 1.0f, 1e-5) << "n=" << n << " row " << i;
      }
    }
  }
}

TEST_P(Kernels, CosineScoresMatchReferenceForEveryRow) {
  std::mt19937 rng(3);
  for (std::size_t cols : {1, 3, 5, 128, 129}) {
    for (std::size_t rows : {0, 1, 3, 4, 5, 9}) {
      auto table = random_floats(rows * cols + 1, rng);
      const float* t = table.data() + 1;  // misaligned rows
      if (rows > 1) std::fill(table.begin() + 1 + cols, table.begin() + 1 + 2 * cols, 0.0f);  // a zero row
      const auto query = random_floats(cols, rng);
      std::vector<float> scores(rows);
      std::vector<double> expected(rows);
      be.cosine_scores(query.data(), t, rows, cols, scores.data());
      k::cosine_scores_reference(query.data(), t, rows, cols, expected.data());
      for (std::size_t r = 0; r < rows; ++r) EXPECT_NEAR(scores[r], expected[r], 2e-5) << rows << "x" << cols;
    }
  }
}

// A row scores the same bits alone or in a group of four, wherever the table
// starts, and a row of the cosine map is that row's cosine_scores.
TEST_P(Kernels, ARowScoresTheSameBitsWhereverItIs) {
  std::mt19937 rng(4);
  const std::size_t rows = 23, cols = 37;
  auto table = random_floats(rows * cols, rng);
  for (std::size_t c = 0; c < cols; ++c) {  // rows outside float32's safe range: scaled or scored in double
    table[5 * cols + c] *= 1e30f;
    table[6 * cols + c] *= 1e-30f;
  }
  std::vector<float> all(rows), map(rows * rows), scratch(rows);
  be.cosine_map_rows(table.data(), rows, cols, 0, rows, scratch.data(), map.data());
  for (std::size_t q = 0; q < rows; ++q) {
    const float* query = table.data() + q * cols;
    be.cosine_scores(query, table.data(), rows, cols, all.data());
    for (std::size_t first = 0; first < 4; ++first) {
      std::vector<float> part(rows - first);
      be.cosine_scores(query, table.data() + first * cols, rows - first, cols, part.data());
      for (std::size_t r = first; r < rows; ++r)
        ASSERT_EQ(part[r - first], all[r]) << q << " " << first << " " << r;
    }
    for (std::size_t r = 0; r < rows; ++r) ASSERT_EQ(map[q * rows + r], all[r]) << q << " " << r;
  }
}

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

TEST_P(Kernels, TopKMatchesFullSortWithTiesExclusionAndNaN) {
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

TEST_P(Kernels, TopKWithManyNaNsInfinitiesAndAwkwardCounts) {
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

TEST_P(Kernels, NearestIsTopKOfCosineScores) {
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

TEST_P(Kernels, NearestWithOddQueriesAndTables) {
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
TEST_P(Kernels, EveryCallSeesTheTableAsItIsNow) {
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
  be.cosine_map(table.data(), rows, cols, scratch.data(), map.data());
  EXPECT_NEAR(map[girl * rows + cat], 1.0f, 1e-6);
  EXPECT_EQ(map[girl * rows + boy], 0.0f);
  be.cosine_map_rows(table.data(), rows, cols, girl, girl + 1, scratch.data(), map.data());
  EXPECT_NEAR(map[cat], 1.0f, 1e-6);
  EXPECT_EQ(map[boy], 0.0f);
}

TEST_P(Kernels, CosineMapIsSymmetricAndMatchesReference) {
  std::mt19937 rng(7);
  for (std::size_t cols : {1, 3, 7, 128, 129}) {
    for (std::size_t rows : {0, 1, 2, 3, 4, 5, 8, 9, 13, 130}) {
      auto storage = random_floats(rows * cols + 1, rng);
      const float* table = storage.data() + 1;  // misaligned rows
      if (rows > 2)
        std::fill(storage.begin() + 1 + 2 * cols, storage.begin() + 1 + 3 * cols, 0.0f);  // a zero row
      std::vector<float> scratch(rows), map(rows * rows, 7.0f), by_rows(rows * rows), half(rows * rows);
      be.cosine_map(table, rows, cols, scratch.data(), map.data());
      be.cosine_map_rows(table, rows, cols, 0, rows, scratch.data(), by_rows.data());
      be.cosine_map_rows(table, rows, cols, rows / 2, rows, scratch.data(), half.data());
      for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t j = 0; j < rows; ++j) {
          const double expected = k::cosine_reference(table + i * cols, table + j * cols, cols);
          ASSERT_EQ(map[i * rows + j], map[j * rows + i]) << rows << "x" << cols << " at " << i << "," << j;
          EXPECT_NEAR(map[i * rows + j], expected, 2e-5) << rows << "x" << cols << " at " << i << "," << j;
          EXPECT_NEAR(map[i * rows + j], by_rows[i * rows + j], 2e-6);
          EXPECT_LE(std::fabs(map[i * rows + j]), 1.0f);
          if (i >= rows / 2) ASSERT_EQ(half[(i - rows / 2) * rows + j], by_rows[i * rows + j]);
        }
      }
    }
  }
}

TEST_P(Kernels, EmbedTokensGathersAndAdds) {
  std::mt19937 rng(6);
  for (std::size_t d : {1, 3, 4, 5, 127, 128, 129}) {
    const std::size_t vocab = 11, context = 6;
    const auto wte = random_floats(vocab * d, rng), wpe = random_floats(context * d, rng);
    const std::int32_t ids[] = {3, 3, 10, 0, 7};
    const std::size_t n = 5;
    std::vector<float> token(n * d), position(n * d), sum(n * d);
    be.embed_tokens(ids, n, wte.data(), wpe.data(), d, token.data(), position.data(), sum.data());
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < d; ++c) {
        EXPECT_EQ(token[i * d + c], wte[ids[i] * d + c]);
        EXPECT_EQ(position[i * d + c], wpe[i * d + c]);
        EXPECT_EQ(sum[i * d + c], wte[ids[i] * d + c] + wpe[i * d + c]);
      }
  }
}

TEST_P(Kernels, VectorTimesTableMatchesReferenceAndAddsToItsOutput) {
  std::mt19937 rng(7);
  for (std::size_t rows : {1, 2, 5, 33}) {
    for (std::size_t cols : kLengths) {
      for (std::size_t offset : {0, 1, 3}) {
        const auto x = random_floats(rows, rng);
        const auto storage = random_floats(rows * cols + offset, rng);
        const float* table = storage.data() + offset;
        std::vector<double> expected(cols);
        k::vector_times_table_reference(x.data(), table, rows, cols, expected.data());
        std::vector<float> out(cols + offset, 0.0f), scratch(cols);
        be.vector_times_table(x.data(), table, rows, cols, scratch.data(), out.data() + offset);
        // Then a second pass adds the same product again.
        std::vector<float> twice(out);
        be.vector_times_table(x.data(), table, rows, cols, scratch.data(), twice.data() + offset);
        for (std::size_t j = 0; j < cols; ++j) {
          double magnitude = 0;
          for (std::size_t i = 0; i < rows; ++i) magnitude += std::fabs(double(x[i]) * table[i * cols + j]);
          const double tolerance =
              (double(rows) + 2) * std::numeric_limits<float>::epsilon() * magnitude + 1e-30;
          ASSERT_NEAR(out[offset + j], expected[j], tolerance) << rows << " x " << cols << ", column " << j;
          ASSERT_NEAR(twice[offset + j], 2 * expected[j], 2 * tolerance) << rows << " x " << cols;
        }
      }
    }
  }
}

// The chapter's lookup as a product: all 4,096 rows multiplied, one by 1 and
// the rest by 0, give that row exactly, whatever the row and the signs.
TEST_P(Kernels, AOneHotVectorTimesATableIsItsRowExactly) {
  std::mt19937 rng(8);
  for (std::size_t cols : {1, 5, 128, 129}) {
    const std::size_t rows = 4096;
    const auto table = random_floats(rows * cols, rng);
    for (std::size_t t : {std::size_t{0}, std::size_t{665}, rows - 1}) {
      std::vector<float> one_hot(rows, 0.0f), out(cols, 0.0f), scratch(cols);
      one_hot[t] = 1.0f;
      be.vector_times_table(one_hot.data(), table.data(), rows, cols, scratch.data(), out.data());
      for (std::size_t j = 0; j < cols; ++j) ASSERT_EQ(out[j], table[t * cols + j]) << t << ", " << j;
    }
  }
  // Infinity times the zeros is NaN: a real product, not a copy of the row.
  std::vector<float> table(3 * 4, 1.0f), one_hot = {1.0f, 0.0f, 0.0f}, out(4, 0.0f), scratch(4);
  table[2 * 4 + 1] = std::numeric_limits<float>::infinity();
  be.vector_times_table(one_hot.data(), table.data(), 3, 4, scratch.data(), out.data());
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_TRUE(std::isnan(out[1]));
}

// kernels.h's functions are the selected backend's.
TEST(KernelBackends, ThePublicFunctionsRunTheSelectedBackend) {
  std::mt19937 rng(13);
  const std::size_t rows = 70, cols = 33;
  const auto table = random_floats(rows * cols, rng);
  const k::KernelBackend& selected = k::selected_backend();
  std::vector<float> a(rows), b(rows);
  k::cosine_scores(table.data(), table.data(), rows, cols, a.data());
  selected.cosine_scores(table.data(), table.data(), rows, cols, b.data());
  EXPECT_EQ(a, b);
  EXPECT_EQ(k::cosine(table.data(), table.data() + cols, cols),
            selected.cosine(table.data(), table.data() + cols, cols));
  std::vector<float> inverse(rows);
  k::inverse_row_norms(table.data(), rows, cols, inverse.data());
  for (std::size_t r = 0; r < rows; ++r)
    EXPECT_EQ(inverse[r], selected.inverse_norm(table.data() + r * cols, cols));
  std::vector<float> product(cols, 0.0f), by_selected(cols, 0.0f), scratch(cols);
  k::vector_times_table(table.data(), table.data(), rows, cols, scratch.data(), product.data());
  selected.vector_times_table(table.data(), table.data(), rows, cols, scratch.data(), by_selected.data());
  EXPECT_EQ(product, by_selected);
}

INSTANTIATE_TEST_SUITE_P(Backends, Kernels, ::testing::ValuesIn(k::available_backends()), backend_param_name);

}  // namespace
