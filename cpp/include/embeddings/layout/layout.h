// Two-dimensional maps of a table's rows: PCA and a UMAP-method layout.
//
// Determinism: every result here is a function of its inputs (and, for UMAP,
// the seed) down to the last bit, the same natively and in WebAssembly. That
// is why this file does its own arithmetic instead of calling the SIMD
// kernels or the C library:
// - dot products use one fixed grouping of the sums (layout_dot), written
//   with SSE or WebAssembly SIMD where available and plain C++ elsewhere,
//   always the same additions in the same order;
// - no fused multiply-adds (the sources are compiled with -ffp-contract=off);
// - exp, log and pow are this file's own (layout_exp etc.), built from
//   +, -, *, / and exact power-of-two scaling, because libm's differ in the
//   last bit between glibc and the WebAssembly runtime, and UMAP's
//   stochastic gradient descent turns a last-bit difference into a
//   different picture;
// - the random numbers are a seeded SplitMix64, ties are broken by index.
// The `*_reference` functions are double-precision oracles for the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace embeddings::layout {

// ---- Arithmetic that is the same everywhere ----------------------------------

// Sum of a[k] * b[k] in float32, eight partial sums combined in a fixed order.
float layout_dot(const float* a, const float* b, std::size_t n);
// e^x, log(x) (x > 0) and x^y (x > 0) to about 1e-15 relative, from basic
// arithmetic alone.
double layout_exp(double x);
double layout_log(double x);
double layout_pow(double x, double y);

// ---- Symmetric eigenproblems ----------------------------------------------------

// All eigenvalues and eigenvectors of the symmetric n × n matrix `a`
// (row-major; only its values are read), largest eigenvalue first:
// values[i], and eigenvector i in vectors[i * n .. i * n + n), unit length.
// Householder reduction to tridiagonal form, then the implicit QL method:
// O(n^3) with a small constant (128 × 128 in about a millisecond).
void symmetric_eigen(const double* a, std::size_t n, double* values, double* vectors);
// The same by cyclic Jacobi rotations: slower, simple, the tests' oracle.
void symmetric_eigen_reference(const double* a, std::size_t n, double* values, double* vectors);

// ---- PCA ----------------------------------------------------------------------------

// The principal components of a (rows, cols) table's rows, centred on their
// mean, from the cols × cols covariance matrix.
struct Pca {
  std::size_t components = 0, cols = 0;
  std::vector<float> axes;             // (components, cols): unit vectors, largest variance first
  std::vector<double> variance;        // (components): variance along each axis
  std::vector<double> variance_share;  // (components): variance / total variance (0 when it is 0)
  std::vector<float> mean;             // (cols)
};

// Signs are normalised so that results are stable: each axis's coordinate
// of largest magnitude is positive (the first such, if several tie).
// `components` <= cols. coords (rows, components) may be null; otherwise it
// receives each row's coordinates along the axes. Values must be finite
// (the caller checks: see all_finite).
void pca(const float* table, std::size_t rows, std::size_t cols, std::size_t components, Pca& out,
         float* coords);
// The same in double precision throughout, with the Jacobi eigensolver.
void pca_reference(const float* table, std::size_t rows, std::size_t cols, std::size_t components,
                   std::vector<double>& axes, std::vector<double>& variance_share,
                   std::vector<double>& coords);

bool all_finite(const float* values, std::size_t count);

// ---- Exact nearest neighbours by cosine ---------------------------------------

// For every row, its k most similar other rows by cosine, best first, ties
// to the smaller index: indices (rows, k) and cosine distances 1 - cos
// (rows, k). k < rows. Zero rows have cosine 0 with everything.
// Computes each pair once, block of rows by block of rows; KnnGraph lets a
// caller do it a block at a time.
class KnnGraph {
 public:
  // Copies and normalises the table; `k` < rows.
  void begin(const float* table, std::size_t rows, std::size_t cols, std::size_t k);
  // Processes the next block of rows against all later rows; false when
  // every row is done (then `indices` and `distances` are final).
  bool step();
  bool done() const { return next_row_ >= rows_; }
  double progress() const { return rows_ ? 1.0 - remaining_pairs() / total_pairs() : 1.0; }
  std::size_t rows() const { return rows_; }
  std::size_t k() const { return k_; }
  // (rows, k) each: best first.
  const std::vector<std::int32_t>& indices() const { return indices_; }
  const std::vector<float>& distances() const { return distances_; }

  static constexpr std::size_t kBlockRows = 32;

 private:
  void offer(std::size_t row, std::int32_t other, float score);
  double remaining_pairs() const;
  double total_pairs() const;

  std::size_t rows_ = 0, cols_ = 0, k_ = 0, next_row_ = 0;
  std::vector<float> unit_rows_;
  std::vector<std::int32_t> indices_;
  std::vector<float> distances_, scores_;  // scores_: cosines while building, best first
  std::vector<std::size_t> counts_;
};

void cosine_knn_reference(const float* table, std::size_t rows, std::size_t cols, std::size_t k,
                          std::vector<std::int32_t>& indices, std::vector<double>& distances);

// ---- UMAP ------------------------------------------------------------------------------

// The parameters of umap-learn (McInnes, Healy and Melville 2018) that the
// layout uses; the names are theirs.
struct UmapOptions {
  std::size_t n_neighbors = 15;  // including the point itself, as umap-learn counts
  double min_dist = 0.1;
  double spread = 1.0;
  std::size_t n_epochs = 0;  // 0: by size: 120 up to 10,000 rows, 50 past (umap-learn: 500 and 200)
  std::uint64_t seed = 1;
  double negative_sample_rate = 5;
  double repulsion_strength = 1;
  double learning_rate = 1;
};

// The epochs used for `rows` when n_epochs is 0.
std::size_t default_epochs(std::size_t rows);

// The a, b of the curve 1 / (1 + a d^(2b)) that best fits (least squares,
// Gauss-Newton) the target "1 up to min_dist, then exp(-(d - min_dist) /
// spread)" on 300 points of [0, 3 spread], as umap-learn's find_ab_params.
void fit_ab(double min_dist, double spread, double& a, double& b);

// The layout, built in stages so that a caller can do it in slices:
// the exact kNN graph (a block of rows per step), the fuzzy simplicial set
// (one step), a PCA initialisation scaled to [0, 10] (one step), then the
// stochastic gradient descent with negative sampling (up to `budget` edge
// samples per step; an epoch may span steps). The learning rate falls as
// (1 - t)^2 over the epochs, t from 0 to 1 (umap.cpp says why).
class UmapLayout {
 public:
  enum class Stage { Neighbours, Graph, Initialise, Optimise, Done };

  // False, with a message, for parameters or tables it cannot lay out.
  // The table is copied; it need not outlive the layout. `initial_layout`
  // (rows, 2), when given, is the start instead of the PCA (each coordinate
  // scaled to [0, 10] the same way), for instance the map of a nearby
  // table, so that points start where they were there; it is copied too.
  bool begin(const float* table, std::size_t rows, std::size_t cols, const UmapOptions& options,
             std::string& error, const float* initial_layout = nullptr);
  // Does the next piece of work; `budget` bounds the edges one Optimise
  // step visits (other stages ignore it). Returns false once done.
  bool step(std::size_t budget);
  Stage stage() const { return stage_; }
  // 0 .. 1, roughly proportional to the time spent.
  double progress() const;
  std::size_t epochs() const { return n_epochs_; }
  std::size_t edges() const { return head_.size(); }
  double a() const { return a_; }
  double b() const { return b_; }
  // (rows, 2): final once stage() is Done, the current layout before that.
  const std::vector<float>& embedding() const { return embedding_; }

  // progress()'s share for the kNN graph.
  static constexpr double kNeighboursShare = 0.35;

 private:
  void build_graph();
  void initialise();
  void optimise(std::size_t budget);
  std::uint64_t next_random();

  std::vector<float> table_;
  std::size_t rows_ = 0, cols_ = 0, n_epochs_ = 0, epoch_ = 0, edge_ = 0;
  UmapOptions options_;
  Stage stage_ = Stage::Done;
  KnnGraph knn_;
  double a_ = 0, b_ = 0;
  std::uint64_t random_state_ = 0;
  std::vector<std::int32_t> head_, tail_;
  std::vector<double> epochs_per_sample_, epoch_of_next_sample_, epoch_of_next_negative_sample_;
  std::vector<float> embedding_, initial_layout_;
};

// The whole layout at once into out (rows, 2).
bool umap(const float* table, std::size_t rows, std::size_t cols, const UmapOptions& options, float* out,
          std::string& error, const float* initial_layout = nullptr);

// The optimisation's negative samples, four at a time (umap.cpp): the
// repulsion of four points at differences (nx[i], ny[i]) from the moving
// point, each clipped to [-4, 4] and scaled by alpha, lanes whose distance
// is 0 pushing nothing, added to push_x and push_y as ((0 + 1) + (2 + 3)).
// WebAssembly SIMD, SSE4.1 or plain C++, the same float32 operations lane
// by lane; repulsion_scalar is one lane of it, the tests' oracle.
struct Repulsion {
  float a, b, two_gamma_b, alpha;  // the curve's a and b, 2 * repulsion_strength * b, the learning rate now
};
void repulsion4(const float* nx, const float* ny, const Repulsion& r, float& push_x, float& push_y);
float repulsion_scalar(float nx, float ny, const Repulsion& r, float& push_y);

// ---- Judging a map ----------------------------------------------------------------------

// Share of each row's k nearest rows (cosine, in the table) that are also
// among its k nearest points on the map (Euclidean, rows × 2), averaged
// over rows: 1 is a map that keeps every neighbourhood.
double neighbours_kept(const float* table, std::size_t rows, std::size_t cols, const float* map,
                       std::size_t k);

}  // namespace embeddings::layout
