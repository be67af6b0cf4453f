// Cutting added tokens out of a text, in both passes (added_tokens.h).
#include "embeddings/text/added_tokens.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace embeddings::added_tokens_test {

using Ids = std::vector<std::int32_t>;

struct Recorder : AddedTokenSink {
  std::vector<std::string> parts;    // Gaps as text, tokens as "#id".
  std::vector<std::string> matches;  // The text each token was cut from.
  std::size_t stop_after = static_cast<std::size_t>(-1);
  void gap(std::string_view text) override { parts.emplace_back(text); }
  void token(std::int32_t id, std::string_view matched) override {
    parts.push_back("#" + std::to_string(id));
    matches.emplace_back(matched);
  }
  bool stopped() const override { return parts.size() >= stop_after; }
};

AddedToken added(std::int32_t id, std::string content, bool normalized, bool lstrip = false,
                 bool rstrip = false, bool single_word = false) {
  AddedToken token;
  token.id = id;
  token.content = std::move(content);
  token.normalized = normalized;
  token.lstrip = lstrip;
  token.rstrip = rstrip;
  token.single_word = single_word;
  return token;
}

// Both passes, as the tokenizer runs them (with no normalizer in between).
struct BothPasses : Recorder {
  const AddedVocabulary* vocabulary = nullptr;
  bool raw = true;
  void gap(std::string_view text) override {
    if (!raw) return Recorder::gap(text);
    BothPasses normalized;
    normalized.raw = false;
    normalized.stop_after = stop_after - std::min(stop_after, parts.size());
    vocabulary->split(text, AddedVocabulary::Pass::Normalized, normalized);
    parts.insert(parts.end(), normalized.parts.begin(), normalized.parts.end());
  }
};

std::vector<std::string> split(const AddedVocabulary& vocabulary, std::string_view text,
                               std::size_t stop_after = static_cast<std::size_t>(-1)) {
  BothPasses recorder;
  recorder.vocabulary = &vocabulary;
  recorder.stop_after = stop_after;
  vocabulary.split(text, AddedVocabulary::Pass::Raw, recorder);
  return recorder.parts;
}

TEST(AddedVocabulary, SplitsAsHuggingFaceDoes) {
  using Parts = std::vector<std::string>;
  AddedVocabulary none;
  none.build({});
  EXPECT_EQ(split(none, "a b"), Parts({"a b"}));

  AddedVocabulary vocabulary;
  vocabulary.build({added(1, "<a>", false, true, false), added(2, "<ab>", false, false, true),
                    added(3, "xyz", true), added(4, "yz!", false),
                    added(5, "cat", false, false, false, true)});
  EXPECT_EQ(split(vocabulary, "x  <a>  y"), Parts({"x", "#1", "  y"}));   // lstrip takes the spaces before
  EXPECT_EQ(split(vocabulary, "x  <ab>  y"), Parts({"x  ", "#2", "y"}));  // rstrip the spaces after
  EXPECT_EQ(split(vocabulary, "xyz!"), Parts({"x", "#4"}));               // normalized false first
  EXPECT_EQ(split(vocabulary, "xyz"), Parts({"#3"}));
  EXPECT_EQ(split(vocabulary, "a cat."), Parts({"a ", "#5", "."}));  // single_word
  EXPECT_EQ(split(vocabulary, "cats"), Parts({"cats"}));
  EXPECT_EQ(split(vocabulary, "<a><a><a>", 2), Parts({"#1", "#1"}));  // the sink stops it
}

// What a token is cut from is its whole match, the whitespace lstrip and
// rstrip take included (the offsets Hugging Face gives it).
TEST(AddedVocabulary, SaysWhatEachTokenWasCutFrom) {
  AddedVocabulary vocabulary;
  vocabulary.build({added(1, "<a>", false, true, false), added(2, "<ab>", false, false, true)});
  Recorder recorder;
  vocabulary.split("x  <a>  <ab>\t y", AddedVocabulary::Pass::Raw, recorder);
  EXPECT_EQ(recorder.matches, std::vector<std::string>({"  <a>", "<ab>\t "}));
}

}  // namespace embeddings::added_tokens_test
