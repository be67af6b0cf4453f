// The book's display form of a token (display/token_display.h).
#include "embeddings/text/display/token_display.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace embeddings::token_display_test {

using Ids = std::vector<std::int32_t>;

TEST(Display, MarksAndEscapesRoundTrip) {
  EXPECT_EQ(display::from_bytes(" girl\n\t"), "\xC2\xB7girl\xE2\x86\xB5\xE2\x87\xA5");
  EXPECT_EQ(display::from_bytes("\xF0\x9F"), "<0xF0><0x9F>");
  EXPECT_EQ(display::from_bytes("\xC2\xB7"), "<0xC2><0xB7>");  // A literal mark is bytes.
  for (int byte = 0; byte < 256; ++byte) {
    const std::string one(1, static_cast<char>(byte));
    EXPECT_EQ(display::to_bytes(display::from_bytes(one)), one) << byte;
  }
  EXPECT_EQ(display::to_bytes("<0x41><0x4g>"), "A<0x4g>");
}

// A token spelled with a literal "<0xNN>" (byte_fallback's tokens, or one
// inside a longer token) must not read back as the byte NN.
TEST(Display, LiteralByteEscapesRoundTrip) {
  EXPECT_EQ(display::from_bytes("<0x41>"), "<0x3C>0x41>");
  for (const std::string token : {"<0x41>", "\xC2\xB7<0x41>", "a<0xC3>b", "<0x4g>", "<<0x0A>>", "<0x"}) {
    EXPECT_EQ(display::to_bytes(display::from_bytes(token)), token) << token;
  }
  EXPECT_EQ(display::from_bytes("<0x4g>"), "<0x4g>");  // not an escape: left as it is
}

}  // namespace embeddings::token_display_test
