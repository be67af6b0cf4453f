// The portable vector operations: four floats in a struct, which compilers
// keep in registers (and may vectorize). Every kernel is written once over
// this interface (generic.h); ops_haswell.h and ops_v128.h are the same
// interface over AVX2 + FMA and WebAssembly SIMD128. Loads are unaligned:
// rows of a table start wherever the table's width puts them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "widen.h"

namespace embeddings::kernels {

struct PortableOps {
  struct V {
    float x[4];
  };
  static constexpr std::size_t kLanes = 4;
  static constexpr const char* kName = "portable";
  static V zero() { return V{{0, 0, 0, 0}}; }
  static V splat(float x) { return V{{x, x, x, x}}; }
  static V load(const float* p) {
    V v;
    std::memcpy(v.x, p, sizeof v.x);
    return v;
  }
  static void store(float* p, V v) { std::memcpy(p, v.x, sizeof v.x); }
  // kLanes 16-bit numbers (IEEE half, bfloat16) widened to float32, exactly.
  static V load_f16(const std::uint16_t* p) {
    return V{{f16_bits_to_f32(p[0]), f16_bits_to_f32(p[1]), f16_bits_to_f32(p[2]), f16_bits_to_f32(p[3])}};
  }
  static V load_bf16(const std::uint16_t* p) {
    return V{
        {bf16_bits_to_f32(p[0]), bf16_bits_to_f32(p[1]), bf16_bits_to_f32(p[2]), bf16_bits_to_f32(p[3])}};
  }
  static V add(V a, V b) { return V{{a.x[0] + b.x[0], a.x[1] + b.x[1], a.x[2] + b.x[2], a.x[3] + b.x[3]}}; }
  // acc + a * b, rounded twice (no fused multiply-add), lane by lane.
  static V mul_add(V acc, V a, V b) {
    return V{{acc.x[0] + a.x[0] * b.x[0], acc.x[1] + a.x[1] * b.x[1], acc.x[2] + a.x[2] * b.x[2],
              acc.x[3] + a.x[3] * b.x[3]}};
  }
  static float sum(V v) { return (v.x[0] + v.x[1]) + (v.x[2] + v.x[3]); }
  // The sums of four vectors at once, as {sum(a), sum(b), sum(c), sum(d)}:
  // each with the same additions, so a vector sums to the same bits in any place.
  static void sum4(V a, V b, V c, V d, float out[4]) {
    out[0] = sum(a);
    out[1] = sum(b);
    out[2] = sum(c);
    out[3] = sum(d);
  }
  // True when every one of the kLanes numbers at p is less than t (false for NaN).
  static bool all_less(const float* p, float t) { return p[0] < t && p[1] < t && p[2] < t && p[3] < t; }
};

}  // namespace embeddings::kernels
