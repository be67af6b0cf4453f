// Fuzz target: Tokenizer::from_json on arbitrary text, then the loaded
// tokenizer (if any) on a few texts.
//
// Properties checked besides "no crash, no leak, no UB":
// - a refusal has a message, which leaves naming the file to the caller;
// - every id that encode() gives exists, decode() takes it back, and the
//   decoded text and every display form are valid UTF-8;
// - encode_at_most() agrees with encode();
// - decode_bytes(encode(s)) == s when the file makes that promise
//   (Tokenizer::round_trips(): every byte has a token, no added tokens, no
//   normalizer, no pre-tokenizer stage that adds or drops text).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/text/tokenizer.h"
#include "findings.h"

namespace embeddings::fuzz {

// Checks one text against a loaded tokenizer; shared with tokenizer_encode.h.
inline void check_encoding(const Tokenizer& tokenizer, std::string_view text, bool round_trips,
                           std::size_t limit, Findings& findings) {
  const std::vector<std::int32_t> ids = tokenizer.encode(text);
  for (const std::int32_t id : ids) {
    if (!tokenizer.has_id(id) || id < 0 || static_cast<std::size_t>(id) >= tokenizer.vocab_size())
      return findings.fail("encode gave id " + std::to_string(id) + ", which is not in the vocabulary");
  }
  std::string decoded, bytes, error;
  if (!tokenizer.decode(ids.data(), ids.size(), decoded, error))
    return findings.fail("decode refused encode's ids: " + error);
  if (!utf8::is_valid(decoded)) return findings.fail("decode gave invalid UTF-8");
  if (!tokenizer.decode_bytes(ids.data(), ids.size(), bytes, error))
    return findings.fail("decode_bytes refused encode's ids: " + error);
  if (round_trips && bytes != text) return findings.fail("decode_bytes(encode(s)) != s");
  std::vector<std::int32_t> limited;
  const bool fits = tokenizer.encode_at_most(text, limit, limited);
  if (fits != (ids.size() <= limit))
    return findings.fail("encode_at_most(" + std::to_string(limit) + ") says " +
                         (fits ? "fits" : "too long") + " for " + std::to_string(ids.size()) + " tokens");
  if (fits && limited != ids) return findings.fail("encode_at_most gave other ids than encode");
}

inline void tokenizer_json_target(const std::uint8_t* data, std::size_t size, Findings& findings) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Tokenizer tokenizer;
  std::string error;
  if (!Tokenizer::from_json(text, tokenizer, error)) {
    if (error.empty() || error.rfind("tokenizer.json", 0) == 0)
      findings.fail("a refusal with no message, or naming the file: " + error);
    if (tokenizer.vocab_size() != 0) findings.fail("a failed load changed the tokenizer");
    return;
  }
  if (tokenizer.token_count() > tokenizer.vocab_size()) return findings.fail("more tokens than vocab_size");

  // Display forms of the first ids and the last one.
  const std::size_t vocab = tokenizer.vocab_size();
  for (std::size_t i = 0; i < std::min<std::size_t>(vocab, 600); ++i) {
    const auto id = static_cast<std::int32_t>(i == 599 ? vocab - 1 : i);
    const std::string display = tokenizer.token_text(id);
    if (!utf8::is_valid(display)) return findings.fail("token_text(" + std::to_string(id) + ") is not UTF-8");
    if (tokenizer.has_id(id) && tokenizer.token_bytes(id).size() > tokenizer.max_token_bytes())
      return findings.fail("a token longer than max_token_bytes()");
    if (tokenizer.has_id(id) && tokenizer.token_id(display) < 0)
      return findings.fail("token_id(token_text(id)) finds nothing for id " + std::to_string(id));
  }

  const bool round_trips = tokenizer.round_trips();
  const std::string_view samples[] = {"",
                                      "Hello, world! It's 2024.",
                                      " \n\t  x",
                                      "\xF0\x9F\x99\x82 caf\xC3\xA9",
                                      "<|endoftext|>",
                                      "\xFF\xFE\x80",
                                      text.substr(0, 200)};
  for (const std::string_view sample : samples) {
    check_encoding(tokenizer, sample, round_trips, sample.size() % 7, findings);
    if (!findings.ok()) return;
  }
}

}  // namespace embeddings::fuzz
