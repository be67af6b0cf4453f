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

void NnDescent::start_tree() {
  order_.resize(rows_);
  for (std::size_t r = 0; r < rows_; ++r) order_[r] = static_cast<std::int32_t>(r);
  nodes_.assign(1, Node{0, rows_, 0});
  splitting_ = false;
}

bool NnDescent::next_node() {
  // The next node of this tree, or of the next one; false once every tree is built.
  while (nodes_.empty()) {
    if (tree_ + 1 >= options_.trees) return false;
    ++tree_;
    start_tree();
  }
  node_ = nodes_.back();
  nodes_.pop_back();
  return true;
}

void NnDescent::prepare_trees(double budget) {
  // Leaves give batches of pairs, splits rounds of margins; the pairs made
  // before a split are pushed before it starts.
  for (;;) {
    if (splitting_) {
      if (!pair_a_.empty()) break;
      const std::size_t count =
          std::max<std::size_t>(1, static_cast<std::size_t>(budget / evaluation_cost()));
      round_ = Round::Margins;
      round_first_ = next_margin_;
      round_end_ = std::min(node_.end, next_margin_ + count);
      round_tasks_ = tasks_of(round_end_ - round_first_, 2048);
      return;
    }
    if (!next_node()) {
      if (!pair_a_.empty()) break;
      std::vector<std::int32_t>().swap(order_);
      std::vector<std::int32_t>().swap(scratch_order_);
      std::vector<float>().swap(margins_);
      fill();
      return;
    }
    const std::size_t size = node_.end - node_.begin;
    if (size <= options_.leaf_size || node_.depth >= 200) {
      leaf_pairs(node_.begin, node_.end);
      if (pair_a_.size() >= pair_capacity_) break;
    } else {
      start_split();
    }
  }
  round_ = Round::Pairs;
  round_tasks_ = tasks_of(pair_a_.size(), 256);
}

void NnDescent::start_split() {
  // The hyperplane halfway between two of the node's rows, drawn for this tree and node.
  const std::size_t size = node_.end - node_.begin;
  SplitMix64 random(mix(mix(options_.seed, tree_), node_.begin * (rows_ + 1) + node_.end));
  const std::size_t left = node_.begin + random.below(static_cast<std::uint32_t>(size));
  std::size_t right = node_.begin + random.below(static_cast<std::uint32_t>(size - 1));
  if (right >= left) ++right;
  const std::size_t a = static_cast<std::size_t>(order_[left]), b = static_cast<std::size_t>(order_[right]);
  std::vector<float> other(table_.cols);
  normal_.resize(table_.cols);
  table_.widen_row(a, normal_.data(), cosines_.scale_of(a));
  table_.widen_row(b, other.data(), cosines_.scale_of(b));
  for (std::size_t c = 0; c < table_.cols; ++c)
    normal_[c] = normal_[c] * cosines_.inverse[a] - other[c] * cosines_.inverse[b];
  margins_.resize(rows_);
  next_margin_ = node_.begin;
  splitting_ = true;
}

float NnDescent::margin(std::size_t r) const {
  // The row widened and scaled a piece at a time: layout_dot's bits, and
  // nothing shared, so that several threads may do it at once.
  const float scale = cosines_.scale_of(r);
  const std::size_t cols = table_.cols;
  if (table_.numbers == Numbers::Float32 && scale == 1.0f)
    return layout_dot(normal_.data(), table_.floats(r), cols);
  constexpr std::size_t kPiece = 256;
  float piece[kPiece];
  DotLanes lanes;
  for (std::size_t begin = 0; begin < cols; begin += kPiece) {
    const std::size_t n = std::min(kPiece, cols - begin);
    table_.widen_range(r, begin, n, piece, scale);
    lanes.add(normal_.data() + begin, piece, n);
  }
  return lanes.sum();
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

void NnDescent::leaf_pairs(std::size_t begin, std::size_t end) {
  for (std::size_t a = begin; a < end; ++a)
    for (std::size_t b = a + 1; b < end; ++b) {
      pair_a_.push_back(static_cast<std::uint32_t>(order_[a]));
      pair_b_.push_back(static_cast<std::uint32_t>(order_[b]));
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
