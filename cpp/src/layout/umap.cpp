// The UMAP-method layout (umap.h): its stages, from the start to the
// graph; the fuzzy set's steps are in umap_graph.cpp, the descent in
// umap_optimise.cpp and its negative samples in umap_repulsion.cpp.
//
// The method follows the UMAP paper (McInnes, Healy and Melville 2018,
// arXiv:1802.03426) and the choices of its reference implementation,
// umap-learn: each point's neighbours include itself (n_neighbors 15 means
// 14 others), the fuzzy set's bandwidth is found by bisection so that the
// weights sum to log2(n_neighbors), the directed weights are combined by
// fuzzy union (a + b - ab), edges lighter than max / n_epochs are dropped,
// each edge is sampled in proportion to its weight with 5 negative samples
// per positive one, gradients are clipped to [-4, 4]. Initialisation is the
// table's first two principal components scaled to [0, 10] (umap-learn's
// init="pca", without the noise), or a layout the caller gives, scaled the
// same way. The neighbours are exact up to 8,192 rows and found by
// NN-descent past them, as umap-learn finds them with pynndescent (at 8,192
// rows of 128 numbers the two take about the same time; docs/map.md).
//
// One choice is not umap-learn's: the learning rate falls as (1 - t)^2 over
// the epochs (t from 0 to 1), not linearly. On the default 4,096 x 128 token
// table 120 epochs so keep at least as many 10-nearest neighbours (20.0 to
// 20.8% over four seeds) as 500 with the linear fall (20.0 and 20.4%), and
// 200 linear ones keep fewer (19.1%): the early epochs move the clusters
// into place, the many late ones at a small rate settle each neighbourhood.
#include "embeddings/layout/umap.h"

#include <algorithm>
#include <cmath>

#include "embeddings/layout/arithmetic.h"

namespace embeddings::layout {

namespace {

// The stages' costs in multiply-adds of a dot product, measured natively and
// in WebAssembly: a graph edge (its share of the bisection and the union),
// and one edge sample of the descent with its negative samples.
constexpr double kGraphWorkPerEdge = 40;
constexpr double kWorkPerSample = 60;
// Rows of the table checked per step when a start is given (no PCA scans it).
constexpr std::size_t kScanNumbers = std::size_t{1} << 22;

}  // namespace

std::size_t default_epochs(std::size_t rows) { return rows <= 10000 ? 120 : 50; }

void fit_ab(double min_dist, double spread, double& a, double& b) {
  // Least squares over 300 points by Gauss-Newton on (a, b), from umap's
  // usual answer's neighbourhood; a handful of iterations converge.
  constexpr int kPoints = 300;
  double xs[kPoints], ys[kPoints];
  for (int i = 0; i < kPoints; ++i) {
    xs[i] = 3 * spread * i / (kPoints - 1);
    ys[i] = xs[i] < min_dist ? 1.0 : layout_exp(-(xs[i] - min_dist) / spread);
  }
  a = 1.5;
  b = 0.9;
  for (int iteration = 0; iteration < 100; ++iteration) {
    // Normal equations J^T J delta = J^T r with a Levenberg damping term.
    double jaa = 0, jab = 0, jbb = 0, ra = 0, rb = 0, cost = 0;
    for (int i = 0; i < kPoints; ++i) {
      if (xs[i] == 0) {
        cost += (1 - ys[i]) * (1 - ys[i]);
        continue;
      }
      const double x2b = layout_pow(xs[i], 2 * b), denominator = 1 + a * x2b;
      const double f = 1 / denominator, r = ys[i] - f;
      const double dfa = -x2b / (denominator * denominator);
      const double dfb = -a * x2b * 2 * layout_log(xs[i]) / (denominator * denominator);
      jaa += dfa * dfa;
      jab += dfa * dfb;
      jbb += dfb * dfb;
      ra += dfa * r;
      rb += dfb * r;
      cost += r * r;
    }
    const double damping = 1e-9 * (jaa + jbb);
    jaa += damping;
    jbb += damping;
    const double determinant = jaa * jbb - jab * jab;
    if (!(determinant > 0)) break;
    const double da = (jbb * ra - jab * rb) / determinant, db = (jaa * rb - jab * ra) / determinant;
    // Step halving keeps a and b positive and the cost from rising.
    double step = 1;
    bool improved = false;
    for (int halving = 0; halving < 30 && !improved; ++halving, step *= 0.5) {
      const double na = a + step * da, nb = b + step * db;
      if (!(na > 0) || !(nb > 0)) continue;
      double next_cost = 0;
      for (int i = 0; i < kPoints; ++i) {
        const double f = xs[i] == 0 ? 1.0 : 1 / (1 + na * layout_pow(xs[i], 2 * nb));
        next_cost += (ys[i] - f) * (ys[i] - f);
      }
      if (next_cost <= cost) {
        a = na;
        b = nb;
        improved = true;
        if (std::fabs(step * da) < 1e-12 * a && std::fabs(step * db) < 1e-12 * b) return;
      }
    }
    if (!improved) return;
  }
}

bool UmapLayout::check(const UmapOptions& options, std::size_t rows, std::size_t cols,
                       std::string& error) const {
  if (rows < 3) {
    error = "a map needs at least 3 rows, the table has " + std::to_string(rows);
    return false;
  }
  if (rows > (std::size_t{1} << 31) - 1) {
    error = "a map takes at most 2^31 - 1 rows";
    return false;
  }
  if (cols == 0) {
    error = "the table has no columns";
    return false;
  }
  if (options.n_neighbors < 2 || options.n_neighbors > rows) {
    error = "n_neighbors must be from 2 to the number of rows (" + std::to_string(rows) + "), got " +
            std::to_string(options.n_neighbors);
    return false;
  }
  if (!(options.spread > 0) || !std::isfinite(options.spread)) {
    error = "spread must be a positive number";
    return false;
  }
  if (!(options.min_dist >= 0) || !(options.min_dist <= options.spread)) {
    error = "min_dist must be from 0 to spread (" + std::to_string(options.spread) + ")";
    return false;
  }
  if (options.n_epochs > 100000) {
    error = "n_epochs must be at most 100000";
    return false;
  }
  return true;
}

bool UmapLayout::begin(const float* table, std::size_t rows, std::size_t cols, const UmapOptions& options,
                       std::string& error, const float* initial_layout) {
  owned_table_.assign(table, table + rows * cols);
  const TableView view = TableView::of_floats(owned_table_.data(), rows, cols);
  return begin(view, options, error, initial_layout);
}

bool UmapLayout::begin(const TableView& table, const UmapOptions& options, std::string& error,
                       const float* initial_layout) {
  stage_ = Stage::Done;
  const std::size_t rows = table.rows, cols = table.cols;
  if (!check(options, rows, cols, error)) return false;
  if (initial_layout != nullptr && !all_finite(initial_layout, rows * 2)) {
    error = "the initial layout holds values that are not finite numbers (NaN or infinity)";
    return false;
  }
  if (table.data != owned_table_.data()) std::vector<float>().swap(owned_table_);
  table_ = table;
  options_ = options;
  if (initial_layout != nullptr)
    initial_layout_.assign(initial_layout, initial_layout + rows * 2);
  else
    initial_layout_.clear();
  rows_ = rows;
  cols_ = cols;
  error_.clear();
  n_epochs_ = options.n_epochs ? options.n_epochs : default_epochs(rows);
  epoch_ = edge_ = scan_row_ = graph_row_ = graph_phase_ = 0;
  work_before_ = 0;
  shown_progress_ = 0;
  samples_per_epoch_ = 0;
  coords_.clear();
  random_state_ = options.seed;
  fit_ab(options.min_dist, options.spread, a_, b_);
  exact_ = rows <= options.exact_neighbours_up_to;
  from_pca_ = initial_layout_.empty();
  if (from_pca_) {
    PcaOptions pca;
    pca.components = std::min<std::size_t>(2, cols);
    pca.unscale = false;  // the start is scaled to [0, 10] anyway
    // A start needs the components' plane, not their last digits: at most 4
    // passes (umap-learn starts from a randomized SVD of a few iterations too).
    pca.tolerance = 1e-3;
    pca.largest_basis = 16;
    pca.seed = mix(options.seed, 0x5CA1Eu);
    if (!pca_.begin(table, pca, error)) return false;
  }
  stage_ = Stage::Initialise;
  return true;
}

bool UmapLayout::step(std::size_t budget) {
  switch (stage_) {
    case Stage::Initialise: initialise_step(); break;
    case Stage::Neighbours: neighbours_step(); break;
    case Stage::Graph: graph_step(); break;
    case Stage::Optimise: optimise(budget ? budget : 1); break;
    case Stage::Done: break;
  }
  return stage_ != Stage::Done;
}

void UmapLayout::initialise_step() {
  if (!from_pca_) {
    // A given start: the table is checked a chunk at a time, as the PCA would have.
    const std::size_t chunk = std::max<std::size_t>(1, kScanNumbers / cols_);
    const std::size_t end = std::min(rows_, scan_row_ + chunk);
    float largest = 0;
    if (!table_.scan(scan_row_, end, largest)) {
      error_ = "the table holds values that are not finite numbers (NaN or infinity)";
      stage_ = Stage::Done;
      return;
    }
    scan_row_ = end;
    if (scan_row_ < rows_) return;
    scale_start(initial_layout_.data(), 2);
    std::vector<float>().swap(initial_layout_);
    work_before_ += stage_work(Stage::Initialise);
    start_neighbours();
    return;
  }
  if (!pca_.step()) after_pca();
}

void UmapLayout::after_pca() {
  if (pca_.failed()) {
    error_ = pca_.error();
    stage_ = Stage::Done;
    return;
  }
  scale_start(pca_.coords().data(), pca_.result().components);
  work_before_ += stage_work(Stage::Initialise);
  pca_ = PcaSteps();
  start_neighbours();
}

void UmapLayout::scale_start(const float* coords, std::size_t components) {
  // Each coordinate scaled to [0, 10].
  coords_.assign(rows_ * 2, 0.0f);
  for (std::size_t c = 0; c < components; ++c) {
    float low = coords[c], high = coords[c];
    for (std::size_t r = 0; r < rows_; ++r) {
      low = std::min(low, coords[r * components + c]);
      high = std::max(high, coords[r * components + c]);
    }
    const float range = high - low;
    for (std::size_t r = 0; r < rows_; ++r)
      coords_[r * 2 + c] = range > 0 ? 10.0f * (coords[r * components + c] - low) / range : 0.0f;
  }
}

void UmapLayout::start_neighbours() {
  stage_ = Stage::Neighbours;
  const std::size_t k = options_.n_neighbors - 1;
  if (exact_) {
    exact_knn_.begin(table_, k);
    return;
  }
  NnDescentOptions nn = options_.nn_descent;
  nn.seed = mix(options_.seed, nn.seed);
  std::string error;
  if (!nn_descent_.begin(table_, k, nn, error)) {
    error_ = error;
    stage_ = Stage::Done;
  }
}

void UmapLayout::neighbours_step() {
  const bool more = exact_ ? exact_knn_.step() : nn_descent_.step();
  if (!more) after_neighbours();
}

void UmapLayout::after_neighbours() {
  work_before_ += stage_work(Stage::Neighbours);
  std::vector<float>().swap(owned_table_);  // the table is no longer read
  stage_ = Stage::Graph;
}

std::size_t UmapLayout::begin_tasks(double budget) {
  if (round_ != Round::None)
    return round_ == Round::Pca ? pca_.begin_tasks() : nn_descent_.begin_tasks(budget);
  if (stage_ == Stage::Initialise && from_pca_) {
    // A round of about `budget` multiply-adds: the PCA's chunks hold about 4 million each.
    pca_.set_round(static_cast<std::size_t>(std::max(1.0, budget / 4e6)));
    const std::size_t tasks = pca_.begin_tasks();
    if (tasks) round_ = Round::Pca;
    return tasks;
  }
  if (stage_ == Stage::Neighbours && !exact_) {
    const std::size_t tasks = nn_descent_.begin_tasks(budget);
    if (tasks) {
      round_ = Round::NnDescent;
    } else if (nn_descent_.done()) {
      after_neighbours();
    }
    return tasks;
  }
  return 0;
}

void UmapLayout::run_task(std::size_t task) {
  if (round_ == Round::Pca) pca_.run_task(task);
  if (round_ == Round::NnDescent) nn_descent_.run_task(task);
}

void UmapLayout::finish_tasks() {
  const Round round = round_;
  round_ = Round::None;
  if (round == Round::Pca) {
    pca_.finish_tasks();
    if (pca_.done()) after_pca();
  } else if (round == Round::NnDescent) {
    nn_descent_.finish_tasks();
    if (nn_descent_.done()) after_neighbours();
  }
}

NeighbourLists UmapLayout::neighbours() const {
  const std::size_t k = options_.n_neighbors - 1;
  if (exact_) return {rows_, k, exact_knn_.indices().data(), exact_knn_.distances().data()};
  return {rows_, k, nn_descent_.indices().data(), nn_descent_.distances().data()};
}

void UmapLayout::finish_graph() {
  make_epochs_per_sample(graph_, n_epochs_, head_, tail_, epochs_per_sample_);
  graph_ = FuzzyGraph();
  reverse_ = ReverseEdges();
  std::vector<double>().swap(strengths_);
  std::vector<double>().swap(rho_);
  std::vector<double>().swap(sigma_);
  exact_knn_ = KnnGraph();
  nn_descent_ = NnDescent();
  const std::size_t edges = head_.size();
  epoch_of_next_sample_.resize(edges);
  epoch_of_next_negative_sample_.resize(edges);
  samples_per_epoch_ = 0;
  for (std::size_t e = 0; e < edges; ++e) {
    epoch_of_next_sample_[e] = epochs_per_sample_[e];
    epoch_of_next_negative_sample_[e] = epochs_per_sample_[e] / options_.negative_sample_rate;
    samples_per_epoch_ += 1 / epochs_per_sample_[e];
  }
  work_before_ += stage_work(Stage::Graph);
  stage_ = edges == 0 ? Stage::Done : Stage::Optimise;
}

double UmapLayout::stage_work(Stage stage) const {
  const double rows = static_cast<double>(rows_), k = static_cast<double>(options_.n_neighbors - 1);
  switch (stage) {
    case Stage::Initialise: return from_pca_ ? pca_.work_total() : rows * static_cast<double>(cols_);
    case Stage::Neighbours:
      if (stage_ < Stage::Neighbours)
        return exact_ ? KnnGraph::expected_work(rows_, cols_)
                      : NnDescent::expected_work(rows_, cols_, options_.n_neighbors - 1, options_.nn_descent);
      return exact_ ? exact_knn_.work_total() : nn_descent_.work_total();
    case Stage::Graph: return rows * k * kGraphWorkPerEdge;
    case Stage::Optimise: {
      // Before the graph, about 0.8 samples an epoch per directed edge of the kNN graph (measured).
      const double samples = samples_per_epoch_ > 0 ? samples_per_epoch_ : 0.8 * rows * k;
      return static_cast<double>(n_epochs_) * samples * (1 + options_.negative_sample_rate) * kWorkPerSample;
    }
    case Stage::Done: return 0;
  }
  return 0;
}

double UmapLayout::progress() const {
  if (stage_ == Stage::Done) return 1;
  // Work done so far over the estimate of all of it: the stages done as
  // they were, the current one as it says, those to come as estimated.
  double done = work_before_, total = work_before_;
  const int current = static_cast<int>(stage_);
  for (int s = current; s < static_cast<int>(Stage::Done); ++s) total += stage_work(static_cast<Stage>(s));
  switch (stage_) {
    case Stage::Initialise:
      done += from_pca_ ? pca_.work_done() : static_cast<double>(scan_row_ * cols_);
      break;
    case Stage::Neighbours: done += exact_ ? exact_knn_.work_done() : nn_descent_.work_done(); break;
    case Stage::Graph:
      done += static_cast<double>(graph_phase_ >= 3   ? rows_ + graph_row_
                                  : graph_phase_ >= 2 ? rows_
                                                      : graph_row_) *
              0.5 * static_cast<double>(options_.n_neighbors - 1) * kGraphWorkPerEdge;
      break;
    case Stage::Optimise:
      done += stage_work(Stage::Optimise) *
              (static_cast<double>(epoch_) + static_cast<double>(edge_) / static_cast<double>(head_.size())) /
              static_cast<double>(n_epochs_);
      break;
    case Stage::Done: break;
  }
  shown_progress_ = std::max(shown_progress_, std::min(1.0, total > 0 ? done / total : 1.0));
  return shown_progress_;
}

bool umap(const TableView& table, const UmapOptions& options, float* out, std::string& error,
          const float* initial_layout) {
  UmapLayout layout;
  if (!layout.begin(table, options, error, initial_layout)) return false;
  while (layout.step(1 << 20)) {
  }
  if (layout.failed()) {
    error = layout.error();
    return false;
  }
  std::copy(layout.coords().begin(), layout.coords().end(), out);
  return true;
}

bool umap(const float* table, std::size_t rows, std::size_t cols, const UmapOptions& options, float* out,
          std::string& error, const float* initial_layout) {
  return umap(TableView::of_floats(table, rows, cols), options, out, error, initial_layout);
}

}  // namespace embeddings::layout
