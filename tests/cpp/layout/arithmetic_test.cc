// The layouts' shared arithmetic (arithmetic.h): exp, log and pow against
// libm, the dot product's error bound and its pieces, the random numbers.
#include "embeddings/layout/arithmetic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "layout_tables.h"

namespace layout = embeddings::layout;

TEST(LayoutMath, ExpLogPowMatchTheLibraryToDoublePrecision) {
  for (double x = -700; x <= 700; x += 0.37)
    EXPECT_NEAR(layout::layout_exp(x), std::exp(x), 4e-15 * std::exp(x)) << x;
  for (double x = 1e-300; x < 1e300; x *= 3.7)
    EXPECT_NEAR(layout::layout_log(x), std::log(x), 4e-15 * std::fmax(1.0, std::fabs(std::log(x)))) << x;
  for (double x = 0.001; x < 100; x *= 1.9)
    for (double y : {-1.3, -0.1, 0.0, 0.5, 0.895, 2.0, 7.5})
      EXPECT_NEAR(layout::layout_pow(x, y), std::pow(x, y), 1e-13 * std::pow(x, y)) << x << "^" << y;
  EXPECT_EQ(layout::layout_exp(-800), 0.0);
  EXPECT_EQ(layout::layout_exp(0), 1.0);
  EXPECT_TRUE(std::isinf(layout::layout_exp(710)));
  EXPECT_TRUE(std::isnan(layout::layout_log(-1)));
}

TEST(LayoutMath, DotIsWithinFloatRoundingOfADoubleSumAndTheSameInPieces) {
  std::mt19937 random(3);
  std::uniform_real_distribution<float> uniform(-2, 2);
  for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 127u, 128u, 129u, 768u, 4096u}) {
    std::vector<float> a(n), b(n);
    double exact = 0, magnitude = 0;
    for (std::size_t k = 0; k < n; ++k) {
      a[k] = uniform(random);
      b[k] = uniform(random);
      exact += static_cast<double>(a[k]) * b[k];
      magnitude += std::fabs(static_cast<double>(a[k]) * b[k]);
    }
    const float whole = layout::layout_dot(a.data(), b.data(), n);
    EXPECT_NEAR(whole, exact, (n + 1) * 0x1p-24 * magnitude + 1e-30) << n;
    // In pieces of multiples of 8: the same bits.
    layout::DotLanes lanes;
    std::size_t done = 0;
    for (std::size_t piece : {16u, 8u, 64u}) {
      const std::size_t take = std::min(piece, n - done) / 8 * 8;
      lanes.add(a.data() + done, b.data() + done, take);
      done += take;
    }
    lanes.add(a.data() + done, b.data() + done, n - done);
    EXPECT_EQ(lanes.sum(), whole) << n;
  }
}

TEST(LayoutMath, RandomNumbersAreSeededAndInRange) {
  layout::SplitMix64 a(42), b(42), c(43);
  std::size_t differ = 0;
  for (int i = 0; i < 1000; ++i) {
    const double x = a.symmetric_uniform();
    EXPECT_EQ(x, b.symmetric_uniform());
    EXPECT_GE(x, -1.0);
    EXPECT_LT(x, 1.0);
    differ += x != c.symmetric_uniform();
    EXPECT_LT(a.below(7), 7u);
    b.below(7);
    c.below(7);
  }
  EXPECT_GT(differ, 990u);
  EXPECT_EQ(layout::mix(1, 2), layout::mix(1, 2));
  EXPECT_NE(layout::mix(1, 2), layout::mix(2, 1));
}
