// normalizers/sequence.cpp: its normalizers in turn, a Sequence in a
// Sequence spliced in; issue 23's 27 chained Replace a -> aa, refused by
// the budget rather than grown to 2^27 bytes.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::normalizer_sequence_test {

using component_testing::normalized;

TEST(NormalizerSequence, EachInTurnAndSplicedWhenNested) {
  const char* json =
      R"({"type": "Sequence", "normalizers": [{"type": "Lowercase"},
          {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": ">"}, {"type": "Sequence", "normalizers": []}]},
          {"type": "Replace", "pattern": {"String": "b"}, "content": "c"}]})";
  EXPECT_EQ(normalized(json, "AB"), ">ac");
  Normalizers stages;
  std::string error;
  ASSERT_TRUE(read_normalizers(json, stages, error)) << error;
  EXPECT_EQ(stages.size(), 3u);
}

// `count` Replace a -> aa in a row.
std::string doubling(int count) {
  std::string json = R"({"type": "Sequence", "normalizers": [)";
  for (int i = 0; i < count; ++i)
    json +=
        std::string(i ? ", " : "") + R"({"type": "Replace", "pattern": {"String": "a"}, "content": "aa"})";
  return json + "]}";
}

TEST(NormalizerSequence, DoublingChainIsRefusedByTheBudget) {
  Normalizers stages;
  std::string error;
  ASSERT_TRUE(read_normalizers(doubling(27), stages, error)) << error;
  EXPECT_EQ(growth_of(stages).of(1), std::uint64_t{1} << 27);
  // The 2^24 bytes the 25th would add are refused before they are written.
  EXPECT_EQ(normalized(doubling(27), "a", std::size_t{16} << 20), "(refused)");
  // A budget of what the text adds lets it through, and one byte less does not.
  EXPECT_EQ(normalized(doubling(12), "a", 4095), std::string(4096, 'a'));
  EXPECT_EQ(normalized(doubling(12), "a", 4094), "(refused)");
}

}  // namespace embeddings::normalizer_sequence_test
