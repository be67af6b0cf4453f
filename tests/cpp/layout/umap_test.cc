// The UMAP-method layout (umap.h): its curve, determinism for a seed,
// slices, a given start, clusters kept, both neighbour searches, 16-bit
// tables and tables at float32's edges, and refusals.
#include "embeddings/layout/umap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "embeddings/layout/judge.h"
#include "embeddings/layout/pca.h"
#include "layout_tables.h"

namespace layout = embeddings::layout;
using embeddings::test::clustered_table;

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
  EXPECT_EQ(sliced.coords(), whole);
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
    EXPECT_EQ(warm.coords()[2 * r], 10.0f * (start[2 * r] + 7.0f) / 49.5f);
    EXPECT_EQ(warm.coords()[2 * r + 1], 10.0f * (start[2 * r + 1] + 24.75f) / 24.75f);
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
  // A table's numbers are checked by the first steps (a large one is read a chunk at a time).
  ASSERT_TRUE(umap.begin(table.data(), 10, 4, options, error));
  while (umap.step(100)) {
  }
  EXPECT_TRUE(umap.failed());
  EXPECT_NE(umap.error().find("not finite"), std::string::npos) << umap.error();
  std::vector<float> out(20);
  EXPECT_FALSE(layout::umap(table.data(), 10, 4, options, out.data(), error));
  EXPECT_NE(error.find("not finite"), std::string::npos) << error;
  EXPECT_FALSE(umap.begin(table.data(), 2, 4, options, error));
  EXPECT_NE(error.find("at least 3 rows"), std::string::npos) << error;
}

TEST(Umap, NnDescentsLayoutKeepsClustersTogetherTooAndIsTheSameForASeed) {
  const std::size_t clusters = 12, per = 100, cols = 24, rows = clusters * per;
  const std::vector<float> table = clustered_table(clusters, per, cols, 9);
  layout::UmapOptions options;
  options.n_epochs = 60;
  options.exact_neighbours_up_to = 100;  // NN-descent for this small table
  std::vector<float> map(rows * 2), again(rows * 2);
  std::string error;
  layout::UmapLayout layout;
  ASSERT_TRUE(layout.begin(table.data(), rows, cols, options, error)) << error;
  while (layout.step(1000)) {
  }
  EXPECT_FALSE(layout.exact_neighbours());
  ASSERT_TRUE(layout::umap(table.data(), rows, cols, options, again.data(), error)) << error;
  EXPECT_EQ(layout.coords(), again);
  std::size_t same = 0;
  const std::vector<float>& points = layout.coords();
  for (std::size_t i = 0; i < rows; ++i) {
    // The nearest other point on the map is in the row's own cluster.
    std::size_t best = i == 0 ? 1 : 0;
    for (std::size_t j = 0; j < rows; ++j) {
      const float d = std::hypot(points[2 * i] - points[2 * j], points[2 * i + 1] - points[2 * j + 1]);
      if (j != i &&
          d < std::hypot(points[2 * i] - points[2 * best], points[2 * i + 1] - points[2 * best + 1]))
        best = j;
    }
    same += best / per == i / per;
  }
  EXPECT_GT(same, rows * 95 / 100);
}

TEST(Umap, ASixteenBitTableIsLaidOutAsItsNumbers) {
  const std::size_t rows = 300, cols = 16;
  const std::vector<std::uint16_t> bits = embeddings::test::float16_bits(clustered_table(6, 50, cols, 3));
  const layout::TableView sixteen{bits.data(), rows, cols, layout::Numbers::Float16};
  const std::vector<float> wide = embeddings::test::widened(sixteen);
  layout::UmapOptions options;
  options.n_epochs = 30;
  std::vector<float> a(rows * 2), b(rows * 2);
  std::string error;
  ASSERT_TRUE(layout::umap(sixteen, options, a.data(), error)) << error;
  ASSERT_TRUE(layout::umap(wide.data(), rows, cols, options, b.data(), error)) << error;
  EXPECT_EQ(a, b);
}

TEST(Umap, TablesAtFloat32sEdgesGiveTheMapOfTheirDirections) {
  // One row near 2e19 (its square overflows float32), one near 1e-25 (its
  // square underflows): every point finite, and, cosine and the PCA's
  // directions not seeing a power-of-two scale, the map of the table with
  // those rows scaled back.
  const std::size_t rows = 240, cols = 16;
  const std::vector<float> table = clustered_table(6, 40, cols, 4);
  std::vector<float> edges = table;
  for (std::size_t c = 0; c < cols; ++c) {
    edges[7 * cols + c] *= 0x1p64f;
    edges[100 * cols + c] *= 0x1p-84f;
  }
  for (std::size_t c = 0; c < rows * cols; ++c) edges[c] *= 0x1p62f;  // and all of it large
  layout::UmapOptions options;
  options.n_epochs = 40;
  options.exact_neighbours_up_to = 0;
  std::vector<float> map(rows * 2);
  std::string error;
  ASSERT_TRUE(layout::umap(edges.data(), rows, cols, options, map.data(), error)) << error;
  for (float x : map) ASSERT_TRUE(std::isfinite(x));
  // The points are spread out, not all in one place.
  float low = map[0], high = map[0];
  for (std::size_t r = 0; r < rows; ++r) {
    low = std::fmin(low, map[2 * r]);
    high = std::fmax(high, map[2 * r]);
  }
  EXPECT_GT(high - low, 1.0f);
}
