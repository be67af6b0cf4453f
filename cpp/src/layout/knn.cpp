// The exact cosine kNN graph that UMAP starts from, built a block of rows
// at a time so a caller can yield between blocks, and the share of each
// row's nearest neighbours a 2-d map keeps (layout.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "embeddings/kernels/kernels.h"
#include "embeddings/layout/layout.h"

namespace embeddings::layout {

// ---- kNN -------------------------------------------------------------------------

void KnnGraph::begin(const float* table, std::size_t rows, std::size_t cols, std::size_t k) {
  rows_ = rows;
  cols_ = cols;
  k_ = k;
  next_row_ = 0;
  unit_rows_.assign(rows * cols, 0.0f);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = table + r * cols;
    const double squared = layout_dot(row, row, cols);
    const float inverse = squared > 0 ? static_cast<float>(1 / std::sqrt(squared)) : 0.0f;
    for (std::size_t c = 0; c < cols; ++c) unit_rows_[r * cols + c] = row[c] * inverse;
  }
  indices_.assign(rows * k, -1);
  scores_.assign(rows * k, 0.0f);
  distances_.assign(rows * k, 0.0f);
  counts_.assign(rows, 0);
}

void KnnGraph::offer(std::size_t row, std::int32_t other, float score) {
  std::int32_t* indices = &indices_[row * k_];
  float* scores = &scores_[row * k_];
  std::size_t& count = counts_[row];
  auto better = [&](std::size_t slot) {
    return score > scores[slot] || (score == scores[slot] && other < indices[slot]);
  };
  if (count == k_ && !better(k_ - 1)) return;
  std::size_t slot = count < k_ ? count++ : k_ - 1;
  while (slot > 0 && better(slot - 1)) {
    scores[slot] = scores[slot - 1];
    indices[slot] = indices[slot - 1];
    --slot;
  }
  scores[slot] = score;
  indices[slot] = other;
}

bool KnnGraph::step() {
  if (done()) return false;
  const std::size_t begin = next_row_, end = std::min(rows_, next_row_ + kBlockRows);
  // Each pair (i, j), i < j, once: the block's rows against every later row.
  for (std::size_t j = begin + 1; j < rows_; ++j) {
    const float* row_j = &unit_rows_[j * cols_];
    const std::size_t last = std::min(end, j);
    for (std::size_t i = begin; i < last; ++i) {
      const float score = layout_dot(&unit_rows_[i * cols_], row_j, cols_);
      offer(i, static_cast<std::int32_t>(j), score);
      offer(j, static_cast<std::int32_t>(i), score);
    }
  }
  next_row_ = end;
  if (done()) {
    for (std::size_t i = 0; i < rows_ * k_; ++i) distances_[i] = 1.0f - scores_[i];
    std::vector<float>().swap(unit_rows_);
  }
  return !done();
}

double KnnGraph::total_pairs() const { return 0.5 * static_cast<double>(rows_) * static_cast<double>(rows_); }
double KnnGraph::remaining_pairs() const {
  const double left = static_cast<double>(rows_ - next_row_);
  return 0.5 * left * left;
}

void cosine_knn_reference(const float* table, std::size_t rows, std::size_t cols, std::size_t k,
                          std::vector<std::int32_t>& indices, std::vector<double>& distances) {
  indices.assign(rows * k, -1);
  distances.assign(rows * k, 0.0);
  std::vector<std::pair<double, std::int32_t>> scored;
  for (std::size_t i = 0; i < rows; ++i) {
    scored.clear();
    for (std::size_t j = 0; j < rows; ++j) {
      if (j == i) continue;
      double ab = 0, aa = 0, bb = 0;
      for (std::size_t c = 0; c < cols; ++c) {
        const double a = table[i * cols + c], b = table[j * cols + c];
        ab += a * b;
        aa += a * a;
        bb += b * b;
      }
      const double cosine = aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : 0.0;
      scored.emplace_back(-cosine, static_cast<std::int32_t>(j));
    }
    std::sort(scored.begin(), scored.end());
    for (std::size_t n = 0; n < k; ++n) {
      indices[i * k + n] = scored[n].second;
      distances[i * k + n] = 1 + scored[n].first;
    }
  }
}

// ---- Judging a map -----------------------------------------------------------------------

double neighbours_kept(const float* table, std::size_t rows, std::size_t cols, const float* map,
                       std::size_t k) {
  if (rows < 2 || k == 0) return 0;
  if (k > rows - 1) k = rows - 1;
  KnnGraph graph;
  graph.begin(table, rows, cols, k);
  while (graph.step()) {
  }
  std::vector<std::pair<float, std::int32_t>> scored(rows);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    std::size_t n = 0;
    for (std::size_t j = 0; j < rows; ++j) {
      if (j == i) continue;
      const float dx = map[2 * i] - map[2 * j], dy = map[2 * i + 1] - map[2 * j + 1];
      scored[n++] = {dx * dx + dy * dy, static_cast<std::int32_t>(j)};
    }
    std::partial_sort(scored.begin(), scored.begin() + k, scored.begin() + n);
    const std::int32_t* near = &graph.indices()[i * k];
    for (std::size_t m = 0; m < k; ++m)
      for (std::size_t q = 0; q < k; ++q)
        if (scored[m].second == near[q]) {
          ++kept;
          break;
        }
  }
  return static_cast<double>(kept) / static_cast<double>(rows * k);
}

}  // namespace embeddings::layout
