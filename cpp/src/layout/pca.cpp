// PCA for the vocabulary map, and the arithmetic every layout shares: a dot
// product, exp, log and pow that give the same bits natively and in
// WebAssembly (see layout.h for why).
#include <cmath>
#include <cstring>

#include "embeddings/layout/layout.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace embeddings::layout {

float layout_dot(const float* a, const float* b, std::size_t n) {
  // Lanes 0-3 and 4-7 of two vectors of partial sums: the same additions in
  // the same order whether done four at a time or one at a time.
  float partial[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  std::size_t k = 0;
#if defined(__wasm_simd128__)
  v128_t low = wasm_f32x4_splat(0), high = wasm_f32x4_splat(0);
  for (; k + 8 <= n; k += 8) {
    low = wasm_f32x4_add(low, wasm_f32x4_mul(wasm_v128_load(a + k), wasm_v128_load(b + k)));
    high = wasm_f32x4_add(high, wasm_f32x4_mul(wasm_v128_load(a + k + 4), wasm_v128_load(b + k + 4)));
  }
  wasm_v128_store(partial, low);
  wasm_v128_store(partial + 4, high);
#elif defined(__SSE__)
  __m128 low = _mm_setzero_ps(), high = _mm_setzero_ps();
  for (; k + 8 <= n; k += 8) {
    low = _mm_add_ps(low, _mm_mul_ps(_mm_loadu_ps(a + k), _mm_loadu_ps(b + k)));
    high = _mm_add_ps(high, _mm_mul_ps(_mm_loadu_ps(a + k + 4), _mm_loadu_ps(b + k + 4)));
  }
  _mm_storeu_ps(partial, low);
  _mm_storeu_ps(partial + 4, high);
#else
  for (; k + 8 <= n; k += 8)
    for (std::size_t lane = 0; lane < 8; ++lane) partial[lane] += a[k + lane] * b[k + lane];
#endif
  for (std::size_t lane = 0; k < n; ++k, ++lane) partial[lane] += a[k] * b[k];
  return ((partial[0] + partial[4]) + (partial[1] + partial[5])) +
         ((partial[2] + partial[6]) + (partial[3] + partial[7]));
}

namespace {

constexpr double kLn2 = 0.6931471805599453094;

// 1 / k! for k = 0 .. 14, rounded once, at compile time, the same everywhere.
struct InverseFactorials {
  double values[15];
  constexpr InverseFactorials() : values() {
    double factorial = 1;
    for (int k = 0; k < 15; ++k) {
      if (k > 0) factorial *= k;
      values[k] = 1 / factorial;
    }
  }
  constexpr double operator[](int k) const { return values[k]; }
};
constexpr InverseFactorials kInverseFactorials;

// x * 2^e for an integer e in [-1022, 1023], exactly (a power of two built from bits).
double scale_by_power_of_two(double x, int e) {
  const std::uint64_t bits = static_cast<std::uint64_t>(e + 1023) << 52;
  double factor;
  std::memcpy(&factor, &bits, sizeof factor);
  return x * factor;
}

}  // namespace

double layout_exp(double x) {
  if (x != x) return x;
  if (x > 709) return HUGE_VAL;
  if (x < -745) return 0;
  // e^x = 2^n e^r, |r| <= ln2 / 2; e^r by its Taylor series to r^14/14!
  // (error below 1e-17 for |r| <= 0.35), in Horner form.
  // ln 2 in two parts (Cody and Waite): n * kLn2High is exact for |n| < 2^11.
  constexpr double kLn2High = 6.93147180369123816490e-01, kLn2Low = 1.90821492927058770002e-10;
  const double n = std::floor(x / kLn2 + 0.5);
  const double r = (x - n * kLn2High) - n * kLn2Low;
  double sum = kInverseFactorials[14];
  for (int k = 13; k >= 0; --k) sum = sum * r + kInverseFactorials[k];
  // Two steps for exponents near the ends of the range.
  const int e = static_cast<int>(n);
  if (e > 1000) return scale_by_power_of_two(scale_by_power_of_two(sum, 1000), e - 1000);
  if (e < -1000) return scale_by_power_of_two(scale_by_power_of_two(sum, -1000), e + 1000);
  return scale_by_power_of_two(sum, e);
}

double layout_log(double x) {
  if (!(x > 0)) return x == 0 ? -HUGE_VAL : NAN;
  if (x == HUGE_VAL) return x;
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s), s = (m - 1) / (m + 1),
  // |s| <= 0.172, by its series to s^29.
  int e = 0;
  double m = std::frexp(x, &e);  // m in [0.5, 1): exact
  if (m < 0.70710678118654752440) {
    m *= 2;
    --e;
  }
  const double s = (m - 1) / (m + 1), s2 = s * s;
  // Horner form of s (1 + s^2/3 + s^4/5 + ... + s^28/29).
  double sum = 1.0 / 29;
  for (int k = 27; k >= 1; k -= 2) sum = sum * s2 + 1.0 / k;
  return 2 * (s * sum) + e * kLn2;
}

double layout_pow(double x, double y) { return layout_exp(y * layout_log(x)); }

bool all_finite(const float* values, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    if (!std::isfinite(values[i])) return false;
  return true;
}

// ---- Symmetric eigenproblems -------------------------------------------------------

namespace {

// Sorts eigenpairs, largest value first (ties keep their order); vectors
// are given as columns of v (n × n, row-major) and written as rows.
void sort_descending(std::size_t n, double* values, const std::vector<double>& v, double* vectors) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  // Insertion sort: stable, and n is small.
  for (std::size_t i = 1; i < n; ++i) {
    const std::size_t current = order[i];
    std::size_t j = i;
    while (j > 0 && values[order[j - 1]] < values[current]) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = current;
  }
  std::vector<double> sorted(n);
  for (std::size_t i = 0; i < n; ++i) {
    sorted[i] = values[order[i]];
    for (std::size_t k = 0; k < n; ++k) vectors[i * n + k] = v[k * n + order[i]];
  }
  for (std::size_t i = 0; i < n; ++i) values[i] = sorted[i];
}

double hypotenuse(double a, double b) { return std::sqrt(a * a + b * b); }

}  // namespace

void symmetric_eigen(const double* a, std::size_t n, double* values, double* vectors) {
  if (n == 0) return;
  // v starts as a and ends holding the eigenvectors as columns; d the
  // diagonal, then the eigenvalues; e the off-diagonal.
  std::vector<double> v(a, a + n * n), e(n, 0.0);
  double* d = values;
  auto at = [&](std::size_t row, std::size_t col) -> double& { return v[row * n + col]; };

  // Householder reduction to tridiagonal form, last row first.
  for (std::size_t j = 0; j < n; ++j) d[j] = at(n - 1, j);
  for (std::size_t i = n - 1; i > 0; --i) {
    double scale = 0, h = 0;
    for (std::size_t k = 0; k < i; ++k) scale += std::fabs(d[k]);
    if (scale == 0) {
      e[i] = d[i - 1];
      for (std::size_t j = 0; j < i; ++j) {
        d[j] = at(i - 1, j);
        at(i, j) = 0;
        at(j, i) = 0;
      }
    } else {
      for (std::size_t k = 0; k < i; ++k) {
        d[k] /= scale;
        h += d[k] * d[k];
      }
      double f = d[i - 1];
      double g = std::sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (std::size_t j = 0; j < i; ++j) e[j] = 0;
      for (std::size_t j = 0; j < i; ++j) {
        f = d[j];
        at(j, i) = f;
        g = e[j] + at(j, j) * f;
        for (std::size_t k = j + 1; k < i; ++k) {
          g += at(k, j) * d[k];
          e[k] += at(k, j) * f;
        }
        e[j] = g;
      }
      f = 0;
      for (std::size_t j = 0; j < i; ++j) {
        e[j] /= h;
        f += e[j] * d[j];
      }
      const double hh = f / (h + h);
      for (std::size_t j = 0; j < i; ++j) e[j] -= hh * d[j];
      for (std::size_t j = 0; j < i; ++j) {
        f = d[j];
        g = e[j];
        for (std::size_t k = j; k < i; ++k) at(k, j) -= (f * e[k] + g * d[k]);
        d[j] = at(i - 1, j);
        at(i, j) = 0;
      }
    }
    d[i] = h;
  }
  // The orthogonal transformation that did it, accumulated into v.
  for (std::size_t i = 0; i + 1 < n; ++i) {
    at(n - 1, i) = at(i, i);
    at(i, i) = 1;
    const double h = d[i + 1];
    if (h != 0) {
      for (std::size_t k = 0; k <= i; ++k) d[k] = at(k, i + 1) / h;
      for (std::size_t j = 0; j <= i; ++j) {
        double g = 0;
        for (std::size_t k = 0; k <= i; ++k) g += at(k, i + 1) * at(k, j);
        for (std::size_t k = 0; k <= i; ++k) at(k, j) -= g * d[k];
      }
    }
    for (std::size_t k = 0; k <= i; ++k) at(k, i + 1) = 0;
  }
  for (std::size_t j = 0; j < n; ++j) {
    d[j] = at(n - 1, j);
    at(n - 1, j) = 0;
  }
  at(n - 1, n - 1) = 1;
  e[0] = 0;

  // Implicit QL iterations on the tridiagonal matrix.
  for (std::size_t i = 1; i < n; ++i) e[i - 1] = e[i];
  e[n - 1] = 0;
  double f = 0, largest = 0;
  const double epsilon = std::ldexp(1.0, -52);
  for (std::size_t l = 0; l < n; ++l) {
    largest = std::fmax(largest, std::fabs(d[l]) + std::fabs(e[l]));
    std::size_t m = l;
    while (m < n - 1 && std::fabs(e[m]) > epsilon * largest) ++m;
    if (m > l) {
      for (int iteration = 0; iteration < 64; ++iteration) {
        double g = d[l];
        double p = (d[l + 1] - g) / (2 * e[l]);
        double r = hypotenuse(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l] / (p + r);
        d[l + 1] = e[l] * (p + r);
        const double dl1 = d[l + 1];
        double h = g - d[l];
        for (std::size_t i = l + 2; i < n; ++i) d[i] -= h;
        f += h;
        p = d[m];
        double c = 1, c2 = 1, c3 = 1, s = 0, s2 = 0;
        const double el1 = e[l + 1];
        for (std::size_t i = m; i-- > l;) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = hypotenuse(p, e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
          for (std::size_t k = 0; k < n; ++k) {
            h = at(k, i + 1);
            at(k, i + 1) = s * at(k, i) + c * h;
            at(k, i) = c * at(k, i) - s * h;
          }
        }
        p = -s * s2 * c3 * el1 * e[l] / dl1;
        e[l] = s * p;
        d[l] = c * p;
        if (!(std::fabs(e[l]) > epsilon * largest)) break;
      }
    }
    d[l] += f;
    e[l] = 0;
  }
  sort_descending(n, values, v, vectors);
}

void symmetric_eigen_reference(const double* a, std::size_t n, double* values, double* vectors) {
  std::vector<double> m(a, a + n * n), v(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) v[i * n + i] = 1;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, total = 0;
    for (std::size_t p = 0; p < n; ++p)
      for (std::size_t q = 0; q < n; ++q) {
        total += m[p * n + q] * m[p * n + q];
        if (p != q) off += m[p * n + q] * m[p * n + q];
      }
    if (off <= 1e-30 * total || off == 0) break;
    for (std::size_t p = 0; p < n; ++p)
      for (std::size_t q = p + 1; q < n; ++q) {
        const double apq = m[p * n + q];
        if (apq == 0) continue;
        const double theta = (m[q * n + q] - m[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (std::size_t k = 0; k < n; ++k) {  // columns p and q
          const double mkp = m[k * n + p], mkq = m[k * n + q];
          m[k * n + p] = c * mkp - s * mkq;
          m[k * n + q] = s * mkp + c * mkq;
        }
        for (std::size_t k = 0; k < n; ++k) {  // rows p and q
          const double mpk = m[p * n + k], mqk = m[q * n + k];
          m[p * n + k] = c * mpk - s * mqk;
          m[q * n + k] = s * mpk + c * mqk;
        }
        for (std::size_t k = 0; k < n; ++k) {
          const double vkp = v[k * n + p], vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  for (std::size_t i = 0; i < n; ++i) values[i] = m[i * n + i];
  sort_descending(n, values, v, vectors);
}

// ---- PCA -------------------------------------------------------------------------

namespace {

// Flips a vector so that its coordinate of largest magnitude is positive.
template <typename T>
void normalise_sign(T* vector, std::size_t n) {
  std::size_t largest = 0;
  for (std::size_t k = 1; k < n; ++k)
    if (std::fabs(vector[k]) > std::fabs(vector[largest])) largest = k;
  if (vector[largest] < 0)
    for (std::size_t k = 0; k < n; ++k) vector[k] = -vector[k];
}

}  // namespace

void pca(const float* table, std::size_t rows, std::size_t cols, std::size_t components, Pca& out,
         float* coords) {
  if (components > cols) components = cols;
  out.components = components;
  out.cols = cols;
  // Column means in double, then the centred table transposed, so that
  // each covariance entry is one dot product of two contiguous columns.
  std::vector<double> mean(cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) mean[c] += table[r * cols + c];
  out.mean.assign(cols, 0.0f);
  for (std::size_t c = 0; c < cols; ++c) {
    mean[c] = rows ? mean[c] / static_cast<double>(rows) : 0;
    out.mean[c] = static_cast<float>(mean[c]);
  }
  std::vector<float> columns(cols * rows);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      columns[c * rows + r] = static_cast<float>(table[r * cols + c] - mean[c]);
  std::vector<double> covariance(cols * cols);
  const double divisor = rows > 1 ? static_cast<double>(rows - 1) : 1.0;
  for (std::size_t i = 0; i < cols; ++i)
    for (std::size_t j = i; j < cols; ++j) {
      const double value = layout_dot(&columns[i * rows], &columns[j * rows], rows) / divisor;
      covariance[i * cols + j] = value;
      covariance[j * cols + i] = value;
    }
  double total = 0;
  for (std::size_t i = 0; i < cols; ++i) total += covariance[i * cols + i];
  std::vector<double> values(cols), vectors(cols * cols);
  symmetric_eigen(covariance.data(), cols, values.data(), vectors.data());
  out.axes.assign(components * cols, 0.0f);
  out.variance.assign(components, 0.0);
  out.variance_share.assign(components, 0.0);
  for (std::size_t i = 0; i < components; ++i) {
    double* axis = &vectors[i * cols];
    normalise_sign(axis, cols);
    for (std::size_t c = 0; c < cols; ++c) out.axes[i * cols + c] = static_cast<float>(axis[c]);
    // Rounding can leave the smallest eigenvalues a hair below zero.
    out.variance[i] = values[i] > 0 ? values[i] : 0;
    out.variance_share[i] = total > 0 ? out.variance[i] / total : 0;
  }
  if (coords == nullptr) return;
  std::vector<float> centred(cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) centred[c] = columns[c * rows + r];
    for (std::size_t i = 0; i < components; ++i)
      coords[r * components + i] = layout_dot(centred.data(), &out.axes[i * cols], cols);
  }
}

void pca_reference(const float* table, std::size_t rows, std::size_t cols, std::size_t components,
                   std::vector<double>& axes, std::vector<double>& variance_share,
                   std::vector<double>& coords) {
  std::vector<double> mean(cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) mean[c] += table[r * cols + c];
  for (double& m : mean) m /= static_cast<double>(rows);
  std::vector<double> covariance(cols * cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < cols; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        covariance[i * cols + j] += (table[r * cols + i] - mean[i]) * (table[r * cols + j] - mean[j]);
  for (double& value : covariance) value /= static_cast<double>(rows > 1 ? rows - 1 : 1);
  double total = 0;
  for (std::size_t i = 0; i < cols; ++i) total += covariance[i * cols + i];
  std::vector<double> values(cols), vectors(cols * cols);
  symmetric_eigen_reference(covariance.data(), cols, values.data(), vectors.data());
  axes.assign(components * cols, 0.0);
  variance_share.assign(components, 0.0);
  coords.assign(rows * components, 0.0);
  for (std::size_t i = 0; i < components; ++i) {
    normalise_sign(&vectors[i * cols], cols);
    for (std::size_t c = 0; c < cols; ++c) axes[i * cols + c] = vectors[i * cols + c];
    variance_share[i] = total > 0 ? values[i] / total : 0;
    for (std::size_t r = 0; r < rows; ++r) {
      double sum = 0;
      for (std::size_t c = 0; c < cols; ++c) sum += (table[r * cols + c] - mean[c]) * axes[i * cols + c];
      coords[r * components + i] = sum;
    }
  }
}

}  // namespace embeddings::layout
