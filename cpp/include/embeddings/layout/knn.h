// The k nearest neighbours of every row by cosine, which UMAP starts from,
// two ways, each done in steps so that a caller can yield between them:
//
// - KnnGraph: exact, every pair of rows once (rows² / 2 dot products); the
//   rows normalised to unit length, then dotted. Fast enough for the
//   default table's 4,096 rows, hours for 128,000.
// - NnDescent: approximate, as umap-learn's pynndescent does: a forest of
//   random-projection trees gives each row candidates (the rows that share
//   its leaves), then NN-descent (Dong, Moses and Li 2011) improves each
//   row's list from its neighbours' neighbours until few lists change. The
//   cosine of two rows is their dot product times both inverse norms.
//
// Both: ties go to the smaller index; a row of zeros has cosine 0 with every
// row; results are the same bits for a seed, natively and in WebAssembly;
// 16-bit tables are read in their 16 bits (table.h), and rows whose
// squares would leave float32's range are scaled by a power of two first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "embeddings/layout/table.h"

namespace embeddings::layout {

// Each row's range scale (1 for all but rows beyond [2^-40, 2^40]: table.h)
// and inverse norm, computed a chunk of rows at a time.
struct CosineRows {
  std::vector<float> scale;    // (rows), or empty when every row's is 1
  std::vector<float> inverse;  // (rows): 1 / |row| as float32, 0 for a zero row
  // Room for every row's numbers (so that compute may run on several
  // threads at once, on different rows).
  void prepare(const TableView& table);
  // Rows [first, end) of `table`, which must be finite.
  void compute(const TableView& table, std::size_t first, std::size_t end);
  float scale_of(std::size_t r) const { return scale.empty() ? 1.0f : scale[r]; }
  // The cosine of rows i and j, the same bits in either order.
  float cosine(const TableView& table, std::size_t i, std::size_t j) const;
  // The cosines of row i with rows j[0..3], into out: cosine's bits, four at a time.
  void cosines4(const TableView& table, std::size_t i, const std::uint32_t j[4], float out[4]) const;
};

// The exact graph. indices (rows, k) and cosine distances 1 - cos (rows, k),
// best first. k < rows.
class KnnGraph {
 public:
  void begin(const float* table, std::size_t rows, std::size_t cols, std::size_t k);
  void begin(const TableView& table, std::size_t k);
  // What work_total() is for a table of rows × cols.
  static double expected_work(std::size_t rows, std::size_t cols);
  // Processes the next piece (the norms of a chunk of rows, or a block of
  // rows against every later row); false when every row is done (then
  // `indices` and `distances` are final).
  bool step();
  bool done() const { return next_row_ >= rows_ && norms_done_ >= rows_; }
  double progress() const;
  // Multiply-adds: done so far and in all.
  double work_done() const;
  double work_total() const;
  std::size_t rows() const { return rows_; }
  std::size_t k() const { return k_; }
  const std::vector<std::int32_t>& indices() const { return indices_; }
  const std::vector<float>& distances() const { return distances_; }

  static constexpr std::size_t kBlockRows = 32;

 private:
  void offer(std::size_t row, std::int32_t other, float score);
  void unit_row(std::size_t r, float* out) const;

  TableView table_;
  std::size_t rows_ = 0, k_ = 0, next_row_ = 0, norms_done_ = 0;
  CosineRows cosines_;
  std::vector<float> block_, row_;
  std::vector<std::int32_t> indices_;
  std::vector<float> distances_, scores_;  // scores_: cosines while building, best first
  std::vector<std::size_t> counts_;
};

struct NnDescentOptions {
  // 0: chosen by the table's size (nn_descent.cpp says how).
  std::size_t trees = 0, leaf_size = 0, max_candidates = 0, iterations = 0;
  // Stop once an iteration changes fewer than delta × rows × k list entries.
  double delta = 0.001;
  std::uint64_t seed = 1;
};

// The approximate graph, in the same form as KnnGraph's.
//
// Its work comes in rounds of independent tasks: the norms of ranges of
// rows, the sides of a hyperplane of ranges of a node's rows, the cosines of
// batches of candidate pairs. begin_tasks prepares a round of about
// `budget` multiply-adds and says how many tasks it holds; run_task computes
// one (in any order, or several at once on other threads: each writes only
// its own entries); finish_tasks pushes the pairs' cosines into the lists in
// the order the pairs were made. step() is all three. How the work is cut
// into rounds and tasks changes no bit of the result.
class NnDescent {
 public:
  bool begin(const TableView& table, std::size_t k, const NnDescentOptions& options, std::string& error);
  // Does the next round of work, about `budget` multiply-adds; false when done.
  bool step(double budget = 4e6);
  std::size_t begin_tasks(double budget = 4e6);
  void run_task(std::size_t task);
  void finish_tasks();
  bool done() const { return phase_ == Phase::Done; }
  double progress() const;
  double work_done() const { return work_done_; }
  double work_total() const;
  // What work_total() will be at the start, for a table of rows × cols and k.
  static double expected_work(std::size_t rows, std::size_t cols, std::size_t k,
                              const NnDescentOptions& options);
  std::size_t iterations() const { return iteration_; }
  std::size_t k() const { return k_; }
  const NnDescentOptions& options() const { return options_; }
  const std::vector<std::int32_t>& indices() const { return indices_; }
  const std::vector<float>& distances() const { return distances_; }

 private:
  enum class Phase { Norms, Trees, Candidates, Join, Done };
  enum class Round { None, Norms, Margins, Pairs };
  struct Node {
    std::size_t begin, end, depth;
  };
  // Heaps: each row's best k so far, best first; flag 1 = new, 0 = old, 2 = added this iteration.
  bool push(std::size_t row, std::size_t other, float score);
  std::size_t tasks_of(std::size_t items, std::size_t per_task);
  void prepare_trees(double budget);
  void start_tree();
  bool next_node();
  void start_split();
  void finish_split();
  void leaf_pairs(std::size_t begin, std::size_t end);
  void fill();
  bool build_candidates(double budget);
  void offer_neighbours(std::size_t row);
  void mark_chosen(std::size_t row);
  void offer_candidate(std::vector<std::int32_t>& lists, std::vector<std::uint32_t>& priorities,
                       std::vector<std::uint32_t>& counts, std::size_t row, std::int32_t other,
                       std::uint32_t priority) const;
  void join_pairs(std::size_t row);
  void push_pairs();
  void finish_iteration();
  void finish();
  float margin(std::size_t r) const;
  double evaluation_cost() const { return static_cast<double>(table_.cols); }
  static NnDescentOptions settled(const NnDescentOptions& options, std::size_t rows, std::size_t k);

  TableView table_;
  NnDescentOptions options_;
  Phase phase_ = Phase::Done;
  std::size_t rows_ = 0, k_ = 0, next_row_ = 0, tree_ = 0, iteration_ = 0, max_iterations_ = 0;
  double work_done_ = 0, start_work_ = 0, join_work_ = 0, last_join_work_ = 0;
  mutable double shown_progress_ = 0;
  CosineRows cosines_;
  std::vector<std::int32_t> heap_index_;
  std::vector<float> heap_score_;
  std::vector<std::uint8_t> heap_flag_;
  std::vector<std::uint32_t> heap_count_;
  // The round under way: what it computes, its range, its tasks.
  Round round_ = Round::None;
  std::size_t round_first_ = 0, round_end_ = 0, round_tasks_ = 0, per_task_ = 1;
  // The candidate pairs of the round and their cosines.
  std::vector<std::uint32_t> pair_a_, pair_b_;
  std::vector<float> pair_score_;
  std::size_t pair_capacity_ = 0;
  // The tree being built: a permutation of the rows, the nodes left to
  // split, and the one being split (its hyperplane and the margins so far).
  std::vector<std::int32_t> order_, scratch_order_;
  std::vector<Node> nodes_;
  Node node_{0, 0, 0};
  bool splitting_ = false;
  std::size_t next_margin_ = 0;
  std::vector<float> normal_, margins_;
  // This iteration's candidates: each row's new and old ones, by priority.
  std::vector<std::int32_t> new_candidates_, old_candidates_;
  std::vector<std::uint32_t> new_priority_, old_priority_, new_count_, old_count_;
  std::size_t candidate_step_ = 0;  // build_candidates' progress: 0 to 2 rows
  std::vector<std::int32_t> indices_;
  std::vector<float> distances_;
};

// The exact neighbours in double precision, the tests' oracle.
void cosine_knn_reference(const float* table, std::size_t rows, std::size_t cols, std::size_t k,
                          std::vector<std::int32_t>& indices, std::vector<double>& distances);

}  // namespace embeddings::layout
