// The library's one scalar widener (common/widen.h) against the tests' own
// oracle, over every one of the 65,536 values of each 16-bit format.
#include "embeddings/common/widen.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "../kernels/widen_oracle.h"

using embeddings::test::bits_of;

TEST(SixteenBitNumbers, EveryOneWidensExactly) {
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const auto half = static_cast<std::uint16_t>(bits);
    const float f16 = embeddings::f16_bits_to_f32(half), expected16 = embeddings::test::f16_oracle(half);
    if (std::isnan(expected16))
      EXPECT_TRUE(std::isnan(f16)) << bits;
    else
      EXPECT_EQ(bits_of(f16), bits_of(expected16)) << bits;
    EXPECT_EQ(bits_of(embeddings::bf16_bits_to_f32(half)), bits_of(embeddings::test::bf16_oracle(half)))
        << bits;
  }
}
