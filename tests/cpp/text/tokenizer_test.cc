#include "embeddings/text/tokenizer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/formats/json.h"
#include "embeddings/text/byte_level.h"
#include "embeddings/text/piece_cache.h"
#include "tokenizer_fixture.h"

namespace embeddings::tokenizer_test {

using test_fixtures::decode;
using test_fixtures::Fixture;
using test_fixtures::Ids;

// Expected ids below come from Hugging Face tokenizers 0.22.2 loading the same JSON.
TEST(Tokenizer, EncodesLikeHuggingFace) {
  const Tokenizer t = Fixture().load();
  EXPECT_EQ(t.encode("the girl"), (Ids{116, 257, 268}));
  EXPECT_EQ(t.encode("Lily's girl"), (Ids{263, 264, 268}));
  EXPECT_EQ(t.encode(" Lily and Lily"), (Ids{262, 32, 97, 110, 100, 262}));
  // Equal ranks: leftmost first, so "aaaaa" is "aa" + "aaa", not "aaa" + "aa".
  EXPECT_EQ(t.encode("aaaaa"), (Ids{269, 273}));
  EXPECT_EQ(t.encode("aaaa"), (Ids{269, 269}));
  EXPECT_EQ(t.encode("\n\n\n"), (Ids{270, 10}));
  EXPECT_EQ(t.encode("  the"), (Ids{32, 258}));
  EXPECT_EQ(t.encode("\U0001F600\U0001F601"), (Ids{271, 152, 128, 271, 152, 129}));
  EXPECT_EQ(t.encode("café"), (Ids{99, 97, 102, 195, 169}));
  EXPECT_EQ(t.encode(""), (Ids{}));
}

TEST(Tokenizer, SpecialTokensAreMatchedBeforePretokenization) {
  const Tokenizer t = Fixture().load();
  EXPECT_EQ(t.encode("<|endoftext|>"), (Ids{274}));
  EXPECT_EQ(t.encode("Lily<|endoftext|> the"), (Ids{263, 274, 258}));
  EXPECT_EQ(t.encode("<|endoftext|<|endoftext|>"),
            (Ids{60, 124, 101, 110, 100, 111, 102, 116, 101, 120, 116, 124, 274}));
  EXPECT_TRUE(t.is_special(274));
  EXPECT_FALSE(t.is_special(262));
  EXPECT_EQ(decode(t, {263, 274, 258}), "Lily<|endoftext|> the");
}

TEST(Tokenizer, AddPrefixSpaceAppliesToEachGap) {
  Fixture fixture;
  fixture.pre_tokenizer = R"({"type": "ByteLevel", "add_prefix_space": true, "use_regex": true})";
  const Tokenizer t = fixture.load();
  EXPECT_EQ(t.encode("Lily"), (Ids{262}));
  EXPECT_EQ(t.encode(" Lily"), (Ids{262}));
  EXPECT_EQ(t.encode("Lily<|endoftext|>Lily"), (Ids{262, 274, 262}));
  EXPECT_EQ(t.encode("\nLily"), (Ids{32, 10, 263}));
  EXPECT_EQ(t.encode(""), (Ids{}));
}

TEST(Tokenizer, WithoutRegexAGapIsOnePiece) {
  Fixture fixture;
  fixture.pre_tokenizer = R"({"type": "ByteLevel", "add_prefix_space": false, "use_regex": false})";
  const Tokenizer t = fixture.load();
  // With the regex, "  x" is " " + " x" (32, 32, 120); without it the two spaces can merge.
  EXPECT_EQ(t.encode("  x"), (Ids{272, 120}));
  EXPECT_EQ(Fixture().load().encode("  x"), (Ids{32, 32, 120}));
}

TEST(Tokenizer, AddedTokenFlags) {
  Fixture fixture;
  fixture.added_tokens = std::string("[") + Fixture::kEndOfText +
                         R"(, {"id": 275, "content": "<L>", "lstrip": true, "special": true},
          {"id": 276, "content": "<R>", "rstrip": true, "special": true},
          {"id": 277, "content": "girl", "single_word": true, "normalized": false},
          {"id": 278, "content": "<L><R>"}])";
  const Tokenizer t = fixture.load();
  EXPECT_EQ(t.vocab_size(), 279u);
  EXPECT_EQ(t.encode("a  <L>  b"), (Ids{97, 275, 32, 32, 98}));
  EXPECT_EQ(t.encode("a  <R>  b"), (Ids{97, 272, 276, 98}));
  EXPECT_EQ(t.encode(" <L><R> "), (Ids{32, 278, 32}));  // longest match wins
  EXPECT_EQ(t.encode("the girl"), (Ids{116, 257, 32, 277}));
  EXPECT_EQ(t.encode("girls"), (Ids{103, 266, 108, 115}));
  EXPECT_EQ(t.encode("girl_"), (Ids{103, 266, 108, 95}));
  EXPECT_EQ(t.encode("girl."), (Ids{277, 46}));
  EXPECT_EQ(t.encode("the<L><R>x"), (Ids{116, 257, 278, 120}));
  EXPECT_EQ(t.encode("\u00A0<L>"), (Ids{275}));                   // lstrip takes any White_Space
  EXPECT_EQ(t.encode("a girl\u0301"), (Ids{97, 268, 204, 129}));  // a combining mark is a word character
  EXPECT_EQ(t.token_text(277), "girl");
  EXPECT_EQ(t.token_id("<L>"), 275);
  EXPECT_FALSE(t.is_special(277));
}

TEST(Tokenizer, MergesAsPairs) {
  Fixture fixture;
  std::string merges = "[";
  for (const char* merge : Fixture::kMerges) {
    std::string text = merge;
    const std::size_t space = text.find(' ');
    if (merges.size() > 1) merges += ", ";
    merges += "[";
    json::append_quoted(merges, text.substr(0, space));
    merges += ", ";
    json::append_quoted(merges, text.substr(space + 1));
    merges += "]";
  }
  fixture.merges = merges + "]";
  const Tokenizer t = fixture.load();
  EXPECT_EQ(t.encode("Lily's girl"), (Ids{263, 264, 268}));
  EXPECT_EQ(t.encode("aaaaa"), (Ids{269, 273}));
}

// A tiny vocabulary without byte tokens, as in Hugging Face's own BPE tests.
Fixture small_vocab(const char* merges, const char* unk, const char* fuse, const char* ignore) {
  Fixture fixture;
  fixture.added_tokens = "[]";
  fixture.vocab = R"({"a": 0, "b": 1, "c": 2, "Ġ": 3, "ab": 4, "Ġa": 5, "Ġab": 6, "<unk>": 7, "abc": 8})";
  fixture.merges = merges;
  fixture.unk_token = unk;
  fixture.fuse_unk = fuse;
  fixture.ignore_merges = ignore;
  return fixture;
}

TEST(Tokenizer, UnknownBytes) {
  const char* merges = R"(["a b", "Ġ a", "Ġa b"])";
  const Tokenizer dropped = small_vocab(merges, "null", "false", "false").load();
  EXPECT_EQ(dropped.encode("xab"), (Ids{4}));  // Hugging Face drops bytes it has no token for
  const Tokenizer fused = small_vocab(merges, R"("<unk>")", "true", "false").load();
  EXPECT_EQ(fused.encode("xyab"), (Ids{7, 4}));
  EXPECT_EQ(fused.encode("xaby"), (Ids{7, 4, 7}));
  EXPECT_EQ(fused.encode("x y"), (Ids{7, 3, 7}));
  const Tokenizer separate = small_vocab(merges, R"("<unk>")", "false", "false").load();
  EXPECT_EQ(separate.encode("xyab"), (Ids{7, 7, 4}));
  EXPECT_EQ(separate.encode("xaby"), (Ids{7, 4, 7}));
}

TEST(Tokenizer, IgnoreMerges) {
  EXPECT_EQ(small_vocab(R"(["a b", "ab c"])", "null", "false", "true").load().encode("abc"), (Ids{8}));
  EXPECT_EQ(small_vocab(R"(["a b"])", "null", "false", "false").load().encode("abc"), (Ids{4, 2}));
}

TEST(Tokenizer, DecodeRepairsUtf8AndReportsBadIds) {
  const Tokenizer t = Fixture().load();
  EXPECT_EQ(decode(t, {271, 152}), "\xEF\xBF\xBD");  // three bytes of a four-byte character: one U+FFFD
  EXPECT_EQ(decode(t, {255, 254}), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(decode(t, {0xE2, 0x28, 0xA1}), "\xEF\xBF\xBD(\xEF\xBF\xBD");
  EXPECT_EQ(decode(t, {0xED, 0xA0, 0x80}), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(decode(t, {0xC0, 0xAF}), "\xEF\xBF\xBD\xEF\xBF\xBD");                    // overlong
  std::string bytes, error;
  const Ids raw = {271, 152};
  ASSERT_TRUE(t.decode_bytes(raw.data(), raw.size(), bytes, error));
  EXPECT_EQ(bytes, "\xF0\x9F\x98");

  std::string text = "stale";
  const Ids bad = {262, 275};
  EXPECT_FALSE(t.decode(bad.data(), bad.size(), text, error));
  EXPECT_EQ(error, "decode: id 275 at position 1 is not in the vocabulary (vocab_size 275)");
  EXPECT_EQ(text, "");
  const Ids negative = {-1};
  EXPECT_FALSE(t.decode(negative.data(), negative.size(), text, error));
  EXPECT_FALSE(t.decode(nullptr, 3, text, error));
  EXPECT_TRUE(t.decode(nullptr, 0, text, error));
  EXPECT_EQ(t.token_bytes(-5), "");
  EXPECT_EQ(t.token_text(100000), "");
}

TEST(Tokenizer, SizesAndBytes) {
  const Tokenizer t = Fixture().load();
  EXPECT_EQ(t.vocab_size(), 275u);
  EXPECT_EQ(t.token_count(), 275u);
  EXPECT_EQ(t.max_token_bytes(), 13u);  // "<|endoftext|>"
  EXPECT_EQ(t.token_bytes(262), " Lily");
  EXPECT_EQ(t.token_bytes(10), "\n");
  EXPECT_EQ(t.token_bytes(274), "<|endoftext|>");
}

TEST(Tokenizer, DisplayForm) {
  const Tokenizer t = Fixture().load();
  EXPECT_EQ(t.token_text(262), "·Lily");
  EXPECT_EQ(t.token_text(263), "Lily");
  EXPECT_EQ(t.token_text(270), "↵↵");
  EXPECT_EQ(t.token_text(9), "⇥");
  EXPECT_EQ(t.token_text(272), "··");
  EXPECT_EQ(t.token_text(0), "<0x00>");
  EXPECT_EQ(t.token_text(13), "<0x0D>");
  EXPECT_EQ(t.token_text(127), "<0x7F>");
  EXPECT_EQ(t.token_text(0xF0), "<0xF0>");
  EXPECT_EQ(t.token_text(271), "<0xF0><0x9F>");  // part of an emoji
  EXPECT_EQ(t.token_text(274), "<|endoftext|>");
  EXPECT_EQ(t.token_text('A'), "A");

  EXPECT_EQ(t.token_id("·Lily"), 262);
  EXPECT_EQ(t.token_id(" Lily"), 262);
  EXPECT_EQ(t.token_id("Lily"), 263);
  EXPECT_EQ(t.token_id("·girl"), 268);
  EXPECT_EQ(t.token_id("↵↵"), 270);
  EXPECT_EQ(t.token_id("\n\n"), 270);
  EXPECT_EQ(t.token_id("<0x00>"), 0);
  EXPECT_EQ(t.token_id("<0xf0><0x9f>"), 271);
  EXPECT_EQ(t.token_id("<|endoftext|>"), 274);
  EXPECT_EQ(t.token_id("·boy"), -1);  // not a single token
  EXPECT_EQ(t.token_id("Lily Lily"), -1);
  EXPECT_EQ(t.token_id(""), -1);
  EXPECT_EQ(t.token_id("<0x"), -1);
  // Every display form names its own token.
  for (std::int32_t id = 0; id < static_cast<std::int32_t>(t.vocab_size()); ++id) {
    EXPECT_EQ(t.token_id(t.token_text(id)), id) << id;
    EXPECT_TRUE(utf8::is_valid(t.token_text(id))) << id;
  }
}

TEST(Tokenizer, DisplayEscapesLiteralMarksAndControlCharacters) {
  Fixture fixture;
  fixture.added_tokens = "[]";
  fixture.vocab = R"({"Â·": 0, "Ġ": 1, "Âħ": 2, "Ã©": 3, "âĨµ": 4})";
  fixture.merges = "[]";
  const Tokenizer t = fixture.load();
  EXPECT_EQ(t.token_bytes(0), "\xC2\xB7");
  EXPECT_EQ(t.token_text(0), "<0xC2><0xB7>");  // a literal middle dot is not a space
  EXPECT_EQ(t.token_text(1), "·");
  EXPECT_EQ(t.token_text(2), "<0xC2><0x85>");  // U+0085, a C1 control
  EXPECT_EQ(t.token_text(3), "é");
  EXPECT_EQ(t.token_text(4), "<0xE2><0x86><0xB5>");
  EXPECT_EQ(t.token_id("·"), 1);
  EXPECT_EQ(t.token_id("<0xC2><0xB7>"), 0);
  EXPECT_EQ(t.token_id("é"), 3);
}

std::string random_text(std::mt19937& random, bool valid_utf8) {
  static const char* const kPieces[] = {
      " ",    "  ",    "\n",         "\n\n",          "\t",     "'s",    "'ll", "the", " the",
      "Lily", " girl", "aaa",        "<|endoftext|>", "<|",     "1",     "42",  ".",   "!",
      "é",    "日本",  "\U0001F600", "\u0085",        "\uFEFF", "\u00A0"};
  std::string text;
  const int length = static_cast<int>(random() % 16);
  for (int i = 0; i < length; ++i) {
    const unsigned choice = random() % 10;
    if (!valid_utf8 && choice == 0) {
      text += static_cast<char>(random() % 256);
    } else if (choice == 1) {
      std::uint32_t code = random() % 0x110000;
      if (code >= 0xD800 && code <= 0xDFFF) code = 'x';
      utf8::append(text, code);
    } else {
      text += kPieces[random() % std::size(kPieces)];
    }
  }
  return text;
}

TEST(Tokenizer, RoundTripsRandomText) {
  const Tokenizer t = Fixture().load();
  std::mt19937 random(11);
  for (int round = 0; round < 3000; ++round) {
    const std::string text = random_text(random, true);
    EXPECT_EQ(decode(t, t.encode(text)), text);
  }
}

TEST(Tokenizer, RoundTripsRandomBytes) {
  const Tokenizer t = Fixture().load();
  std::mt19937 random(12);
  for (int round = 0; round < 3000; ++round) {
    const std::string bytes = random_text(random, false);
    const Ids ids = t.encode(bytes);
    std::string back, error;
    ASSERT_TRUE(t.decode_bytes(ids.data(), ids.size(), back, error)) << error;
    EXPECT_EQ(back, bytes);
    std::string text;
    ASSERT_TRUE(t.decode(ids.data(), ids.size(), text, error));
    EXPECT_TRUE(utf8::is_valid(text));
  }
}

TEST(Tokenizer, RoundTripsEveryVocabularyEntry) {
  const Tokenizer t = Fixture().load();
  for (std::int32_t id = 0; id < static_cast<std::int32_t>(t.vocab_size()); ++id) {
    const std::string bytes = t.token_bytes(id);
    const Ids ids = t.encode(bytes);
    std::string back, error;
    ASSERT_TRUE(t.decode_bytes(ids.data(), ids.size(), back, error));
    EXPECT_EQ(back, bytes) << id;
    const Ids single = {id};
    ASSERT_TRUE(t.decode_bytes(single.data(), 1, back, error));
    EXPECT_EQ(back, bytes);
  }
}

TEST(Tokenizer, LongWordIsNotQuadratic) {
  const Tokenizer t = Fixture().load();
  const std::string word(1 << 20, 'a');  // one piece of a million bytes
  const Ids ids = t.encode(word);
  EXPECT_EQ(decode(t, ids), word);
  // "aa" merges first everywhere (leftmost first), then "aa" + "a" never applies.
  EXPECT_EQ(ids.size(), std::size_t{1} << 19);
}

// ---- The piece cache ---------------------------------------------------------------

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Texts for the cache: the book's story text, random text with valid and
// broken UTF-8, long pieces (past what a slot holds) and pieces whose ids do
// not fit one, each several times.
std::vector<std::string> cache_texts() {
  std::vector<std::string> texts;
  const std::string story = read_text_file(std::string(EMBEDDINGS_SOURCE_DIR) + "/cpp/bench/trace_text.txt");
  EXPECT_FALSE(story.empty());
  for (std::size_t at = 0; at < story.size(); at += 300) texts.push_back(story.substr(at, 300));
  std::mt19937 random(21);
  for (int i = 0; i < 600; ++i) texts.push_back(random_text(random, i % 2 == 0));
  texts.push_back(std::string(40, 'a') + " " + std::string(27, 'x') + " " + std::string(26, 'y') +
                  " \xF0\x9F\x98");
  texts.push_back("\U0001F600\U0001F600\U0001F600 \u65e5\u672c\u8a9e\u65e5\u672c\u8a9e\u65e5\u672c\u8a9e");
  const std::size_t distinct = texts.size();
  for (std::size_t i = 0; i < distinct; ++i) texts.push_back(texts[(i * 7) % distinct]);
  return texts;
}

TEST(PieceCache, SameIdsWithAndWithoutACacheOfAnySize) {
  Tokenizer book;
  std::string error;
  ASSERT_TRUE(Tokenizer::from_json(
      read_text_file(std::string(EMBEDDINGS_SOURCE_DIR) + "/model/tokenizer.json"), book, error))
      << error;
  const Tokenizer fixture = Fixture().load();
  const std::vector<std::string> texts = cache_texts();
  for (const Tokenizer* t : {static_cast<const Tokenizer*>(&book), &fixture}) {
    std::vector<Ids> expected;
    for (const std::string& text : texts) expected.push_back(t->encode(text));
    // 1 and 2 slots: every piece evicts another; 4096: the session's cache.
    for (const std::size_t slots : {1, 2, 64, 4096}) {
      PieceCache cache(slots);
      for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < texts.size(); ++i) {
          Ids ids;
          t->encode(texts[i], ids, &cache);
          ASSERT_EQ(ids, expected[i]) << "slots " << slots << ", text " << i;
          Ids limited;
          const std::size_t limit = expected[i].size() / 2;
          const bool fits = t->encode_at_most(texts[i], limit, limited, &cache);
          EXPECT_EQ(fits, expected[i].size() <= limit);
          if (fits) EXPECT_EQ(limited, expected[i]);
        }
      }
      EXPECT_LE(cache.pieces(), cache.slot_count());
      EXPECT_GT(cache.pieces(), 0u);
    }
  }
}

TEST(PieceCache, IsBoundedAndForgetsAnotherTokenizersPieces) {
  EXPECT_EQ(PieceCache::memory_bytes(4096), 4096u * 64u);
  EXPECT_EQ(PieceCache(3000).slot_count(), 4096u);
  EXPECT_EQ(PieceCache::memory_bytes(0), 0u);
  // A cache without slots keeps nothing and changes nothing.
  const Tokenizer fixture = Fixture().load();
  PieceCache none;
  Ids ids;
  fixture.encode("the girl the girl", ids, &none);
  EXPECT_EQ(ids, fixture.encode("the girl the girl"));
  EXPECT_EQ(none.pieces(), 0u);
  // Filled by one tokenizer, used with another: that one's ids, not the cached ones.
  Fixture without_merges;
  without_merges.merges = "[]";
  const Tokenizer plain = without_merges.load();
  EXPECT_NE(plain.serial(), fixture.serial());
  const Tokenizer copy = fixture;
  EXPECT_EQ(copy.serial(), fixture.serial());
  PieceCache cache(64);
  ids.clear();
  fixture.encode(" girl", ids, &cache);
  EXPECT_EQ(ids, (Ids{268}));
  EXPECT_EQ(cache.pieces(), 1u);
  ids.clear();
  plain.encode(" girl", ids, &cache);
  EXPECT_EQ(ids, plain.encode(" girl"));
  EXPECT_EQ(ids.size(), 5u);
  // A piece of more than kMaxPieceBytes bytes, or of more than kMaxIds ids, is not kept.
  PieceCache small(64);
  ids.clear();
  plain.encode(std::string(PieceCache::kMaxPieceBytes + 1, 'q'), ids, &small);
  plain.encode("abcdefghi", ids, &small);
  EXPECT_EQ(small.pieces(), 0u);
  plain.encode("abcdefgh", ids, &small);
  EXPECT_EQ(small.pieces(), 1u);
}

}  // namespace embeddings::tokenizer_test
