// normalizers/prepend.cpp: the content in front of a text that is not empty.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::prepend_test {

using component_testing::normalized;

TEST(Prepend, InFrontOfTextThatIsNotEmpty) {
  constexpr const char* kPrepend = R"({"type": "Prepend", "prepend": "\u2581"})";
  EXPECT_EQ(normalized(kPrepend, "Hey"), "\xE2\x96\x81Hey");
  EXPECT_EQ(normalized(kPrepend, ""), "");
  EXPECT_EQ(normalized(kPrepend, "Hey", 2), "(refused)");
  EXPECT_EQ(normalized(kPrepend, "Hey", 3), "\xE2\x96\x81Hey");
  EXPECT_EQ(component_testing::refusal(read_normalizers, R"({"type": "Prepend"})"),
            "normalizer.prepend must be a string, found nothing");
}

}  // namespace embeddings::prepend_test
