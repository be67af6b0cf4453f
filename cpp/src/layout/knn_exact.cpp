// The exact cosine kNN graph (knn.h), a block of rows at a time so a caller
// can yield between blocks, the rows' norms it shares with NN-descent, and
// the double-precision reference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/knn.h"

namespace embeddings::layout {

// ---- Rows' norms ----------------------------------------------------------------------

void CosineRows::prepare(const TableView& table) {
  inverse.assign(table.rows, 0.0f);
  scale.assign(table.rows, 1.0f);
}

void CosineRows::compute(const TableView& table, std::size_t first, std::size_t end) {
  if (inverse.size() != table.rows) prepare(table);
  for (std::size_t r = first; r < end; ++r) {
    const float row_scale = range_scale(table.row_magnitude(r));
    scale[r] = row_scale;
    const double squared = row_dot(table, r, r, row_scale, row_scale);
    inverse[r] = squared > 0 ? static_cast<float>(1 / std::sqrt(squared)) : 0.0f;
  }
}

float CosineRows::cosine(const TableView& table, std::size_t i, std::size_t j) const {
  const std::size_t low = i < j ? i : j, high = i < j ? j : i;
  const float dot = row_dot(table, low, high, scale_of(low), scale_of(high));
  return (dot * inverse[low]) * inverse[high];
}

void CosineRows::cosines4(const TableView& table, std::size_t i, const std::uint32_t j[4],
                          float out[4]) const {
  const std::size_t rows[4] = {j[0], j[1], j[2], j[3]};
  const float scales[5] = {scale_of(i), scale_of(j[0]), scale_of(j[1]), scale_of(j[2]), scale_of(j[3])};
  float dots[4];
  row_dots4(table, i, rows, scales, dots);  // row_dot is the same bits in either order
  for (int n = 0; n < 4; ++n) {
    const std::size_t low = i < rows[n] ? i : rows[n], high = i < rows[n] ? rows[n] : i;
    out[n] = (dots[n] * inverse[low]) * inverse[high];
  }
}

// ---- The exact graph -------------------------------------------------------------------

void KnnGraph::begin(const float* table, std::size_t rows, std::size_t cols, std::size_t k) {
  begin(TableView::of_floats(table, rows, cols), k);
}

void KnnGraph::begin(const TableView& table, std::size_t k) {
  table_ = table;
  rows_ = table.rows;
  k_ = k;
  next_row_ = 0;
  norms_done_ = 0;
  cosines_ = CosineRows();
  cosines_.prepare(table);
  block_.assign(kBlockRows * table.cols, 0.0f);
  row_.assign(table.cols, 0.0f);
  indices_.assign(rows_ * k, -1);
  scores_.assign(rows_ * k, 0.0f);
  distances_.assign(rows_ * k, 0.0f);
  counts_.assign(rows_, 0);
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

void KnnGraph::unit_row(std::size_t r, float* out) const {
  // The row times its inverse norm, rounded as float32: the unit rows this
  // graph has always dotted.
  table_.widen_row(r, out, cosines_.scale_of(r));
  const float inverse = cosines_.inverse[r];
  for (std::size_t c = 0; c < table_.cols; ++c) out[c] *= inverse;
}

bool KnnGraph::step() {
  if (done()) return false;
  const std::size_t cols = table_.cols;
  if (norms_done_ < rows_) {
    // The norms first, a few million numbers a step.
    const std::size_t chunk = std::max<std::size_t>(1, (std::size_t{1} << 22) / (cols ? cols : 1));
    const std::size_t end = std::min(rows_, norms_done_ + chunk);
    cosines_.compute(table_, norms_done_, end);
    norms_done_ = end;
    return true;
  }
  const std::size_t begin = next_row_, end = std::min(rows_, next_row_ + kBlockRows);
  for (std::size_t i = begin; i < end; ++i) unit_row(i, &block_[(i - begin) * cols]);
  // Each pair (i, j), i < j, once: the block's rows against every later row.
  for (std::size_t j = begin + 1; j < rows_; ++j) {
    const float* row_j = j < end ? &block_[(j - begin) * cols] : row_.data();
    if (j >= end) unit_row(j, row_.data());
    const std::size_t last = std::min(end, j);
    for (std::size_t i = begin; i < last; ++i) {
      const float score = layout_dot(&block_[(i - begin) * cols], row_j, cols);
      offer(i, static_cast<std::int32_t>(j), score);
      offer(j, static_cast<std::int32_t>(i), score);
    }
  }
  next_row_ = end;
  if (done()) {
    for (std::size_t i = 0; i < rows_ * k_; ++i) distances_[i] = 1.0f - scores_[i];
    std::vector<float>().swap(block_);
    std::vector<float>().swap(scores_);
  }
  return !done();
}

double KnnGraph::expected_work(std::size_t rows, std::size_t cols) {
  const double r = static_cast<double>(rows), c = static_cast<double>(cols);
  return r * c + 0.5 * r * r * c;
}

double KnnGraph::work_total() const { return expected_work(rows_, table_.cols); }

double KnnGraph::work_done() const {
  const double rows = static_cast<double>(rows_), cols = static_cast<double>(table_.cols);
  const double left = static_cast<double>(rows_ - next_row_);
  return static_cast<double>(norms_done_) * cols + 0.5 * (rows * rows - left * left) * cols;
}

double KnnGraph::progress() const {
  const double total = work_total();
  return total > 0 ? work_done() / total : 1.0;
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

}  // namespace embeddings::layout
