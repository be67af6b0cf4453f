// NN-descent (knn.h; Dong, Moses and Li 2011, as pynndescent does it): each
// iteration gives every row candidates, its neighbours and the rows that
// have it as a neighbour (at most max_candidates of each kind, new ones and
// old ones, chosen by a random priority), and tries every pair of a row's
// candidates as neighbours of each other ("local join"); it stops once an
// iteration changes few lists. The trees that start it are in rp_trees.cpp.
//
// Determinism: a row's list is the best k of every pair tried for it, ties
// to the smaller index, whatever order the pairs came in; the candidates'
// priorities are hashes of the seed, the iteration and the pair. So the
// graph is the same for a seed however the work is sliced.
#include <algorithm>
#include <cmath>

#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/knn.h"

namespace embeddings::layout {
namespace {

// The iterations the progress expects (measured: 4 to 6 at delta 0.001).
constexpr int kExpectedIterations = 5;

}  // namespace

bool NnDescent::begin(const TableView& table, std::size_t k, const NnDescentOptions& options,
                      std::string& error) {
  phase_ = Phase::Done;
  if (k == 0 || k >= table.rows) {
    error = "k must be from 1 to rows - 1";
    return false;
  }
  if (table.rows > (std::size_t{1} << 31) - 1) {
    error = "NN-descent takes at most 2^31 - 1 rows";
    return false;
  }
  table_ = table;
  rows_ = table.rows;
  k_ = k;
  options_ = settled(options, rows_, k);
  max_iterations_ = options_.iterations;
  heap_index_.assign(rows_ * k, -1);
  heap_score_.assign(rows_ * k, 0.0f);
  heap_flag_.assign(rows_ * k, 0);
  heap_count_.assign(rows_, 0);
  cosines_ = CosineRows();
  cosines_.prepare(table);
  round_ = Round::None;
  pair_a_.clear();
  pair_b_.clear();
  work_done_ = join_work_ = last_join_work_ = 0;
  shown_progress_ = 0;
  next_row_ = tree_ = iteration_ = candidate_step_ = 0;
  phase_ = Phase::Norms;
  return true;
}

bool NnDescent::push(std::size_t row, std::size_t other, float score) {
  if (other == row) return false;
  std::int32_t* index = &heap_index_[row * k_];
  float* scores = &heap_score_[row * k_];
  std::uint8_t* flags = &heap_flag_[row * k_];
  std::uint32_t& count = heap_count_[row];
  const std::int32_t candidate = static_cast<std::int32_t>(other);
  auto better = [&](std::size_t slot) {
    return score > scores[slot] || (score == scores[slot] && candidate < index[slot]);
  };
  if (count == k_ && !better(k_ - 1)) return false;
  for (std::size_t s = 0; s < count; ++s)
    if (index[s] == candidate) return false;
  std::size_t slot = count < k_ ? count++ : k_ - 1;
  while (slot > 0 && better(slot - 1)) {
    scores[slot] = scores[slot - 1];
    index[slot] = index[slot - 1];
    flags[slot] = flags[slot - 1];
    --slot;
  }
  scores[slot] = score;
  index[slot] = candidate;
  flags[slot] = 2;
  return true;
}

NnDescentOptions NnDescent::settled(const NnDescentOptions& options, std::size_t rows, std::size_t k) {
  // pynndescent's choices for umap-learn, with fewer trees: NN-descent makes up the rest.
  NnDescentOptions out = options;
  if (out.leaf_size == 0) out.leaf_size = std::max<std::size_t>(2 * k, 24);
  if (out.trees == 0)
    out.trees =
        std::min<std::size_t>(8, 2 + static_cast<std::size_t>(std::sqrt(static_cast<double>(rows)) / 100));
  if (out.max_candidates == 0) out.max_candidates = std::max<std::size_t>(k + 1, 8);
  if (out.iterations == 0)
    out.iterations =
        std::max<std::size_t>(5, static_cast<std::size_t>(std::log2(static_cast<double>(rows)) + 0.5));
  return out;
}

double NnDescent::expected_work(std::size_t rows, std::size_t cols, std::size_t k,
                                const NnDescentOptions& options) {
  const NnDescentOptions o = settled(options, rows, k);
  const double r = static_cast<double>(rows), c = static_cast<double>(cols);
  const double leaf = static_cast<double>(o.leaf_size), m = static_cast<double>(o.max_candidates);
  const double depth = std::max(1.0, std::log2(r / leaf));
  double joins = 0, next = 1.5 * m * m * r * c;
  for (int i = 0; i < kExpectedIterations; ++i, next *= 0.6) joins += next;
  return 2 * r * c + static_cast<double>(o.trees) * r * (depth + 0.5 * leaf) * c + joins;
}

std::size_t NnDescent::tasks_of(std::size_t items, std::size_t per_task) {
  per_task_ = per_task;
  return (items + per_task - 1) / per_task;
}

std::size_t NnDescent::begin_tasks(double budget) {
  if (round_ != Round::None) return round_tasks_;
  pair_capacity_ = std::max<std::size_t>(256, static_cast<std::size_t>(budget / evaluation_cost()));
  pair_a_.clear();
  pair_b_.clear();
  switch (phase_) {
    case Phase::Norms: {
      const std::size_t count =
          std::max<std::size_t>(1, static_cast<std::size_t>(budget / (2 * evaluation_cost())));
      round_ = Round::Norms;
      round_first_ = next_row_;
      round_end_ = std::min(rows_, next_row_ + count);
      round_tasks_ = tasks_of(round_end_ - round_first_, 256);
      break;
    }
    case Phase::Trees: prepare_trees(budget); break;
    case Phase::Candidates:
      // Candidates are chosen in slices of about `budget`, on this thread
      // (each row's offers go to others' lists, in row order): no tasks.
      if (!build_candidates(budget)) return 0;
      phase_ = Phase::Join;
      next_row_ = 0;
      join_work_ = 0;
      [[fallthrough]];
    case Phase::Join:
      while (next_row_ < rows_ && pair_a_.size() < pair_capacity_) join_pairs(next_row_++);
      if (pair_a_.empty()) {
        finish_iteration();
        return 0;
      }
      round_ = Round::Pairs;
      round_tasks_ = tasks_of(pair_a_.size(), 256);
      break;
    case Phase::Done: break;
  }
  if (round_ == Round::None) return 0;
  if (round_ == Round::Pairs) pair_score_.resize(pair_a_.size());
  return round_tasks_;
}

void NnDescent::run_task(std::size_t task) {
  switch (round_) {
    case Round::Norms: {
      const std::size_t first = round_first_ + task * per_task_;
      cosines_.compute(table_, first, std::min(round_end_, first + per_task_));
      break;
    }
    case Round::Margins: {
      const std::size_t first = round_first_ + task * per_task_,
                        end = std::min(round_end_, first + per_task_);
      for (std::size_t p = first; p < end; ++p) margins_[p] = margin(static_cast<std::size_t>(order_[p]));
      break;
    }
    case Round::Pairs: {
      const std::size_t first = task * per_task_, end = std::min(pair_a_.size(), first + per_task_);
      for (std::size_t p = first; p < end;) {
        // Four pairs of one row at once where they come so (join_pairs makes
        // a candidate's pairs together; a run can still be shorter than four,
        // and another row's run can follow, so every one is checked).
        const std::uint32_t u = pair_a_[p];
        if (p + 4 <= end && pair_a_[p + 1] == u && pair_a_[p + 2] == u && pair_a_[p + 3] == u) {
          cosines_.cosines4(table_, u, &pair_b_[p], &pair_score_[p]);
          p += 4;
        } else {
          pair_score_[p] = cosines_.cosine(table_, pair_a_[p], pair_b_[p]);
          ++p;
        }
      }
      break;
    }
    case Round::None: break;
  }
}

void NnDescent::finish_tasks() {
  const Round round = round_;
  round_ = Round::None;
  const double cost = evaluation_cost();
  switch (round) {
    case Round::Norms:
      work_done_ += static_cast<double>(round_end_ - round_first_) * 2 * cost;
      next_row_ = round_end_;
      if (next_row_ == rows_) {
        phase_ = Phase::Trees;
        tree_ = 0;
        start_tree();
      }
      break;
    case Round::Margins:
      work_done_ += static_cast<double>(round_end_ - round_first_) * cost;
      next_margin_ = round_end_;
      if (next_margin_ == node_.end) finish_split();
      break;
    case Round::Pairs: push_pairs(); break;
    case Round::None: break;
  }
}

void NnDescent::push_pairs() {
  // In the order the pairs were made: the lists as if each were pushed as it was scored.
  for (std::size_t p = 0; p < pair_a_.size(); ++p) {
    push(pair_a_[p], pair_b_[p], pair_score_[p]);
    push(pair_b_[p], pair_a_[p], pair_score_[p]);
  }
  const double work = static_cast<double>(pair_a_.size()) * evaluation_cost();
  work_done_ += work;
  if (phase_ == Phase::Join) {
    join_work_ += work;
    if (next_row_ == rows_) finish_iteration();
  }
  pair_a_.clear();
  pair_b_.clear();
}

bool NnDescent::step(double budget) {
  const std::size_t tasks = begin_tasks(budget);
  for (std::size_t task = 0; task < tasks; ++task) run_task(task);
  finish_tasks();
  return phase_ != Phase::Done;
}

void NnDescent::offer_candidate(std::vector<std::int32_t>& lists, std::vector<std::uint32_t>& priorities,
                                std::vector<std::uint32_t>& counts, std::size_t row, std::int32_t other,
                                std::uint32_t priority) const {
  // Keeps the max_candidates lowest priorities, each candidate once.
  const std::size_t m = options_.max_candidates;
  std::int32_t* list = &lists[row * m];
  std::uint32_t* rank = &priorities[row * m];
  std::uint32_t& count = counts[row];
  std::size_t worst = 0;
  for (std::size_t s = 0; s < count; ++s) {
    if (list[s] == other) return;
    if (rank[s] > rank[worst]) worst = s;
  }
  if (count < m) {
    list[count] = other;
    rank[count++] = priority;
  } else if (priority < rank[worst]) {
    list[worst] = other;
    rank[worst] = priority;
  }
}

bool NnDescent::build_candidates(double budget) {
  // Steps 0 .. rows - 1 offer each row's neighbours as candidates (both
  // ways); steps rows .. 2 rows - 1 mark the new neighbours chosen as old.
  const std::size_t m = options_.max_candidates;
  if (candidate_step_ == 0) {
    new_candidates_.assign(rows_ * m, -1);
    old_candidates_.assign(rows_ * m, -1);
    new_priority_.assign(rows_ * m, 0);
    old_priority_.assign(rows_ * m, 0);
    new_count_.assign(rows_, 0);
    old_count_.assign(rows_, 0);
  }
  // A step looks at k neighbours, each against up to m candidates twice;
  // each look reads another row's list, mostly out of cache: measured at
  // about 16 multiply-adds' time (152k rows, k = 14).
  const double step_cost = 32.0 * static_cast<double>(k_ * m);
  const std::size_t steps = std::max<std::size_t>(64, static_cast<std::size_t>(budget / step_cost));
  const std::size_t end = std::min(2 * rows_, candidate_step_ + steps);
  for (; candidate_step_ < end; ++candidate_step_) {
    if (candidate_step_ < rows_)
      offer_neighbours(candidate_step_);
    else
      mark_chosen(candidate_step_ - rows_);
  }
  if (candidate_step_ < 2 * rows_) return false;
  candidate_step_ = 0;
  std::vector<std::uint32_t>().swap(new_priority_);
  std::vector<std::uint32_t>().swap(old_priority_);
  return true;
}

void NnDescent::offer_neighbours(std::size_t i) {
  const std::uint64_t salt = mix(options_.seed, 0x9E37u + iteration_);
  auto priority = [&](std::size_t a, std::size_t b) {
    return static_cast<std::uint32_t>(mix(salt, static_cast<std::uint64_t>(a) * rows_ + b) >> 32);
  };
  for (std::size_t s = 0; s < heap_count_[i]; ++s) {
    const std::int32_t j = heap_index_[i * k_ + s];
    const std::size_t other = static_cast<std::size_t>(j);
    const bool fresh = heap_flag_[i * k_ + s] != 0;
    std::vector<std::int32_t>& lists = fresh ? new_candidates_ : old_candidates_;
    std::vector<std::uint32_t>& priorities = fresh ? new_priority_ : old_priority_;
    std::vector<std::uint32_t>& counts = fresh ? new_count_ : old_count_;
    offer_candidate(lists, priorities, counts, i, j, priority(i, other));
    offer_candidate(lists, priorities, counts, other, static_cast<std::int32_t>(i), priority(other, i));
  }
}

void NnDescent::mark_chosen(std::size_t i) {
  // A new neighbour chosen as a candidate is old from now on.
  const std::size_t m = options_.max_candidates;
  for (std::size_t s = 0; s < heap_count_[i]; ++s) {
    std::uint8_t& flag = heap_flag_[i * k_ + s];
    if (!flag) continue;
    const std::int32_t j = heap_index_[i * k_ + s];
    for (std::size_t c = 0; c < new_count_[i]; ++c)
      if (new_candidates_[i * m + c] == j) {
        flag = 0;
        break;
      }
  }
}

void NnDescent::join_pairs(std::size_t row) {
  // Every pair of the row's candidates with at least one new: each a
  // candidate neighbour of the other.
  const std::size_t m = options_.max_candidates;
  const std::int32_t* fresh = &new_candidates_[row * m];
  const std::int32_t* old = &old_candidates_[row * m];
  const std::size_t fresh_count = new_count_[row], old_count = old_count_[row];
  for (std::size_t a = 0; a < fresh_count; ++a) {
    const std::int32_t u = fresh[a];
    for (std::size_t b = a + 1; b < fresh_count + old_count; ++b) {
      const std::int32_t v = b < fresh_count ? fresh[b] : old[b - fresh_count];
      if (u == v) continue;
      pair_a_.push_back(static_cast<std::uint32_t>(u));
      pair_b_.push_back(static_cast<std::uint32_t>(v));
    }
  }
}

void NnDescent::finish_iteration() {
  std::size_t changes = 0;
  for (std::uint8_t& flag : heap_flag_)
    if (flag == 2) {
      flag = 1;
      ++changes;
    }
  ++iteration_;
  last_join_work_ = join_work_;
  const bool settled = static_cast<double>(changes) <= options_.delta * static_cast<double>(rows_ * k_);
  if (settled || iteration_ >= max_iterations_)
    finish();
  else
    phase_ = Phase::Candidates;
}

void NnDescent::finish() {
  indices_.swap(heap_index_);
  distances_.resize(rows_ * k_);
  for (std::size_t i = 0; i < rows_ * k_; ++i) distances_[i] = 1.0f - heap_score_[i];
  std::vector<float>().swap(heap_score_);
  std::vector<std::uint8_t>().swap(heap_flag_);
  std::vector<std::int32_t>().swap(new_candidates_);
  std::vector<std::int32_t>().swap(old_candidates_);
  phase_ = Phase::Done;
}

double NnDescent::work_total() const {
  if (done()) return work_done_;
  const double rows = static_cast<double>(rows_), cost = evaluation_cost();
  const double leaf = static_cast<double>(options_.leaf_size),
               m = static_cast<double>(options_.max_candidates);
  const bool started = phase_ == Phase::Candidates || phase_ == Phase::Join;
  // Before the iterations: the norms and the trees (their depth times the
  // rows, plus the pairs of the leaves); after, what they took.
  const double depth = std::max(1.0, std::log2(rows / leaf));
  const double before =
      started ? start_work_
              : 2 * rows * cost + static_cast<double>(options_.trees) * rows * (depth + 0.5 * leaf) * cost;
  // The first iteration tries about 1.5 m² pairs a row; each later one about 0.6 of the one before.
  const double next = last_join_work_ > 0 ? 0.6 * last_join_work_ : 1.5 * m * m * rows * cost;
  const double past = started ? work_done_ - start_work_ - join_work_ : 0;
  const double future = std::max(0.0, kExpectedIterations - static_cast<double>(iteration_) - 1) * next;
  return before + past + std::max(join_work_, next) + future;
}

double NnDescent::progress() const {
  if (done()) return 1;
  const double now = std::min(1.0, work_done_ / std::max(work_done_, work_total()));
  shown_progress_ = std::max(shown_progress_, now);
  return shown_progress_;
}

}  // namespace embeddings::layout
