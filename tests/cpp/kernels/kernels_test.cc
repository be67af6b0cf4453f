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
#include "kernels_testing.h"

namespace {

namespace k = embeddings::kernels;
using k::KernelBackend;
using namespace embeddings::test;

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
      be.cosine_matrix(table.data(), rows, n, scratch.data(), map.data());
      be.cosine_matrix_rows(table.data(), rows, n, 0, rows, scratch.data(), by_rows.data());
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
// starts, and a row of the cosine matrix is that row's cosine_scores.
TEST_P(Kernels, ARowScoresTheSameBitsWhereverItIs) {
  std::mt19937 rng(4);
  const std::size_t rows = 23, cols = 37;
  auto table = random_floats(rows * cols, rng);
  for (std::size_t c = 0; c < cols; ++c) {  // rows outside float32's safe range: scaled or scored in double
    table[5 * cols + c] *= 1e30f;
    table[6 * cols + c] *= 1e-30f;
  }
  std::vector<float> all(rows), map(rows * rows), scratch(rows);
  be.cosine_matrix_rows(table.data(), rows, cols, 0, rows, scratch.data(), map.data());
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

TEST_P(Kernels, CosineMatrixIsSymmetricAndMatchesReference) {
  std::mt19937 rng(7);
  for (std::size_t cols : {1, 3, 7, 128, 129}) {
    for (std::size_t rows : {0, 1, 2, 3, 4, 5, 8, 9, 13, 130}) {
      auto storage = random_floats(rows * cols + 1, rng);
      const float* table = storage.data() + 1;  // misaligned rows
      if (rows > 2)
        std::fill(storage.begin() + 1 + 2 * cols, storage.begin() + 1 + 3 * cols, 0.0f);  // a zero row
      std::vector<float> scratch(rows), map(rows * rows, 7.0f), by_rows(rows * rows), half(rows * rows);
      be.cosine_matrix(table, rows, cols, scratch.data(), map.data());
      be.cosine_matrix_rows(table, rows, cols, 0, rows, scratch.data(), by_rows.data());
      be.cosine_matrix_rows(table, rows, cols, rows / 2, rows, scratch.data(), half.data());
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
