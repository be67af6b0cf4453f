// The double-precision reference kernels: the tests' oracle, and the fast
// kernels' fallback outside float32's safe range (kernels.h, "Numerics").
#include <algorithm>
#include <cmath>

#include "embeddings/kernels/kernels.h"
#include "scalar.h"

namespace embeddings::kernels {

double dot_reference(const float* a, const float* b, std::size_t n) {
  double sum = 0;
  for (std::size_t k = 0; k < n; ++k) sum += static_cast<double>(a[k]) * static_cast<double>(b[k]);
  return sum;
}

DotAndNorms dot_and_norms_reference(const float* a, const float* b, std::size_t n) {
  DotAndNorms sums;
  for (std::size_t k = 0; k < n; ++k) {
    const double x = a[k], y = b[k];
    sums.ab += x * y;
    sums.aa += x * x;
    sums.bb += y * y;
  }
  return sums;
}

double cosine_reference(const float* a, const float* b, std::size_t n) {
  const DotAndNorms sums = dot_and_norms_reference(a, b, n);
  if (std::isnan(sums.ab) || std::isnan(sums.aa) || std::isnan(sums.bb)) return NAN;
  if (sums.aa == 0 || sums.bb == 0) return 0;
  return std::clamp(sums.ab / std::sqrt(sums.aa * sums.bb), -1.0, 1.0);
}

void cosine_scores_reference(const float* query, const float* table, std::size_t rows, std::size_t cols,
                             double* out) {
  for (std::size_t r = 0; r < rows; ++r) out[r] = cosine_reference(query, table + r * cols, cols);
}

void vector_times_table_reference(const float* x, const float* table, std::size_t rows, std::size_t cols,
                                  double* out) {
  for (std::size_t j = 0; j < cols; ++j) out[j] = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) out[j] += double(x[i]) * double(table[i * cols + j]);
  }
}

float cosine_from_sums(double ab, double aa, double bb) { return cosine_of_sums(ab, aa, bb); }

}  // namespace embeddings::kernels
