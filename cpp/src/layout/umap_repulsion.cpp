// UMAP's negative samples (umap_optimise.cpp), four at a time: the repulsion of four
// random points from the moving one, in the layouts' SIMD shim (simd.h:
// WebAssembly SIMD or SSE2) or plain C++ with the same float32 operations
// lane by lane, and one lane of it (repulsion_scalar), the tests' oracle
// (layout.h).
#include <cmath>
#include <cstdint>
#include <cstring>

#include "embeddings/layout/umap.h"
#include "simd.h"
#include "umap_internal.h"

namespace embeddings::layout {
namespace {

// The repulsion of four random points (differences nx, ny from the moving
// point), summed: the same float32 operations lane by lane in WebAssembly
// SIMD, SSE2 or plain C++, so the bits agree everywhere. Lanes whose
// distance is 0 (the point itself, or padding) push nothing. x^b is
// exp(b log x) to about 2e-7 relative: log by the atanh series to s^7 around
// a mantissa in [sqrt(1/2), sqrt(2)), exp by a degree-6 polynomial.
constexpr float kSqrt2 = 1.41421356f, kLn2f = 0.693147181f, kLog2ef = 1.44269504f;
constexpr float kLn2Highf = 0.693145752f, kLn2Lowf = 1.42860677e-6f;  // kLn2Highf * n is exact for |n| < 2^11

}  // namespace

float repulsion_scalar(float nx, float ny, const Repulsion& r, float& out_y) {
  const float d2 = nx * nx + ny * ny;
  std::uint32_t bits;
  std::memcpy(&bits, &d2, sizeof bits);
  float e = static_cast<float>(static_cast<std::int32_t>(bits >> 23) - 127);
  bits = (bits & 0x007FFFFFu) | 0x3F800000u;
  float m;
  std::memcpy(&m, &bits, sizeof m);
  const bool high = m > kSqrt2;
  m = high ? m * 0.5f : m;
  e = high ? e + 1.0f : e;
  const float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
  const float log_d2 =
      (2.0f * s) * (1.0f + s2 * (0.333333343f + s2 * (0.2f + s2 * 0.142857149f))) + e * kLn2f;
  float t = r.b * log_d2;
  t = t > 80.0f ? 80.0f : (t < -80.0f ? -80.0f : t);
  const float n = std::floor(t * kLog2ef + 0.5f);
  const float q = (t - n * kLn2Highf) - n * kLn2Lowf, q2 = q * q;
  const float poly = ((1.0f + q) + q2 * (0.5f + q * 0.166666672f)) +
                     (q2 * q2) * ((0.0416666679f + q * 0.00833333377f) + q2 * 0.00138888892f);
  const std::uint32_t scale_bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  const float power = poly * scale;  // d2^b
  const float push = r.two_gamma_b / ((0.001f + d2) * (r.a * power + 1.0f));
  const bool live = d2 > 0.0f;
  out_y = live ? clip(push * ny) * r.alpha : 0.0f;
  return live ? clip(push * nx) * r.alpha : 0.0f;
}

#if defined(EMBEDDINGS_LAYOUT_SIMD)
namespace {

using namespace simd;

// log(d2) for four lanes: the exponent and a mantissa in [sqrt(1/2), sqrt(2)), atanh's series to s^7.
inline Vector log_of(Vector d2) {
  Vector e = exponent_of(d2);
  Vector m = mantissa_of(d2);
  const Vector high = greater(m, splat(kSqrt2));
  m = select(high, mul(m, splat(0.5f)), m);
  e = select(high, add(e, splat(1.0f)), e);
  const Vector one = splat(1.0f);
  const Vector s = divide(sub(m, one), add(m, one)), s2 = mul(s, s);
  Vector series = add(splat(0.2f), mul(s2, splat(0.142857149f)));
  series = add(splat(0.333333343f), mul(s2, series));
  series = add(one, mul(s2, series));
  return add(mul(add(s, s), series), mul(e, splat(kLn2f)));
}

// e^t for four lanes, t clamped to [-80, 80]: 2^n times a degree-6 polynomial.
inline Vector exp_of(Vector t) {
  t = max(min(t, splat(80.0f)), splat(-80.0f));
  const Vector n = floor(add(mul(t, splat(kLog2ef)), splat(0.5f)));
  const Vector q = sub(sub(t, mul(n, splat(kLn2Highf))), mul(n, splat(kLn2Lowf)));
  const Vector q2 = mul(q, q);
  const Vector one = splat(1.0f);
  const Vector low_part = add(add(one, q), mul(q2, add(splat(0.5f), mul(q, splat(0.166666672f)))));
  const Vector high_part =
      add(add(splat(0.0416666679f), mul(q, splat(0.00833333377f))), mul(q2, splat(0.00138888892f)));
  const Vector poly = add(low_part, mul(mul(q2, q2), high_part));
  return mul(poly, two_to_the(n));
}

inline Vector clipped(Vector v) { return max(min(v, splat(4.0f)), splat(-4.0f)); }

}  // namespace
#endif

// Sums of the four lanes' pushes, ((0 + 1) + (2 + 3)), into push_x, push_y.
void repulsion4(const float* nx, const float* ny, const Repulsion& r, float& push_x, float& push_y) {
  float gx[4], gy[4];
#if defined(EMBEDDINGS_LAYOUT_SIMD)
  const Vector x = load_floats(nx), y = load_floats(ny);
  const Vector d2 = add(mul(x, x), mul(y, y));
  const Vector power = exp_of(mul(splat(r.b), log_of(d2)));  // d2^b
  const Vector push =
      divide(splat(r.two_gamma_b), mul(add(splat(0.001f), d2), add(mul(splat(r.a), power), splat(1.0f))));
  const Vector live = greater(d2, zero()), alpha = splat(r.alpha);
  store(gx, keep(mul(clipped(mul(push, x)), alpha), live));
  store(gy, keep(mul(clipped(mul(push, y)), alpha), live));
#else
  for (int lane = 0; lane < 4; ++lane) gx[lane] = repulsion_scalar(nx[lane], ny[lane], r, gy[lane]);
#endif
  push_x += (gx[0] + gx[1]) + (gx[2] + gx[3]);
  push_y += (gy[0] + gy[1]) + (gy[2] + gy[3]);
}

}  // namespace embeddings::layout
