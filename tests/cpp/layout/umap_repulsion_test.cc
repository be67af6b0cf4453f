// UMAP's negative samples four at a time (umap_repulsion.cpp) against one
// at a time, bit for bit, and against the formula in double.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "embeddings/layout/umap.h"

namespace layout = embeddings::layout;

TEST(Umap, FourNegativeSamplesAtOnceAreFourScalarOnesBitForBit) {
  std::mt19937 random(17);
  std::uniform_real_distribution<float> uniform(-12, 12);
  std::uniform_int_distribution<int> tiny(0, 9);
  const layout::Repulsion r{1.577f, 0.8951f, 2.0f * 0.8951f, 0.37f};
  for (int trial = 0; trial < 20000; ++trial) {
    float nx[4], ny[4];
    for (int lane = 0; lane < 4; ++lane) {
      // Some lanes at distance 0 (the point itself), some very close, some far.
      const int kind = tiny(random);
      nx[lane] = kind == 0 ? 0.0f : uniform(random) * (kind == 1 ? 1e-4f : 1.0f);
      ny[lane] = kind == 0 ? 0.0f : uniform(random) * (kind == 1 ? 1e-4f : 1.0f);
    }
    float gx[4], gy[4];
    for (int lane = 0; lane < 4; ++lane) gx[lane] = layout::repulsion_scalar(nx[lane], ny[lane], r, gy[lane]);
    float px = 0.5f, py = -0.25f;
    layout::repulsion4(nx, ny, r, px, py);
    EXPECT_EQ(px, 0.5f + ((gx[0] + gx[1]) + (gx[2] + gx[3])));
    EXPECT_EQ(py, -0.25f + ((gy[0] + gy[1]) + (gy[2] + gy[3])));
    for (int lane = 0; lane < 4; ++lane) {
      const double d2 = static_cast<double>(nx[lane]) * nx[lane] + static_cast<double>(ny[lane]) * ny[lane];
      if (d2 == 0) {
        EXPECT_EQ(gx[lane], 0.0f);
        continue;
      }
      // Against the formula in double: 2 gamma b / ((0.001 + d^2)(1 + a d^(2b))).
      const double push = 2.0 * 0.8951f / ((0.001 + d2) * (1.577f * std::pow(d2, 0.8951f) + 1));
      const double expected = std::fmax(-4.0, std::fmin(4.0, push * nx[lane])) * 0.37f;
      EXPECT_NEAR(gx[lane], expected, 1e-5 * std::fabs(expected) + 1e-30);
    }
  }
}
