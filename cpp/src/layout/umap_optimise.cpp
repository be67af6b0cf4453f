// The UMAP layout's descent (umap.h): each edge sampled in proportion to
// its weight, pulled together, with negative samples pushing the moving
// point away from random others (four at a time: umap_repulsion.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/umap.h"
#include "umap_internal.h"

namespace embeddings::layout {
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

// The attraction of an edge of squared length `squared` (its components dx,
// dy), clipped and scaled: the gradient of log(1 / (1 + a d^2b)).
inline void attraction(float dx, float dy, float a, float b, double b_minus_one, float alpha, float& gx,
                       float& gy) {
  const float squared = dx * dx + dy * dy;
  float coefficient = 0;
  if (squared > 0) {
    const float power = gradient_pow(squared, b_minus_one);  // d^(2(b - 1))
    coefficient = (-2.0f * a * b * power) / (a * power * squared + 1.0f);
  }
  gx = clip(coefficient * dx) * alpha;
  gy = clip(coefficient * dy) * alpha;
}

}  // namespace

std::uint64_t UmapLayout::next_random() {
  SplitMix64 random(random_state_);
  const std::uint64_t value = random.next();
  random_state_ = random.state;
  return value;
}

void UmapLayout::optimise(std::size_t budget) {
  const float a = static_cast<float>(a_), b = static_cast<float>(b_);
  const float gamma = static_cast<float>(options_.repulsion_strength);
  const double epoch = static_cast<double>(epoch_);
  // The learning rate falls as (1 - t)^2 (umap.cpp says why).
  const double remaining = 1.0 - epoch / n_epochs_;
  const float alpha = static_cast<float>(options_.learning_rate * (remaining * remaining));
  const Repulsion repulsion{a, b, 2.0f * gamma * b, alpha};
  const double negative_rate = options_.negative_sample_rate;
  const std::size_t edges = head_.size(), rows = rows_;
  float* coords = coords_.data();
  // `budget` counts the edges sampled, not those passed over: an epoch's
  // share of sampled edges ranges from all to a few, so a count of edges
  // visited would make a step's time swing tenfold between epochs.
  std::size_t e = edge_;
  for (std::size_t sampled = 0; e < edges && sampled < budget; ++e) {
    if (epoch_of_next_sample_[e] > epoch) continue;
    ++sampled;
    float* current = coords + 2 * static_cast<std::size_t>(head_[e]);
    float* other = coords + 2 * static_cast<std::size_t>(tail_[e]);
    float gx, gy;
    attraction(current[0] - other[0], current[1] - other[1], a, b, b_ - 1, alpha, gx, gy);
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
      nx[lanes] = x - coords[2 * n];
      ny[lanes] = y - coords[2 * n + 1];
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
  edge_ = e;
  if (edge_ == edges) {
    edge_ = 0;
    if (++epoch_ == n_epochs_) stage_ = Stage::Done;
  }
}

}  // namespace embeddings::layout
