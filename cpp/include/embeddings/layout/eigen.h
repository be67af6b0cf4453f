// Symmetric eigenproblems, for the PCA's covariance matrix and the small
// projected matrices of its Krylov method.
#pragma once

#include <cstddef>

namespace embeddings::layout {

// All eigenvalues and eigenvectors of the symmetric n × n matrix `a`
// (row-major; only its values are read), largest eigenvalue first:
// values[i], and eigenvector i in vectors[i * n .. i * n + n), unit length.
// Householder reduction to tridiagonal form, then the implicit QL method:
// O(n^3) with a small constant (128 × 128 in about a millisecond). Only
// +, -, *, / and square roots: the same bits everywhere.
void symmetric_eigen(const double* a, std::size_t n, double* values, double* vectors);
// The same by cyclic Jacobi rotations: slower, simple, the tests' oracle.
void symmetric_eigen_reference(const double* a, std::size_t n, double* values, double* vectors);

}  // namespace embeddings::layout
