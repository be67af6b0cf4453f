// Reading one component from its JSON and running it, as the tokenizer
// does: what each component's tests (beside it, in the folders that mirror
// cpp/src/text) are written with.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/text/pipeline.h"
#include "embeddings/text/tokenizer.h"

namespace embeddings::component_testing {

using Strings = std::vector<std::string>;
using Ids = std::vector<std::int32_t>;

// The text through the normalizer(s) `json` describes.
inline std::string normalized(std::string_view json, std::string text, std::size_t budget = kNoLimit) {
  Normalizers stages;
  std::string error;
  EXPECT_TRUE(read_normalizers(json, stages, error)) << error;
  StageScratch scratch;
  TextBudget limit(budget);
  if (!run_normalizers(stages, text, scratch, limit)) return "(refused)";
  return text;
}

// The pieces the pre-tokenizer(s) `json` describes cut `text` into (`at_start`: the text begins the input).
inline Strings pieces(std::string_view json, std::string_view text, bool at_start = true,
                      std::size_t budget = kNoLimit) {
  PreTokenizers stages;
  std::string error;
  EXPECT_TRUE(read_pre_tokenizers(json, stages, error)) << error;
  struct Collect : PieceSink {
    Strings out;
    void piece(std::string_view piece, bool) override { out.emplace_back(piece); }
  } collect;
  PreTokenizeScratch levels;
  StageScratch scratch;
  TextBudget limit(budget);
  run_pre_tokenizers(stages, text, at_start, levels, scratch, limit, collect);
  if (limit.refused()) collect.out.emplace_back("(refused)");
  return collect.out;
}

// The tokens through the decoder(s) `json` describes (tokenizers' decode_chain).
inline Strings decoded(std::string_view json, Strings tokens, std::size_t budget = kNoLimit) {
  Decoders stages;
  std::string error;
  EXPECT_TRUE(read_decoders(json, stages, error)) << error;
  StageScratch scratch;
  TextBudget limit(budget);
  if (!run_decoders(stages, tokens, scratch, limit)) return {"(refused)"};
  return tokens;
}

// The encodings through the post-processor(s) `json` describes, merged.
inline Ids processed(std::string_view json, Encodings encodings, bool add_special_tokens) {
  PostProcessors stages;
  std::string error;
  EXPECT_TRUE(read_post_processors(json, stages, error)) << error;
  if (!run_post_processors(stages, encodings, add_special_tokens, error)) return {-1};
  Ids ids;
  for (const auto& encoding : encodings) ids.insert(ids.end(), encoding.begin(), encoding.end());
  return ids;
}

// Why a stage's JSON is refused ("" if it is not).
template <typename List>
std::string refusal(bool (*read)(std::string_view, List&, std::string&), std::string_view json) {
  List stages;
  std::string error;
  return read(json, stages, error) ? std::string() : error;
}

// A whole tokenizer.json around a model and the other stages (JSON fragments).
struct Json {
  std::string model;
  std::string normalizer = "null", pre_tokenizer = "null", post_processor = "null", decoder = "null";
  std::string added_tokens = "[]";
  std::string text() const {
    return R"({"version": "1.0", "truncation": null, "padding": null, "added_tokens": )" + added_tokens +
           R"(, "normalizer": )" + normalizer + R"(, "pre_tokenizer": )" + pre_tokenizer +
           R"(, "post_processor": )" + post_processor + R"(, "decoder": )" + decoder + R"(, "model": )" +
           model + "}";
  }
  Tokenizer load() const {
    Tokenizer tokenizer;
    std::string error;
    EXPECT_TRUE(Tokenizer::from_json(text(), tokenizer, error)) << error;
    return tokenizer;
  }
  std::string refusal() const {
    Tokenizer tokenizer;
    std::string error;
    return Tokenizer::from_json(text(), tokenizer, error) ? std::string() : error;
  }
};

// encode() with its options: the ids, or "refused: why" / "too many".
struct Encoded {
  Ids ids;
  std::string error;
  bool operator==(const Encoded& other) const { return ids == other.ids && error == other.error; }
};
inline std::ostream& operator<<(std::ostream& out, const Encoded& encoded) {
  out << "{";
  for (const auto id : encoded.ids) out << id << " ";
  return out << encoded.error << "}";
}
// (`offsets`: keeping them, which takes the aligned paths.)
inline Encoded encode(const Tokenizer& tokenizer, std::string_view text, bool add_special_tokens = false,
                      const std::string_view* pair = nullptr, bool offsets = false) {
  Tokenizer::EncodeOptions options;
  options.add_special_tokens = add_special_tokens;
  options.pair = pair;
  std::vector<TokenOffsets> kept;
  if (offsets) options.offsets = &kept;
  Encoded out;
  const Tokenizer::Encoded result = tokenizer.encode(text, options, out.ids, out.error);
  if (result == Tokenizer::Encoded::Refused) out.error = "refused: " + out.error;
  return out;
}
inline Encoded ids(Ids list) { return Encoded{std::move(list), ""}; }

inline std::string decode(const Tokenizer& tokenizer, const Ids& list, bool skip_special_tokens = false) {
  Tokenizer::DecodeOptions options;
  options.skip_special_tokens = skip_special_tokens;
  std::string text, error;
  if (!tokenizer.decode(list.data(), list.size(), options, text, error)) return "refused: " + error;
  return text;
}

}  // namespace embeddings::component_testing
