// NnDescent's start (knn.h): the rows' norms, a forest of random-projection
// trees whose leaves give each row its first candidates, and random rows
// for any row its leaves left short.
//
// The trees are pynndescent's angular ones: a node's rows are split by the
// hyperplane through the origin halfway between two of its rows (its normal
// the difference of their unit vectors), down to leaves of `leaf_size` rows;
// the rows of a leaf are each other's first candidates. Each tree's random
// choices come from the seed, the tree and the node, so the trees are the
// same however the work is sliced.
#include <algorithm>
#include <cmath>

#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/knn.h"

namespace embeddings::layout {

void NnDescent::norms_step(double budget) {
  const double per_row = static_cast<double>(table_.cols) * 2;
  const std::size_t count = std::max<std::size_t>(1, static_cast<std::size_t>(budget / per_row));
  const std::size_t end = std::min(rows_, next_row_ + count);
  cosines_.compute(table_, next_row_, end);
  work_done_ += static_cast<double>(end - next_row_) * per_row;
  next_row_ = end;
  if (next_row_ < rows_) return;
  phase_ = Phase::Trees;
  tree_ = 0;
  start_tree();
}

void NnDescent::start_tree() {
  order_.resize(rows_);
  for (std::size_t r = 0; r < rows_; ++r) order_[r] = static_cast<std::int32_t>(r);
  nodes_.assign(1, Node{0, rows_, 0});
  splitting_ = false;
}

void NnDescent::trees_step(double budget) {
  while (budget > 0) {
    if (splitting_) {
      if (!split_step(budget)) return;
      finish_split();
      continue;
    }
    if (nodes_.empty()) {
      if (++tree_ < options_.trees) {
        start_tree();
        continue;
      }
      std::vector<std::int32_t>().swap(order_);
      std::vector<std::int32_t>().swap(scratch_order_);
      std::vector<float>().swap(margins_);
      fill();
      return;
    }
    node_ = nodes_.back();
    nodes_.pop_back();
    const std::size_t size = node_.end - node_.begin;
    if (size <= options_.leaf_size || node_.depth >= 200) {
      leaf(node_.begin, node_.end);
      budget -= 0.5 * static_cast<double>(size * size) * evaluation_cost();
      continue;
    }
    // The hyperplane halfway between two of the node's rows, drawn for this tree and node.
    SplitMix64 random(mix(mix(options_.seed, tree_), node_.begin * (rows_ + 1) + node_.end));
    const std::size_t left = node_.begin + random.below(static_cast<std::uint32_t>(size));
    std::size_t right = node_.begin + random.below(static_cast<std::uint32_t>(size - 1));
    if (right >= left) ++right;
    const std::size_t a = static_cast<std::size_t>(order_[left]), b = static_cast<std::size_t>(order_[right]);
    normal_.resize(table_.cols);
    row_.resize(table_.cols);
    table_.widen_row(a, normal_.data(), cosines_.scale_of(a));
    table_.widen_row(b, row_.data(), cosines_.scale_of(b));
    for (std::size_t c = 0; c < table_.cols; ++c)
      normal_[c] = normal_[c] * cosines_.inverse[a] - row_[c] * cosines_.inverse[b];
    margins_.resize(rows_);
    next_margin_ = node_.begin;
    splitting_ = true;
  }
}

float NnDescent::margin(std::size_t r) {
  const float scale = cosines_.scale_of(r);
  if (table_.numbers == Numbers::Float32 && scale == 1.0f)
    return layout_dot(normal_.data(), table_.floats(r), table_.cols);
  table_.widen_row(r, row_.data(), scale);
  return layout_dot(normal_.data(), row_.data(), table_.cols);
}

bool NnDescent::split_step(double& budget) {
  // The side of the hyperplane of each of the node's rows, a budget at a time.
  const double cost = static_cast<double>(table_.cols);
  while (next_margin_ < node_.end && budget > 0) {
    margins_[next_margin_] = margin(static_cast<std::size_t>(order_[next_margin_]));
    ++next_margin_;
    budget -= cost;
    work_done_ += cost;
  }
  return next_margin_ == node_.end;
}

void NnDescent::finish_split() {
  // Rows on the positive side first, each side in its order; a row on the
  // plane goes to a side drawn for it; if every row fell on one side, the
  // node is halved instead.
  splitting_ = false;
  const std::size_t begin = node_.begin, end = node_.end;
  scratch_order_.resize(end - begin);
  std::vector<unsigned char> side(end - begin);
  std::size_t left = 0;
  for (std::size_t p = begin; p < end; ++p) {
    const float m = margins_[p];
    const bool positive =
        m > 0 || (m == 0 && (mix(mix(options_.seed, tree_), static_cast<std::uint64_t>(order_[p])) & 1));
    side[p - begin] = positive;
    left += positive;
  }
  if (left == 0 || left == end - begin) {
    left = (end - begin) / 2;
    for (std::size_t p = 0; p < end - begin; ++p) side[p] = p < left;
  }
  std::size_t low = 0, high = left;
  for (std::size_t p = begin; p < end; ++p) scratch_order_[side[p - begin] ? low++ : high++] = order_[p];
  std::copy(scratch_order_.begin(), scratch_order_.begin() + (end - begin), order_.begin() + begin);
  nodes_.push_back(Node{begin + left, end, node_.depth + 1});
  nodes_.push_back(Node{begin, begin + left, node_.depth + 1});
}

void NnDescent::leaf(std::size_t begin, std::size_t end) {
  for (std::size_t a = begin; a < end; ++a)
    for (std::size_t b = a + 1; b < end; ++b) {
      const std::size_t u = static_cast<std::size_t>(order_[a]), v = static_cast<std::size_t>(order_[b]);
      const float score = cosines_.cosine(table_, u, v);
      push(u, v, score);
      push(v, u, score);
      work_done_ += evaluation_cost();
    }
}

void NnDescent::fill() {
  // Rows whose leaves held fewer than k others: random rows, drawn for the row.
  for (std::size_t row = 0; row < rows_; ++row) {
    SplitMix64 random(mix(options_.seed ^ 0xF111u, row));
    for (std::size_t attempt = 0; heap_count_[row] < k_ && attempt < 64 * k_; ++attempt) {
      const std::size_t other = random.below(static_cast<std::uint32_t>(rows_));
      if (other != row) push(row, other, cosines_.cosine(table_, row, other));
    }
    for (std::size_t other = 0; heap_count_[row] < k_ && other < rows_; ++other)
      if (other != row) push(row, other, cosines_.cosine(table_, row, other));
  }
  // What the trees found counts as new for the first iteration.
  for (std::uint8_t& flag : heap_flag_) flag = flag ? 1 : 0;
  start_work_ = work_done_;
  phase_ = Phase::Candidates;
}

}  // namespace embeddings::layout
