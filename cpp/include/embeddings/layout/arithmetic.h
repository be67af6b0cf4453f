// The arithmetic every layout shares, written so that it gives the same bits
// natively and in WebAssembly (layout.h says why that matters): one dot
// product with a fixed grouping of its sums, exp, log and pow from basic
// operations, and seeded random numbers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace embeddings::layout {

// Sum of a[k] * b[k] in float32: eight partial sums p[k mod 8], each summed
// in order of k, combined as ((p0 + p4) + (p1 + p5)) + ((p2 + p6) + (p3 + p7)).
// SSE, WebAssembly SIMD and plain C++ do the same additions in that order.
float layout_dot(const float* a, const float* b, std::size_t n);

// layout_dot of u with each of v[0..3], into out: the same bits as four
// calls, faster (each load of u feeds four sums).
void layout_dots4(const float* u, const float* const v[4], std::size_t n, float out[4]);

// layout_dot's eight partial sums, for a dot product taken in pieces: each
// piece but the last a multiple of 8 long, the result is layout_dot's bits.
struct DotLanes {
  float p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  // Adds a[k] * b[k] for k < n, as layout_dot does from element `done`
  // (a multiple of 8) on.
  void add(const float* a, const float* b, std::size_t n);
  float sum() const { return ((p[0] + p[4]) + (p[1] + p[5])) + ((p[2] + p[6]) + (p[3] + p[7])); }
};

// e^x, log(x) (x > 0) and x^y (x > 0) to about 1e-15 relative, from basic
// arithmetic alone.
double layout_exp(double x);
double layout_log(double x);
double layout_pow(double x, double y);

bool all_finite(const float* values, std::size_t count);

// SplitMix64 (Steele, Lea and Flood 2014): no warm-up, the seed's bits are
// mixed by the first call.
struct SplitMix64 {
  std::uint64_t state;
  explicit SplitMix64(std::uint64_t seed) : state(seed) {}
  std::uint64_t next();
  // A whole number in [0, n) from the top 32 bits by a multiply and a shift
  // (Lemire), not a division; n < 2^32.
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32); }
  // A number in [-1, 1), a multiple of 2^-52.
  double symmetric_uniform();
};

// A hash of two numbers (SplitMix64's finaliser over both): randomness that
// depends on what it is drawn for, not on the order things are drawn in.
std::uint64_t mix(std::uint64_t a, std::uint64_t b);

}  // namespace embeddings::layout
