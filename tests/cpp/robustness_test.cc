// Hostile sizes and early stops: Buffer's refusals, the loader's two-step
// header (parse, then allocate) and encode_at_most().
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../fuzz/targets/tokenizer_encode.h"
#include "embeddings/common/buffer.h"
#include "embeddings/formats/tables_loader.h"
#include "formats/safetensors_writer.h"

namespace {

using embeddings::Buffer;
using embeddings::EmbeddingTables;
using embeddings::Table;
using embeddings::TablesLoader;
using namespace embeddings::testing;

TEST(Buffer, RefusesSizesThatCannotExistWithoutCallingMalloc) {
  Buffer<float> buffer;
  ASSERT_TRUE(buffer.allocate(3));
  EXPECT_EQ(buffer.size(), 3u);
  // Over the limit, and overflowing count × sizeof(float): refused up front
  // (a sanitizer would report a malloc this large as a bug).
  EXPECT_FALSE(buffer.allocate(embeddings::kMaxBufferBytes / sizeof(float) + 1));
  EXPECT_FALSE(buffer.allocate(~std::uint64_t{0}));
  EXPECT_EQ(buffer.size(), 0u);
  EXPECT_EQ(buffer.data(), nullptr);
}

TEST(Buffer, ZeroCountIsAValidPointerAndMovesTransferOwnership) {
  Buffer<int> empty;
  ASSERT_TRUE(empty.allocate_zeroed(0));
  EXPECT_NE(empty.data(), nullptr);
  EXPECT_TRUE(empty.empty());
  Buffer<int> a;
  ASSERT_TRUE(a.allocate_zeroed(4));
  a[2] = 7;
  Buffer<int> b = std::move(a);
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(b[2], 7);
  a = std::move(b);
  EXPECT_EQ(a[2], 7);
  EXPECT_EQ(a[0], 0);
}

// A loader that has read the header of a file of `file_size` bytes whose
// data section is not there (the loader never needs it before allocate()).
bool parse_only(TablesLoader& loader, const std::string& header, std::uint64_t data_bytes,
                std::string& error) {
  const std::string prefix = file_from(header, "");
  if (!loader.begin(reinterpret_cast<const unsigned char*>(prefix.data()), 8, prefix.size() + data_bytes,
                    error))
    return false;
  return loader.parse_header(std::string_view(prefix).substr(8, loader.header_length()), error);
}

TEST(LoaderMemory, ParseHeaderAllocatesNothingAndSaysWhatAllocateWillTake) {
  // GPT-2's tables, wte in F16 and wpe in F32: each table's bytes as the
  // file stores them, nothing converted.
  const std::string header =
      R"({"wte.weight":{"dtype":"F16","shape":[50257,768],"data_offsets":[0,77194752]},)"
      R"("wpe.weight":{"dtype":"F32","shape":[1024,768],"data_offsets":[77194752,80340480]}})";
  TablesLoader loader;
  std::string error;
  ASSERT_TRUE(parse_only(loader, header, 80340480, error)) << error;
  EXPECT_EQ(loader.table_buffer(Table::Token), nullptr) << "parse_header must not allocate";
  EXPECT_EQ(loader.allocation_bytes(), 50257ull * 768 * 2 + 1024ull * 768 * 4);
  EXPECT_EQ(loader.table_info(Table::Position)->shape[0], 1024u);
  ASSERT_TRUE(loader.allocate(error)) << error;
  EXPECT_NE(loader.table_buffer(Table::Token), nullptr);
  EXPECT_FALSE(loader.allocate(error)) << "allocate() twice";
}

TEST(LoaderMemory, ATableLargerThanTheModuleCanHoldIsRefusedBeforeAllocating) {
  // 300 million F32 numbers (1.2 GB): a valid header for a file that large.
  const std::string header =
      R"({"wte.weight":{"dtype":"F32","shape":[300000,1000],"data_offsets":[0,1200000000]},)"
      R"("wpe.weight":{"dtype":"F32","shape":[4,1000],"data_offsets":[1200000000,1200016000]}})";
  TablesLoader loader;
  std::string error;
  EXPECT_FALSE(parse_only(loader, header, 1200016000, error));
  EXPECT_NE(error.find("wte.weight has 300000000 numbers, more than this module can hold"), std::string::npos)
      << error;
  EXPECT_EQ(loader.allocation_bytes(), 0u);
}

TEST(LoaderMemory, TheBoundPerTableCountsTheTablesOwnBytes) {
  // 300 million BF16 numbers (600 MB, 1.2 GB as float32): a 16-bit table
  // stays 16-bit, so it fits where the same numbers as F32 do not.
  const std::string fits =
      R"({"model.embed_tokens.weight":{"dtype":"BF16","shape":[300000,1000],"data_offsets":[0,600000000]}})";
  TablesLoader loader;
  std::string error;
  ASSERT_TRUE(parse_only(loader, fits, 600000000, error)) << error;
  EXPECT_EQ(loader.allocation_bytes(), 600000000u);
  // 600 million F16 numbers are 1.2 GB even in 16 bits.
  const std::string too_large =
      R"({"model.embed_tokens.weight":{"dtype":"F16","shape":[600000,1000],"data_offsets":[0,1200000000]}})";
  TablesLoader large;
  EXPECT_FALSE(parse_only(large, too_large, 1200000000, error));
  EXPECT_NE(error.find("has 600000000 numbers, more than this module can hold (536870912 of F16, 1 GiB)"),
            std::string::npos)
      << error;
}

TEST(LoaderMemory, StepsOutOfOrder) {
  TablesLoader loader;
  std::string error;
  EXPECT_FALSE(loader.allocate(error));
  EXPECT_NE(error.find("parse_header() first"), std::string::npos) << error;
  EXPECT_EQ(loader.table_buffer(Table::Token), nullptr);
  EXPECT_EQ(loader.table_info(Table::Token), nullptr);
  // Reading the data before allocate() has no buffer to write into.
  TablesLoader parsed;
  ASSERT_TRUE(parse_only(parsed, header_json(tiny_model(5, 3, 4)), 5 * 4 * 4 + 3 * 4 * 4 + 4 * 4, error))
      << error;
  EXPECT_EQ(parsed.table_buffer(Table::Position), nullptr);
  EmbeddingTables tables;
  EXPECT_FALSE(parsed.finish(tables, error));
}

// ---- encode_at_most ------------------------------------------------------------

using embeddings::Tokenizer;

void expect_agrees(const Tokenizer& tokenizer, const std::string& text) {
  const std::vector<std::int32_t> all = tokenizer.encode(text);
  for (std::size_t limit : {std::size_t{0}, std::size_t{1}, std::size_t{2}, all.size() / 2, all.size() - 1,
                            all.size(), all.size() + 1, std::size_t{1} << 20}) {
    if (limit > all.size() + 1 && limit != std::size_t{1} << 20) continue;
    std::vector<std::int32_t> ids = {99};  // replaced, not appended to
    const bool fits = tokenizer.encode_at_most(text, limit, ids);
    EXPECT_EQ(fits, all.size() <= limit) << text << " limit " << limit;
    if (fits) EXPECT_EQ(ids, all) << text << " limit " << limit;
  }
}

TEST(EncodeAtMost, AgreesWithEncode) {
  const std::string texts[] = {
      "",
      "Lily saw the girl. It's 123!",
      "<|endoftext|>Lily<|endoftext|><|endoftext|> the",
      std::string(5000, 'a'),
      "  \n\n  the   girl  ",
      "\xF0\x9F\x99\x82 \xE6\xBC\xA2\xE5\xAD\x97 ab [MASK] \xC3\xA9t\xC3\xA9 x\x00y\xFF"};
  for (const std::string& text : texts) {
    expect_agrees(embeddings::fuzz::plain_tokenizer(), text);
    // Bytes without a token (no length bound), added tokens that swallow spaces.
    expect_agrees(embeddings::fuzz::exotic_tokenizer(), text);
  }
}

TEST(EncodeAtMost, AgreesWhereItStopsLookingAhead) {
  // encode_at_most() finds a piece in a view of the text cut some bytes on
  // (see bounded_pretoken_length). Runs of every kind of character, of every
  // length around that cut, with a character of another kind (or a split
  // multi-byte one) at the end.
  const Tokenizer& tokenizer = embeddings::fuzz::plain_tokenizer();
  const std::string runs[] = {" ",
                              "\xE3\x80\x80" /* ideographic space */,
                              "\xE6\xBC\xA2",
                              "a",
                              "!",
                              "1",
                              "\xF0\x9F\x99\x82",
                              "\xE3\x80\x80 ",
                              "\n"};
  const std::string ends[] = {"", "x", " x", "\xE3\x80\x80", "\xE3\x80", "!", " 1", "\xF0\x9F"};
  for (const std::string& run : runs) {
    for (const std::string& end : ends) {
      std::string text;
      while (text.size() < 300) {
        text += run;
        for (const std::size_t limit : {std::size_t{0}, std::size_t{3}, std::size_t{9}, std::size_t{12}}) {
          const std::string whole = "ab " + text + end;
          const std::vector<std::int32_t> all = tokenizer.encode(whole);
          std::vector<std::int32_t> ids;
          const bool fits = tokenizer.encode_at_most(whole, limit, ids);
          ASSERT_EQ(fits, all.size() <= limit) << text.size() << " bytes of " << run << " then " << end;
          if (fits) ASSERT_EQ(ids, all);
        }
      }
    }
  }
}

TEST(EncodeAtMost, RefusesAMegabyteForASmallContext) {
  const Tokenizer& tokenizer = embeddings::fuzz::plain_tokenizer();
  std::vector<std::int32_t> ids;
  // One piece of a million letters (or spaces): its length alone proves it,
  // without even finding where it ends.
  EXPECT_FALSE(tokenizer.encode_at_most(std::string(1 << 20, 'x'), 1024, ids));
  EXPECT_FALSE(tokenizer.encode_at_most(std::string(1 << 20, ' '), 1024, ids));
  // Many short pieces: encoding stops after the 1025th token.
  std::string words;
  while (words.size() < (1 << 20)) words += " the girl saw Lily";
  EXPECT_FALSE(tokenizer.encode_at_most(words, 1024, ids));
  EXPECT_LE(ids.size(), 1024u + 8u);
  EXPECT_TRUE(tokenizer.encode_at_most(words.substr(0, 100), 1024, ids));
}

TEST(EncodeAtMost, ARefusedTextIsRefusedOrFoundTooLong) {
  // A Unigram with no unknown token refuses "b", which it has no token for.
  // The limit is checked as the pieces come: passed before the refused piece
  // is reached, the text is too long; reached first, it is refused. Either
  // way no ids are given for it.
  Tokenizer tokenizer;
  std::string error;
  ASSERT_TRUE(Tokenizer::from_json(
      R"({"version": "1.0", "added_tokens": [], "normalizer": null, "pre_tokenizer": {"type": "WhitespaceSplit"},)"
      R"( "post_processor": null, "decoder": null,)"
      R"( "model": {"type": "Unigram", "unk_id": null, "vocab": [["a", -1.0]]}})",
      tokenizer, error))
      << error;
  using Encoded = Tokenizer::Encoded;
  std::vector<std::int32_t> ids;
  Tokenizer::EncodeOptions options;
  EXPECT_EQ(tokenizer.encode("a a bbbbb", options, ids, error), Encoded::Refused);
  EXPECT_TRUE(ids.empty());
  options.max_tokens = 1;
  EXPECT_EQ(tokenizer.encode("a a bbbbb", options, ids, error), Encoded::TooManyTokens);
  EXPECT_FALSE(tokenizer.encode_at_most("a a bbbbb", 1, ids));
  options.max_tokens = 2;
  EXPECT_EQ(tokenizer.encode("a a bbbbb", options, ids, error), Encoded::Refused);
  EXPECT_TRUE(ids.empty());
  EXPECT_TRUE(tokenizer.encode_at_most("a a bbbbb", 2, ids));
  EXPECT_TRUE(ids.empty());
}

}  // namespace
