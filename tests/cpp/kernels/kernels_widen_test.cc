// The 16-bit row loads of every built backend (widen_f16, widen_bf16)
// against an arithmetic oracle, on every one of the 65,536 values of each
// format. Compiled to WebAssembly and run under Node too (tools/test.sh
// wasm), as kernels_test.cc is.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "backend_param_name.h"
#include "embeddings/kernels/backends.h"
#include "embeddings/kernels/kernels.h"
#include "widen_oracle.h"

namespace {

using embeddings::kernels::KernelBackend;
namespace k = embeddings::kernels;
using embeddings::test::bits_of;
using embeddings::test::f16_oracle_bits;

class Widen : public ::testing::TestWithParam<const KernelBackend*> {
 protected:
  const KernelBackend& be = *GetParam();
};

// Every one of the 65,536 bit patterns, in one call (vectors and then the
// scalar tail) and again from an odd start with an odd length, so each
// value goes through both the vector load and the tail.
TEST_P(Widen, F16AndBF16AreExactForEvery16BitValue) {
  std::vector<std::uint16_t> all(65536);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
  std::vector<float> out(all.size());
  for (const std::size_t start : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    for (const std::size_t chunk : {std::size_t{65536}, std::size_t{7}, std::size_t{1}}) {
      std::fill(out.begin(), out.end(), 0.0f);
      for (std::size_t i = start; i < all.size(); i += chunk)
        be.widen_f16(all.data() + i, std::min(chunk, all.size() - i), out.data() + i);
      for (std::size_t i = start; i < all.size(); ++i)
        ASSERT_EQ(bits_of(out[i]), f16_oracle_bits(all[i]))
            << "F16 0x" << std::hex << i << std::dec << " start " << start << " chunk " << chunk;
      std::fill(out.begin(), out.end(), 0.0f);
      for (std::size_t i = start; i < all.size(); i += chunk)
        be.widen_bf16(all.data() + i, std::min(chunk, all.size() - i), out.data() + i);
      for (std::size_t i = start; i < all.size(); ++i)
        ASSERT_EQ(bits_of(out[i]), static_cast<std::uint32_t>(i) << 16) << "BF16 0x" << std::hex << i;
    }
  }
}

TEST(Kernels16Bit, WidenOfTheFormatsLandmarks) {
  const std::uint16_t halves[] = {0x3C00, 0xC000, 0x0001, 0x03FF, 0x0400, 0x7BFF, 0x7C00, 0xFC00, 0x8000};
  const float expected[] = {1.0f,
                            -2.0f,
                            0x1p-24f,
                            0x3FFp-24f,
                            0x1p-14f,
                            65504.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            -0.0f};
  float out[9];
  k::widen_f16(halves, 9, out);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(bits_of(out[i]), bits_of(expected[i])) << i;
  const std::uint16_t nan = 0x7E01;
  k::widen_f16(&nan, 1, out);
  EXPECT_TRUE(std::isnan(out[0]));
  const std::uint16_t bf16[] = {0x3F80, 0xC0A0, 0x7F80, 0x0001};
  k::widen_bf16(bf16, 4, out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], -5.0f);
  EXPECT_EQ(out[2], std::numeric_limits<float>::infinity());
  EXPECT_EQ(out[3], 0x1p-133f);
}

INSTANTIATE_TEST_SUITE_P(Backends, Widen, ::testing::ValuesIn(k::available_backends()), backend_param_name);

}  // namespace
