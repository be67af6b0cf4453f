// PCA (pca.h): the covariance method against the double reference, the
// Krylov method against the full eigensolve (angles and shares within the
// stated tolerance), 16-bit tables read in their bits, chunks in any order,
// and tables at float32's edges.
#include "embeddings/layout/pca.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "embeddings/layout/eigen.h"
#include "layout_tables.h"

namespace layout = embeddings::layout;
using embeddings::test::anisotropic_table;

namespace {

layout::PcaSteps run(const layout::TableView& table, layout::PcaOptions options) {
  layout::PcaSteps steps;
  std::string error;
  EXPECT_TRUE(steps.begin(table, options, error)) << error;
  while (steps.step()) {
  }
  return steps;
}

layout::PcaOptions with(layout::PcaOptions::Method method) {
  layout::PcaOptions options;
  options.method = method;
  return options;
}

// The angle between two unit vectors, up to sign.
// The angle between the lines of a and b, from the distance between their
// unit vectors (acos of a dot product near 1 would lose half its digits, and
// float32 vectors are not quite of unit length).
double angle(const float* a, const float* b, std::size_t n) {
  double aa = 0, bb = 0, ab = 0;
  for (std::size_t c = 0; c < n; ++c) {
    aa += static_cast<double>(a[c]) * a[c];
    bb += static_cast<double>(b[c]) * b[c];
    ab += static_cast<double>(a[c]) * b[c];
  }
  const double sign = ab < 0 ? -1 : 1, scale_a = 1 / std::sqrt(aa), scale_b = sign / std::sqrt(bb);
  double distance = 0;
  for (std::size_t c = 0; c < n; ++c) {
    const double d = a[c] * scale_a - b[c] * scale_b;
    distance += d * d;
  }
  return 2 * std::asin(std::min(1.0, std::sqrt(distance) / 2));
}

}  // namespace

TEST(Pca, MatchesTheDoubleReferenceOnARandomTable) {
  const std::size_t rows = 600, cols = 24, components = 3;
  const std::vector<float> table = anisotropic_table(rows, cols, 11);
  layout::Pca result;
  std::vector<float> coords(rows * components);
  layout::pca(table.data(), rows, cols, components, result, coords.data());
  std::vector<double> axes, shares, ref_coords;
  layout::pca_reference(table.data(), rows, cols, components, axes, shares, ref_coords);
  double total_share = 0;
  for (std::size_t i = 0; i < components; ++i) {
    EXPECT_NEAR(result.variance_share[i], shares[i], 1e-5);
    total_share += result.variance_share[i];
    for (std::size_t c = 0; c < cols; ++c) EXPECT_NEAR(result.axes[i * cols + c], axes[i * cols + c], 1e-3);
  }
  EXPECT_LT(total_share, 1.0);
  for (std::size_t k = 0; k < rows * components; ++k) EXPECT_NEAR(coords[k], ref_coords[k], 2e-3);
}

TEST(Pca, MatchesTheDoubleReferenceOnTheDefaultModel) {
  const auto wte = embeddings::test::default_model().wte();
  ASSERT_EQ(wte.cols, 128u);
  layout::Pca result;
  std::vector<float> coords(wte.rows * 2);
  layout::pca(wte.floats(), wte.rows, wte.cols, 2, result, coords.data());
  std::vector<double> axes, shares, ref_coords;
  layout::pca_reference(wte.floats(), wte.rows, wte.cols, 2, axes, shares, ref_coords);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_NEAR(result.variance_share[i], shares[i], 1e-5);
    for (std::size_t c = 0; c < wte.cols; ++c)
      EXPECT_NEAR(result.axes[i * wte.cols + c], axes[i * wte.cols + c], 1e-3);
  }
  // The table is anisotropic: the first component holds about a fifth of the variance.
  EXPECT_GT(result.variance_share[0], 0.1);
  for (std::size_t k = 0; k < coords.size(); ++k)
    EXPECT_NEAR(coords[k], ref_coords[k], 1e-3 * (1 + std::fabs(ref_coords[k])));
}

TEST(Pca, SignsAreNormalisedSoThatTheLargestCoordinateIsPositive) {
  const std::size_t rows = 200, cols = 10;
  std::vector<float> table = anisotropic_table(rows, cols, 2), flipped = table;
  for (float& x : flipped) x = -x;  // same axes up to sign
  layout::Pca a, b;
  layout::pca(table.data(), rows, cols, 2, a, nullptr);
  layout::pca(flipped.data(), rows, cols, 2, b, nullptr);
  for (std::size_t i = 0; i < 2; ++i) {
    std::size_t largest = 0;
    for (std::size_t c = 0; c < cols; ++c)
      if (std::fabs(a.axes[i * cols + c]) > std::fabs(a.axes[i * cols + largest])) largest = c;
    EXPECT_GT(a.axes[i * cols + largest], 0);
    for (std::size_t c = 0; c < cols; ++c) EXPECT_NEAR(a.axes[i * cols + c], b.axes[i * cols + c], 1e-4);
  }
}

TEST(Pca, TheKrylovMethodMatchesTheFullEigensolveWithinItsTolerance) {
  // 300 columns: past the covariance method's width, so Automatic picks Krylov.
  const std::size_t rows = 2000, cols = 300;
  const std::vector<float> table = anisotropic_table(rows, cols, 4);
  const auto view = layout::TableView::of_floats(table.data(), rows, cols);
  const layout::PcaSteps krylov = run(view, layout::PcaOptions());
  ASSERT_EQ(krylov.method(), layout::PcaOptions::Method::Krylov);
  EXPECT_LT(krylov.passes(), 16u);  // it stopped by its tolerance, not the basis's size
  // The full eigensolve of the covariance in double, the reference.
  std::vector<double> mean(cols, 0.0), covariance(cols * cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) mean[c] += table[r * cols + c] / static_cast<double>(rows);
  std::vector<double> centred(cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) centred[c] = table[r * cols + c] - mean[c];
    for (std::size_t i = 0; i < cols; ++i)
      for (std::size_t j = 0; j < cols; ++j) covariance[i * cols + j] += centred[i] * centred[j] / (rows - 1);
  }
  double total = 0;
  for (std::size_t i = 0; i < cols; ++i) total += covariance[i * cols + i];
  std::vector<double> values(cols), vectors(cols * cols);
  layout::symmetric_eigen(covariance.data(), cols, values.data(), vectors.data());
  // The bound the method states: each axis within residual × θ₁ / gap of the
  // exact one (Davis-Kahan, gap the distance to the nearest other
  // variance), each share within (residual × θ₁)² / gap / total; beside
  // them, the rounding of the passes' float32 sums and of the axes to
  // float32 (below 1e-6).
  for (std::size_t i = 0; i < 2; ++i) {
    const double gap = std::min(i == 0 ? 1e300 : values[0] - values[1], values[i] - values[i + 1]);
    const double residual = krylov.residuals()[i] * values[0];
    EXPECT_LE(krylov.residuals()[i], 1e-5);
    std::vector<float> exact(cols);
    for (std::size_t c = 0; c < cols; ++c) exact[c] = static_cast<float>(vectors[i * cols + c]);
    const double measured = angle(&krylov.result().axes[i * cols], exact.data(), cols);
    EXPECT_LE(measured, residual / gap + 1e-6) << i;
    EXPECT_NEAR(krylov.result().variance_share[i], values[i] / total,
                residual * residual / gap / total + 1e-6)
        << i;
  }
}

TEST(Pca, ReadsSixteenBitTablesInTheirBitsAsTheirNumbers) {
  // Both 16-bit formats, at a width the vector loops cover and at one that
  // leaves each row a tail.
  const std::size_t rows = 700;
  for (const std::size_t cols : {160, 163}) {
    const std::vector<float> values = anisotropic_table(rows, cols, 8);
    const embeddings::test::SixteenBitTables tables(values, rows, cols);
    for (const layout::TableView& sixteen : tables.views()) {
      const std::vector<float> wide = embeddings::test::widened(sixteen);
      for (auto method : {layout::PcaOptions::Method::Covariance, layout::PcaOptions::Method::Krylov}) {
        SCOPED_TRACE(cols);
        const layout::PcaSteps a = run(sixteen, with(method));
        const layout::PcaSteps b = run(layout::TableView::of_floats(wide.data(), rows, cols), with(method));
        EXPECT_EQ(a.coords(), b.coords());
        EXPECT_EQ(a.result().variance_share, b.result().variance_share);
      }
    }
  }
}

TEST(Pca, ChunksDoneInAnyOrderGiveTheSameBits) {
  // As threads would run them: rounds of 5 chunks, each round's backwards.
  const std::size_t rows = 3000, cols = 200;
  const std::vector<float> table = anisotropic_table(rows, cols, 6);
  const auto view = layout::TableView::of_floats(table.data(), rows, cols);
  const layout::PcaSteps one = run(view, layout::PcaOptions());
  layout::PcaSteps shuffled;
  std::string error;
  ASSERT_TRUE(shuffled.begin(view, layout::PcaOptions(), error));
  shuffled.set_round(5);
  for (;;) {
    const std::size_t tasks = shuffled.begin_tasks();
    if (tasks == 0) break;
    for (std::size_t t = tasks; t-- > 0;) shuffled.run_task(t);
    shuffled.finish_tasks();
  }
  ASSERT_TRUE(shuffled.done());
  EXPECT_EQ(shuffled.coords(), one.coords());
  EXPECT_EQ(shuffled.result().axes, one.result().axes);
  EXPECT_EQ(shuffled.passes(), one.passes());
}

TEST(Pca, ProgressRisesToOne) {
  const std::vector<float> table = anisotropic_table(3000, 200, 5);
  layout::PcaSteps steps;
  std::string error;
  ASSERT_TRUE(
      steps.begin(layout::TableView::of_floats(table.data(), 3000, 200), layout::PcaOptions(), error));
  double last = 0;
  std::size_t count = 0;
  while (steps.step()) {
    EXPECT_GE(steps.progress(), last);
    last = steps.progress();
    ++count;
  }
  EXPECT_GT(count, 10u);
  EXPECT_EQ(steps.progress(), 1.0);
}

TEST(Pca, TablesAtFloat32sEdgesGiveFiniteCoordinatesOrANamedError) {
  // A row near 2e19 (its square overflows float32): the map of the table
  // scaled by 2^64 is the unscaled table's map times 2^64, to the bit.
  const std::size_t rows = 300, cols = 140;
  for (auto method : {layout::PcaOptions::Method::Covariance, layout::PcaOptions::Method::Krylov}) {
    const std::vector<float> small = anisotropic_table(rows, cols, 3);
    std::vector<float> large = small;
    for (float& x : large) x *= 0x1p64f;  // up to about 2e20, every square beyond float32
    const layout::PcaSteps a = run(layout::TableView::of_floats(small.data(), rows, cols), with(method));
    const layout::PcaSteps b = run(layout::TableView::of_floats(large.data(), rows, cols), with(method));
    ASSERT_FALSE(b.failed()) << b.error();
    for (std::size_t k = 0; k < a.coords().size(); ++k)
      ASSERT_EQ(b.coords()[k], a.coords()[k] * 0x1p64f) << k;
    EXPECT_EQ(a.result().variance_share, b.result().variance_share);
    // Tiny numbers, whose squares underflow: the same.
    std::vector<float> tiny = small;
    for (float& x : tiny) x *= 0x1p-90f;
    const layout::PcaSteps c = run(layout::TableView::of_floats(tiny.data(), rows, cols), with(method));
    for (std::size_t k = 0; k < a.coords().size(); ++k)
      ASSERT_EQ(c.coords()[k], a.coords()[k] * 0x1p-90f) << k;
    // Numbers near float32's largest: coordinates beyond its range, named.
    std::vector<float> huge = small;
    for (float& x : huge) x = x > 0 ? 3e38f : -3e38f;
    const layout::PcaSteps d = run(layout::TableView::of_floats(huge.data(), rows, cols), with(method));
    EXPECT_TRUE(d.failed());
    EXPECT_NE(d.error().find("beyond float32's range"), std::string::npos) << d.error();
  }
}

TEST(Pca, RefusesWhatItCannotCompute) {
  std::vector<float> table = anisotropic_table(50, 4, 1);
  layout::PcaSteps steps;
  std::string error;
  layout::PcaOptions options;
  options.components = 5;
  EXPECT_FALSE(steps.begin(layout::TableView::of_floats(table.data(), 50, 4), options, error));
  EXPECT_NE(error.find("components"), std::string::npos) << error;
  EXPECT_FALSE(steps.begin(layout::TableView::of_floats(table.data(), 1, 4), layout::PcaOptions(), error));
  table[77] = std::numeric_limits<float>::infinity();
  const layout::PcaSteps broken =
      run(layout::TableView::of_floats(table.data(), 50, 4), layout::PcaOptions());
  EXPECT_TRUE(broken.failed());
  EXPECT_NE(broken.error().find("not finite"), std::string::npos) << broken.error();
}
