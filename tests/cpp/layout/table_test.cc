// The layouts' tables (table.h): rows'
// dot products in the widened rows' sums (one pair, or four rows at once),
// the scan for numbers that are not finite, and the range check's scale.
#include "embeddings/layout/table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "../kernels/widen_oracle.h"
#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/knn.h"
#include "layout_tables.h"

namespace layout = embeddings::layout;

TEST(LayoutTable, SixteenBitRowDotsAreTheWidenedRowsDotBitForBit) {
  std::mt19937 random(9);
  std::normal_distribution<float> normal(0, 3);
  for (std::size_t cols : {1u, 3u, 8u, 9u, 127u, 128u, 129u, 768u, 1030u}) {
    std::vector<float> values(3 * cols);
    for (float& x : values) x = normal(random) * (random() % 5 == 0 ? 1e-6f : 1.0f);  // some subnormal halves
    for (auto numbers : {layout::Numbers::Float16, layout::Numbers::BFloat16}) {
      const std::vector<std::uint16_t> bits = numbers == layout::Numbers::Float16
                                                  ? embeddings::test::float16_bits(values)
                                                  : embeddings::test::bfloat16_bits(values);
      const layout::TableView table{bits.data(), 3, cols, numbers};
      const std::vector<float> wide = embeddings::test::widened(table);
      const auto floats = layout::TableView::of_floats(wide.data(), 3, cols);
      for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) {
          EXPECT_EQ(layout::row_dot(table, i, j), layout::layout_dot(&wide[i * cols], &wide[j * cols], cols))
              << cols;
          // Scaled by powers of two: the widened rows scaled, then dotted.
          std::vector<float> a(&wide[i * cols], &wide[i * cols] + cols),
              b(&wide[j * cols], &wide[j * cols] + cols);
          for (float& x : a) x *= 0x1p-20f;
          for (float& x : b) x *= 0x1p30f;
          EXPECT_EQ(layout::row_dot(table, i, j, 0x1p-20f, 0x1p30f),
                    layout::layout_dot(a.data(), b.data(), cols));
          EXPECT_EQ(layout::row_dot(floats, i, j, 0x1p-20f, 0x1p30f),
                    layout::layout_dot(a.data(), b.data(), cols));
        }
    }
  }
}

TEST(LayoutTable, FourRowDotsAtOnceAreFourRowDotsBitForBit) {
  std::mt19937 random(11);
  std::normal_distribution<float> normal(0, 3);
  constexpr std::size_t kRows = 6;
  for (std::size_t cols : {1u, 7u, 8u, 13u, 64u, 771u}) {
    std::vector<float> values(kRows * cols);
    for (float& x : values) x = normal(random);
    const std::vector<std::uint16_t> halves = embeddings::test::float16_bits(values),
                                     brains = embeddings::test::bfloat16_bits(values);
    const layout::TableView tables[] = {layout::TableView::of_floats(values.data(), kRows, cols),
                                        {halves.data(), kRows, cols, layout::Numbers::Float16},
                                        {brains.data(), kRows, cols, layout::Numbers::BFloat16}};
    for (const layout::TableView& table : tables) {
      const std::size_t others[4] = {3, 0, 5, 3};  // itself, a repeat, either side
      for (const float scale : {1.0f, 0x1p-20f}) {
        const float scales[5] = {1.0f, 1.0f, scale, 1.0f, 1.0f};
        float four[4];
        layout::row_dots4(table, 0, others, scales, four);
        for (int n = 0; n < 4; ++n)
          EXPECT_EQ(four[n], layout::row_dot(table, 0, others[n], scales[0], scales[n + 1]))
              << cols << " " << n;
      }
      layout::CosineRows cosines;
      cosines.prepare(table);
      cosines.compute(table, 0, kRows);
      const std::uint32_t rows[4] = {5, 1, 0, 2};
      float four[4];
      cosines.cosines4(table, 4, rows, four);
      for (int n = 0; n < 4; ++n) EXPECT_EQ(four[n], cosines.cosine(table, 4, rows[n])) << cols << " " << n;
    }
  }
}

TEST(LayoutTable, TheScanFindsNumbersThatAreNotFiniteAndTheLargest) {
  std::vector<float> values(40, 0.5f);
  values[17] = -9.0f;
  float largest = 0;
  EXPECT_TRUE(layout::TableView::of_floats(values.data(), 4, 10).scan(0, 4, largest));
  EXPECT_EQ(largest, 9.0f);
  const std::vector<std::uint16_t> bf16 = embeddings::test::bfloat16_bits(values),
                                   f16 = embeddings::test::float16_bits(values);
  for (const auto* bits : {&bf16, &f16}) {
    const auto numbers = bits == &bf16 ? layout::Numbers::BFloat16 : layout::Numbers::Float16;
    largest = 0;
    EXPECT_TRUE((layout::TableView{bits->data(), 4, 10, numbers}.scan(0, 4, largest)));
    EXPECT_EQ(largest, 9.0f);
    std::vector<std::uint16_t> broken = *bits;
    broken[23] = numbers == layout::Numbers::BFloat16 ? 0xFF80 : 0xFC00;  // -infinity
    EXPECT_FALSE((layout::TableView{broken.data(), 4, 10, numbers}.scan(0, 4, largest)));
    EXPECT_TRUE((layout::TableView{broken.data(), 4, 10, numbers}.scan(0, 2, largest)));  // rows 0 and 1 only
    broken[23] = numbers == layout::Numbers::BFloat16 ? 0x7FC1 : 0x7E01;                  // NaN
    EXPECT_FALSE((layout::TableView{broken.data(), 4, 10, numbers}.scan(0, 4, largest)));
  }
  values[3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(layout::TableView::of_floats(values.data(), 4, 10).scan(0, 4, largest));
}

TEST(LayoutTable, TheRangeScaleIsOneInsideTheSafeRangeAndAPowerOfTwoOutside) {
  for (float x : {0.0f, 1e-12f, 1.0f, 3.0f, 1e12f}) EXPECT_EQ(layout::range_scale(x), 1.0f) << x;
  for (float x : {2e19f, 3.4e38f, 1e-20f, 1e-45f}) {
    const float scale = layout::range_scale(x);
    int exponent = 0;
    EXPECT_EQ(std::frexp(scale, &exponent), 0.5f) << x;  // a power of two
    EXPECT_GE(x * scale, 0x1p-40f) << x;
    EXPECT_LE(x * scale, 4.0f) << x;
  }
}
