// The UMAP-method layout (McInnes, Healy and Melville 2018) with umap-learn's
// choices, in steps: the start (PCA or a given layout), the kNN graph
// (knn.h), the fuzzy simplicial set in umap-learn's named steps
// (smooth_knn_dist, the membership strengths, the fuzzy union,
// make_epochs_per_sample), then stochastic gradient descent with negative
// sampling. Its choices and their measurements are in umap.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "embeddings/layout/knn.h"
#include "embeddings/layout/pca.h"
#include "embeddings/layout/table.h"

namespace embeddings::layout {

// The parameters of umap-learn that the layout uses; the names are theirs.
struct UmapOptions {
  std::size_t n_neighbors = 15;  // including the point itself, as umap-learn counts
  double min_dist = 0.1;
  double spread = 1.0;
  std::size_t n_epochs = 0;  // 0: by size: 120 up to 10,000 rows, 50 past (umap-learn: 500 and 200)
  std::uint64_t seed = 1;
  double negative_sample_rate = 5;
  double repulsion_strength = 1;
  double learning_rate = 1;
  // Exact neighbours up to this many rows, NN-descent past them (umap.cpp
  // says where they cost the same).
  std::size_t exact_neighbours_up_to = kExactNeighboursRows;
  NnDescentOptions nn_descent;  // its seed is derived from `seed`
  static constexpr std::size_t kExactNeighboursRows = 8192;
};

// The epochs used for `rows` when n_epochs is 0.
std::size_t default_epochs(std::size_t rows);

// The a, b of the curve 1 / (1 + a d^(2b)) that best fits (least squares,
// Gauss-Newton) the target "1 up to min_dist, then exp(-(d - min_dist) /
// spread)" on 300 points of [0, 3 spread], as umap-learn's find_ab_params.
void fit_ab(double min_dist, double spread, double& a, double& b);

// ---- The fuzzy simplicial set, in umap-learn's steps ----------------------------------------

// A kNN graph: for each row its k nearest other rows, best first, and their
// distances (rows, k) each.
struct NeighbourLists {
  std::size_t rows = 0, k = 0;
  const std::int32_t* indices = nullptr;
  const float* distances = nullptr;
};

// smooth_knn_dist for rows [first, end): each row's rho (distance to its
// nearest other row) and sigma (by bisection, 64 steps at most, so that
// its weights sum to log2(n_neighbors)), floored at 1e-3 of the mean distance.
// mean_distance: the mean of every row's k distances.
void smooth_knn_dist(const NeighbourLists& knn, std::size_t n_neighbors, double mean_distance,
                     std::size_t first, std::size_t end, double* rho, double* sigma);
// The membership strengths of rows [first, end)'s edges: exp(-(d - rho) /
// sigma), 1 for the nearest (weights (rows, k)).
void membership_strengths(const NeighbourLists& knn, const double* rho, const double* sigma,
                          std::size_t first, std::size_t end, double* weights);

// The graph's symmetric edges, row by row: the edges of row i are
// columns[offsets[i] .. offsets[i + 1]) in increasing order, with weights.
struct FuzzyGraph {
  std::vector<std::size_t> offsets;
  std::vector<std::int32_t> columns;
  std::vector<double> weights;
};
// The fuzzy union of the two directions of each edge: a + b - ab. The
// reverse edges are gathered first (reverse_edges, one pass), then each
// row's two lists are merged (fuzzy_union_rows, a range of rows at a time).
struct ReverseEdges {
  std::vector<std::size_t> offsets;   // (rows + 1)
  std::vector<std::int32_t> sources;  // rows j whose lists hold i, for each i, in increasing j
  std::vector<double> weights;
};
void reverse_edges(const NeighbourLists& knn, const double* weights, ReverseEdges& out);
// Row i's merged edges into `row_columns` and `row_weights` (at most 2k each); returns their number.
std::size_t fuzzy_union_row(const NeighbourLists& knn, const double* weights, const ReverseEdges& reverse,
                            std::size_t i, std::int32_t* row_columns, double* row_weights);
// The edges' sampling periods, umap-learn's make_epochs_per_sample: an edge
// of weight w is sampled every max_weight / w epochs; edges lighter than
// max_weight / n_epochs are dropped. Into head, tail and epochs_per_sample,
// in order of head then tail.
void make_epochs_per_sample(const FuzzyGraph& graph, std::size_t n_epochs, std::vector<std::int32_t>& head,
                            std::vector<std::int32_t>& tail, std::vector<double>& epochs_per_sample);

// ---- The layout -----------------------------------------------------------------------------

// The layout, in stages so that a caller can do it in slices: the start
// (the first two principal components scaled to [0, 10], or a given
// layout scaled the same way), the kNN graph, the fuzzy simplicial set,
// then the descent (up to `budget` edge samples per step; an epoch may span
// steps). The learning rate falls as (1 - t)^2 over the epochs, t from 0 to
// 1 (umap.cpp says why).
class UmapLayout {
 public:
  enum class Stage { Initialise, Neighbours, Graph, Optimise, Done };

  // False, with a message, for parameters it cannot lay out. The table is
  // read in place and must outlive the stages before Graph
  // (table_needed()); `initial_layout` (rows, 2), when given, is the start
  // instead of the PCA, for instance the map of a nearby table, so that
  // points start where they were there; it is copied. A table or start with
  // numbers that are not finite is found in the first steps: step() then
  // returns false, with failed() true and error() saying why.
  bool begin(const TableView& table, const UmapOptions& options, std::string& error,
             const float* initial_layout = nullptr);
  // The same for a float32 table, copied first (it need not outlive the call).
  bool begin(const float* table, std::size_t rows, std::size_t cols, const UmapOptions& options,
             std::string& error, const float* initial_layout = nullptr);
  // Does the next piece of work; `budget` bounds the edges one Optimise
  // step samples (edges that wait for a later epoch cost next to nothing
  // and are passed over uncounted; other stages do a few million
  // multiply-adds a step).
  // Returns false once done or failed.
  bool step(std::size_t budget);
  // The work that can go on several threads at once (the PCA's passes,
  // NN-descent's cosines), in rounds of independent tasks of about `budget`
  // multiply-adds in all: begin_tasks says how many tasks the next round
  // holds, or 0 when the stage under way has none (then step(), or
  // begin_tasks again); run_task computes one, on any thread, in any order;
  // finish_tasks ends the round. The result is the same bits as step()'s.
  std::size_t begin_tasks(double budget);
  void run_task(std::size_t task);
  void finish_tasks();
  Stage stage() const { return stage_; }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  // Whether the stages still to come read the table.
  bool table_needed() const { return stage_ == Stage::Initialise || stage_ == Stage::Neighbours; }
  // 0 .. 1, each stage's share its estimated work (umap.cpp), rising.
  double progress() const;
  std::size_t epochs() const { return n_epochs_; }
  std::size_t edges() const { return head_.size(); }
  bool exact_neighbours() const { return exact_; }
  double a() const { return a_; }
  double b() const { return b_; }
  // The kNN graph once stage() is past Neighbours.
  NeighbourLists neighbours() const;
  // (rows, 2): final once stage() is Done, the current layout before that.
  const std::vector<float>& coords() const { return coords_; }

 private:
  bool check(const UmapOptions& options, std::size_t rows, std::size_t cols, std::string& error) const;
  void initialise_step();
  void scale_start(const float* coords, std::size_t components);
  void start_neighbours();
  void neighbours_step();
  void after_pca();
  void after_neighbours();
  void graph_step();
  void finish_graph();
  void optimise(std::size_t budget);
  std::uint64_t next_random();
  double stage_work(Stage stage) const;

  TableView table_;
  std::vector<float> owned_table_;
  std::size_t rows_ = 0, cols_ = 0, n_epochs_ = 0, epoch_ = 0, edge_ = 0, graph_row_ = 0, graph_phase_ = 0;
  std::size_t scan_row_ = 0;
  UmapOptions options_;
  Stage stage_ = Stage::Done;
  std::string error_;
  bool exact_ = true, from_pca_ = true;
  enum class Round { None, Pca, NnDescent } round_ = Round::None;
  PcaSteps pca_;
  KnnGraph exact_knn_;
  NnDescent nn_descent_;
  double a_ = 0, b_ = 0, mean_distance_ = 0;
  double work_before_ = 0, estimates_[4] = {0, 0, 0, 0};
  mutable double shown_progress_ = 0;
  std::uint64_t random_state_ = 0;
  std::vector<double> rho_, sigma_, strengths_;
  ReverseEdges reverse_;
  FuzzyGraph graph_;
  std::vector<std::int32_t> head_, tail_;
  std::vector<double> epochs_per_sample_, epoch_of_next_sample_, epoch_of_next_negative_sample_;
  std::vector<float> coords_, initial_layout_;
  double samples_per_epoch_ = 0;
};

// The whole layout at once into out (rows, 2).
bool umap(const float* table, std::size_t rows, std::size_t cols, const UmapOptions& options, float* out,
          std::string& error, const float* initial_layout = nullptr);
bool umap(const TableView& table, const UmapOptions& options, float* out, std::string& error,
          const float* initial_layout = nullptr);

// The optimisation's negative samples, four at a time (umap_repulsion.cpp):
// the repulsion of four points at differences (nx[i], ny[i]) from the
// moving point, each clipped to [-4, 4] and scaled by alpha, lanes whose
// distance is 0 pushing nothing, added to push_x and push_y as
// ((0 + 1) + (2 + 3)). WebAssembly SIMD, SSE4.1 or plain C++, the same
// float32 operations lane by lane; repulsion_scalar is one lane of it, the
// tests' oracle.
struct Repulsion {
  float a, b, two_gamma_b, alpha;  // the curve's a and b, 2 * repulsion_strength * b, the learning rate now
};
void repulsion4(const float* nx, const float* ny, const Repulsion& r, float& push_x, float& push_y);
float repulsion_scalar(float nx, float ny, const Repulsion& r, float& push_y);

}  // namespace embeddings::layout
