// Loading tokenizer.json: what is refused, with which message, and the
// memory the loader counts before it builds its tables.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "embeddings/text/tokenizer.h"
#include "tokenizer_fixture.h"

namespace embeddings::tokenizer_json_test {

using test_fixtures::decode;
using test_fixtures::Fixture;
using test_fixtures::Ids;

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

// round_trips(): the promise decode_bytes(encode(s)) == s, which the fuzz
// target holds the tokenizer to, is made only where nothing adds or drops text.
TEST(Tokenizer, RoundTripsOnlyWhereNothingAddsOrDropsText) {
  Fixture plain;
  plain.added_tokens = "[]";
  EXPECT_TRUE(plain.load().round_trips());
  const std::string byte_level = R"({"type": "ByteLevel", "add_prefix_space": false, "use_regex": false})";
  const auto with = [&](const char* normalizer, const std::string& stage) {
    Fixture fixture;
    fixture.added_tokens = "[]";
    fixture.normalizer = normalizer;
    fixture.pre_tokenizer = R"({"type": "Sequence", "pretokenizers": [)" + stage + ", " + byte_level + "]}";
    return fixture.load().round_trips();
  };
  EXPECT_TRUE(with("null", R"({"type": "Digits", "individual_digits": true})"));
  EXPECT_TRUE(with("null", R"({"type": "Split", "pattern": {"String": " "}, "behavior": "Isolated"})"));
  EXPECT_FALSE(with("null", R"({"type": "Split", "pattern": {"String": " "}, "behavior": "Removed"})"));
  EXPECT_FALSE(with("null", R"({"type": "WhitespaceSplit"})"));
  EXPECT_FALSE(with("null", R"({"type": "Metaspace", "replacement": "_"})"));
  EXPECT_FALSE(with(R"({"type": "Lowercase"})", R"({"type": "Digits"})"));
  Fixture added;
  EXPECT_FALSE(added.load().round_trips());
  Fixture fallback;
  fallback.added_tokens = "[]";
  fallback.byte_fallback = "true";
  EXPECT_FALSE(fallback.load().round_trips());
  // And where it is made, it holds.
  const Tokenizer t = plain.load();
  for (const std::string text : {"the girl", "\xFF\xFEx \xC3", " \n\t caf\xC3\xA9"}) {
    std::string bytes, error;
    const Ids ids = t.encode(text);
    ASSERT_TRUE(t.decode_bytes(ids.data(), ids.size(), bytes, error)) << error;
    EXPECT_EQ(bytes, text);
  }
}

struct BadCase {
  const char* name;
  std::string json;
  const char* message;  // Expected part of the error.
};

using BadCases = std::vector<BadCase>;

// A case: the fixture as `change` leaves it.
template <typename Change>
void with(BadCases& cases, const char* name, Change change, const char* message) {
  Fixture fixture;
  change(fixture);
  cases.push_back({name, fixture.json(), message});
}

void stage_cases(BadCases& cases) {
  with(
      cases, "normalizer", [](Fixture& f) { f.normalizer = R"({"type": "Unidecode"})"; },
      "normalizer must be null or one of NFC, NFD, NFKC, NFKD, Lowercase, Strip, Prepend, Replace, ");
  with(
      cases, "normalizer kind", [](Fixture& f) { f.normalizer = R"({"type": "Unidecode"})"; },
      "Sequence, found type \"Unidecode\" (not supported)");
  with(
      cases, "normalizer in a Sequence",
      [](Fixture& f) {
        f.normalizer = R"({"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Unidecode"}]})";
      },
      "normalizer.normalizers[1] must be null or one of");
  with(
      cases, "Replace without content",
      [](Fixture& f) { f.normalizer = R"({"type": "Replace", "pattern": {"String": " "}})"; },
      "normalizer.content must be a string, found nothing");
  with(
      cases, "truncation", [](Fixture& f) { f.truncation = R"({"max_length": 8})"; },
      "truncation must be null");
  with(
      cases, "padding", [](Fixture& f) { f.padding = "{}"; }, "padding must be null");
  with(
      cases, "stage after ByteLevel",
      [](Fixture& f) {
        f.pre_tokenizer =
            R"({"type": "Sequence", "pretokenizers": [{"type": "ByteLevel", "add_prefix_space": false}, )"
            R"({"type": "Digits"}]})";
      },
      "pre_tokenizer: a stage after ByteLevel (not supported)");
  with(
      cases, "unknown pre_tokenizer", [](Fixture& f) { f.pre_tokenizer = R"({"type": "Scripts"})"; },
      "pre_tokenizer must be null or one of ByteLevel, Split, Metaspace, Whitespace, WhitespaceSplit, "
      "Digits, ");
  with(
      cases, "metaspace scheme",
      [](Fixture& f) {
        f.pre_tokenizer = R"({"type": "Metaspace", "replacement": "_", "prepend_scheme": "often"})";
      },
      "pre_tokenizer.prepend_scheme must be \"always\", \"first\" or \"never\", found the string \"often\"");
  with(
      cases, "metaspace replacement",
      [](Fixture& f) { f.pre_tokenizer = R"({"type": "Metaspace", "replacement": "ab"})"; },
      "pre_tokenizer.replacement must be one character, found the string \"ab\"");
  with(
      cases, "metaspace add_prefix_space",
      [](Fixture& f) {
        f.pre_tokenizer = R"({"type": "Metaspace", "replacement": "_", "add_prefix_space": false})";
      },
      "pre_tokenizer.add_prefix_space false does not match prepend_scheme");
  with(
      cases, "no add_prefix_space", [](Fixture& f) { f.pre_tokenizer = R"({"type": "ByteLevel"})"; },
      "pre_tokenizer.add_prefix_space must be true or false, found nothing");
  with(
      cases, "use_regex string",
      [](Fixture& f) {
        f.pre_tokenizer = R"({"type": "ByteLevel", "add_prefix_space": false, "use_regex": "y"})";
      },
      "pre_tokenizer.use_regex must be true or false, found the string \"y\"");
  with(
      cases, "decoder", [](Fixture& f) { f.decoder = R"({"type": "Echo"})"; },
      "decoder must be null or one of ByteLevel, Metaspace, ByteFallback, Fuse, Strip, Replace, WordPiece, "
      "BPEDecoder, CTC or Sequence, found type \"Echo\" (not supported)");
  with(
      cases, "strip decoder count",
      [](Fixture& f) {
        f.decoder =
            R"({"type": "Sequence", "decoders": [{"type": "Strip", "content": " ", "start": -1, "stop": 0}]})";
      },
      "decoder.decoders[0].start must be a count from 0 to 2^30, found the number -1");
}

void more_stage_cases(BadCases& cases) {
  with(
      cases, "post_processor",
      [](Fixture& f) { f.post_processor = R"({"type": "Sequence", "processors": [{"type": "Echo"}]})"; },
      "post_processor.processors[0] must be null or one of ByteLevel, TemplateProcessing, BertProcessing, "
      "RobertaProcessing or Sequence, found type \"Echo\" (not supported)");
  with(
      cases, "model type", [](Fixture& f) { f.model_type = R"("Ngram")"; },
      "model.type must be \"BPE\", \"WordPiece\", \"WordLevel\" or \"Unigram\", found the string \"Ngram\" "
      "(not "
      "supported)");
  with(
      cases, "dropout", [](Fixture& f) { f.dropout = "0.1"; },
      "model.dropout must be null, found the number 0.1");
  with(
      cases, "byte_fallback", [](Fixture& f) { f.byte_fallback = "1"; },
      "model.byte_fallback must be true or false");
  with(
      cases, "fuse_unk type", [](Fixture& f) { f.fuse_unk = "1"; }, "model.fuse_unk must be true or false");
  with(
      cases, "prefix", [](Fixture& f) { f.prefix = R"("\u2581")"; },
      "model.continuing_subword_prefix \"\u2581\" is not a byte-level string");
  with(
      cases, "suffix", [](Fixture& f) { f.suffix = "5"; },
      "model.end_of_word_suffix must be null or a string, found the number 5");
  with(
      cases, "unk type", [](Fixture& f) { f.unk_token = "5"; }, "model.unk_token must be null or a string");
  with(
      cases, "unk missing", [](Fixture& f) { f.unk_token = R"("<unk>")"; },
      "model.unk_token \"<unk>\" is not in model.vocab");
  with(
      cases, "vocab array", [](Fixture& f) { f.vocab = "[]"; },
      "model.vocab must be an object, found an array");
  with(
      cases, "negative id", [](Fixture& f) { f.extra_vocab = R"(, "zz": -1)"; },
      "model.vocab[\"zz\"] must be an integer id from 0 to 2147483646, found the number -1");
  with(
      cases, "huge id", [](Fixture& f) { f.extra_vocab = R"(, "zz": 99999999999999999999)"; },
      "model.vocab[\"zz\"] must be an integer id");
  with(
      cases, "id too big for int32", [](Fixture& f) { f.extra_vocab = R"(, "zz": 2147483647)"; },
      "model.vocab[\"zz\"] must be an integer id");
}

void model_cases(BadCases& cases) {
  with(
      cases, "fractional id", [](Fixture& f) { f.extra_vocab = R"(, "zz": 1.5)"; }, "found the number 1.5");
  with(
      cases, "string id", [](Fixture& f) { f.extra_vocab = R"(, "zz": "5")"; }, "found the string \"5\"");
  with(
      cases, "duplicate id", [](Fixture& f) { f.extra_vocab = R"(, "zz": 38)"; },
      "model.vocab: tokens \"&\" and \"zz\" both have id 38");
  with(
      cases, "empty token", [](Fixture& f) { f.extra_vocab = R"(, "": 300)"; },
      "model.vocab has an empty token");
  with(
      cases, "token twice", [](Fixture& f) { f.extra_vocab = R"(, "a": 300)"; },
      "model.vocab has the token \"a\" twice");
  with(
      cases, "duplicate key in model", [](Fixture& f) { f.ignore_merges = R"(false, "fuse_unk": false)"; },
      "duplicate key \"fuse_unk\"");
  with(
      cases, "not byte-level", [](Fixture& f) { f.extra_vocab = R"(, "a b": 300)"; },
      "model.vocab: token \"a b\" is not a byte-level string");
  with(
      cases, "no merges", [](Fixture& f) { f.merges = "null"; }, "model.merges must be an array, found null");
  with(
      cases, "merge with unknown token", [](Fixture& f) { f.extra_merges = R"(, "zz y")"; },
      "model.merges[18]: \"zz\" is not in model.vocab");
  with(
      cases, "merge result unknown", [](Fixture& f) { f.extra_merges = R"(, "q q")"; },
      "model.merges[18]: the merged token \"qq\" is not in model.vocab");
  with(
      cases, "merge without space", [](Fixture& f) { f.extra_merges = R"(, "abc")"; },
      "model.merges[18] \"abc\" must be two tokens separated by one space");
  with(
      cases, "merge with two spaces", [](Fixture& f) { f.extra_merges = R"(, "a b c")"; },
      "separated by one space");
  with(
      cases, "merge number", [](Fixture& f) { f.extra_merges = ", 5"; },
      "model.merges[18] must be a \"left right\" string or a [\"left\", \"right\"] pair, found the number 5");
  with(
      cases, "merge triple", [](Fixture& f) { f.extra_merges = R"(, ["a", "b", "c"])"; },
      "pair, found an array");
  with(
      cases, "duplicate merge", [](Fixture& f) { f.extra_merges = R"(, "h e")"; },
      "model.merges[18] (\"h\" \"e\") repeats model.merges[1]");
}

void merge_and_added_token_cases(BadCases& cases) {
  // Merges are looked up in batches (tokenizer_json_tables.cpp): the first
  // problem is still the one named, within a batch and past one, and a
  // merge's text in the message is read again from the file.
  const auto sixty_merges = [](Fixture& f) {
    for (char a = 'b'; a <= 'g'; ++a) {
      for (char b = 'b'; b <= 'k'; ++b) {
        f.extra_vocab +=
            std::string(", \"") + a + b + "\": " + std::to_string(300 + (a - 'b') * 10 + (b - 'b'));
        f.extra_merges += std::string(", \"") + a + " " + b + "\"";
      }
    }
  };
  with(
      cases, "two problems in merges", [](Fixture& f) { f.extra_merges = R"(, "zz y", "abc")"; },
      "model.merges[18]: \"zz\" is not in model.vocab");
  with(
      cases, "a malformed merge after an unknown token",
      [](Fixture& f) {
        f.extra_vocab = R"(, "bc": 300)";
        f.extra_merges = R"(, "b c", "q zz", 5)";
      },
      "model.merges[19]: \"zz\" is not in model.vocab");
  with(
      cases, "unknown token past a batch",
      [&](Fixture& f) {
        sixty_merges(f);
        f.extra_merges += R"(, "\u0071 \u007a\u007a")";
      },
      "model.merges[78]: \"zz\" is not in model.vocab");
  with(
      cases, "duplicate past a batch",
      [&](Fixture& f) {
        sixty_merges(f);
        f.extra_merges += R"(, ["\u0068", "e"])";
      },
      "model.merges[78] (\"h\" \"e\") repeats model.merges[1]");
  with(
      cases, "added_tokens object", [](Fixture& f) { f.added_tokens = "{}"; },
      "added_tokens must be an array");
  with(
      cases, "added token not object", [](Fixture& f) { f.added_tokens = "[1]"; },
      "added_tokens[0] must be an object");
  with(
      cases, "added token without id", [](Fixture& f) { f.added_tokens = R"([{"content": "<x>"}])"; },
      "added_tokens[0].id must be an integer from 0 to 2147483646, found nothing");
  with(
      cases, "added token negative id",
      [](Fixture& f) { f.added_tokens = R"([{"id": -3, "content": "<x>"}])"; },
      "added_tokens[0].id must be an integer");
  with(
      cases, "added token empty", [](Fixture& f) { f.added_tokens = R"([{"id": 275, "content": ""}])"; },
      "added_tokens[0].content must be a non-empty string");
  with(
      cases, "added token flag",
      [](Fixture& f) { f.added_tokens = R"([{"id": 275, "content": "<x>", "lstrip": "no"}])"; },
      "added_tokens[0].lstrip must be true or false");
  with(
      cases, "added token twice",
      [](Fixture& f) {
        f.added_tokens = R"([{"id": 275, "content": "<x>"}, {"id": 276, "content": "<x>"}])";
      },
      "added_tokens[1]: content \"<x>\" repeats added_tokens[0]");
  with(
      cases, "added ids shared",
      [](Fixture& f) {
        f.added_tokens = R"([{"id": 275, "content": "<x>"}, {"id": 275, "content": "<y>"}])";
      },
      "added_tokens[1]: id 275 is also the id of added_tokens[0]");
  with(
      cases, "added id differs from vocab",
      [](Fixture& f) { f.added_tokens = R"([{"id": 3, "content": "<|endoftext|>"}])"; },
      "added_tokens[0] (\"<|endoftext|>\") has id 3 but model.vocab gives it id 274");
  with(
      cases, "added id not the next",
      [](Fixture& f) { f.added_tokens = R"([{"id": 300, "content": "<pad>"}])"; },
      "added_tokens[0] (\"<pad>\") has id 300, but Hugging Face tokenizers would give it id 275");
}

BadCases bad_cases() {
  BadCases cases;
  cases.push_back({"not json", "{", "expected a string key at byte 1"});
  cases.push_back({"array", "[]", "the top level must be an object, found an array"});
  stage_cases(cases);
  more_stage_cases(cases);
  model_cases(cases);
  merge_and_added_token_cases(cases);
  return cases;
}

TEST(Tokenizer, RejectsBadFilesWithNamedErrors) {
  for (const BadCase& bad : bad_cases()) {
    Tokenizer t;
    std::string error;
    EXPECT_FALSE(Tokenizer::from_json(bad.json, t, error)) << bad.name;
    EXPECT_EQ(error.find("tokenizer.json:"), std::string::npos)
        << bad.name << ": the caller names the file: " << error;
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
  const std::string start = "loading it needs about ";
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

}  // namespace embeddings::tokenizer_json_test
