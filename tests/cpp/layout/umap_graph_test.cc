// The fuzzy simplicial set's steps (umap.h): smooth_knn_dist's bandwidths,
// the membership strengths, the fuzzy union and make_epochs_per_sample,
// against a plain implementation of the whole (every directed edge keyed
// and sorted, as the layout once built it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/knn.h"
#include "embeddings/layout/umap.h"
#include "layout_tables.h"

namespace layout = embeddings::layout;

namespace {

struct Graph {
  std::vector<std::int32_t> head, tail;
  std::vector<double> epochs_per_sample;
};

// The four steps, as the layout runs them.
Graph by_steps(const layout::NeighbourLists& knn, std::size_t n_neighbors, std::size_t n_epochs) {
  const std::size_t rows = knn.rows, k = knn.k;
  double mean = 0;
  for (std::size_t e = 0; e < rows * k; ++e) mean += knn.distances[e];
  mean /= static_cast<double>(rows * k);
  std::vector<double> rho(rows), sigma(rows), weights(rows * k);
  layout::smooth_knn_dist(knn, n_neighbors, mean, 0, rows, rho.data(), sigma.data());
  layout::membership_strengths(knn, rho.data(), sigma.data(), 0, rows, weights.data());
  layout::ReverseEdges reverse;
  layout::reverse_edges(knn, weights.data(), reverse);
  layout::FuzzyGraph fuzzy;
  fuzzy.offsets.assign(1, 0);
  fuzzy.columns.resize(2 * rows * k);
  fuzzy.weights.resize(2 * rows * k);
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t at = fuzzy.offsets.back();
    fuzzy.offsets.push_back(at + layout::fuzzy_union_row(knn, weights.data(), reverse, i, &fuzzy.columns[at],
                                                         &fuzzy.weights[at]));
  }
  Graph out;
  layout::make_epochs_per_sample(fuzzy, n_epochs, out.head, out.tail, out.epochs_per_sample);
  return out;
}

// The whole in one piece: the union by a map of (min, max) keys.
Graph plainly(const layout::NeighbourLists& knn, const std::vector<double>& weights, std::size_t n_epochs) {
  std::map<std::pair<std::int32_t, std::int32_t>, std::vector<double>> joined;
  for (std::size_t i = 0; i < knn.rows; ++i)
    for (std::size_t s = 0; s < knn.k; ++s) {
      const std::int32_t j = knn.indices[i * knn.k + s], a = std::min<std::int32_t>(i, j),
                         b = std::max<std::int32_t>(i, j);
      joined[{a, b}].push_back(weights[i * knn.k + s]);
    }
  double largest = 0;
  std::map<std::pair<std::int32_t, std::int32_t>, double> edges;
  for (const auto& [key, w] : joined) {
    const double weight = w.size() == 2 ? w[0] + w[1] - w[0] * w[1] : w[0];
    edges[key] = edges[{key.second, key.first}] = weight;
    largest = std::fmax(largest, weight);
  }
  Graph out;
  for (const auto& [key, weight] : edges) {  // in order of head, then tail
    if (weight < largest / n_epochs || !(weight > 0)) continue;
    out.head.push_back(key.first);
    out.tail.push_back(key.second);
    out.epochs_per_sample.push_back(largest / weight);
  }
  return out;
}

}  // namespace

TEST(UmapGraph, TheBandwidthsMakeEachRowsWeightsSumToLog2OfItsNeighbours) {
  const std::size_t rows = 400, cols = 12, k = 14;
  const std::vector<float> table = embeddings::test::anisotropic_table(rows, cols, 3);
  layout::KnnGraph graph;
  graph.begin(table.data(), rows, cols, k);
  while (graph.step()) {
  }
  const layout::NeighbourLists knn{rows, k, graph.indices().data(), graph.distances().data()};
  std::vector<double> rho(rows), sigma(rows), weights(rows * k);
  layout::smooth_knn_dist(knn, k + 1, 0.5, 0, rows, rho.data(), sigma.data());
  layout::membership_strengths(knn, rho.data(), sigma.data(), 0, rows, weights.data());
  for (std::size_t i = 0; i < rows; ++i) {
    EXPECT_EQ(rho[i], graph.distances()[i * k]);  // the nearest other row
    double sum = 0;
    for (std::size_t s = 0; s < k; ++s) sum += weights[i * k + s];
    EXPECT_NEAR(sum, std::log2(static_cast<double>(k + 1)), 1e-4) << i;
    EXPECT_EQ(weights[i * k], 1.0);
  }
}

TEST(UmapGraph, TheStepsGiveTheUnionAndSamplingOfThePlainImplementation) {
  const std::size_t rows = 500, cols = 10, k = 9;
  const std::vector<float> table = embeddings::test::clustered_table(10, 50, cols, 4, 0.5f);
  layout::KnnGraph graph;
  graph.begin(table.data(), rows, cols, k);
  while (graph.step()) {
  }
  const layout::NeighbourLists knn{rows, k, graph.indices().data(), graph.distances().data()};
  const Graph steps = by_steps(knn, k + 1, 50);
  double mean = 0;
  for (float d : graph.distances()) mean += d;
  mean /= static_cast<double>(rows * k);
  std::vector<double> rho(rows), sigma(rows), weights(rows * k);
  layout::smooth_knn_dist(knn, k + 1, mean, 0, rows, rho.data(), sigma.data());
  layout::membership_strengths(knn, rho.data(), sigma.data(), 0, rows, weights.data());
  const Graph plain = plainly(knn, weights, 50);
  EXPECT_EQ(steps.head, plain.head);
  EXPECT_EQ(steps.tail, plain.tail);
  EXPECT_EQ(steps.epochs_per_sample, plain.epochs_per_sample);
  // Symmetric: every edge's reverse is there, with the same period.
  std::map<std::pair<std::int32_t, std::int32_t>, double> period;
  for (std::size_t e = 0; e < steps.head.size(); ++e)
    period[{steps.head[e], steps.tail[e]}] = steps.epochs_per_sample[e];
  for (const auto& [key, value] : period) EXPECT_EQ(period.at({key.second, key.first}), value);
}

TEST(UmapGraph, MakeEpochsPerSampleDropsEdgesLighterThanTheHeaviestOverTheEpochs) {
  layout::FuzzyGraph fuzzy;
  fuzzy.offsets = {0, 2, 4, 4};
  fuzzy.columns = {1, 2, 0, 2};
  fuzzy.weights = {1.0, 0.05, 0.5, 0.1};
  std::vector<std::int32_t> head, tail;
  std::vector<double> periods;
  layout::make_epochs_per_sample(fuzzy, 10, head, tail, periods);
  EXPECT_EQ(head, (std::vector<std::int32_t>{0, 1, 1}));
  EXPECT_EQ(tail, (std::vector<std::int32_t>{1, 0, 2}));
  EXPECT_EQ(periods, (std::vector<double>{1.0, 2.0, 10.0}));
}
