// decoders/fuse.cpp: every token into one.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::fuse_test {

TEST(FuseDecoder, JoinsEveryToken) {
  using component_testing::Strings;
  EXPECT_EQ(component_testing::decoded(R"({"type": "Fuse"})", {"Hey", " friend", "!"}),
            Strings({"Hey friend!"}));
  EXPECT_EQ(component_testing::decoded(R"({"type": "Fuse"})", {}), Strings({""}));
}

}  // namespace embeddings::fuse_test
