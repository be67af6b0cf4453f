// models/bpe.cpp: a vocabulary spelled as text, byte_fallback, unk_token
// fused or not, the subword prefix and suffix.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::bpe_model_test {

using component_testing::ids;

// <unk> 0, "<0x61>" 1 (a's byte), a 2, b 3, ab 4; with the prefix, "##b" 5 and "a##b" -> "ab".
component_testing::Json bpe(const std::string& settings, const std::string& merges = R"([["a", "b"]])") {
  component_testing::Json json;
  json.model = R"({"type": "BPE", "dropout": null, "unk_token": "<unk>", )" + settings +
               R"(, "vocab": {"<unk>": 0, "<0x63>": 1, "a": 2, "b": 3, "ab": 4, "##b": 5}, "merges": )" +
               merges + "}";
  return json;
}

TEST(BpeModel, CharactersUnknownsAndByteFallback) {
  const Tokenizer plain = bpe(R"("fuse_unk": false)").load();
  EXPECT_EQ(component_testing::encode(plain, "abxxa"), ids({4, 0, 0, 2}));
  const Tokenizer fused = bpe(R"("fuse_unk": true)").load();
  EXPECT_EQ(component_testing::encode(fused, "abxxa"), ids({4, 0, 2}));
  // "c" has its byte's token; "x" has none, so it is still unk_token.
  const Tokenizer fallback = bpe(R"("byte_fallback": true)").load();
  EXPECT_EQ(component_testing::encode(fallback, "cab x"), ids({1, 4, 0, 0}));
}

TEST(BpeModel, ContinuingSubwordPrefix) {
  const Tokenizer t = bpe(R"("continuing_subword_prefix": "##")", R"([["a", "##b"]])").load();
  EXPECT_EQ(component_testing::encode(t, "ab"), ids({4}));
  EXPECT_EQ(component_testing::encode(t, "bb"), ids({3, 5}));
}

}  // namespace embeddings::bpe_model_test
