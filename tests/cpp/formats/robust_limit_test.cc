// robust_limit (tables.h), the scale a table's colours take, against a plain
// reference: the whole sample sorted, NaNs last, and read at the rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "embeddings/formats/tables.h"

namespace {

using embeddings::kRobustLimitSample;
using embeddings::kRobustLimitScratch;
using embeddings::TableView;
namespace kernels = embeddings::kernels;

// As the page's JavaScript states it: every step-th |x|, sorted with NaNs
// last, the number at rank min(n - 1, floor(0.995 n)); 1 for NaN, 0 or none.
double reference_limit(const TableView& table) {
  const std::size_t count = table.rows * table.cols;
  if (count == 0) return 1;
  const std::size_t step = std::max<std::size_t>(1, count / kRobustLimitSample);
  std::vector<double> sample;
  for (std::size_t i = 0; i < count; i += step)
    sample.push_back(std::fabs(double(table.at(i / table.cols, i % table.cols))));
  std::sort(sample.begin(), sample.end(),
            [](double a, double b) { return std::isnan(b) ? !std::isnan(a) : a < b; });
  const auto rank = std::min(sample.size() - 1, std::size_t(std::floor(double(sample.size()) * 0.995)));
  const double value = sample[rank];
  return value > 0 ? value : 1;  // NaN > 0 is false
}

double limit_of(const TableView& table) {
  std::vector<float> scratch(kRobustLimitScratch, -1.0f);
  return embeddings::robust_limit(table, scratch.data());
}

TableView f32_table(const std::vector<float>& numbers, std::size_t cols) {
  return {{numbers.data(), kernels::NumberFormat::F32}, numbers.size() / cols, cols};
}

std::vector<float> normal_numbers(std::size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::normal_distribution<float> normal(0.0f, 0.05f);
  std::vector<float> out(n);
  for (float& x : out) x = normal(random);
  return out;
}

TEST(RobustLimitTest, MatchesTheSortedSampleAtEverySizeAroundTheSteps) {
  // Sizes around each change of step and of the rank's rounding, and the chapter's table.
  for (std::size_t n : {1u, 2u, 7u, 199u, 200u, 201u, 19999u, 20000u, 20001u, 39999u, 40000u, 40001u, 59999u,
                        60000u, 4096u * 128u, 100003u}) {
    const auto numbers = normal_numbers(n, unsigned(n));
    const double got = limit_of(f32_table(numbers, 1));
    EXPECT_EQ(got, reference_limit(f32_table(numbers, 1))) << n << " numbers";
    EXPECT_GT(got, 0) << n;
  }
}

TEST(RobustLimitTest, ReadsSixteenBitTablesAsTheirWidenedNumbers) {
  std::mt19937 random(3);
  std::vector<std::uint16_t> bits(4096 * 128);
  for (auto format : {kernels::NumberFormat::F16, kernels::NumberFormat::BF16}) {
    // Every 16-bit pattern is a number of the format, NaNs and infinities
    // among them: random bits cover them all.
    for (auto& b : bits) b = std::uint16_t(random());
    const TableView table{{bits.data(), format}, 4096, 128};
    EXPECT_EQ(limit_of(table), reference_limit(table));
    // Numbers of a trained table's size: a limit well inside the range.
    for (auto& b : bits) {
      const float x = std::normal_distribution<float>(0.0f, 0.05f)(random);
      std::uint32_t f;
      std::memcpy(&f, &x, sizeof f);
      b = format == kernels::NumberFormat::BF16 ? std::uint16_t(f >> 16)
                                                : std::uint16_t((random() & 0x83FF) | 0x2000);
    }
    const double limit = limit_of(table);
    EXPECT_EQ(limit, reference_limit(table));
    EXPECT_GT(limit, 0.0);
    EXPECT_LT(limit, 1.0);
  }
}

TEST(RobustLimitTest, LeavesNaNsOutAndKeepsInfinitiesAtTheTop) {
  auto numbers = normal_numbers(4096, 11);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < numbers.size(); i += 997) numbers[i] = nan;  // 5, fewer than the rank leaves
  numbers[5] = inf;
  numbers[6] = -inf;
  const double limit = limit_of(f32_table(numbers, 64));
  EXPECT_EQ(limit, reference_limit(f32_table(numbers, 64)));
  EXPECT_TRUE(std::isfinite(limit));
  // Infinities past the rank: the limit is one of them.
  for (std::size_t i = 0; i < 100; ++i) numbers[100 + i] = (i % 2 ? inf : -inf);
  EXPECT_EQ(limit_of(f32_table(numbers, 64)), inf);
  EXPECT_EQ(reference_limit(f32_table(numbers, 64)), inf);
  // NaNs at the rank (they count in the sample's size): no scale to read, 1.
  std::fill(numbers.begin(), numbers.begin() + 30, nan);
  EXPECT_EQ(limit_of(f32_table(numbers, 64)), 1.0);
  EXPECT_EQ(reference_limit(f32_table(numbers, 64)), 1.0);
}

TEST(RobustLimitTest, IsOneForNoNumbersAndForZeros) {
  const TableView empty{{nullptr, kernels::NumberFormat::F32}, 0, 128};
  EXPECT_EQ(limit_of(empty), 1.0);
  const std::vector<float> zeros(1000, 0.0f);
  EXPECT_EQ(limit_of(f32_table(zeros, 10)), 1.0);
  const std::vector<float> negative(1000, -0.25f);
  EXPECT_EQ(limit_of(f32_table(negative, 10)), 0.25);
}

TEST(RobustLimitTest, NeverWritesPastItsScratch) {
  // A guard past kRobustLimitScratch floats stays as it was, at the largest sample.
  const auto numbers = normal_numbers(39999, 5);
  std::vector<float> scratch(kRobustLimitScratch + 16, -1.0f);
  embeddings::robust_limit(f32_table(numbers, 1), scratch.data());
  for (std::size_t i = kRobustLimitScratch; i < scratch.size(); ++i) EXPECT_EQ(scratch[i], -1.0f);
}

}  // namespace
