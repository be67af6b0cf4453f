#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "embeddings/formats/json.h"
#include "embeddings/text/tokenizer.h"
#include "embeddings/training/bpe_trainer.h"
#include "embeddings/training/corpus.h"

namespace embeddings {
namespace {

using Ids = std::vector<std::int32_t>;

// A few short stories, repeated, standing in for the corpus.
std::string small_corpus() {
  const char* const stories[] = {
      "One day, a little girl named Lily found a needle in her room. She knew it was difficult to play with "
      "it "
      "because it was sharp.\nLily wanted to share the needle with her mom, so she could sew a button on her "
      "shirt.",
      "Once upon a time, there was a little car named Beep. Beep loved to go fast and play in the sun.\n"
      "\"Mom, I found this needle!\" said the boy. They're happy; we've got 3 dogs and 12 cats.",
      "The three friends played all day. Tom's ball was red, and Sue's kite was blue \u2014 caf\u00e9 "
      "na\u00efve "
      "\U0001F600.",
  };
  std::string text;
  for (int round = 0; round < 20; ++round) {
    for (const char* story : stories) {
      text += story;
      text += "\n<|endoftext|>\n";
    }
  }
  return text;
}

BpeVocabulary train(std::size_t vocab_size) {
  BpeTrainer trainer;
  const std::string corpus = small_corpus();
  for (std::string_view document : split_documents(corpus)) trainer.add_text(document);
  BpeVocabulary vocab;
  std::string error;
  EXPECT_TRUE(trainer.train(vocab_size, vocab, error)) << error;
  return vocab;
}

Tokenizer load(const BpeVocabulary& vocab) {
  Tokenizer tokenizer;
  std::string error;
  EXPECT_TRUE(Tokenizer::from_json(tokenizer_json(vocab), tokenizer, error)) << error;
  return tokenizer;
}

TEST(Corpus, SplitDocuments) {
  using Docs = std::vector<std::string_view>;
  EXPECT_EQ(split_documents("a\nb\n<|endoftext|>\nc\n<|endoftext|>\n"), (Docs{"a\nb", "c"}));
  EXPECT_EQ(split_documents("a\r\n<|endoftext|>\r\nc"), (Docs{"a", "c"}));
  EXPECT_EQ(split_documents("<|endoftext|>\n\n<|endoftext|>\n  \n<|endoftext|>"), (Docs{}));
  EXPECT_EQ(split_documents("x <|endoftext|>\ny"),
            (Docs{"x <|endoftext|>\ny"}));  // only whole lines separate
  EXPECT_EQ(split_documents("a\n\n<|endoftext|>b"), (Docs{"a\n\n<|endoftext|>b"}));
  EXPECT_EQ(split_documents("a\n\n<|endoftext|>\nb"), (Docs{"a\n", "b"}));
  EXPECT_EQ(split_documents(""), (Docs{}));
  EXPECT_EQ(split_documents("<|endoftext|>"), (Docs{}));
}

TEST(BpeTrainer, VocabularyLayout) {
  const BpeVocabulary vocab = train(400);
  ASSERT_EQ(vocab.tokens.size(), 400u);
  for (int byte = 0; byte < 256; ++byte)
    EXPECT_EQ(vocab.tokens[byte], std::string(1, static_cast<char>(byte)));
  EXPECT_EQ(vocab.first_special_id, 399);
  EXPECT_EQ(vocab.tokens[399], "<|endoftext|>");
  EXPECT_EQ(vocab.merges.size(), 400u - 256 - 1);  // no two merges made the same token here
  for (std::size_t i = 0; i < vocab.merges.size(); ++i) {
    const auto [left, right] = vocab.merges[i];
    EXPECT_EQ(vocab.tokens[256 + i], vocab.tokens[left] + vocab.tokens[right]);
    EXPECT_LT(left, static_cast<std::int32_t>(256 + i));
    EXPECT_LT(right, static_cast<std::int32_t>(256 + i));
  }
}

TEST(BpeTrainer, FirstMergeIsTheCommonestPairAndTiesGoToSmallerIds) {
  {
    BpeTrainer trainer;
    trainer.add_text("ab ab ab cd");
    BpeVocabulary vocab;
    std::string error;
    ASSERT_TRUE(trainer.train(258, vocab, error)) << error;
    // Pairs: (a,b) x1 in "ab", (Ġ,a) and (a,b) x2 in " ab", (Ġ,c) and (c,d) x1: (a,b) has 3.
    EXPECT_EQ(vocab.merges[0], std::make_pair(std::int32_t{'a'}, std::int32_t{'b'}));
  }
  {
    BpeTrainer trainer;
    trainer.add_text("xy");
    trainer.add_text("ab");
    BpeVocabulary vocab;
    std::string error;
    ASSERT_TRUE(trainer.train(259, vocab, error)) << error;
    EXPECT_EQ(vocab.merges[0], std::make_pair(std::int32_t{'a'}, std::int32_t{'b'}));
    EXPECT_EQ(vocab.merges[1], std::make_pair(std::int32_t{'x'}, std::int32_t{'y'}));
  }
}

TEST(BpeTrainer, OverlappingPairsCountOnceEach) {
  BpeTrainer trainer;
  trainer.add_text("aaa");  // (a,a) twice in one piece, merged left to right: "aa" + "a"
  BpeVocabulary vocab;
  std::string error;
  ASSERT_TRUE(trainer.train(258, vocab, error)) << error;
  ASSERT_EQ(vocab.merges.size(), 1u);
  const Tokenizer tokenizer = load(vocab);
  EXPECT_EQ(tokenizer.encode("aaa"), (Ids{256, 'a'}));
  // Then only (aa, a) is left, once.
  ASSERT_TRUE(trainer.train(259, vocab, error)) << error;
  EXPECT_EQ(vocab.tokens[257], "aaa");
  EXPECT_FALSE(trainer.train(260, vocab, error));
  EXPECT_NE(error.find("no more pairs to merge after 2 merges"), std::string::npos) << error;
}

TEST(BpeTrainer, SpecialTokensAreNotTrainedOn) {
  BpeTrainer trainer;
  trainer.add_text("<|endoftext|><|endoftext|><|endoftext|>ab");
  EXPECT_EQ(trainer.piece_count(), 1u);
  EXPECT_EQ(trainer.distinct_pieces(), 1u);
}

TEST(BpeTrainer, Deterministic) { EXPECT_EQ(tokenizer_json(train(420)), tokenizer_json(train(420))); }

TEST(BpeTrainer, RejectsImpossibleSizes) {
  BpeTrainer trainer;
  trainer.add_text("hello");
  BpeVocabulary vocab;
  std::string error;
  EXPECT_FALSE(trainer.train(256, vocab, error));
  EXPECT_NE(error.find("must be at least 257"), std::string::npos) << error;
  EXPECT_FALSE(trainer.train(100000, vocab, error));
  EXPECT_NE(error.find("needs more text"), std::string::npos) << error;
}

TEST(BpeTrainer, WritesALoadableTokenizerJson) {
  const BpeVocabulary vocab = train(420);
  const std::string text = tokenizer_json(vocab);
  json::Value root;
  std::string error;
  ASSERT_TRUE(json::parse(text, root, error)) << error;
  EXPECT_EQ(root.find("version")->text, "1.0");
  EXPECT_TRUE(root.find("truncation")->is_null());
  const json::Value& added = root.find("added_tokens")->items.at(0);
  EXPECT_EQ(added.find("content")->text, "<|endoftext|>");
  EXPECT_EQ(added.find("id")->text, "419");
  EXPECT_TRUE(added.find("special")->boolean);
  EXPECT_TRUE(added.find("normalized")->boolean);
  EXPECT_EQ(root.find("pre_tokenizer")->find("type")->text, "ByteLevel");
  EXPECT_FALSE(root.find("pre_tokenizer")->find("add_prefix_space")->boolean);
  const json::Value* model = root.find("model");
  EXPECT_EQ(model->find("type")->text, "BPE");
  EXPECT_EQ(model->find("vocab")->members.size(), 420u);
  EXPECT_EQ(model->find("vocab")->members[32].first, "\xC4\xA0");  // byte 0x20 is "Ġ"
  EXPECT_EQ(model->find("merges")->items.size(), 163u);

  const Tokenizer tokenizer = load(vocab);
  EXPECT_EQ(tokenizer.vocab_size(), 420u);
  EXPECT_EQ(tokenizer.token_id("<|endoftext|>"), 419);
  EXPECT_TRUE(tokenizer.is_special(419));
}

TEST(BpeTrainer, TrainedTokenizerEncodesItsCorpus) {
  const Tokenizer tokenizer = load(train(420));
  // Frequent words of the corpus became single tokens.
  for (const char* word : {" needle", "Lily", " the", " found"}) {
    EXPECT_EQ(tokenizer.encode(word).size(), 1u) << word;
    EXPECT_GE(tokenizer.token_id(word), 256) << word;
  }
  EXPECT_EQ(tokenizer.token_text(tokenizer.token_id(" needle")), "·needle");
  EXPECT_EQ(tokenizer.token_id("·needle"), tokenizer.token_id(" needle"));

  const std::string corpus = small_corpus();
  std::string text, error;
  for (std::string_view document : split_documents(corpus)) {
    const Ids ids = tokenizer.encode(document);
    ASSERT_TRUE(tokenizer.decode(ids.data(), ids.size(), text, error)) << error;
    EXPECT_EQ(text, document);
  }
  const Ids with_separator = tokenizer.encode("Lily<|endoftext|>Lily");
  ASSERT_EQ(with_separator.size(), 3u);
  EXPECT_EQ(with_separator[1], 419);

  // Every vocabulary entry survives a round trip.
  for (std::int32_t id = 0; id < 420; ++id) {
    const std::string bytes = tokenizer.token_bytes(id);
    const Ids ids = tokenizer.encode(bytes);
    std::string back;
    ASSERT_TRUE(tokenizer.decode_bytes(ids.data(), ids.size(), back, error));
    EXPECT_EQ(back, bytes) << id;
    EXPECT_EQ(tokenizer.token_id(tokenizer.token_text(id)), id) << id;
  }

  // And random text does too.
  std::mt19937 random(5);
  const char* const pieces[] = {" Lily", "needle", " ", "\n", "'s", "3", "caf\u00e9", "\U0001F600", "x", "."};
  for (int round = 0; round < 500; ++round) {
    std::string sample;
    for (int i = static_cast<int>(random() % 12); i > 0; --i) sample += pieces[random() % std::size(pieces)];
    const Ids ids = tokenizer.encode(sample);
    ASSERT_TRUE(tokenizer.decode(ids.data(), ids.size(), text, error));
    EXPECT_EQ(text, sample);
  }
}

}  // namespace
}  // namespace embeddings
