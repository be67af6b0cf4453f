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

namespace embeddings::layout {
namespace {

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

void PcaSteps::krylov_chunk(std::size_t chunk, std::size_t slot) {
  const std::size_t cols = table_.cols, b = block_size(), first = chunk * chunk_rows();
  const std::size_t end = std::min(table_.rows, first + chunk_rows());
  float* row = &scratch_[slot * scratch_size()];
  float* products = row + cols;  // (b, cols): this block of rows' sums
  double* partial = &partials_[slot * (cols * b + 1)];
  for (std::size_t block = first; block < end; block += kFloatBlockRows) {
    std::fill(products, products + b * cols, 0.0f);
    for (std::size_t r = block; r < std::min(end, block + kFloatBlockRows); ++r) {
      centred_row(r, row);
      if (passes_ == 0) partial[cols * b] += layout_dot(row, row, cols);
      for (std::size_t j = 0; j < b; ++j) {
        const float weight = layout_dot(row, &block_[j * cols], cols);
        float* sum = products + j * cols;
        for (std::size_t c = 0; c < cols; ++c) sum[c] += row[c] * weight;
      }
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
