// The symmetric eigensolver (eigen.h) against cyclic Jacobi.
#include "embeddings/layout/eigen.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace layout = embeddings::layout;

TEST(SymmetricEigen, MatchesJacobiOnRandomAndCovarianceMatrices) {
  std::mt19937 random(5);
  std::normal_distribution<double> normal(0, 1);
  for (std::size_t n : {1u, 2u, 5u, 40u, 128u}) {
    std::vector<double> m(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j <= i; ++j) m[i * n + j] = m[j * n + i] = normal(random);
    std::vector<double> values(n), vectors(n * n), ref_values(n), ref_vectors(n * n);
    layout::symmetric_eigen(m.data(), n, values.data(), vectors.data());
    layout::symmetric_eigen_reference(m.data(), n, ref_values.data(), ref_vectors.data());
    double scale = 0;
    for (double v : ref_values) scale = std::fmax(scale, std::fabs(v));
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_NEAR(values[i], ref_values[i], 1e-10 * scale) << "n=" << n << " value " << i;
      if (i > 0) EXPECT_GE(values[i - 1], values[i]);
      // A v = lambda v for the fast solver's own vectors.
      for (std::size_t r = 0; r < n; ++r) {
        double av = 0;
        for (std::size_t c = 0; c < n; ++c) av += m[r * n + c] * vectors[i * n + c];
        EXPECT_NEAR(av, values[i] * vectors[i * n + r], 1e-9 * scale);
      }
    }
  }
}

TEST(SymmetricEigen, HandlesZeroRowsAndRepeatedValues) {
  // diag(3, 0, 3, 1): a zero row (Householder's scale 0) and a repeated eigenvalue.
  const std::size_t n = 4;
  std::vector<double> m(n * n, 0.0);
  m[0] = 3;
  m[2 * n + 2] = 3;
  m[3 * n + 3] = 1;
  std::vector<double> values(n), vectors(n * n);
  layout::symmetric_eigen(m.data(), n, values.data(), vectors.data());
  EXPECT_NEAR(values[0], 3, 1e-12);
  EXPECT_NEAR(values[1], 3, 1e-12);
  EXPECT_NEAR(values[2], 1, 1e-12);
  EXPECT_NEAR(values[3], 0, 1e-12);
  for (std::size_t i = 0; i < n; ++i) {
    double length = 0;
    for (std::size_t c = 0; c < n; ++c) length += vectors[i * n + c] * vectors[i * n + c];
    EXPECT_NEAR(length, 1, 1e-12);
  }
}
