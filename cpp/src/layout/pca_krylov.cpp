// The Krylov method of PcaSteps (pca.h): each pass multiplies a block of
// vectors by the covariance, a chunk of rows at a time, without forming the
// covariance; the products join an orthonormal basis, and the components
// are read from the basis by Rayleigh-Ritz until their residuals are small.
//
// The covariance times a vector v is Σ_r x_r (x_r · v) / (rows - 1) over the
// centred rows x_r: one pass reads each row once and does both products
// with the block's b vectors. Sums run in float32 over 64 rows, then in
// double; the basis, the projection and the residuals are in double.
#include <algorithm>
#include <cmath>

#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/eigen.h"
#include "embeddings/layout/pca.h"
#include "pca_internal.h"
#include "simd.h"

namespace embeddings::layout {
namespace {

// sum[c] += rows[i][c] * weights[i] for each of `count` rows in turn.
void add_weighted_rows(float* sum, const float* rows, std::size_t count, const float* weights,
                       std::size_t cols) {
  std::size_t c = 0;
#if defined(EMBEDDINGS_LAYOUT_SIMD)
  if (count == kGroupRows) {
    using namespace simd;
    static_assert(kGroupRows == 4, "four rows' weights below");
    const Vector w0 = splat(weights[0]), w1 = splat(weights[1]), w2 = splat(weights[2]),
                 w3 = splat(weights[3]);
    for (; c + 4 <= cols; c += 4) {
      Vector s = load_floats(sum + c);
      s = mul_add(s, load_floats(rows + c), w0);
      s = mul_add(s, load_floats(rows + cols + c), w1);
      s = mul_add(s, load_floats(rows + 2 * cols + c), w2);
      s = mul_add(s, load_floats(rows + 3 * cols + c), w3);
      store(sum + c, s);
    }
  }
#endif
  for (; c < cols; ++c) {
    float s = sum[c];
    for (std::size_t i = 0; i < count; ++i) s += rows[i * cols + c] * weights[i];
    sum[c] = s;
  }
}

double dot_double(const double* a, const double* b, std::size_t n) {
  double sum = 0;
  for (std::size_t k = 0; k < n; ++k) sum += a[k] * b[k];
  return sum;
}

}  // namespace

std::size_t PcaSteps::largest_basis() const { return std::min(options_.largest_basis, table_.cols); }

void PcaSteps::orthonormalise(double* vector, std::size_t against) const {
  // Classical Gram-Schmidt twice ("twice is enough": Giraud et al. 2005),
  // then unit length; a vector that vanishes (it lay in the basis) stays 0.
  const std::size_t cols = table_.cols;
  const double before = std::sqrt(dot_double(vector, vector, cols));
  std::vector<double> coefficients(against);
  for (int round = 0; round < 2; ++round) {
    for (std::size_t i = 0; i < against; ++i) coefficients[i] = dot_double(&basis_[i * cols], vector, cols);
    for (std::size_t i = 0; i < against; ++i)
      for (std::size_t c = 0; c < cols; ++c) vector[c] -= coefficients[i] * basis_[i * cols + c];
  }
  const double length = std::sqrt(dot_double(vector, vector, cols));
  if (!(length > 1e-10 * before)) {
    std::fill(vector, vector + cols, 0.0);
    return;
  }
  for (std::size_t c = 0; c < cols; ++c) vector[c] /= length;
}

void PcaSteps::start_krylov() {
  const std::size_t cols = table_.cols, b = block_size();
  krylov_mean_.assign(mean_.begin(), mean_.end());
  basis_.assign(largest_basis() * cols, 0.0);
  products_.assign(largest_basis() * cols, 0.0);
  block_.assign(b * cols, 0.0f);
  // The random start: numbers uniform in [-1, 1), orthonormalised.
  SplitMix64 random(random_state_);
  for (std::size_t j = 0; j < b; ++j) {
    double* vector = &basis_[j * cols];
    for (std::size_t c = 0; c < cols; ++c) vector[c] = random.symmetric_uniform();
    orthonormalise(vector, j);
    for (std::size_t c = 0; c < cols; ++c) block_[j * cols + c] = static_cast<float>(vector[c]);
  }
  random_state_ = random.state;
}

void PcaSteps::krylov_row(std::size_t r, float* out) const {
  // The row less the mean rounded to float32, in float32: centring every
  // row at a point a fraction of an ulp off the mean changes the
  // covariance by that fraction squared, far below the tolerance, and
  // costs one subtraction a number where the double mean costs five.
  const std::size_t cols = table_.cols;
  const float* mean = krylov_mean_.data();
  std::size_t c = 0;
  if (scale_ != 1.0f || table_.numbers == Numbers::Float16) {
    table_.widen_row(r, out, scale_);
    for (; c < cols; ++c) out[c] -= mean[c];
    return;
  }
#if defined(EMBEDDINGS_LAYOUT_SIMD)
  using namespace simd;
  if (table_.numbers == Numbers::Float32) {
    for (const float* row = table_.floats(r); c + 4 <= cols; c += 4)
      store(out + c, sub(load_floats(row + c), load_floats(mean + c)));
  } else {
    for (const std::uint16_t* row = table_.halves(r); c + 8 <= cols; c += 8) {
      const Bits bits = load(row + c);
      store(out + c, sub(bf16_low(bits), load_floats(mean + c)));
      store(out + c + 4, sub(bf16_high(bits), load_floats(mean + c + 4)));
    }
  }
#endif
  for (; c < cols; ++c) out[c] = table_.at(r, c) - mean[c];
}

void PcaSteps::krylov_chunk(std::size_t chunk, std::size_t slot) {
  // A group of rows at a time: their products with the block's vectors,
  // then each vector's sum gains the group's rows in row order (the same
  // additions, in the same order, as a row at a time, with fewer loads).
  const std::size_t cols = table_.cols, b = block_size(), first = chunk * chunk_rows();
  const std::size_t end = std::min(table_.rows, first + chunk_rows());
  float* rows = &scratch_[slot * scratch_size()];  // (kGroupRows, cols): the group's centred rows
  float* products = rows + kGroupRows * cols;      // (b, cols): this block of rows' sums
  double* partial = &partials_[slot * (cols * b + 1)];
  std::vector<float> weights(b * kGroupRows);  // (b, kGroupRows): each row's product with each vector
  for (std::size_t block = first; block < end; block += kFloatBlockRows) {
    std::fill(products, products + b * cols, 0.0f);
    const std::size_t block_end = std::min(end, block + kFloatBlockRows);
    for (std::size_t group = block; group < block_end; group += kGroupRows) {
      const std::size_t count = std::min(kGroupRows, block_end - group);
      for (std::size_t i = 0; i < count; ++i) {
        float* row = rows + i * cols;
        krylov_row(group + i, row);
        if (passes_ == 0) partial[cols * b] += layout_dot(row, row, cols);
        std::size_t j = 0;
        for (float dots[4]; j + 4 <= b; j += 4) {
          const float* vectors[4] = {&block_[j * cols], &block_[(j + 1) * cols], &block_[(j + 2) * cols],
                                     &block_[(j + 3) * cols]};
          layout_dots4(row, vectors, cols, dots);
          for (std::size_t k = 0; k < 4; ++k) weights[(j + k) * kGroupRows + i] = dots[k];
        }
        for (; j < b; ++j) weights[j * kGroupRows + i] = layout_dot(row, &block_[j * cols], cols);
      }
      for (std::size_t j = 0; j < b; ++j)
        add_weighted_rows(products + j * cols, rows, count, &weights[j * kGroupRows], cols);
    }
    for (std::size_t k = 0; k < b * cols; ++k) partial[k] += products[k];
  }
}

void PcaSteps::finish_krylov_pass() {
  const std::size_t cols = table_.cols, b = block_size(), first = passes_ * b;
  const double divisor = static_cast<double>(table_.rows - 1);
  for (std::size_t k = 0; k < b * cols; ++k) products_[first * cols + k] = sums_[k] / divisor;
  if (passes_ == 0) total_variance_ = sums_[cols * b] / divisor;
  ++passes_;
  std::vector<double> axes, values;
  if (ritz(axes, values)) {
    finish_axes(axes, values, total_variance_);
    return;
  }
  next_block();
  start_phase(Phase::Krylov);
}

bool PcaSteps::ritz(std::vector<double>& axes, std::vector<double>& values) {
  // Rayleigh-Ritz in the basis V (m vectors): the eigenpairs (θ, s) of
  // H = Vᵀ C V give the components u = V s, with residuals |C V s - θ V s|.
  const std::size_t cols = table_.cols, m = passes_ * block_size(), components = options_.components;
  std::vector<double> projected(m * m);
  for (std::size_t p = 0; p < m; ++p)
    for (std::size_t q = p; q < m; ++q) {
      const double value = 0.5 * (dot_double(&basis_[p * cols], &products_[q * cols], cols) +
                                  dot_double(&basis_[q * cols], &products_[p * cols], cols));
      projected[p * m + q] = value;
      projected[q * m + p] = value;
    }
  std::vector<double> thetas(m), ritz_vectors(m * m);
  symmetric_eigen(projected.data(), m, thetas.data(), ritz_vectors.data());
  axes.assign(components * cols, 0.0);
  values.assign(thetas.begin(), thetas.begin() + components);
  std::vector<double> image(cols);
  bool converged = true;
  for (std::size_t i = 0; i < components; ++i) {
    double* axis = &axes[i * cols];
    std::fill(image.begin(), image.end(), 0.0);
    for (std::size_t p = 0; p < m; ++p) {
      const double weight = ritz_vectors[i * m + p];
      for (std::size_t c = 0; c < cols; ++c) {
        axis[c] += weight * basis_[p * cols + c];
        image[c] += weight * products_[p * cols + c];
      }
    }
    double residual = 0;
    for (std::size_t c = 0; c < cols; ++c)
      residual += (image[c] - thetas[i] * axis[c]) * (image[c] - thetas[i] * axis[c]);
    residuals_[i] = thetas[0] > 0 ? std::sqrt(residual) / thetas[0] : 0;
    converged = converged && residuals_[i] <= options_.tolerance;
    const double length = std::sqrt(dot_double(axis, axis, cols));
    if (length > 0)
      for (std::size_t c = 0; c < cols; ++c) axis[c] /= length;
  }
  // The basis spans every direction, or has no room for another block: these are the components.
  return converged || m >= cols || m + block_size() > largest_basis();
}

void PcaSteps::next_block() {
  // The last products, orthonormalised against the basis, are the next
  // block; one that vanishes is replaced by a random vector.
  const std::size_t cols = table_.cols, b = block_size(), m = passes_ * b;
  SplitMix64 random(random_state_);
  for (std::size_t j = 0; j < b; ++j) {
    double* vector = &basis_[(m + j) * cols];
    std::copy(&products_[(m - b + j) * cols], &products_[(m - b + j + 1) * cols], vector);
    orthonormalise(vector, m + j);
    if (dot_double(vector, vector, cols) == 0) {
      for (std::size_t c = 0; c < cols; ++c) vector[c] = random.symmetric_uniform();
      orthonormalise(vector, m + j);
    }
    for (std::size_t c = 0; c < cols; ++c) block_[j * cols + c] = static_cast<float>(vector[c]);
  }
  random_state_ = random.state;
}

}  // namespace embeddings::layout
