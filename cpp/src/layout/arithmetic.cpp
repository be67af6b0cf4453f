// The layouts' shared arithmetic (arithmetic.h): the dot product, exp, log
// and pow that give the same bits natively and in WebAssembly, and the
// random numbers.
#include "embeddings/layout/arithmetic.h"

#include <cmath>
#include <cstring>

#include "simd.h"

namespace embeddings::layout {

void DotLanes::add(const float* a, const float* b, std::size_t n) {
  // Lanes 0-3 and 4-7 of two vectors of partial sums: the same additions in
  // the same order whether done four at a time or one at a time.
  std::size_t k = 0;
#if defined(EMBEDDINGS_LAYOUT_SIMD)
  using namespace simd;
  Vector low = load_floats(p), high = load_floats(p + 4);
  for (; k + 8 <= n; k += 8) {
    low = mul_add(low, load_floats(a + k), load_floats(b + k));
    high = mul_add(high, load_floats(a + k + 4), load_floats(b + k + 4));
  }
  store(p, low);
  store(p + 4, high);
#else
  for (; k + 8 <= n; k += 8)
    for (std::size_t lane = 0; lane < 8; ++lane) p[lane] += a[k + lane] * b[k + lane];
#endif
  for (std::size_t lane = 0; k < n; ++k, ++lane) p[lane] += a[k] * b[k];
}

void layout_dots4(const float* u, const float* const v[4], std::size_t n, float out[4]) {
  // Each of the four sums takes layout_dot's products in layout_dot's order.
  std::size_t k = 0;
  DotLanes lanes[4];
#if defined(EMBEDDINGS_LAYOUT_SIMD)
  using namespace simd;
  Vector low[4] = {zero(), zero(), zero(), zero()}, high[4] = {zero(), zero(), zero(), zero()};
  for (; k + 8 <= n; k += 8) {
    const Vector a = load_floats(u + k), b = load_floats(u + k + 4);
    for (int j = 0; j < 4; ++j) {
      low[j] = mul_add(low[j], a, load_floats(v[j] + k));
      high[j] = mul_add(high[j], b, load_floats(v[j] + k + 4));
    }
  }
  for (int j = 0; j < 4; ++j) {
    store(lanes[j].p, low[j]);
    store(lanes[j].p + 4, high[j]);
  }
#endif
  for (int j = 0; j < 4; ++j) {
    lanes[j].add(u + k, v[j] + k, n - k);
    out[j] = lanes[j].sum();
  }
}

float layout_dot(const float* a, const float* b, std::size_t n) {
  DotLanes lanes;
  lanes.add(a, b, n);
  return lanes.sum();
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

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double SplitMix64::symmetric_uniform() {
  // 53 random bits as a whole number, scaled exactly into [-1, 1).
  return static_cast<double>(static_cast<std::int64_t>(next() >> 11) - (std::int64_t{1} << 52)) * 0x1p-52;
}

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  SplitMix64 first(a);
  SplitMix64 second(first.next() ^ b);
  return second.next();
}

}  // namespace embeddings::layout
