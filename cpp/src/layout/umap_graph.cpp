// The fuzzy simplicial set of the UMAP layout (umap.h), in umap-learn's
// steps: smooth_knn_dist (each point's rho and sigma), the membership
// strengths, the fuzzy union of the two directions, and
// make_epochs_per_sample. Each works on a range of rows or in one linear
// pass, so the layout can do them in slices.
#include <algorithm>
#include <cmath>
#include <limits>

#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/umap.h"

namespace embeddings::layout {

void smooth_knn_dist(const NeighbourLists& knn, std::size_t n_neighbors, double mean_distance,
                     std::size_t first, std::size_t end, double* rho, double* sigma) {
  const std::size_t k = knn.k;
  const double target = layout_log(static_cast<double>(n_neighbors)) / layout_log(2.0);
  for (std::size_t i = first; i < end; ++i) {
    const float* d = &knn.distances[i * k];
    double nearest = 0, mean = 0;
    for (std::size_t j = 0; j < k; ++j) mean += d[j];
    mean /= static_cast<double>(k);
    for (std::size_t j = 0; j < k; ++j)
      if (d[j] > 0) {
        nearest = d[j];
        break;
      }
    double low = 0, high = std::numeric_limits<double>::infinity(), bandwidth = 1;
    for (int iteration = 0; iteration < 64; ++iteration) {
      double sum = 0;
      for (std::size_t j = 0; j < k; ++j) {
        const double excess = d[j] - nearest;
        sum += excess > 0 ? layout_exp(-excess / bandwidth) : 1.0;
      }
      if (std::fabs(sum - target) < 1e-5) break;
      if (sum > target) {
        high = bandwidth;
        bandwidth = (low + high) / 2;
      } else {
        low = bandwidth;
        bandwidth = high == std::numeric_limits<double>::infinity() ? bandwidth * 2 : (low + high) / 2;
      }
    }
    rho[i] = nearest;
    sigma[i] = std::fmax(bandwidth, 1e-3 * (nearest > 0 ? mean : mean_distance));
  }
}

void membership_strengths(const NeighbourLists& knn, const double* rho, const double* sigma,
                          std::size_t first, std::size_t end, double* weights) {
  const std::size_t k = knn.k;
  for (std::size_t i = first; i < end; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      const double excess = knn.distances[i * k + j] - rho[i];
      weights[i * k + j] = excess <= 0 || sigma[i] == 0 ? 1.0 : layout_exp(-excess / sigma[i]);
    }
}

void reverse_edges(const NeighbourLists& knn, const double* weights, ReverseEdges& out) {
  // A counting sort by target: row j's entry i -> j lands in i's list, in increasing j.
  const std::size_t rows = knn.rows, k = knn.k;
  out.offsets.assign(rows + 1, 0);
  for (std::size_t e = 0; e < rows * k; ++e) ++out.offsets[static_cast<std::size_t>(knn.indices[e]) + 1];
  for (std::size_t i = 0; i < rows; ++i) out.offsets[i + 1] += out.offsets[i];
  out.sources.resize(rows * k);
  out.weights.resize(rows * k);
  std::vector<std::size_t> next(out.offsets.begin(), out.offsets.end() - 1);
  for (std::size_t j = 0; j < rows; ++j)
    for (std::size_t s = 0; s < k; ++s) {
      const std::size_t target = static_cast<std::size_t>(knn.indices[j * k + s]);
      const std::size_t slot = next[target]++;
      out.sources[slot] = static_cast<std::int32_t>(j);
      out.weights[slot] = weights[j * k + s];
    }
}

std::size_t fuzzy_union_row(const NeighbourLists& knn, const double* weights, const ReverseEdges& reverse,
                            std::size_t i, std::int32_t* row_columns, double* row_weights) {
  // Row i's own list, sorted by column, merged with the rows that list i.
  const std::size_t k = knn.k;
  std::pair<std::int32_t, double> forward[256];
  std::vector<std::pair<std::int32_t, double>> spill;
  std::pair<std::int32_t, double>* own = forward;
  if (k > 256) {
    spill.resize(k);
    own = spill.data();
  }
  for (std::size_t s = 0; s < k; ++s) own[s] = {knn.indices[i * k + s], weights[i * k + s]};
  std::sort(own, own + k, [](const auto& x, const auto& y) { return x.first < y.first; });
  std::size_t a = 0, b = reverse.offsets[i], count = 0;
  const std::size_t b_end = reverse.offsets[i + 1];
  while (a < k || b < b_end) {
    const bool take_own = b == b_end || (a < k && own[a].first <= reverse.sources[b]);
    const bool take_reverse = a == k || (b < b_end && reverse.sources[b] <= own[a].first);
    double weight;
    std::int32_t column;
    if (take_own && take_reverse) {
      // Both directions: a + b - ab (the same bits in either order).
      const double x = own[a].second, y = reverse.weights[b];
      weight = x + y - x * y;
      column = own[a].first;
      ++a;
      ++b;
    } else if (take_own) {
      weight = own[a].second;
      column = own[a++].first;
    } else {
      weight = reverse.weights[b];
      column = reverse.sources[b++];
    }
    row_columns[count] = column;
    row_weights[count++] = weight;
  }
  return count;
}

void make_epochs_per_sample(const FuzzyGraph& graph, std::size_t n_epochs, std::vector<std::int32_t>& head,
                            std::vector<std::int32_t>& tail, std::vector<double>& epochs_per_sample) {
  double largest = 0;
  for (double weight : graph.weights) largest = std::fmax(largest, weight);
  const double threshold = largest / static_cast<double>(n_epochs);
  head.clear();
  tail.clear();
  epochs_per_sample.clear();
  const std::size_t rows = graph.offsets.size() - 1;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t e = graph.offsets[i]; e < graph.offsets[i + 1]; ++e) {
      const double weight = graph.weights[e];
      if (weight < threshold || !(weight > 0)) continue;
      head.push_back(static_cast<std::int32_t>(i));
      tail.push_back(graph.columns[e]);
      epochs_per_sample.push_back(largest / weight);
    }
}

// ---- The layout's Graph stage, in slices ---------------------------------------------------

void UmapLayout::graph_step() {
  const NeighbourLists knn = neighbours();
  const std::size_t k = knn.k;
  // Rows per slice: about 40,000 edges.
  const std::size_t slice = std::max<std::size_t>(1, 40000 / k);
  switch (graph_phase_) {
    case 0: {
      double sum = 0;
      for (std::size_t e = 0; e < rows_ * k; ++e) sum += knn.distances[e];
      mean_distance_ = sum / static_cast<double>(rows_ * k);
      rho_.assign(rows_, 0.0);
      sigma_.assign(rows_, 0.0);
      strengths_.assign(rows_ * k, 0.0);
      graph_row_ = 0;
      graph_phase_ = 1;
      break;
    }
    case 1: {
      const std::size_t end = std::min(rows_, graph_row_ + slice);
      smooth_knn_dist(knn, options_.n_neighbors, mean_distance_, graph_row_, end, rho_.data(), sigma_.data());
      membership_strengths(knn, rho_.data(), sigma_.data(), graph_row_, end, strengths_.data());
      graph_row_ = end;
      if (graph_row_ == rows_) graph_phase_ = 2;
      break;
    }
    case 2:
      reverse_edges(knn, strengths_.data(), reverse_);
      graph_.offsets.assign(1, 0);
      graph_.columns.assign(2 * rows_ * k, 0);
      graph_.weights.assign(2 * rows_ * k, 0.0);
      graph_row_ = 0;
      graph_phase_ = 3;
      break;
    case 3: {
      const std::size_t end = std::min(rows_, graph_row_ + slice);
      for (; graph_row_ < end; ++graph_row_) {
        const std::size_t at = graph_.offsets.back();
        const std::size_t count = fuzzy_union_row(knn, strengths_.data(), reverse_, graph_row_,
                                                  &graph_.columns[at], &graph_.weights[at]);
        graph_.offsets.push_back(at + count);
      }
      if (graph_row_ == rows_) finish_graph();
      break;
    }
  }
}

}  // namespace embeddings::layout
