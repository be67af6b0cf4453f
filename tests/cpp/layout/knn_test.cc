// The kNN graphs (knn.h): the exact one against a double scan, NN-descent's
// recall against the exact one, both the same bits for a seed however the
// work is sliced, 16-bit tables read as their numbers, and rows at
// float32's edges.
#include "embeddings/layout/knn.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "embeddings/layout/judge.h"
#include "layout_tables.h"

namespace layout = embeddings::layout;
using embeddings::test::anisotropic_table;
using embeddings::test::clustered_table;

namespace {

layout::KnnGraph exact(const layout::TableView& table, std::size_t k) {
  layout::KnnGraph graph;
  graph.begin(table, k);
  while (graph.step()) {
  }
  return graph;
}

layout::NnDescent approximate(const layout::TableView& table, std::size_t k, double budget = 4e6,
                              std::uint64_t seed = 1) {
  layout::NnDescent search;
  layout::NnDescentOptions options;
  options.seed = seed;
  std::string error;
  EXPECT_TRUE(search.begin(table, k, options, error)) << error;
  double last = 0;
  while (search.step(budget)) {
    EXPECT_GE(search.progress(), last);
    last = search.progress();
  }
  return search;
}

}  // namespace

TEST(KnnGraph, MatchesTheDoubleReference) {
  const std::size_t rows = 300, cols = 24, k = 14;
  std::vector<float> table = anisotropic_table(rows, cols, 7);
  for (std::size_t c = 0; c < cols; ++c) table[17 * cols + c] = 0;  // a zero row scores 0 with everything
  const layout::KnnGraph graph = exact(layout::TableView::of_floats(table.data(), rows, cols), k);
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

TEST(KnnGraph, ReadsSixteenBitTablesAsTheirNumbers) {
  const std::size_t rows = 200, cols = 40;
  const std::vector<float> values = anisotropic_table(rows, cols, 2);
  const embeddings::test::SixteenBitTables tables(values, rows, cols);
  for (const layout::TableView& sixteen : tables.views()) {
    const std::vector<float> wide = embeddings::test::widened(sixteen);
    const layout::KnnGraph a = exact(sixteen, 10),
                           b = exact(layout::TableView::of_floats(wide.data(), rows, cols), 10);
    EXPECT_EQ(a.indices(), b.indices());
    EXPECT_EQ(a.distances(), b.distances());
  }
}

TEST(KnnGraph, RowsWhoseSquaresLeaveFloat32sRangeKeepTheirNeighbours) {
  // Cosine does not see a row's length: a row scaled by 2^70 (squares
  // beyond float32) or 2^-80 (squares below it) has the same neighbours.
  const std::size_t rows = 120, cols = 16, k = 6;
  const std::vector<float> table = anisotropic_table(rows, cols, 12);
  std::vector<float> edges = table;
  for (std::size_t c = 0; c < cols; ++c) {
    edges[5 * cols + c] *= 0x1p70f;
    edges[9 * cols + c] *= 0x1p-80f;
  }
  const layout::KnnGraph a = exact(layout::TableView::of_floats(table.data(), rows, cols), k);
  const layout::KnnGraph b = exact(layout::TableView::of_floats(edges.data(), rows, cols), k);
  EXPECT_EQ(a.indices(), b.indices());
  EXPECT_EQ(a.distances(), b.distances());
  const layout::NnDescent c = approximate(layout::TableView::of_floats(edges.data(), rows, cols), k);
  const layout::NnDescent d = approximate(layout::TableView::of_floats(table.data(), rows, cols), k);
  EXPECT_EQ(c.indices(), d.indices());
}

TEST(NnDescent, FindsAtLeast95PercentOfTheExactNeighbours) {
  // 60 clusters of 50 rows with noise in every one of 48 columns, k = 14 (15 neighbours with the row itself).
  const std::size_t rows = 3000, cols = 48, k = 14;
  const std::vector<float> table = clustered_table(60, 50, cols, 31, 0.4f);
  const auto view = layout::TableView::of_floats(table.data(), rows, cols);
  const layout::NnDescent search = approximate(view, k);
  const double recall =
      layout::knn_recall(view, search.indices().data(), k, layout::sample_rows(rows, 400, 2));
  EXPECT_GE(recall, 0.95) << "recall@15 " << recall << " after " << search.iterations() << " iterations";
  // Each list is sorted best first, holds k distinct other rows, and its distances are 1 - cos.
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t s = 0; s < k; ++s) {
      const std::int32_t j = search.indices()[i * k + s];
      ASSERT_GE(j, 0);
      ASSERT_NE(static_cast<std::size_t>(j), i);
      if (s > 0) EXPECT_GE(search.distances()[i * k + s], search.distances()[i * k + s - 1]);
    }
}

TEST(NnDescent, IsTheSameForASeedHoweverItIsSlicedAndDiffersForAnother) {
  const std::size_t rows = 1500, cols = 24, k = 10;
  const std::vector<float> table = clustered_table(30, 50, cols, 5, 0.5f);
  const auto view = layout::TableView::of_floats(table.data(), rows, cols);
  const layout::NnDescent whole = approximate(view, k, 1e12);
  const layout::NnDescent sliced = approximate(view, k, 5000);
  EXPECT_EQ(whole.indices(), sliced.indices());
  EXPECT_EQ(whole.distances(), sliced.distances());
  const layout::NnDescent other = approximate(view, k, 1e12, 99);
  EXPECT_NE(whole.indices(), other.indices());
}

TEST(NnDescent, ReadsSixteenBitTablesAsTheirNumbers) {
  const std::size_t rows = 800, cols = 32, k = 8;
  const std::vector<std::uint16_t> bits = embeddings::test::bfloat16_bits(clustered_table(16, 50, cols, 8));
  const layout::TableView sixteen{bits.data(), rows, cols, layout::Numbers::BFloat16};
  const std::vector<float> wide = embeddings::test::widened(sixteen);
  const layout::NnDescent a = approximate(sixteen, k),
                          b = approximate(layout::TableView::of_floats(wide.data(), rows, cols), k);
  EXPECT_EQ(a.indices(), b.indices());
  EXPECT_EQ(a.distances(), b.distances());
}

TEST(NnDescent, RefusesWhatItCannotSearch) {
  std::vector<float> table(40, 1.0f);
  layout::NnDescent search;
  std::string error;
  EXPECT_FALSE(
      search.begin(layout::TableView::of_floats(table.data(), 10, 4), 10, layout::NnDescentOptions(), error));
  EXPECT_NE(error.find("k must be"), std::string::npos) << error;
}
