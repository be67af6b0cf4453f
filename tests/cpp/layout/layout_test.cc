// PCA, the kNN graph and the UMAP-method layout against double-precision
// references, and their determinism.
#include "embeddings/layout/layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "embeddings/file_io/file_io.h"
#include "embeddings/formats/tables.h"

namespace layout = embeddings::layout;

namespace {

// A table whose columns have very different variances (as a real wte does).
std::vector<float> anisotropic_table(std::size_t rows, std::size_t cols, unsigned seed) {
  std::mt19937 random(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> table(rows * cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      table[r * cols + c] = normal(random) * (1.0f + 3.0f / (1 + c)) + 0.5f;
  return table;
}

// `clusters` tight groups of `per_cluster` rows around random centres.
std::vector<float> clustered_table(std::size_t clusters, std::size_t per_cluster, std::size_t cols,
                                   unsigned seed) {
  std::mt19937 random(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> table(clusters * per_cluster * cols);
  for (std::size_t g = 0; g < clusters; ++g) {
    std::vector<float> centre(cols);
    for (float& x : centre) x = normal(random);
    for (std::size_t m = 0; m < per_cluster; ++m)
      for (std::size_t c = 0; c < cols; ++c)
        table[(g * per_cluster + m) * cols + c] = centre[c] + 0.15f * normal(random);
  }
  return table;
}

const embeddings::EmbeddingTables& default_model() {
  static embeddings::EmbeddingTables tables;
  static bool loaded = false;
  if (!loaded) {
    std::string error;
    const bool ok = embeddings::load_tables_from_file(
        std::string(EMBEDDINGS_SOURCE_DIR) + "/model/model.safetensors", nullptr, tables, error);
    EXPECT_TRUE(ok) << error;
    loaded = true;
  }
  return tables;
}

}  // namespace

TEST(LayoutMath, ExpLogPowMatchTheLibraryToDoublePrecision) {
  for (double x = -700; x <= 700; x += 0.37)
    EXPECT_NEAR(layout::layout_exp(x), std::exp(x), 4e-15 * std::exp(x)) << x;
  for (double x = 1e-300; x < 1e300; x *= 3.7)
    EXPECT_NEAR(layout::layout_log(x), std::log(x), 4e-15 * std::fmax(1.0, std::fabs(std::log(x)))) << x;
  for (double x = 0.001; x < 100; x *= 1.9)
    for (double y : {-1.3, -0.1, 0.0, 0.5, 0.895, 2.0, 7.5})
      EXPECT_NEAR(layout::layout_pow(x, y), std::pow(x, y), 1e-13 * std::pow(x, y)) << x << "^" << y;
  EXPECT_EQ(layout::layout_exp(-800), 0.0);
  EXPECT_EQ(layout::layout_exp(0), 1.0);
  EXPECT_TRUE(std::isinf(layout::layout_exp(710)));
  EXPECT_TRUE(std::isnan(layout::layout_log(-1)));
}

TEST(LayoutMath, DotIsWithinFloatRoundingOfADoubleSum) {
  std::mt19937 random(3);
  std::uniform_real_distribution<float> uniform(-2, 2);
  for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 127u, 128u, 4096u}) {
    std::vector<float> a(n), b(n);
    double exact = 0, magnitude = 0;
    for (std::size_t k = 0; k < n; ++k) {
      a[k] = uniform(random);
      b[k] = uniform(random);
      exact += static_cast<double>(a[k]) * b[k];
      magnitude += std::fabs(static_cast<double>(a[k]) * b[k]);
    }
    EXPECT_NEAR(layout::layout_dot(a.data(), b.data(), n), exact, (n + 1) * 0x1p-24 * magnitude + 1e-30) << n;
  }
}

TEST(SymmetricEigen, MatchesJacobiOnRandomAndCovarianceMatrices) {
  std::mt19937 random(5);
  std::normal_distribution<double> normal(0, 1);
  for (std::size_t n : {1u, 2u, 5u, 40u, 128u}) {
    std::vector<double> m(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j <= i; ++j) m[i * n + j] = m[j * n + i] = normal(random);
    std::vector<double> values(n), vectors(n * n), ref_values(n), ref_vectors(n * n);
    layout::symmetric_eigen(m.data(), n, values.data(), vectors.data());
    layout::symmetric_eigen_reference(m.data(), n, ref_values.data(), ref_vectors.data());
    double scale = 0;
    for (double v : ref_values) scale = std::fmax(scale, std::fabs(v));
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_NEAR(values[i], ref_values[i], 1e-10 * scale) << "n=" << n << " value " << i;
      if (i > 0) EXPECT_GE(values[i - 1], values[i]);
      // A v = lambda v for the fast solver's own vectors.
      for (std::size_t r = 0; r < n; ++r) {
        double av = 0;
        for (std::size_t c = 0; c < n; ++c) av += m[r * n + c] * vectors[i * n + c];
        EXPECT_NEAR(av, values[i] * vectors[i * n + r], 1e-9 * scale);
      }
    }
  }
}

TEST(Pca, MatchesTheDoubleReferenceOnARandomTable) {
  const std::size_t rows = 600, cols = 24, components = 3;
  const std::vector<float> table = anisotropic_table(rows, cols, 11);
  layout::Pca result;
  std::vector<float> coords(rows * components);
  layout::pca(table.data(), rows, cols, components, result, coords.data());
  std::vector<double> axes, shares, ref_coords;
  layout::pca_reference(table.data(), rows, cols, components, axes, shares, ref_coords);
  double total_share = 0;
  for (std::size_t i = 0; i < components; ++i) {
    EXPECT_NEAR(result.variance_share[i], shares[i], 1e-5);
    total_share += result.variance_share[i];
    for (std::size_t c = 0; c < cols; ++c) EXPECT_NEAR(result.axes[i * cols + c], axes[i * cols + c], 1e-3);
  }
  EXPECT_LT(total_share, 1.0);
  for (std::size_t k = 0; k < rows * components; ++k) EXPECT_NEAR(coords[k], ref_coords[k], 2e-3);
}

TEST(Pca, MatchesTheDoubleReferenceOnTheDefaultModel) {
  const auto& tables = default_model();
  const auto wte = tables.wte();
  ASSERT_EQ(wte.cols, 128u);
  layout::Pca result;
  std::vector<float> coords(wte.rows * 2);
  layout::pca(wte.floats(), wte.rows, wte.cols, 2, result, coords.data());
  std::vector<double> axes, shares, ref_coords;
  layout::pca_reference(wte.floats(), wte.rows, wte.cols, 2, axes, shares, ref_coords);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_NEAR(result.variance_share[i], shares[i], 1e-5);
    for (std::size_t c = 0; c < wte.cols; ++c)
      EXPECT_NEAR(result.axes[i * wte.cols + c], axes[i * wte.cols + c], 1e-3);
  }
  // The table is anisotropic: the first component holds about a fifth of the variance.
  EXPECT_GT(result.variance_share[0], 0.1);
  for (std::size_t k = 0; k < coords.size(); ++k)
    EXPECT_NEAR(coords[k], ref_coords[k], 1e-3 * (1 + std::fabs(ref_coords[k])));
}

TEST(Pca, SignsAreNormalisedSoThatTheLargestCoordinateIsPositive) {
  const std::size_t rows = 200, cols = 10;
  std::vector<float> table = anisotropic_table(rows, cols, 2), flipped = table;
  for (float& x : flipped) x = -x;  // same axes up to sign
  layout::Pca a, b;
  layout::pca(table.data(), rows, cols, 2, a, nullptr);
  layout::pca(flipped.data(), rows, cols, 2, b, nullptr);
  for (std::size_t i = 0; i < 2; ++i) {
    std::size_t largest = 0;
    for (std::size_t c = 0; c < cols; ++c)
      if (std::fabs(a.axes[i * cols + c]) > std::fabs(a.axes[i * cols + largest])) largest = c;
    EXPECT_GT(a.axes[i * cols + largest], 0);
    for (std::size_t c = 0; c < cols; ++c) EXPECT_NEAR(a.axes[i * cols + c], b.axes[i * cols + c], 1e-4);
  }
}

TEST(KnnGraph, MatchesTheDoubleReference) {
  const std::size_t rows = 300, cols = 24, k = 14;
  std::vector<float> table = anisotropic_table(rows, cols, 7);
  for (std::size_t c = 0; c < cols; ++c) table[17 * cols + c] = 0;  // a zero row scores 0 with everything
  layout::KnnGraph graph;
  graph.begin(table.data(), rows, cols, k);
  std::size_t steps = 0;
  while (graph.step()) ++steps;
  EXPECT_EQ(steps + 1, (rows + layout::KnnGraph::kBlockRows - 1) / layout::KnnGraph::kBlockRows);
  EXPECT_DOUBLE_EQ(graph.progress(), 1.0);
  std::vector<std::int32_t> indices;
  std::vector<double> distances;
  layout::cosine_knn_reference(table.data(), rows, cols, k, indices, distances);
  std::size_t same = 0;
  for (std::size_t i = 0; i < rows * k; ++i) {
    EXPECT_NEAR(graph.distances()[i], distances[i], 1e-6);
    same += graph.indices()[i] == indices[i];
  }
  // Only exact-looking ties in float may order differently.
  EXPECT_GE(same, rows * k - 4);
}

TEST(Umap, FitsTheCurveParametersUmapLearnFinds) {
  double a = 0, b = 0;
  layout::fit_ab(0.1, 1.0, a, b);  // umap-learn: a = 1.577, b = 0.8951
  EXPECT_NEAR(a, 1.577, 0.01);
  EXPECT_NEAR(b, 0.8951, 0.005);
  layout::fit_ab(0.5, 1.0, a, b);  // umap-learn: a = 0.5830, b = 1.3343
  EXPECT_NEAR(a, 0.583, 0.01);
  EXPECT_NEAR(b, 1.334, 0.01);
}

TEST(Umap, IsTheSameBitForBitForASeedAndDiffersForAnother) {
  const std::vector<float> table = clustered_table(6, 40, 16, 4);
  const std::size_t rows = 240;
  layout::UmapOptions options;
  options.n_epochs = 60;
  options.seed = 12345;
  std::vector<float> first(rows * 2), second(rows * 2), other(rows * 2);
  std::string error;
  ASSERT_TRUE(layout::umap(table.data(), rows, 16, options, first.data(), error)) << error;
  ASSERT_TRUE(layout::umap(table.data(), rows, 16, options, second.data(), error)) << error;
  options.seed = 54321;
  ASSERT_TRUE(layout::umap(table.data(), rows, 16, options, other.data(), error)) << error;
  EXPECT_EQ(first, second);
  EXPECT_NE(first, other);
  for (float x : first) EXPECT_TRUE(std::isfinite(x));
}

TEST(Umap, SlicedStepsGiveTheSameLayoutAsOneRun) {
  const std::vector<float> table = clustered_table(5, 30, 12, 9);
  const std::size_t rows = 150;
  layout::UmapOptions options;
  options.n_epochs = 40;
  std::vector<float> whole(rows * 2);
  std::string error;
  ASSERT_TRUE(layout::umap(table.data(), rows, 12, options, whole.data(), error));
  layout::UmapLayout sliced;
  ASSERT_TRUE(sliced.begin(table.data(), rows, 12, options, error));
  double last_progress = 0;
  while (sliced.step(37)) {
    EXPECT_GE(sliced.progress(), last_progress);
    last_progress = sliced.progress();
  }
  EXPECT_EQ(sliced.embedding(), whole);
  EXPECT_EQ(sliced.epochs(), 40u);
}

TEST(Umap, StartsFromAGivenLayoutScaledToTenAndRefusesOneNotFinite) {
  const std::vector<float> table = clustered_table(4, 25, 8, 5);
  const std::size_t rows = 100;
  std::vector<float> start(rows * 2);
  for (std::size_t r = 0; r < rows; ++r) {
    start[2 * r] = static_cast<float>(r) * 0.5f - 7.0f;               // -7 .. 42.5
    start[2 * r + 1] = static_cast<float>((r * 37) % rows) * -0.25f;  // -24.75 .. 0
  }
  layout::UmapOptions options;
  options.n_epochs = 10;
  layout::UmapLayout warm;
  std::string error;
  ASSERT_TRUE(warm.begin(table.data(), rows, 8, options, error, start.data())) << error;
  while (warm.stage() != layout::UmapLayout::Stage::Optimise) ASSERT_TRUE(warm.step(1));
  for (std::size_t r = 0; r < rows; ++r) {
    EXPECT_EQ(warm.embedding()[2 * r], 10.0f * (start[2 * r] + 7.0f) / 49.5f);
    EXPECT_EQ(warm.embedding()[2 * r + 1], 10.0f * (start[2 * r + 1] + 24.75f) / 24.75f);
  }
  // The whole layout from there differs from the one from the PCA.
  std::vector<float> from_start(rows * 2), from_pca(rows * 2);
  ASSERT_TRUE(layout::umap(table.data(), rows, 8, options, from_start.data(), error, start.data()));
  ASSERT_TRUE(layout::umap(table.data(), rows, 8, options, from_pca.data(), error));
  EXPECT_NE(from_start, from_pca);
  start[11] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(layout::umap(table.data(), rows, 8, options, from_start.data(), error, start.data()));
  EXPECT_NE(error.find("initial layout"), std::string::npos) << error;
}

TEST(Umap, KeepsClustersTogetherAndNeighboursNear) {
  const std::size_t clusters = 8, per = 50, cols = 32, rows = clusters * per;
  const std::vector<float> table = clustered_table(clusters, per, cols, 21);
  layout::UmapOptions options;
  std::vector<float> map(rows * 2);
  std::string error;
  ASSERT_TRUE(layout::umap(table.data(), rows, cols, options, map.data(), error)) << error;
  double within = 0, between = 0;
  std::size_t within_count = 0, between_count = 0;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = i + 1; j < rows; ++j) {
      const double d = std::hypot(map[2 * i] - map[2 * j], map[2 * i + 1] - map[2 * j + 1]);
      if (i / per == j / per) {
        within += d;
        ++within_count;
      } else {
        between += d;
        ++between_count;
      }
    }
  EXPECT_LT(within / within_count, 0.2 * between / between_count);
  // A PCA map of the same table keeps fewer neighbours than UMAP does.
  layout::Pca pca;
  std::vector<float> pca_map(rows * 2);
  layout::pca(table.data(), rows, cols, 2, pca, pca_map.data());
  const double umap_kept = layout::neighbours_kept(table.data(), rows, cols, map.data(), 10);
  const double pca_kept = layout::neighbours_kept(table.data(), rows, cols, pca_map.data(), 10);
  EXPECT_GT(umap_kept, pca_kept);
  EXPECT_GT(umap_kept, 0.2);
}

TEST(Umap, RefusesWhatItCannotLayOut) {
  std::vector<float> table = clustered_table(2, 5, 4, 1);
  layout::UmapLayout umap;
  std::string error;
  layout::UmapOptions options;
  options.n_neighbors = 11;
  EXPECT_FALSE(umap.begin(table.data(), 10, 4, options, error));
  EXPECT_NE(error.find("n_neighbors"), std::string::npos) << error;
  options.n_neighbors = 5;
  options.min_dist = 2;
  EXPECT_FALSE(umap.begin(table.data(), 10, 4, options, error));
  EXPECT_NE(error.find("min_dist"), std::string::npos) << error;
  options.min_dist = 0.1;
  table[3] = NAN;
  EXPECT_FALSE(umap.begin(table.data(), 10, 4, options, error));
  EXPECT_NE(error.find("not finite"), std::string::npos) << error;
  EXPECT_FALSE(umap.begin(table.data(), 2, 4, options, error));
  EXPECT_NE(error.find("at least 3 rows"), std::string::npos) << error;
}

TEST(NeighboursKept, IsOneForAMapThatIsTheTableAndLowForNoise) {
  // A 2-column table is its own perfect map (up to cosine vs Euclidean:
  // so points on a circle, where the two orders agree).
  const std::size_t rows = 100;
  std::vector<float> circle(rows * 2);
  for (std::size_t i = 0; i < rows; ++i) {
    circle[2 * i] = static_cast<float>(std::cos(2 * M_PI * i / rows));
    circle[2 * i + 1] = static_cast<float>(std::sin(2 * M_PI * i / rows));
  }
  EXPECT_NEAR(layout::neighbours_kept(circle.data(), rows, 2, circle.data(), 4), 1.0, 1e-12);
  std::vector<float> shuffled(rows * 2);
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t j = (i * 37) % rows;
    shuffled[2 * i] = circle[2 * j];
    shuffled[2 * i + 1] = circle[2 * j + 1];
  }
  EXPECT_LT(layout::neighbours_kept(circle.data(), rows, 2, shuffled.data(), 4), 0.2);
}

TEST(Umap, FourNegativeSamplesAtOnceAreFourScalarOnesBitForBit) {
  std::mt19937 random(17);
  std::uniform_real_distribution<float> uniform(-12, 12);
  std::uniform_int_distribution<int> tiny(0, 9);
  const layout::Repulsion r{1.577f, 0.8951f, 2.0f * 0.8951f, 0.37f};
  for (int trial = 0; trial < 20000; ++trial) {
    float nx[4], ny[4];
    for (int lane = 0; lane < 4; ++lane) {
      // Some lanes at distance 0 (the point itself), some very close, some far.
      const int kind = tiny(random);
      nx[lane] = kind == 0 ? 0.0f : uniform(random) * (kind == 1 ? 1e-4f : 1.0f);
      ny[lane] = kind == 0 ? 0.0f : uniform(random) * (kind == 1 ? 1e-4f : 1.0f);
    }
    float gx[4], gy[4];
    for (int lane = 0; lane < 4; ++lane) gx[lane] = layout::repulsion_scalar(nx[lane], ny[lane], r, gy[lane]);
    float px = 0.5f, py = -0.25f;
    layout::repulsion4(nx, ny, r, px, py);
    EXPECT_EQ(px, 0.5f + ((gx[0] + gx[1]) + (gx[2] + gx[3])));
    EXPECT_EQ(py, -0.25f + ((gy[0] + gy[1]) + (gy[2] + gy[3])));
    for (int lane = 0; lane < 4; ++lane) {
      const double d2 = static_cast<double>(nx[lane]) * nx[lane] + static_cast<double>(ny[lane]) * ny[lane];
      if (d2 == 0) {
        EXPECT_EQ(gx[lane], 0.0f);
        continue;
      }
      // Against the formula in double: 2 gamma b / ((0.001 + d^2)(1 + a d^(2b))).
      const double push = 2.0 * 0.8951f / ((0.001 + d2) * (1.577f * std::pow(d2, 0.8951f) + 1));
      const double expected = std::fmax(-4.0, std::fmin(4.0, push * nx[lane])) * 0.37f;
      EXPECT_NEAR(gx[lane], expected, 1e-5 * std::fabs(expected) + 1e-30);
    }
  }
}
