// The vector operations over AVX2 + FMA (Intel Haswell and later, AMD Zen):
// eight lanes, fused multiply-add. The interface is ops_portable.h's.
// Compiled for AVX2 + FMA by target attributes (haswell.cpp), whatever the
// compiler's -march, so every x86-64 binary has them.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "widen.h"

namespace embeddings::kernels {

struct HaswellOps {
  using V = __m256;
  static constexpr std::size_t kLanes = 8;
  static constexpr const char* kName = "avx2-fma";
  static V zero() { return _mm256_setzero_ps(); }
  static V splat(float x) { return _mm256_set1_ps(x); }
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
  // widen.h's conversions, eight at a time, with integer operations and one
  // exact multiply (no F16C, which AVX2 + FMA does not imply).
  static V load_f16(const std::uint16_t* p) {
    const __m256i half = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    const __m256i magnitude = _mm256_slli_epi32(_mm256_and_si256(half, _mm256_set1_epi32(0x7FFF)), 13);
    const __m256i scaled =
        _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(magnitude), _mm256_set1_ps(kF16Rebias)));
    const __m256i exponent = _mm256_and_si256(half, _mm256_set1_epi32(0x7C00));
    const __m256i special = _mm256_cmpeq_epi32(exponent, _mm256_set1_epi32(0x7C00));
    const __m256i special_bits = _mm256_or_si256(magnitude, _mm256_set1_epi32(0x7F800000));
    const __m256i bits = _mm256_blendv_epi8(scaled, special_bits, special);
    const __m256i sign = _mm256_slli_epi32(_mm256_and_si256(half, _mm256_set1_epi32(0x8000)), 16);
    return _mm256_castsi256_ps(_mm256_or_si256(bits, sign));
  }
  static V load_bf16(const std::uint16_t* p) {
    const __m256i half = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(half, 16));
  }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V mul_add(V acc, V a, V b) { return _mm256_fmadd_ps(a, b, acc); }
  static float sum(V v) {
    const __m128 half = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 quarter = _mm_add_ps(half, _mm_movehl_ps(half, half));
    return _mm_cvtss_f32(_mm_add_ss(quarter, _mm_movehdup_ps(quarter)));
  }
  static void sum4(V a, V b, V c, V d, float out[4]) {
    const __m128 a4 = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    const __m128 b4 = _mm_add_ps(_mm256_castps256_ps128(b), _mm256_extractf128_ps(b, 1));
    const __m128 c4 = _mm_add_ps(_mm256_castps256_ps128(c), _mm256_extractf128_ps(c, 1));
    const __m128 d4 = _mm_add_ps(_mm256_castps256_ps128(d), _mm256_extractf128_ps(d, 1));
    const __m128 ab = _mm_add_ps(_mm_unpacklo_ps(a4, b4), _mm_unpackhi_ps(a4, b4));
    const __m128 cd = _mm_add_ps(_mm_unpacklo_ps(c4, d4), _mm_unpackhi_ps(c4, d4));
    _mm_storeu_ps(out, _mm_add_ps(_mm_movelh_ps(ab, cd), _mm_movehl_ps(cd, ab)));
  }
  static bool all_less(const float* p, float t) {
    return _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(p), _mm256_set1_ps(t), _CMP_LT_OQ)) == 0xFF;
  }
};

}  // namespace embeddings::kernels
