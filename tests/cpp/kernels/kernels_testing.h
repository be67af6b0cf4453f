// What the kernel tests share: awkward lengths, random vectors, the dot
// product's error bound, and scores compared with NaN equal to NaN.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

namespace embeddings::test {

inline const std::size_t kLengths[] = {0, 1, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 127, 128, 129, 768, 1000};

inline std::vector<float> random_floats(std::size_t n, std::mt19937& rng, float scale = 1.0f) {
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> out(n);
  for (auto& x : out) x = normal(rng);
  return out;
}

// Float32 accumulation error bound: a few ulps per term of sum(|a_k b_k|).
inline double dot_tolerance(const float* a, const float* b, std::size_t n) {
  double magnitude = 0;
  for (std::size_t i = 0; i < n; ++i) magnitude += std::fabs(double(a[i]) * double(b[i]));
  return (double(n) + 2) * std::numeric_limits<float>::epsilon() * magnitude + 1e-30;
}

inline bool same_score(float a, float b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace embeddings::test
