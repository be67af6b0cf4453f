// A small GPT-2-style tokenizer.json for the tokenizer's tests, every field
// a JSON fragment that a test can replace.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "embeddings/formats/json.h"
#include "embeddings/text/byte_level.h"
#include "embeddings/text/tokenizer.h"

namespace embeddings::test_fixtures {

using Ids = std::vector<std::int32_t>;

// The 256 byte tokens (id = byte value),
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

inline std::string decode(const Tokenizer& tokenizer, const Ids& ids) {
  std::string text, error;
  EXPECT_TRUE(tokenizer.decode(ids.data(), ids.size(), text, error)) << error;
  return text;
}

}  // namespace embeddings::test_fixtures
