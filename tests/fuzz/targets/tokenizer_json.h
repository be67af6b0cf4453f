// Fuzz target: Tokenizer::from_json on arbitrary text, then the loaded
// tokenizer (if any) on a few texts.
//
// Properties checked besides "no crash, no leak, no UB":
// - a refusal has a message, which leaves naming the file to the caller;
// - every id that encode() gives exists, decode() takes it back, and the
//   decoded text and every display form are valid UTF-8;
// - encode() under a limit agrees with encode() without one (check_limit);
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

// encode() under a limit against encode() without one. A text encode()
// refuses may be refused under the limit too, or called too long: the limit
// is checked as the pieces come, so it can be passed before the piece that
// is refused is reached (that early stop is the limit's point).
inline void check_limit(const Tokenizer& tokenizer, std::string_view text, std::size_t limit,
                        Findings& findings) {
  using Encoded = Tokenizer::Encoded;
  std::vector<std::int32_t> whole, limited;
  std::string error;
  Tokenizer::EncodeOptions options;
  const Encoded unlimited = tokenizer.encode(text, options, whole, error);
  if (unlimited == Encoded::TooManyTokens)
    return findings.fail("encode() with no limit said too many tokens");
  options.max_tokens = limit;
  const Encoded result = tokenizer.encode(text, options, limited, error);
  const auto said = [&] {
    return "encode(max_tokens " + std::to_string(limit) + ") said " +
           (result == Encoded::Ok              ? "ok"
            : result == Encoded::TooManyTokens ? "too many"
                                               : "refused");
  };
  if (unlimited == Encoded::Refused) {
    if (result == Encoded::Ok) findings.fail(said() + " for a text encode() refuses");
    return;
  }
  const Encoded expected = whole.size() <= limit ? Encoded::Ok : Encoded::TooManyTokens;
  if (result != expected) return findings.fail(said() + " for " + std::to_string(whole.size()) + " tokens");
  if (result == Encoded::Ok && limited != whole)
    return findings.fail(said() + " with other ids than encode()");
  // The convenience form says the same.
  const bool fits = tokenizer.encode_at_most(text, limit, limited);
  if (fits != (result == Encoded::Ok) || (fits && limited != whole))
    findings.fail("encode_at_most(" + std::to_string(limit) + ") disagrees with encode()");
}

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
  check_limit(tokenizer, text, limit, findings);
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
