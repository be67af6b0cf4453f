// Offsets (Tokenizer::EncodeOptions::offsets): the fast path, offsets found
// from the ids by their tokens' bytes (the chapter's module's only path),
// against the general one that carries them through the stages; and the
// alignments of the stages that change text, as Hugging Face's
// NormalizedString keeps them. tests/js/tokenizer/hf-*.test.js compares
// both with the Rust library over every component and the real files.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/text/tokenizer.h"

namespace embeddings::offsets_test {

std::string book_json() {
  std::ifstream in(std::string(EMBEDDINGS_SOURCE_DIR) + "/model/tokenizer.json", std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The book's file with its post-processor replaced by `post_processor`.
std::string with_post_processor(const std::string& post_processor) {
  std::string json = book_json();
  const std::string old =
      R"("post_processor": {"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": false, "use_regex": true})";
  const std::size_t at = json.find(old);
  EXPECT_NE(at, std::string::npos);
  if (at != std::string::npos) json.replace(at, old.size(), "\"post_processor\": " + post_processor);
  return json;
}

Tokenizer load(const std::string& json) {
  Tokenizer tokenizer;
  std::string error;
  EXPECT_TRUE(Tokenizer::from_json(json, tokenizer, error)) << error;
  return tokenizer;
}

struct Encoded {
  std::vector<std::int32_t> ids;
  std::vector<TokenOffsets> offsets;
};

Encoded encode(const Tokenizer& tokenizer, std::string_view text, const std::string_view* pair = nullptr) {
  Encoded out;
  Tokenizer::EncodeOptions options;
  options.offsets = &out.offsets;
  options.pair = pair;
  std::string error;
  EXPECT_EQ(tokenizer.encode(text, options, out.ids, error), Tokenizer::Encoded::Ok) << error;
  return out;
}

void expect_same(const Encoded& a, const Encoded& b, const std::string& text) {
  ASSERT_EQ(a.ids, b.ids) << text;
  ASSERT_EQ(a.offsets.size(), b.offsets.size()) << text;
  for (std::size_t i = 0; i < a.offsets.size(); ++i) {
    EXPECT_EQ(a.offsets[i].begin, b.offsets[i].begin) << text << " token " << i;
    EXPECT_EQ(a.offsets[i].end, b.offsets[i].end) << text << " token " << i;
    EXPECT_EQ(a.offsets[i].sequence, b.offsets[i].sequence) << text << " token " << i;
    EXPECT_EQ(a.offsets[i].partial, b.offsets[i].partial) << text << " token " << i;
  }
}

// Random UTF-8 of the characters tokens split and join: ASCII words and
// spaces, accents, CJK, emoji (four bytes, split into byte tokens), the
// special token.
std::string random_text(std::mt19937& random) {
  static const char* const kParts[] = {"Lily",
                                       " saw",
                                       " Max",
                                       ".",
                                       " ",
                                       "  ",
                                       "\n",
                                       "é",
                                       "e\xCC\x81",
                                       "\xE4\xB8\xAD",
                                       "\xF0\x9F\x98\x80",
                                       "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB",
                                       "<|endoftext|>",
                                       "1234",
                                       "'s",
                                       "\t",
                                       "\xC2\xA0"};
  std::string text;
  const std::size_t parts = random() % 12;
  for (std::size_t i = 0; i < parts; ++i) text += kParts[random() % (sizeof kParts / sizeof kParts[0])];
  return text;
}

// The book's tokenizer takes the fast path; the same file with a
// TemplateProcessing that adds nothing takes the general one (its
// post-processors keep the ids), and both give the same offsets.
TEST(Offsets, ByBytesAsTheGeneralPathFindsThem) {
  const Tokenizer fast = load(book_json());
  const Tokenizer general = load(with_post_processor(
      R"({"type": "TemplateProcessing", "single": [{"Sequence": {"id": "A", "type_id": 0}}],
          "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
          "special_tokens": {}})"));
  std::mt19937 random(7);
  for (int i = 0; i < 1000; ++i) {
    const std::string text = random_text(random), pair = random_text(random);
    ASSERT_TRUE(utf8::is_valid(text));
    expect_same(encode(fast, text), encode(general, text), text);
    const std::string_view second = pair;
    expect_same(encode(fast, text, &second), encode(general, text, &second), text + " | " + pair);
  }
}

TEST(Offsets, SayWhereEachTokenIsAndWhichCutACharacter) {
  const Tokenizer book = load(book_json());
  // "Lily saw 😀": the emoji is four byte tokens, each partial, each with its whole span.
  const Encoded lily = encode(book, "Lily saw \xF0\x9F\x98\x80");
  ASSERT_FALSE(lily.offsets.empty());
  EXPECT_EQ(lily.offsets[0].begin, 0u);
  EXPECT_EQ(lily.offsets[0].end, 4u);
  EXPECT_FALSE(lily.offsets[0].partial);
  std::size_t partial = 0;
  for (const TokenOffsets& offsets : lily.offsets) {
    if (!offsets.partial) continue;
    ++partial;
    EXPECT_EQ(offsets.begin, 9u);
    EXPECT_EQ(offsets.end, 13u);
  }
  EXPECT_GE(partial, 2u);
  // A pair's offsets are in the pair's text, sequence 1.
  const std::string_view second = "Max";
  const Encoded pair = encode(book, "Lily", &second);
  ASSERT_EQ(pair.offsets.size(), 2u);
  EXPECT_EQ(pair.offsets[1].sequence, 1);
  EXPECT_EQ(pair.offsets[1].begin, 0u);
  EXPECT_EQ(pair.offsets[1].end, 3u);
}

// ByteLevel's trim_offsets (GPT-2's own file has it): the offsets leave out
// a token's spaces, but the one add_prefix_space put before the first.
TEST(Offsets, TrimmedAsByteLevelsPostProcessorTrimsThem) {
  const Tokenizer trimmed =
      load(with_post_processor(R"({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true})"));
  const Encoded saw = encode(trimmed, "Lily saw");
  ASSERT_EQ(saw.offsets.size(), 2u);
  EXPECT_EQ(saw.offsets[1].begin, 5u);  // " saw" is at 4, its space trimmed.
  EXPECT_EQ(saw.offsets[1].end, 8u);
  const Encoded spaces = encode(trimmed, "  ");
  for (const TokenOffsets& offsets : spaces.offsets) EXPECT_EQ(offsets.begin, offsets.end);
}

}  // namespace embeddings::offsets_test
