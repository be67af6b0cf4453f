// Judging maps and graphs (judge.h): neighbours kept, over all rows and a
// sample, and a graph's recall.
#include "embeddings/layout/judge.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "embeddings/layout/knn.h"
#include "layout_tables.h"

namespace layout = embeddings::layout;

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

TEST(NeighboursKept, ASampleOfEveryRowIsTheWholeAndTheExactGraphsRecallIsOne) {
  const std::size_t rows = 150, cols = 8;
  const std::vector<float> table = embeddings::test::anisotropic_table(rows, cols, 6);
  std::vector<float> map(rows * 2);
  for (std::size_t r = 0; r < rows; ++r) {
    map[2 * r] = table[r * cols];
    map[2 * r + 1] = table[r * cols + 1];
  }
  const auto view = layout::TableView::of_floats(table.data(), rows, cols);
  const std::vector<std::size_t> all = layout::sample_rows(rows, rows, 1);
  EXPECT_EQ(all.size(), rows);
  EXPECT_DOUBLE_EQ(layout::neighbours_kept_sample(view, map.data(), 5, all),
                   layout::neighbours_kept(table.data(), rows, cols, map.data(), 5));
  const std::vector<std::size_t> some = layout::sample_rows(rows, 40, 2);
  EXPECT_EQ(some.size(), 40u);
  for (std::size_t i = 1; i < some.size(); ++i) EXPECT_LT(some[i - 1], some[i]);
  layout::KnnGraph graph;
  graph.begin(view, 7);
  while (graph.step()) {
  }
  EXPECT_DOUBLE_EQ(layout::knn_recall(view, graph.indices().data(), 7, some), 1.0);
}
