// What pca.cpp (the scan, the covariance method, the coordinates) and
// pca_krylov.cpp (the Krylov method's passes) share.
#pragma once

#include <cstddef>

namespace embeddings::layout {

// Rows summed in float32 before their sums join the chunk's double ones:
// the Krylov method's products, and the unit its chunks are made of.
constexpr std::size_t kFloatBlockRows = 64;
// Rows the Krylov method multiplies by the block at once (a divisor of kFloatBlockRows).
constexpr std::size_t kGroupRows = 4;
// The Krylov passes progress() expects before the first has run (measured:
// 3 to 8 on real and clustered tables at the default tolerance).
constexpr double kExpectedPasses = 6;

// Flips a vector so that its coordinate of largest magnitude is positive (the first such).
void normalise_sign(double* vector, std::size_t n);

}  // namespace embeddings::layout
