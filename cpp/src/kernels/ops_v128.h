// The vector operations over WebAssembly SIMD128, the backend the page
// runs: four lanes, and no fused multiply-add in baseline SIMD128. The
// interface is ops_portable.h's.
#pragma once

#include <wasm_simd128.h>

#include <cstddef>
#include <cstdint>

#include "widen.h"

namespace embeddings::kernels {

struct V128Ops {
  using V = v128_t;
  static constexpr std::size_t kLanes = 4;
  static constexpr const char* kName = "wasm-simd128";
  static V zero() { return wasm_f32x4_splat(0.0f); }
  static V splat(float x) { return wasm_f32x4_splat(x); }
  static V load(const float* p) { return wasm_v128_load(p); }
  static void store(float* p, V v) { wasm_v128_store(p, v); }
  // widen.h's conversions, four at a time. The half's is out of line: a
  // dozen instructions and five constants at each of its callers' loads cost
  // the page's module more than the call costs a scan.
  [[gnu::noinline]] static V load_f16(const std::uint16_t* p) {
    const v128_t half = wasm_u32x4_load16x4(p);
    const v128_t magnitude = wasm_i32x4_shl(wasm_v128_and(half, wasm_i32x4_splat(0x7FFF)), 13);
    const v128_t scaled = wasm_f32x4_mul(magnitude, wasm_f32x4_splat(kF16Rebias));
    const v128_t special =
        wasm_i32x4_eq(wasm_v128_and(half, wasm_i32x4_splat(0x7C00)), wasm_i32x4_splat(0x7C00));
    const v128_t special_bits = wasm_v128_or(magnitude, wasm_i32x4_splat(0x7F800000));
    const v128_t bits = wasm_v128_bitselect(special_bits, scaled, special);
    return wasm_v128_or(bits, wasm_i32x4_shl(wasm_v128_and(half, wasm_i32x4_splat(0x8000)), 16));
  }
  static V load_bf16(const std::uint16_t* p) { return wasm_i32x4_shl(wasm_u32x4_load16x4(p), 16); }
  static V add(V a, V b) { return wasm_f32x4_add(a, b); }
  static V mul_add(V acc, V a, V b) { return wasm_f32x4_add(acc, wasm_f32x4_mul(a, b)); }
  static float sum(V v) {
    return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
           (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
  }
  static void sum4(V a, V b, V c, V d, float out[4]) {
    const V ab = wasm_f32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
    const V cd = wasm_f32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
    wasm_v128_store(
        out, wasm_f32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7)));
  }
  static bool all_less(const float* p, float t) {
    return wasm_i32x4_all_true(wasm_f32x4_lt(wasm_v128_load(p), wasm_f32x4_splat(t)));
  }
};

}  // namespace embeddings::kernels
