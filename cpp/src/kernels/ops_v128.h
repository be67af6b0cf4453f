// The vector operations over WebAssembly SIMD128, the backend the page
// runs: four lanes, and no fused multiply-add in baseline SIMD128. The
// interface is ops_portable.h's.
#pragma once

#include <wasm_simd128.h>

#include <cstddef>

namespace embeddings::kernels {

struct V128Ops {
  using V = v128_t;
  static constexpr std::size_t kLanes = 4;
  static constexpr const char* kName = "wasm-simd128";
  static V zero() { return wasm_f32x4_splat(0.0f); }
  static V load(const float* p) { return wasm_v128_load(p); }
  static void store(float* p, V v) { wasm_v128_store(p, v); }
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
