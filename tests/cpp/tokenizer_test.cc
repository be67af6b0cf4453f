#include "embeddings/tokenizer.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "embeddings/byte_level.h"
#include "embeddings/json.h"
#include "embeddings/utf8.h"

namespace embeddings {
namespace {

using Ids = std::vector<std::int32_t>;

// A small GPT-2-style tokenizer.json: the 256 byte tokens (id = byte value),
// 18 merges (ids 256..273) and <|endoftext|> (274). Every field is a JSON
// fragment that a test can replace.
struct Fixture {
  static constexpr const char* kMerges[] = {"Ġ t",    "h e",   "Ġt he", "Ġ L", "i l", "il y",
                                            "ĠL ily", "L ily", "' s",   "Ġ g", "i r", "Ġg ir",
                                            "Ġgir l", "a a",   "Ċ Ċ",   "ð Ł", "Ġ Ġ", "aa a"};
  static constexpr const char* kEndOfText =
      R"({"id": 274, "content": "<|endoftext|>", "single_word": false, "lstrip": false, "rstrip": false,)"
      R"( "normalized": true, "special": true})";

  std::string added_tokens = std::string("[") + kEndOfText + "]";
  std::string truncation = "null";
  std::string padding = "null";
  std::string normalizer = "null";
  std::string pre_tokenizer =
      R"({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true})";
  std::string post_processor =
      R"({"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": false, "use_regex": true})";
  std::string decoder =
      R"({"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true})";
  std::string model_type = R"("BPE")";
  std::string dropout = "null";
  std::string unk_token = "null";
  std::string prefix = R"("")";
  std::string suffix = R"("")";
  std::string fuse_unk = "false";
  std::string byte_fallback = "false";
  std::string ignore_merges = "false";
  std::string extra_vocab;   // Appended members, e.g. R"(, "zz": 300)".
  std::string extra_merges;  // Appended items, e.g. R"(, "a b")".
  std::string vocab;         // Replaces the whole vocab object when set.
  std::string merges;        // Replaces the whole merges array when set.

  static std::string default_vocab(const std::string& extra) {
    std::string out = "{";
    for (int byte = 0; byte < 256; ++byte) {
      std::string token;
      byte_level::append_encoded(token, std::string(1, static_cast<char>(byte)));
      json::append_quoted(out, token);
      out += ": " + std::to_string(byte) + ", ";
    }
    int id = 256;
    for (const char* merge : kMerges) {
      std::string merged = merge;
      merged.erase(merged.find(' '), 1);
      json::append_quoted(out, merged);
      out += ": " + std::to_string(id++) + ", ";
    }
    out += "\"<|endoftext|>\": 274" + extra + "}";
    return out;
  }
  static std::string default_merges(const std::string& extra) {
    std::string out = "[";
    for (const char* merge : kMerges) {
      if (out.size() > 1) out += ", ";
      json::append_quoted(out, merge);
    }
    return out + extra + "]";
  }

  std::string json() const {
    return R"({"version": "1.0", "truncation": )" + truncation + R"(, "padding": )" + padding +
           R"(, "added_tokens": )" + added_tokens + R"(, "normalizer": )" + normalizer +
           R"(, "pre_tokenizer": )" + pre_tokenizer + R"(, "post_processor": )" + post_processor +
           R"(, "decoder": )" + decoder + R"(, "model": {"type": )" + model_type + R"(, "dropout": )" +
           dropout + R"(, "unk_token": )" + unk_token + R"(, "continuing_subword_prefix": )" + prefix +
           R"(, "end_of_word_suffix": )" + suffix + R"(, "fuse_unk": )" + fuse_unk +
           R"(, "byte_fallback": )" + byte_fallback + R"(, "ignore_merges": )" + ignore_merges +
           R"(, "vocab": )" + (vocab.empty() ? default_vocab(extra_vocab) : vocab) + R"(, "merges": )" +
           (merges.empty() ? default_merges(extra_merges) : merges) + "}}";
  }

  Tokenizer load() const {
    Tokenizer tokenizer;
    std::string error;
    EXPECT_TRUE(Tokenizer::from_json(json(), tokenizer, error)) << error;
    return tokenizer;
  }
};

std::string decode(const Tokenizer& tokenizer, const Ids& ids) {
  std::string text, error;
  EXPECT_TRUE(tokenizer.decode(ids.data(), ids.size(), text, error)) << error;
  return text;
}

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
  EXPECT_TRUE(t.add_prefix_space());
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
  EXPECT_EQ(t.token_display(277), "girl");
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
  EXPECT_EQ(t.token_display(100000), "");
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
  EXPECT_EQ(t.token_display(262), "·Lily");
  EXPECT_EQ(t.token_display(263), "Lily");
  EXPECT_EQ(t.token_display(270), "↵↵");
  EXPECT_EQ(t.token_display(9), "⇥");
  EXPECT_EQ(t.token_display(272), "··");
  EXPECT_EQ(t.token_display(0), "<0x00>");
  EXPECT_EQ(t.token_display(13), "<0x0D>");
  EXPECT_EQ(t.token_display(127), "<0x7F>");
  EXPECT_EQ(t.token_display(0xF0), "<0xF0>");
  EXPECT_EQ(t.token_display(271), "<0xF0><0x9F>");  // part of an emoji
  EXPECT_EQ(t.token_display(274), "<|endoftext|>");
  EXPECT_EQ(t.token_display('A'), "A");

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
    EXPECT_EQ(t.token_id(t.token_display(id)), id) << id;
    EXPECT_TRUE(utf8::is_valid(t.token_display(id))) << id;
  }
}

TEST(Tokenizer, DisplayEscapesLiteralMarksAndControlCharacters) {
  Fixture fixture;
  fixture.added_tokens = "[]";
  fixture.vocab = R"({"Â·": 0, "Ġ": 1, "Âħ": 2, "Ã©": 3, "âĨµ": 4})";
  fixture.merges = "[]";
  const Tokenizer t = fixture.load();
  EXPECT_EQ(t.token_bytes(0), "\xC2\xB7");
  EXPECT_EQ(t.token_display(0), "<0xC2><0xB7>");  // a literal middle dot is not a space
  EXPECT_EQ(t.token_display(1), "·");
  EXPECT_EQ(t.token_display(2), "<0xC2><0x85>");  // U+0085, a C1 control
  EXPECT_EQ(t.token_display(3), "é");
  EXPECT_EQ(t.token_display(4), "<0xE2><0x86><0xB5>");
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

TEST(Tokenizer, FailedLoadLeavesTheTokenizerUnchanged) {
  Tokenizer t = Fixture().load();
  Fixture bad;
  bad.extra_merges = R"(, "q q")";
  std::string error;
  EXPECT_FALSE(Tokenizer::from_json(bad.json(), t, error));
  EXPECT_EQ(t.encode("the girl"), (Ids{116, 257, 268}));
  EXPECT_EQ(t.vocab_size(), 275u);
}

TEST(Tokenizer, NullDecoderAndPostProcessorAreAccepted) {
  Fixture fixture;
  fixture.decoder = "null";
  fixture.post_processor = "null";
  const Tokenizer t = fixture.load();
  EXPECT_EQ(decode(t, t.encode("the girl")), "the girl");
}

struct BadCase {
  const char* name;
  std::string json;
  const char* message;  // Expected part of the error.
};

std::vector<BadCase> bad_cases() {
  std::vector<BadCase> cases;
  const auto with = [&](const char* name, auto change, const char* message) {
    Fixture fixture;
    change(fixture);
    cases.push_back({name, fixture.json(), message});
  };
  cases.push_back({"not json", "{", "tokenizer.json: "});
  cases.push_back({"array", "[]", "the top level must be an object, found an array"});
  with(
      "normalizer", [](Fixture& f) { f.normalizer = R"({"type": "NFC"})"; }, "normalizer must be null");
  with(
      "truncation", [](Fixture& f) { f.truncation = R"({"max_length": 8})"; }, "truncation must be null");
  with(
      "padding", [](Fixture& f) { f.padding = "{}"; }, "padding must be null");
  with(
      "no pre_tokenizer", [](Fixture& f) { f.pre_tokenizer = "null"; }, "pre_tokenizer is missing or null");
  with(
      "whitespace pre_tokenizer", [](Fixture& f) { f.pre_tokenizer = R"({"type": "Whitespace"})"; },
      "pre_tokenizer must be {\"type\": \"ByteLevel\", ...}, found type \"Whitespace\"");
  with(
      "no add_prefix_space", [](Fixture& f) { f.pre_tokenizer = R"({"type": "ByteLevel"})"; },
      "pre_tokenizer.add_prefix_space must be true or false, found nothing");
  with(
      "use_regex string",
      [](Fixture& f) {
        f.pre_tokenizer = R"({"type": "ByteLevel", "add_prefix_space": false, "use_regex": "y"})";
      },
      "pre_tokenizer.use_regex must be true or false, found the string \"y\"");
  with(
      "decoder", [](Fixture& f) { f.decoder = R"({"type": "WordPiece"})"; },
      "decoder must be null or {\"type\": \"ByteLevel\"}, found type \"WordPiece\"");
  with(
      "post_processor", [](Fixture& f) { f.post_processor = R"({"type": "TemplateProcessing"})"; },
      "post_processor must be null or {\"type\": \"ByteLevel\"}");
  with(
      "model type", [](Fixture& f) { f.model_type = R"("WordPiece")"; },
      "model.type must be \"BPE\", found the string \"WordPiece\"");
  with(
      "dropout", [](Fixture& f) { f.dropout = "0.1"; }, "model.dropout must be null, found the number 0.1");
  with(
      "byte_fallback", [](Fixture& f) { f.byte_fallback = "true"; }, "model.byte_fallback must be false");
  with(
      "fuse_unk type", [](Fixture& f) { f.fuse_unk = "1"; }, "model.fuse_unk must be true or false");
  with(
      "prefix", [](Fixture& f) { f.prefix = R"("##")"; },
      "model.continuing_subword_prefix must be null or \"\"");
  with(
      "suffix", [](Fixture& f) { f.suffix = R"("</w>")"; }, "model.end_of_word_suffix must be null or \"\"");
  with(
      "unk type", [](Fixture& f) { f.unk_token = "5"; }, "model.unk_token must be null or a string");
  with(
      "unk missing", [](Fixture& f) { f.unk_token = R"("<unk>")"; },
      "model.unk_token \"<unk>\" is not in model.vocab");
  with(
      "vocab array", [](Fixture& f) { f.vocab = "[]"; }, "model.vocab must be an object, found an array");
  with(
      "negative id", [](Fixture& f) { f.extra_vocab = R"(, "zz": -1)"; },
      "model.vocab[\"zz\"] must be an integer id from 0 to 2147483646, found the number -1");
  with(
      "huge id", [](Fixture& f) { f.extra_vocab = R"(, "zz": 99999999999999999999)"; },
      "model.vocab[\"zz\"] must be an integer id");
  with(
      "id too big for int32", [](Fixture& f) { f.extra_vocab = R"(, "zz": 2147483647)"; },
      "model.vocab[\"zz\"] must be an integer id");
  with(
      "fractional id", [](Fixture& f) { f.extra_vocab = R"(, "zz": 1.5)"; }, "found the number 1.5");
  with(
      "string id", [](Fixture& f) { f.extra_vocab = R"(, "zz": "5")"; }, "found the string \"5\"");
  with(
      "duplicate id", [](Fixture& f) { f.extra_vocab = R"(, "zz": 38)"; },
      "model.vocab: tokens \"&\" and \"zz\" both have id 38");
  with(
      "empty token", [](Fixture& f) { f.extra_vocab = R"(, "": 300)"; }, "model.vocab has an empty token");
  with(
      "token twice", [](Fixture& f) { f.extra_vocab = R"(, "a": 300)"; },
      "model.vocab has the token \"a\" twice");
  with(
      "duplicate key in model", [](Fixture& f) { f.ignore_merges = R"(false, "fuse_unk": false)"; },
      "duplicate key \"fuse_unk\"");
  with(
      "not byte-level", [](Fixture& f) { f.extra_vocab = R"(, "a b": 300)"; },
      "model.vocab: token \"a b\" is not a byte-level string");
  with(
      "no merges", [](Fixture& f) { f.merges = "null"; }, "model.merges must be an array, found null");
  with(
      "merge with unknown token", [](Fixture& f) { f.extra_merges = R"(, "zz y")"; },
      "model.merges[18]: \"zz\" is not in model.vocab");
  with(
      "merge result unknown", [](Fixture& f) { f.extra_merges = R"(, "q q")"; },
      "model.merges[18]: the merged token \"qq\" is not in model.vocab");
  with(
      "merge without space", [](Fixture& f) { f.extra_merges = R"(, "abc")"; },
      "model.merges[18] \"abc\" must be two tokens separated by one space");
  with(
      "merge with two spaces", [](Fixture& f) { f.extra_merges = R"(, "a b c")"; }, "separated by one space");
  with(
      "merge number", [](Fixture& f) { f.extra_merges = ", 5"; },
      "model.merges[18] must be a \"left right\" string or a [\"left\", \"right\"] pair, found the number 5");
  with(
      "merge triple", [](Fixture& f) { f.extra_merges = R"(, ["a", "b", "c"])"; }, "pair, found an array");
  with(
      "duplicate merge", [](Fixture& f) { f.extra_merges = R"(, "h e")"; },
      "model.merges[18] (\"h\" \"e\") repeats model.merges[1]");
  with(
      "added_tokens object", [](Fixture& f) { f.added_tokens = "{}"; }, "added_tokens must be an array");
  with(
      "added token not object", [](Fixture& f) { f.added_tokens = "[1]"; },
      "added_tokens[0] must be an object");
  with(
      "added token without id", [](Fixture& f) { f.added_tokens = R"([{"content": "<x>"}])"; },
      "added_tokens[0].id must be an integer from 0 to 2147483646, found nothing");
  with(
      "added token negative id", [](Fixture& f) { f.added_tokens = R"([{"id": -3, "content": "<x>"}])"; },
      "added_tokens[0].id must be an integer");
  with(
      "added token empty", [](Fixture& f) { f.added_tokens = R"([{"id": 275, "content": ""}])"; },
      "added_tokens[0].content must be a non-empty string");
  with(
      "added token flag",
      [](Fixture& f) { f.added_tokens = R"([{"id": 275, "content": "<x>", "lstrip": "no"}])"; },
      "added_tokens[0].lstrip must be true or false");
  with(
      "added token twice",
      [](Fixture& f) {
        f.added_tokens = R"([{"id": 275, "content": "<x>"}, {"id": 276, "content": "<x>"}])";
      },
      "added_tokens[1]: content \"<x>\" repeats added_tokens[0]");
  with(
      "added ids shared",
      [](Fixture& f) {
        f.added_tokens = R"([{"id": 275, "content": "<x>"}, {"id": 275, "content": "<y>"}])";
      },
      "added_tokens[1]: id 275 is also the id of added_tokens[0]");
  with(
      "added id differs from vocab",
      [](Fixture& f) { f.added_tokens = R"([{"id": 3, "content": "<|endoftext|>"}])"; },
      "added_tokens[0] (\"<|endoftext|>\") has id 3 but model.vocab gives it id 274");
  with(
      "added id not the next", [](Fixture& f) { f.added_tokens = R"([{"id": 300, "content": "<pad>"}])"; },
      "added_tokens[0] (\"<pad>\") has id 300, but Hugging Face tokenizers would give it id 275");
  return cases;
}

TEST(Tokenizer, RejectsBadFilesWithNamedErrors) {
  for (const BadCase& bad : bad_cases()) {
    Tokenizer t;
    std::string error;
    EXPECT_FALSE(Tokenizer::from_json(bad.json, t, error)) << bad.name;
    EXPECT_EQ(error.rfind("tokenizer.json: ", 0), 0u) << bad.name << ": " << error;
    EXPECT_NE(error.find(bad.message), std::string::npos) << bad.name << ": " << error;
    EXPECT_EQ(t.vocab_size(), 0u) << bad.name;
  }
}

// The tables' memory is counted before they are built: a limit below it is
// refused with both sizes; at the count it loads.
TEST(Tokenizer, RefusesTablesThatWouldNotFitInTheMemoryGiven) {
  const std::string json = Fixture().json();
  Tokenizer t;
  std::string error;
  ASSERT_FALSE(Tokenizer::from_json(json, t, error, 1000));
  EXPECT_EQ(t.vocab_size(), 0u);
  const std::string start = "tokenizer.json: loading it needs about ";
  ASSERT_EQ(error.rfind(start, 0), 0u) << error;
  EXPECT_NE(
      error.find(" bytes of memory (model.vocab 275 entries, model.merges 18, added_tokens 1), more than "
                 "the 1000 bytes available"),
      std::string::npos)
      << error;
  const std::uint64_t needed = std::stoull(error.substr(start.size()));
  EXPECT_FALSE(Tokenizer::from_json(json, t, error, needed - 1));
  EXPECT_TRUE(Tokenizer::from_json(json, t, error, needed)) << error;
  EXPECT_EQ(t.vocab_size(), 275u);
}

// Whitespace is in no table and no tree: a padded file needs what the plain one does.
TEST(Tokenizer, WhitespaceIsNotCountedAsMemory) {
  const std::string json = Fixture().json();
  std::string padded = json;
  padded.insert(padded.find("\"model\""), std::string(1 << 20, ' '));
  padded += std::string(1 << 20, '\n');
  Tokenizer t;
  std::string plain_error, padded_error;
  EXPECT_FALSE(Tokenizer::from_json(json, t, plain_error, 1));
  EXPECT_FALSE(Tokenizer::from_json(padded, t, padded_error, 1));
  EXPECT_EQ(plain_error, padded_error);
  EXPECT_TRUE(Tokenizer::from_json(padded, t, padded_error)) << padded_error;
}

TEST(Tokenizer, LongNamesInErrorsAreCut) {
  Fixture fixture;
  fixture.extra_vocab = ", \"" + std::string(1000, 'x') + " \": 300";
  Tokenizer t;
  std::string error;
  EXPECT_FALSE(Tokenizer::from_json(fixture.json(), t, error));
  EXPECT_LT(error.size(), 200u) << error;
  EXPECT_NE(error.find("xxx...\""), std::string::npos) << error;
}

}  // namespace
}  // namespace embeddings
