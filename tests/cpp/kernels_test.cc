// Every fast kernel against the double-precision reference, over awkward
// lengths and misaligned starts (after highway's dot_test.cc).
#include "embeddings/kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

namespace k = embeddings::kernels;

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

TEST(Kernels, DotMatchesReferenceOverAwkwardLengthsAndOffsets) {
  std::mt19937 rng(1);
  for (std::size_t n : kLengths) {
    for (std::size_t offset_a : {0, 1, 2, 3}) {
      for (std::size_t offset_b : {0, 3}) {
        const auto a = random_floats(n + offset_a, rng);
        const auto b = random_floats(n + offset_b, rng);
        const float* pa = a.data() + offset_a;
        const float* pb = b.data() + offset_b;
        const double expected = k::dot_reference(pa, pb, n);
        EXPECT_NEAR(k::dot(pa, pb, n), expected, dot_tolerance(pa, pb, n)) << "n=" << n;
        const k::DotAndNorms sums = k::dot_and_norms(pa, pb, n);
        EXPECT_NEAR(sums.ab, expected, dot_tolerance(pa, pb, n));
        EXPECT_NEAR(sums.aa, k::dot_reference(pa, pa, n), dot_tolerance(pa, pa, n));
        EXPECT_NEAR(sums.bb, k::dot_reference(pb, pb, n), dot_tolerance(pb, pb, n));
      }
    }
  }
}

TEST(Kernels, DotOfTheChaptersExampleIsExactlyOne) {
  const float a[] = {1, 2, 3}, b[] = {4, 0, -1};
  EXPECT_EQ(k::dot(a, b, 3), 1.0f);
  EXPECT_EQ(k::dot_reference(a, b, 3), 1.0);
}

TEST(Kernels, CosineMatchesReference) {
  std::mt19937 rng(2);
  for (std::size_t n : kLengths) {
    if (n == 0) continue;
    for (std::size_t offset : {0, 1, 3}) {
      const auto a = random_floats(n + offset, rng, 0.05f);
      const auto b = random_floats(n + offset, rng, 3.0f);
      const double expected = k::cosine_reference(a.data() + offset, b.data() + offset, n);
      EXPECT_NEAR(k::cosine(a.data() + offset, b.data() + offset, n), expected, 1e-5 * std::sqrt(double(n)))
          << "n=" << n;
    }
  }
}

TEST(Kernels, CosineRulesForZeroParallelAndNaN) {
  const float zero[] = {0, 0, 0}, a[] = {1, 2, 3}, minus_a[] = {-2, -4, -6};
  EXPECT_EQ(k::cosine(zero, a, 3), 0.0f);
  EXPECT_EQ(k::cosine(a, zero, 3), 0.0f);
  EXPECT_EQ(k::cosine(zero, zero, 3), 0.0f);
  EXPECT_EQ(k::cosine(a, a, 0), 0.0f);
  EXPECT_EQ(k::cosine_reference(zero, a, 3), 0.0);
  EXPECT_LE(k::cosine(a, a, 3), 1.0f);
  EXPECT_NEAR(k::cosine(a, a, 3), 1.0f, 1e-6);
  EXPECT_GE(k::cosine(a, minus_a, 3), -1.0f);
  EXPECT_NEAR(k::cosine(a, minus_a, 3), -1.0f, 1e-6);
  const float nan_vector[] = {1, std::nanf(""), 3};
  EXPECT_TRUE(std::isnan(k::cosine(a, nan_vector, 3)));
  EXPECT_EQ(k::inverse_norm(zero, 3), 0.0f);
  // Parallel vectors of very different size still score 1, and never above.
  std::vector<float> big(768, 1e3f), small(768, 1e-3f);
  EXPECT_NEAR(k::cosine(big.data(), small.data(), 768), 1.0f, 1e-6);
  EXPECT_LE(k::cosine(big.data(), small.data(), 768), 1.0f);
}

TEST(Kernels, CosineScoresMatchReferenceForEveryRow) {
  std::mt19937 rng(3);
  for (std::size_t cols : {1, 3, 5, 128, 129}) {
    for (std::size_t rows : {0, 1, 3, 4, 5, 9}) {
      auto table = random_floats(rows * cols + 1, rng);
      const float* t = table.data() + 1;  // misaligned rows
      if (rows > 1) std::fill(table.begin() + 1 + cols, table.begin() + 1 + 2 * cols, 0.0f);  // a zero row
      const auto query = random_floats(cols, rng);
      std::vector<float> inverse(rows), scores(rows);
      std::vector<double> expected(rows);
      k::inverse_row_norms(t, rows, cols, inverse.data());
      k::cosine_scores(query.data(), k::inverse_norm(query.data(), cols), t, inverse.data(), rows, cols,
                       scores.data());
      k::cosine_scores_reference(query.data(), t, rows, cols, expected.data());
      for (std::size_t r = 0; r < rows; ++r) EXPECT_NEAR(scores[r], expected[r], 2e-5) << rows << "x" << cols;
    }
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

TEST(Kernels, TopKMatchesFullSortWithTiesExclusionAndNaN) {
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> coarse(-3, 3);  // many ties
  for (std::size_t count : {0, 1, 2, 10, 100, 4096}) {
    std::vector<float> scores(count);
    for (auto& s : scores) s = coarse(rng) / 3.0f;
    if (count > 5) scores[5] = std::nanf("");
    for (std::size_t k : {0, 1, 3, 10, 99, 100, 101, 5000}) {
      for (std::int64_t exclude : {std::int64_t{-1}, std::int64_t{0}, std::int64_t{7}, static_cast<std::int64_t>(count) - 1, std::int64_t{100000}}) {
        std::vector<std::int32_t> ids(k + 1);
        std::vector<float> out_scores(k + 1);
        const std::size_t got = k::top_k(scores.data(), count, k, exclude, ids.data(), out_scores.data());
        const auto expected = brute_force_top_k(scores, k, exclude);
        ASSERT_EQ(got, expected.size()) << count << " " << k << " " << exclude;
        for (std::size_t i = 0; i < got; ++i) {
          EXPECT_EQ(ids[i], expected[i]);
          EXPECT_TRUE(out_scores[i] == scores[ids[i]] || std::isnan(scores[ids[i]]));
        }
      }
    }
  }
}

// The exact path nearest() must agree with, bit for bit.
std::size_t exact_nearest(const float* query, const std::vector<float>& table, std::size_t rows, std::size_t cols,
                          std::size_t k, std::int64_t exclude, std::vector<std::int32_t>& ids,
                          std::vector<float>& scores) {
  std::vector<float> inverse(rows), all(rows);
  k::inverse_row_norms(table.data(), rows, cols, inverse.data());
  k::cosine_scores(query, k::inverse_norm(query, cols), table.data(), inverse.data(), rows, cols, all.data());
  ids.assign(k, -1);
  scores.assign(k, 0);
  return k::top_k(all.data(), rows, k, exclude, ids.data(), scores.data());
}

struct NearestCase {
  std::vector<float> table;
  std::size_t rows, cols;
};

// Checks nearest() against the exact path for queries from the table and outside it.
void expect_nearest_exact(const NearestCase& c, std::mt19937& rng, const std::string& what,
                          bool expect_usable = true) {
  std::vector<float> inverse(c.rows);
  k::inverse_row_norms(c.table.data(), c.rows, c.cols, inverse.data());
  std::vector<std::int16_t> values(c.rows * k::quantized_width(c.cols) + 1);
  std::vector<float> factors(c.rows + 1);
  k::QuantizedRows quantized;
  const bool usable = k::quantize_rows(c.table.data(), inverse.data(), c.rows, c.cols, values.data(), factors.data(),
                                       quantized);
  if (expect_usable) EXPECT_TRUE(usable) << what;
  std::vector<float> scratch(2 * c.rows + 1);
  std::vector<std::int32_t> index_scratch(c.rows + 1);
  std::vector<std::vector<float>> queries;
  std::vector<std::int64_t> excludes;
  for (std::size_t q : {std::size_t{0}, c.rows / 3, c.rows - 1}) {
    if (q >= c.rows) continue;
    queries.emplace_back(c.table.begin() + q * c.cols, c.table.begin() + (q + 1) * c.cols);
    excludes.push_back(static_cast<std::int64_t>(q));
  }
  queries.push_back(random_floats(c.cols, rng));
  excludes.push_back(-1);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    for (std::size_t kk : {1, 3, 10, 64}) {
      std::vector<std::int32_t> expected_ids, ids(kk);
      std::vector<float> expected_scores, scores(kk);
      const std::size_t expected =
          exact_nearest(queries[i].data(), c.table, c.rows, c.cols, kk, excludes[i], expected_ids, expected_scores);
      const std::size_t got = k::nearest(queries[i].data(), c.table.data(), inverse.data(), &quantized, c.rows, c.cols,
                                         kk, excludes[i], scratch.data(), index_scratch.data(), ids.data(), scores.data());
      ASSERT_EQ(got, expected) << what << " query " << i << " k " << kk;
      for (std::size_t j = 0; j < got; ++j) {
        ASSERT_EQ(ids[j], expected_ids[j]) << what << " query " << i << " k " << kk << " rank " << j;
        ASSERT_TRUE(scores[j] == expected_scores[j] || (std::isnan(scores[j]) && std::isnan(expected_scores[j])))
            << what << " query " << i << " k " << kk << " rank " << j;
      }
    }
  }
}

TEST(Kernels, NearestMatchesTheExactPathOnRandomTables) {
  std::mt19937 rng(9);
  for (std::size_t cols : {1, 3, 7, 16, 17, 128, 129, 768}) {
    for (std::size_t rows : {1, 5, 63, 64, 65, 257, 1000}) {
      NearestCase c{random_floats(rows * cols, rng), rows, cols};
      expect_nearest_exact(c, rng, std::to_string(rows) + "x" + std::to_string(cols), cols <= k::kQuantizedMaxCols);
    }
  }
}

TEST(Kernels, NearestMatchesTheExactPathOnHardTables) {
  std::mt19937 rng(10);
  const std::size_t rows = 1024, cols = 128;
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const auto base = random_floats(cols, rng);
  // Near-ties: every row is the same direction plus noise of one size, so
  // hundreds of cosines sit within the first pass's error of the k-th.
  for (float noise : {1e-2f, 1e-3f, 1e-4f}) {
    NearestCase c{std::vector<float>(rows * cols), rows, cols};
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t i = 0; i < cols; ++i) c.table[r * cols + i] = base[i] + noise * normal(rng);
    expect_nearest_exact(c, rng, "near-ties " + std::to_string(noise));
  }
  // Exact ties: coarse values, duplicate rows, zero rows.
  {
    NearestCase c{std::vector<float>(rows * cols), rows, cols};
    std::uniform_int_distribution<int> coarse(-1, 1);
    for (auto& x : c.table) x = static_cast<float>(coarse(rng));
    for (std::size_t r = 0; r < rows; r += 7) std::copy_n(c.table.begin(), cols, c.table.begin() + r * cols);
    for (std::size_t r = 3; r < rows; r += 11) std::fill_n(c.table.begin() + r * cols, cols, 0.0f);
    expect_nearest_exact(c, rng, "ties");
  }
  // Rows of wildly different sizes, and rows with one huge number among small ones.
  {
    NearestCase c{random_floats(rows * cols, rng), rows, cols};
    for (std::size_t r = 0; r < rows; ++r) {
      const float size = std::pow(10.0f, static_cast<float>(static_cast<int>(r % 21) - 10));
      for (std::size_t i = 0; i < cols; ++i) c.table[r * cols + i] *= size;
      if (r % 5 == 0) c.table[r * cols + r % cols] = 1000.0f * size;
    }
    expect_nearest_exact(c, rng, "sizes and spikes");
  }
  // Values the first pass refuses: the exact path answers.
  {
    NearestCase c{random_floats(rows * cols, rng), rows, cols};
    c.table[5 * cols + 3] = std::nanf("");
    expect_nearest_exact(c, rng, "a NaN in the table", false);
    c.table[5 * cols + 3] = std::numeric_limits<float>::infinity();
    expect_nearest_exact(c, rng, "an infinity in the table", false);
  }
}

// |approx - exact| <= E for every row, on tables built to make the rounding
// errors add up: positive numbers half a step (less a hair) above a
// multiple of the step, so every rounding goes the same way, and the query
// alike. Then the bound's main terms are nearly reached.
TEST(Kernels, QuantizedScoresStayWithinTheirBound) {
  std::mt19937 rng(12);
  for (std::size_t cols : {8, 128, 129, 768}) {
    const std::size_t rows = 256;
    const std::int32_t limit = [&] {
      std::vector<float> one(cols, 1.0f), inverse(1, 1.0f), factors(1);
      std::vector<std::int16_t> values(k::quantized_width(cols));
      k::QuantizedRows q;
      k::quantize_rows(one.data(), inverse.data(), 1, cols, values.data(), factors.data(), q);
      return q.limit;
    }();
    std::uniform_int_distribution<int> step(1, limit - 1);
    const auto adversarial = [&](float scale) {
      std::vector<float> v(cols);
      v[0] = static_cast<float>(limit) * scale;  // sets the scale exactly
      for (std::size_t i = 1; i < cols; ++i) v[i] = (static_cast<float>(step(rng)) + 0.499f) * scale;
      return v;
    };
    for (int variant = 0; variant < 2; ++variant) {
      std::vector<float> table;
      for (std::size_t r = 0; r < rows; ++r) {
        // Half the rows adversarial at assorted scales, half random.
        const auto row = variant == 0 || r % 2 ? adversarial(std::ldexp(1.0f, static_cast<int>(r % 9) - 12))
                                               : random_floats(cols, rng);
        table.insert(table.end(), row.begin(), row.end());
      }
      std::vector<float> inverse(rows), factors(rows), approx(rows), exact(rows);
      k::inverse_row_norms(table.data(), rows, cols, inverse.data());
      std::vector<std::int16_t> values(rows * k::quantized_width(cols));
      k::QuantizedRows quantized;
      ASSERT_TRUE(k::quantize_rows(table.data(), inverse.data(), rows, cols, values.data(), factors.data(), quantized));
      for (const auto& query : {adversarial(0.01f), random_floats(cols, rng)}) {
        const float query_inverse = k::inverse_norm(query.data(), cols);
        const double bound = k::quantized_cosine_scores(query.data(), query_inverse, quantized, approx.data());
        ASSERT_GT(bound, 0);
        k::cosine_scores(query.data(), query_inverse, table.data(), inverse.data(), rows, cols, exact.data());
        double worst = 0;
        for (std::size_t r = 0; r < rows; ++r) worst = std::max(worst, std::fabs(double(approx[r]) - exact[r]));
        EXPECT_LE(worst, bound) << "cols " << cols << " variant " << variant;
        // And the bound is useful: small enough to rule out most rows.
        EXPECT_LT(bound, 0.02) << "cols " << cols;
      }
    }
  }
}

TEST(Kernels, NearestWithOddQueries) {
  std::mt19937 rng(11);
  const std::size_t rows = 300, cols = 128;
  NearestCase c{random_floats(rows * cols, rng), rows, cols};
  std::vector<float> inverse(rows);
  k::inverse_row_norms(c.table.data(), rows, cols, inverse.data());
  std::vector<std::int16_t> values(rows * k::quantized_width(cols));
  std::vector<float> factors(rows), scratch(2 * rows);
  std::vector<std::int32_t> index_scratch(rows);
  k::QuantizedRows quantized;
  ASSERT_TRUE(k::quantize_rows(c.table.data(), inverse.data(), rows, cols, values.data(), factors.data(), quantized));
  std::vector<float> zero(cols, 0.0f), nan_query = random_floats(cols, rng), huge = random_floats(cols, rng),
                                       tiny = random_floats(cols, rng);
  nan_query[7] = std::nanf("");
  for (auto& x : huge) x *= 1e30f;
  for (auto& x : tiny) x *= 1e-35f;
  for (const auto* query : {&zero, &nan_query, &huge, &tiny}) {
    std::vector<std::int32_t> expected_ids, ids(10);
    std::vector<float> expected_scores, scores(10);
    const std::size_t expected = exact_nearest(query->data(), c.table, rows, cols, 10, 2, expected_ids, expected_scores);
    const std::size_t got = k::nearest(query->data(), c.table.data(), inverse.data(), &quantized, rows, cols, 10, 2,
                                       scratch.data(), index_scratch.data(), ids.data(), scores.data());
    ASSERT_EQ(got, expected);
    for (std::size_t j = 0; j < got; ++j) {
      EXPECT_EQ(ids[j], expected_ids[j]);
      EXPECT_TRUE(scores[j] == expected_scores[j] || (std::isnan(scores[j]) && std::isnan(expected_scores[j])));
    }
  }
  // k = 0 and a null quantized table.
  std::vector<std::int32_t> ids(1);
  std::vector<float> scores(1);
  EXPECT_EQ(k::nearest(c.table.data(), c.table.data(), inverse.data(), &quantized, rows, cols, 0, -1, scratch.data(),
                       index_scratch.data(), ids.data(), scores.data()),
            0u);
  EXPECT_EQ(k::nearest(c.table.data(), c.table.data(), inverse.data(), nullptr, rows, cols, 1, 0, scratch.data(),
                       index_scratch.data(), ids.data(), scores.data()),
            1u);
}

TEST(Kernels, CosineMapRowsMatchPairwiseCosine) {
  std::mt19937 rng(5);
  const std::size_t rows = 13, cols = 7;
  const auto table = random_floats(rows * cols, rng);
  std::vector<float> inverse(rows), map(rows * rows);
  k::inverse_row_norms(table.data(), rows, cols, inverse.data());
  k::cosine_map_rows(table.data(), inverse.data(), rows, cols, 0, 6, map.data());
  k::cosine_map_rows(table.data(), inverse.data(), rows, cols, 6, rows, map.data() + 6 * rows);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < rows; ++j)
      EXPECT_NEAR(map[i * rows + j], k::cosine_reference(&table[i * cols], &table[j * cols], cols), 1e-5);
}

TEST(Kernels, CosineMapIsSymmetricAndMatchesReference) {
  std::mt19937 rng(7);
  for (std::size_t cols : {1, 3, 7, 128, 129}) {
    for (std::size_t rows : {0, 1, 2, 3, 4, 5, 8, 9, 13, 130}) {
      auto storage = random_floats(rows * cols + 1, rng);
      const float* table = storage.data() + 1;  // misaligned rows
      if (rows > 2) std::fill(storage.begin() + 1 + 2 * cols, storage.begin() + 1 + 3 * cols, 0.0f);  // a zero row
      std::vector<float> inverse(rows), map(rows * rows, 7.0f), by_rows(rows * rows);
      k::inverse_row_norms(table, rows, cols, inverse.data());
      k::cosine_map(table, inverse.data(), rows, cols, map.data());
      k::cosine_map_rows(table, inverse.data(), rows, cols, 0, rows, by_rows.data());
      for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t j = 0; j < rows; ++j) {
          const double expected = k::cosine_reference(table + i * cols, table + j * cols, cols);
          ASSERT_EQ(map[i * rows + j], map[j * rows + i]) << rows << "x" << cols << " at " << i << "," << j;
          EXPECT_NEAR(map[i * rows + j], expected, 2e-5) << rows << "x" << cols << " at " << i << "," << j;
          EXPECT_NEAR(map[i * rows + j], by_rows[i * rows + j], 2e-6);
          EXPECT_LE(std::fabs(map[i * rows + j]), 1.0f);
        }
      }
    }
  }
}

TEST(Kernels, TopKWithManyNaNsInfinitiesAndAwkwardCounts) {
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
      for (std::size_t k : {1, 2, 5, 10, 64}) {
        for (std::int64_t exclude : {std::int64_t{-1}, std::int64_t{1}, static_cast<std::int64_t>(count) - 1}) {
          std::vector<std::int32_t> ids(k);
          std::vector<float> out_scores(k);
          const std::size_t got = k::top_k(scores.data(), count, k, exclude, ids.data(), out_scores.data());
          const auto expected = brute_force_top_k(scores, k, exclude);
          ASSERT_EQ(got, expected.size());
          for (std::size_t i = 0; i < got; ++i) EXPECT_EQ(ids[i], expected[i]) << count << " k=" << k << " i=" << i;
        }
      }
    }
  }
}

TEST(Kernels, EmbedTokensGathersAndAdds) {
  std::mt19937 rng(6);
  for (std::size_t d : {1, 3, 4, 5, 127, 128, 129}) {
    const std::size_t vocab = 11, context = 6;
    const auto wte = random_floats(vocab * d, rng), wpe = random_floats(context * d, rng);
    const std::int32_t ids[] = {3, 3, 10, 0, 7};
    const std::size_t n = 5;
    std::vector<float> token(n * d), position(n * d), sum(n * d);
    k::embed_tokens(ids, n, wte.data(), wpe.data(), d, token.data(), position.data(), sum.data());
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < d; ++c) {
        EXPECT_EQ(token[i * d + c], wte[ids[i] * d + c]);
        EXPECT_EQ(position[i * d + c], wpe[i * d + c]);
        EXPECT_EQ(sum[i * d + c], wte[ids[i] * d + c] + wpe[i * d + c]);
      }
  }
}

}  // namespace
