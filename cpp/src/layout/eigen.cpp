// Symmetric eigensolvers (eigen.h): Householder tridiagonalisation and the
// implicit QL method, in the steps of the classic EISPACK tred2 and tql2
// routines, and cyclic Jacobi rotations as the tests' reference.
#include "embeddings/layout/eigen.h"

#include <cmath>
#include <vector>

namespace embeddings::layout {
namespace {

// The matrix being reduced, row-major, with d (the diagonal, then the
// eigenvalues) and e (the off-diagonal).
struct Tridiagonal {
  std::size_t n;
  std::vector<double> v, e;
  double* d;
  double& at(std::size_t row, std::size_t col) { return v[row * n + col]; }
};

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

// One Householder reflection: zeroes row i left of its subdiagonal
// (d holds row i, scaled by `scale` = the sum of its magnitudes; h is its
// squared length).
void reflect_row(Tridiagonal& t, std::size_t i, double scale, double h) {
  double* d = t.d;
  std::vector<double>& e = t.e;
  double f = d[i - 1];
  double g = std::sqrt(h);
  if (f > 0) g = -g;
  e[i] = scale * g;
  h -= f * g;
  d[i - 1] = f - g;
  for (std::size_t j = 0; j < i; ++j) e[j] = 0;
  for (std::size_t j = 0; j < i; ++j) {
    f = d[j];
    t.at(j, i) = f;
    g = e[j] + t.at(j, j) * f;
    for (std::size_t k = j + 1; k < i; ++k) {
      g += t.at(k, j) * d[k];
      e[k] += t.at(k, j) * f;
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
    for (std::size_t k = j; k < i; ++k) t.at(k, j) -= (f * e[k] + g * d[k]);
    d[j] = t.at(i - 1, j);
    t.at(i, j) = 0;
  }
  d[i] = h;
}

// Householder reduction to tridiagonal form, last row first.
void tridiagonalise(Tridiagonal& t) {
  const std::size_t n = t.n;
  double* d = t.d;
  for (std::size_t j = 0; j < n; ++j) d[j] = t.at(n - 1, j);
  for (std::size_t i = n - 1; i > 0; --i) {
    double scale = 0, h = 0;
    for (std::size_t k = 0; k < i; ++k) scale += std::fabs(d[k]);
    if (scale == 0) {
      t.e[i] = d[i - 1];
      for (std::size_t j = 0; j < i; ++j) {
        d[j] = t.at(i - 1, j);
        t.at(i, j) = 0;
        t.at(j, i) = 0;
      }
      d[i] = h;
      continue;
    }
    for (std::size_t k = 0; k < i; ++k) {
      d[k] /= scale;
      h += d[k] * d[k];
    }
    reflect_row(t, i, scale, h);
  }
}

// The orthogonal transformation the reduction made, accumulated into v.
void accumulate_reflections(Tridiagonal& t) {
  const std::size_t n = t.n;
  double* d = t.d;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    t.at(n - 1, i) = t.at(i, i);
    t.at(i, i) = 1;
    const double h = d[i + 1];
    if (h != 0) {
      for (std::size_t k = 0; k <= i; ++k) d[k] = t.at(k, i + 1) / h;
      for (std::size_t j = 0; j <= i; ++j) {
        double g = 0;
        for (std::size_t k = 0; k <= i; ++k) g += t.at(k, i + 1) * t.at(k, j);
        for (std::size_t k = 0; k <= i; ++k) t.at(k, j) -= g * d[k];
      }
    }
    for (std::size_t k = 0; k <= i; ++k) t.at(k, i + 1) = 0;
  }
  for (std::size_t j = 0; j < n; ++j) {
    d[j] = t.at(n - 1, j);
    t.at(n - 1, j) = 0;
  }
  t.at(n - 1, n - 1) = 1;
  t.e[0] = 0;
}

// One implicit QL step on rows l .. m of the tridiagonal matrix, shifted
// by the eigenvalue of its top 2 × 2 block; `shift` accumulates the shifts.
void ql_step(Tridiagonal& t, std::size_t l, std::size_t m, double& shift) {
  const std::size_t n = t.n;
  double* d = t.d;
  std::vector<double>& e = t.e;
  double g = d[l];
  double p = (d[l + 1] - g) / (2 * e[l]);
  double r = hypotenuse(p, 1);
  if (p < 0) r = -r;
  d[l] = e[l] / (p + r);
  d[l + 1] = e[l] * (p + r);
  const double dl1 = d[l + 1];
  double h = g - d[l];
  for (std::size_t i = l + 2; i < n; ++i) d[i] -= h;
  shift += h;
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
      h = t.at(k, i + 1);
      t.at(k, i + 1) = s * t.at(k, i) + c * h;
      t.at(k, i) = c * t.at(k, i) - s * h;
    }
  }
  p = -s * s2 * c3 * el1 * e[l] / dl1;
  e[l] = s * p;
  d[l] = c * p;
}

// Implicit QL iterations on the tridiagonal matrix: its eigenvalues into d,
// the eigenvectors into v's columns.
void tridiagonal_ql(Tridiagonal& t) {
  const std::size_t n = t.n;
  double* d = t.d;
  std::vector<double>& e = t.e;
  for (std::size_t i = 1; i < n; ++i) e[i - 1] = e[i];
  e[n - 1] = 0;
  double shift = 0, largest = 0;
  const double epsilon = std::ldexp(1.0, -52);
  for (std::size_t l = 0; l < n; ++l) {
    largest = std::fmax(largest, std::fabs(d[l]) + std::fabs(e[l]));
    std::size_t m = l;
    while (m < n - 1 && std::fabs(e[m]) > epsilon * largest) ++m;
    if (m > l) {
      for (int iteration = 0; iteration < 64; ++iteration) {
        ql_step(t, l, m, shift);
        if (!(std::fabs(e[l]) > epsilon * largest)) break;
      }
    }
    d[l] += shift;
    e[l] = 0;
  }
}

}  // namespace

void symmetric_eigen(const double* a, std::size_t n, double* values, double* vectors) {
  if (n == 0) return;
  // v starts as a and ends holding the eigenvectors as columns.
  Tridiagonal t{n, std::vector<double>(a, a + n * n), std::vector<double>(n, 0.0), values};
  tridiagonalise(t);
  accumulate_reflections(t);
  tridiagonal_ql(t);
  sort_descending(n, values, t.v, vectors);
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

}  // namespace embeddings::layout
