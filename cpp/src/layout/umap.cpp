// The UMAP-method layout (layout.h), from the exact kNN graph (knn.cpp);
// its negative samples are in umap_repulsion.cpp.
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
// same way.
//
// One choice is not umap-learn's: the learning rate falls as (1 - t)^2 over
// the epochs (t from 0 to 1), not linearly. On the default 4,096 x 128 token
// table 120 epochs so keep at least as many 10-nearest neighbours (20.0 to
// 20.8% over four seeds) as 500 with the linear fall (20.0 and 20.4%), and
// 200 linear ones keep fewer (19.1%): the early epochs move the clusters
// into place, the many late ones at a small rate settle each neighbourhood.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "embeddings/layout/layout.h"
#include "umap_internal.h"

namespace embeddings::layout {

// ---- UMAP ---------------------------------------------------------------------------

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

namespace {

// x^y for x > 0 to float precision (about 3e-8 relative), for the
// gradient, where layout_pow's full precision would cost three times the
// time: log by the atanh series to s^7, e^r by a degree-6 polynomial in
// Estrin's form (short dependency chains), exponent and mantissa by bits.
inline float gradient_pow(float x, double y) {
  std::uint64_t bits;
  const double xd = x;
  std::memcpy(&bits, &xd, sizeof bits);
  int e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
  double m;
  std::memcpy(&m, &bits, sizeof m);  // [1, 2)
  if (m > 1.41421356237309504880) {
    m *= 0.5;
    ++e;
  }
  const double s = (m - 1) / (m + 1), s2 = s * s;
  const double log_x =
      2 * s * ((1 + s2 * (1.0 / 3)) + (s2 * s2) * (1.0 / 5 + s2 * (1.0 / 7))) + e * 0.6931471805599453094;
  const double t = y * log_x;
  if (t < -700) return 0.0f;
  if (t > 88) return std::numeric_limits<float>::infinity();
  const double n = std::floor(t * 1.4426950408889634074 + 0.5);
  const double r = t - n * 0.6931471805599453094, r2 = r * r;
  const double p = ((1 + r) + r2 * (1.0 / 2 + r * (1.0 / 6))) +
                   (r2 * r2) * ((1.0 / 24 + r * (1.0 / 120)) + r2 * (1.0 / 720 + r * (1.0 / 5040)));
  const std::uint64_t scale_bits = static_cast<std::uint64_t>(static_cast<int>(n) + 1023) << 52;
  double scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  return static_cast<float>(p * scale);
}

}  // namespace

bool UmapLayout::begin(const float* table, std::size_t rows, std::size_t cols, const UmapOptions& options,
                       std::string& error, const float* initial_layout) {
  stage_ = Stage::Done;
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
  if (!all_finite(table, rows * cols)) {
    error = "the table holds values that are not finite numbers (NaN or infinity)";
    return false;
  }
  if (initial_layout != nullptr && !all_finite(initial_layout, rows * 2)) {
    error = "the initial layout holds values that are not finite numbers (NaN or infinity)";
    return false;
  }
  options_ = options;
  if (initial_layout != nullptr)
    initial_layout_.assign(initial_layout, initial_layout + rows * 2);
  else
    initial_layout_.clear();
  rows_ = rows;
  cols_ = cols;
  table_.assign(table, table + rows * cols);
  n_epochs_ = options.n_epochs ? options.n_epochs : default_epochs(rows);
  epoch_ = 0;
  edge_ = 0;
  // SplitMix64 needs no warm-up; the seed's bits are mixed by the first call.
  random_state_ = options.seed;
  fit_ab(options.min_dist, options.spread, a_, b_);
  knn_.begin(table_.data(), rows, cols, options.n_neighbors - 1);
  stage_ = Stage::Neighbours;
  return true;
}

std::uint64_t UmapLayout::next_random() {
  std::uint64_t z = (random_state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

bool UmapLayout::step(std::size_t budget) {
  switch (stage_) {
    case Stage::Neighbours:
      if (!knn_.step()) stage_ = Stage::Graph;
      break;
    case Stage::Graph:
      build_graph();
      stage_ = Stage::Initialise;
      break;
    case Stage::Initialise:
      initialise();
      stage_ = head_.empty() ? Stage::Done : Stage::Optimise;
      break;
    case Stage::Optimise: optimise(budget ? budget : 1); break;
    case Stage::Done: break;
  }
  return stage_ != Stage::Done;
}

double UmapLayout::progress() const {
  // Measured shares of the time for 4,096 × 128 at 120 epochs: about 35% neighbours, 65% optimisation.
  switch (stage_) {
    case Stage::Neighbours: return kNeighboursShare * knn_.progress();
    case Stage::Graph:
    case Stage::Initialise: return kNeighboursShare;
    case Stage::Optimise:
      return kNeighboursShare +
             (1 - kNeighboursShare) *
                 (static_cast<double>(epoch_) + static_cast<double>(edge_) / head_.size()) / n_epochs_;
    case Stage::Done: return 1;
  }
  return 1;
}

void UmapLayout::build_graph() {
  const std::size_t k = knn_.k(), rows = rows_;
  const std::vector<float>& distances = knn_.distances();
  const std::vector<std::int32_t>& indices = knn_.indices();
  // Each point's distance to its nearest other point (rho) and the
  // bandwidth (sigma) that makes its weights sum to log2(n_neighbors).
  const double target = layout_log(static_cast<double>(options_.n_neighbors)) / layout_log(2.0);
  double mean_of_all = 0;
  for (std::size_t i = 0; i < rows * k; ++i) mean_of_all += distances[i];
  mean_of_all /= static_cast<double>(rows * k);
  struct DirectedEdge {
    std::uint64_t key;  // min(i, j) * rows + max(i, j)
    double weight;
  };
  std::vector<DirectedEdge> directed;
  directed.reserve(rows * k);
  for (std::size_t i = 0; i < rows; ++i) {
    const float* d = &distances[i * k];
    double rho = 0, mean = 0;
    for (std::size_t j = 0; j < k; ++j) mean += d[j];
    mean /= static_cast<double>(k);
    for (std::size_t j = 0; j < k; ++j)
      if (d[j] > 0) {
        rho = d[j];
        break;
      }
    double low = 0, high = std::numeric_limits<double>::infinity(), sigma = 1;
    for (int iteration = 0; iteration < 64; ++iteration) {
      double sum = 0;
      for (std::size_t j = 0; j < k; ++j) {
        const double excess = d[j] - rho;
        sum += excess > 0 ? layout_exp(-excess / sigma) : 1.0;
      }
      if (std::fabs(sum - target) < 1e-5) break;
      if (sum > target) {
        high = sigma;
        sigma = (low + high) / 2;
      } else {
        low = sigma;
        sigma = high == std::numeric_limits<double>::infinity() ? sigma * 2 : (low + high) / 2;
      }
    }
    sigma = std::fmax(sigma, 1e-3 * (rho > 0 ? mean : mean_of_all));
    for (std::size_t j = 0; j < k; ++j) {
      const std::size_t other = static_cast<std::size_t>(indices[i * k + j]);
      const double excess = d[j] - rho;
      const double weight = excess <= 0 || sigma == 0 ? 1.0 : layout_exp(-excess / sigma);
      const std::size_t low_index = std::min(i, other), high_index = std::max(i, other);
      directed.push_back({static_cast<std::uint64_t>(low_index) * rows + high_index, weight});
    }
  }
  // Fuzzy union of the two directions: a + b - ab (keys are unique but for
  // the two directions, and the union is symmetric, so the sort's order of
  // equal keys does not matter).
  std::sort(directed.begin(), directed.end(),
            [](const DirectedEdge& x, const DirectedEdge& y) { return x.key < y.key; });
  std::vector<DirectedEdge> joined;
  joined.reserve(directed.size());
  double largest = 0;
  for (std::size_t e = 0; e < directed.size();) {
    double weight = directed[e].weight;
    std::size_t next = e + 1;
    if (next < directed.size() && directed[next].key == directed[e].key) {
      weight = weight + directed[next].weight - weight * directed[next].weight;
      ++next;
    }
    joined.push_back({directed[e].key, weight});
    largest = std::fmax(largest, weight);
    e = next;
  }
  std::vector<DirectedEdge>().swap(directed);
  // Both directions of every kept edge, ordered by head then tail.
  std::vector<DirectedEdge> edges;
  edges.reserve(2 * joined.size());
  const double threshold = largest / static_cast<double>(n_epochs_);
  for (const DirectedEdge& edge : joined) {
    if (edge.weight < threshold || !(edge.weight > 0)) continue;
    const std::uint64_t i = edge.key / rows, j = edge.key % rows;
    edges.push_back({i * rows + j, edge.weight});
    edges.push_back({j * rows + i, edge.weight});
  }
  std::sort(edges.begin(), edges.end(),
            [](const DirectedEdge& x, const DirectedEdge& y) { return x.key < y.key; });
  head_.resize(edges.size());
  tail_.resize(edges.size());
  epochs_per_sample_.resize(edges.size());
  epoch_of_next_sample_.resize(edges.size());
  epoch_of_next_negative_sample_.resize(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e) {
    head_[e] = static_cast<std::int32_t>(edges[e].key / rows);
    tail_[e] = static_cast<std::int32_t>(edges[e].key % rows);
    epochs_per_sample_[e] = largest / edges[e].weight;
    epoch_of_next_sample_[e] = epochs_per_sample_[e];
    epoch_of_next_negative_sample_[e] = epochs_per_sample_[e] / options_.negative_sample_rate;
  }
}

void UmapLayout::initialise() {
  // The caller's layout or the first two principal components, each
  // coordinate scaled to [0, 10].
  std::size_t components = 2;
  std::vector<float> coords;
  if (!initial_layout_.empty()) {
    coords.swap(initial_layout_);
  } else {
    components = std::min<std::size_t>(2, cols_);
    coords.resize(rows_ * components);
    Pca axes;
    pca(table_.data(), rows_, cols_, components, axes, coords.data());
  }
  std::vector<float>().swap(table_);  // no longer needed
  embedding_.assign(rows_ * 2, 0.0f);
  for (std::size_t c = 0; c < components; ++c) {
    float low = coords[c], high = coords[c];
    for (std::size_t r = 0; r < rows_; ++r) {
      low = std::min(low, coords[r * components + c]);
      high = std::max(high, coords[r * components + c]);
    }
    const float range = high - low;
    for (std::size_t r = 0; r < rows_; ++r)
      embedding_[r * 2 + c] = range > 0 ? 10.0f * (coords[r * components + c] - low) / range : 0.0f;
  }
}

void UmapLayout::optimise(std::size_t budget) {
  const float a = static_cast<float>(a_), b = static_cast<float>(b_);
  const float gamma = static_cast<float>(options_.repulsion_strength);
  const double epoch = static_cast<double>(epoch_);
  // The learning rate falls as (1 - t)^2 (see the top of this file).
  const double remaining = 1.0 - epoch / n_epochs_;
  const float alpha = static_cast<float>(options_.learning_rate * (remaining * remaining));
  const Repulsion repulsion{a, b, 2.0f * gamma * b, alpha};
  const double negative_rate = options_.negative_sample_rate;
  const std::size_t edges = head_.size(), rows = rows_;
  float* embedding = embedding_.data();
  const std::size_t end = std::min(edges, edge_ + budget);
  for (std::size_t e = edge_; e < end; ++e) {
    if (epoch_of_next_sample_[e] > epoch) continue;
    const std::size_t j = static_cast<std::size_t>(head_[e]), k = static_cast<std::size_t>(tail_[e]);
    float* current = embedding + 2 * j;
    float* other = embedding + 2 * k;
    const float dx = current[0] - other[0], dy = current[1] - other[1];
    const float squared = dx * dx + dy * dy;
    float coefficient = 0;
    if (squared > 0) {
      const float power = gradient_pow(squared, b_ - 1);  // d^(2(b - 1))
      coefficient = (-2.0f * a * b * power) / (a * power * squared + 1.0f);
    }
    const float gx = clip(coefficient * dx) * alpha, gy = clip(coefficient * dy) * alpha;
    current[0] += gx;
    current[1] += gy;
    other[0] -= gx;
    other[1] -= gy;
    epoch_of_next_sample_[e] += epochs_per_sample_[e];

    // The negative samples' pushes are all computed from the position the
    // positive step left (not one after another, as umap-learn does): the
    // same expected gradient, and independent evaluations the processor
    // can overlap, which makes this loop about three times faster.
    const double per_negative = epochs_per_sample_[e] / negative_rate;
    const int negatives = static_cast<int>((epoch - epoch_of_next_negative_sample_[e]) / per_negative);
    const float x = current[0], y = current[1];
    float push_x = 0, push_y = 0;
    float nx[4], ny[4];
    int lanes = 0;
    for (int p = 0; p < negatives; ++p) {
      // A row in [0, rows) from the random number's top 32 bits by a
      // multiply and a shift (Lemire), not a 64-bit division, which costs
      // more than the rest of the sample. The point itself pushes nothing
      // (its distance is 0).
      const std::size_t n = static_cast<std::size_t>(((next_random() >> 32) * rows) >> 32);
      nx[lanes] = x - embedding[2 * n];
      ny[lanes] = y - embedding[2 * n + 1];
      if (++lanes == 4) {
        repulsion4(nx, ny, repulsion, push_x, push_y);
        lanes = 0;
      }
    }
    if (lanes > 0) {
      for (int lane = lanes; lane < 4; ++lane) nx[lane] = ny[lane] = 0.0f;  // padding: distance 0
      repulsion4(nx, ny, repulsion, push_x, push_y);
    }
    current[0] += push_x;
    current[1] += push_y;
    epoch_of_next_negative_sample_[e] += negatives * per_negative;
  }
  edge_ = end;
  if (edge_ == edges) {
    edge_ = 0;
    if (++epoch_ == n_epochs_) stage_ = Stage::Done;
  }
}

bool umap(const float* table, std::size_t rows, std::size_t cols, const UmapOptions& options, float* out,
          std::string& error, const float* initial_layout) {
  UmapLayout layout;
  if (!layout.begin(table, rows, cols, options, error, initial_layout)) return false;
  while (layout.step(1 << 20)) {
  }
  std::copy(layout.embedding().begin(), layout.embedding().end(), out);
  return true;
}

}  // namespace embeddings::layout
