// normalizers/strip_accents.cpp: combining marks taken out.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::strip_accents_test {

using component_testing::normalized;

TEST(StripAccents, CombiningMarksOut) {
  constexpr const char* kNfdThenStrip =
      R"({"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]})";
  EXPECT_EQ(normalized(kNfdThenStrip, "caf\xC3\xA9 na\xC3\xAFve"), "cafe naive");
  // Only marks: a precomposed letter stays without NFD before it; Mc and Me go too.
  EXPECT_EQ(normalized(R"({"type": "StripAccents"})",
                       "\xC3\xA9"
                       "e\xCC\x81\xE0\xA4\x95\xE0\xA4\xBE\xD2\x88"),
            "\xC3\xA9"
            "e\xE0\xA4\x95");
}

}  // namespace embeddings::strip_accents_test
