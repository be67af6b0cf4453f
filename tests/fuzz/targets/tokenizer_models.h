// Fuzz target: Unigram and WordPiece tokenizer.json files made from the
// input, whose searches walk a trie of the vocabulary (token_trie.h), held
// to plain references that look every piece up in a map.
//
// The input: a settings byte (bit 0: WordPiece, else Unigram; bit 1:
// Unigram's byte_fallback, WordPiece's "##" prefix; bit 2: a WhitespaceSplit
// pre-tokenizer, else none; bit 3: an unknown token), WordPiece's
// max_input_chars_per_word (a byte, times 4), then the tokens, one a line,
// until an empty line, then the text. Tokens that are empty, repeated or not
// UTF-8 are left out, so the file loads.
//
// Properties checked besides "no crash, no leak, no UB" (and those of
// tokenizer_json.h's check_encoding):
// - the file loads;
// - with no pre-tokenizer, the ids are the reference's: WordPiece's, the
//   Rust library's loop (every shorter end from each start, looked up);
//   Unigram's, a Viterbi over every substring looked up in a map, with the
//   same ties, unknown runs and byte fallback; or the search refused by
//   name for reading too far (models/trie_walks.h).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/formats/json.h"
#include "embeddings/text/tokenizer.h"
#include "findings.h"
#include "tokenizer_json.h"

namespace embeddings::fuzz {

struct ModelsInput {
  bool word_piece = false, flag = false, split = false, unknown = false;
  std::size_t max_characters = 1;
  std::vector<std::string> tokens;  // Distinct, UTF-8, not empty.
  std::string text;
};

inline ModelsInput models_input(const std::uint8_t* data, std::size_t size) {
  ModelsInput in;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const unsigned settings = size > 0 ? data[0] : 0;
  in.word_piece = settings & 1;
  in.flag = settings & 2;
  in.split = settings & 4;
  in.unknown = settings & 8;
  in.max_characters = 1 + 4 * static_cast<std::size_t>(size > 1 ? data[1] : 0);
  std::set<std::string> seen;
  std::size_t at = std::min<std::size_t>(size, 2);
  while (at < size) {
    const std::size_t end = std::min(bytes.find('\n', at), size);
    const std::string_view line = bytes.substr(at, end - at);
    at = end + 1;
    if (line.empty()) break;
    if (utf8::is_valid(line) && line != "[UNK]" && seen.insert(std::string(line)).second)
      in.tokens.emplace_back(line);
  }
  if (at < size) in.text.assign(bytes.substr(at));
  return in;
}

inline std::string models_json(const ModelsInput& in) {
  std::string vocab;
  const auto quoted = [](std::string_view text) {
    std::string out;
    json::append_quoted(out, text);
    return out;
  };
  std::string model;
  if (in.word_piece) {
    vocab = in.unknown ? R"("[UNK]": 0)" : "";
    for (std::size_t i = 0; i < in.tokens.size(); ++i)
      vocab += (vocab.empty() ? "" : ", ") + quoted(in.tokens[i]) + ": " + std::to_string(i + 1);
    model = R"({"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": )" +
            std::string(in.flag ? R"("##")" : R"("")") +
            ", \"max_input_chars_per_word\": " + std::to_string(in.max_characters) + ", \"vocab\": {" +
            vocab + "}}";
  } else {
    vocab = R"(["[UNK]", -20])";
    for (std::size_t i = 0; i < in.tokens.size(); ++i)
      vocab +=
          ", [" + quoted(in.tokens[i]) + ", " + std::to_string(-1.0 - static_cast<double>(i % 7) / 2) + "]";
    model = R"({"type": "Unigram", "unk_id": )" + std::string(in.unknown ? "0" : "null") +
            ", \"byte_fallback\": " + (in.flag ? "true" : "false") + ", \"vocab\": [" + vocab + "]}";
  }
  return R"({"version": "1.0", "truncation": null, "padding": null, "added_tokens": [], "normalizer": null, )"
         R"("pre_tokenizer": )" +
         std::string(in.split ? R"({"type": "WhitespaceSplit"})" : "null") +
         R"(, "post_processor": null, "decoder": null, "model": )" + model + "}";
}

// The Rust library's WordPiece::tokenize, as written; ids as models_json numbers them.
inline std::vector<std::int32_t> word_piece_reference(const ModelsInput& in, std::string_view word) {
  std::map<std::string, std::int32_t, std::less<>> vocab;
  for (std::size_t i = 0; i < in.tokens.size(); ++i)
    vocab.emplace(in.tokens[i], static_cast<std::int32_t>(i + 1));
  std::vector<std::size_t> starts;
  for (std::size_t pos = 0; pos < word.size();) {
    starts.push_back(pos);
    std::uint32_t code = 0;
    const std::size_t used = utf8::decode(word, pos, code);
    pos += used == 0 ? 1 : used;
  }
  if (starts.size() > in.max_characters) return {in.unknown ? 0 : -1};
  starts.push_back(word.size());
  std::vector<std::int32_t> ids;
  for (std::size_t start = 0; start + 1 < starts.size();) {
    std::size_t end = starts.size() - 1;
    std::int32_t id = -1;
    for (; end > start && id < 0; --end) {
      const std::string unit = (start > 0 && in.flag ? "##" : "") +
                               std::string(word.substr(starts[start], starts[end] - starts[start]));
      const auto it = vocab.find(unit);
      if (it != vocab.end()) id = it->second;
    }
    if (id < 0) return {in.unknown ? 0 : -1};
    ids.push_back(id);
    start = end + 1;
  }
  return ids;
}

// Unigram's Viterbi over every substring, looked up in a map: the lowest
// score less 10 for a character no token starts with, ties to the path found
// first; unknown runs fused, then spelled by a token, by byte fallback, or
// unk. Ids as models_json numbers them; {-1} where the Rust library fails.
inline std::vector<std::int32_t> unigram_reference(const ModelsInput& in, std::string_view piece) {
  std::map<std::string, std::pair<std::int32_t, double>, std::less<>> vocab = {{"[UNK]", {0, -20.0}}};
  double lowest = -20;
  for (std::size_t i = 0; i < in.tokens.size(); ++i) {
    const double score = -1.0 - static_cast<double>(i % 7) / 2;
    vocab.emplace(in.tokens[i], std::make_pair(static_cast<std::int32_t>(i + 1), score));
    lowest = std::min(lowest, score);
  }
  const std::size_t n = piece.size();
  std::vector<double> best(n + 1, 0);
  std::vector<std::int32_t> best_id(n + 1, -2);
  std::vector<std::size_t> from(n + 1, 0);
  const auto offer = [&](std::size_t start, std::size_t end, std::int32_t id, double score) {
    if (best_id[end] != -2 && !(score > best[end])) return;
    best[end] = score;
    best_id[end] = id;
    from[end] = start;
  };
  for (std::size_t start = 0; start < n;) {
    std::uint32_t code = 0;
    std::size_t length = utf8::decode(piece, start, code);
    if (length == 0) length = 1;
    bool single = false;
    for (std::size_t end = start + 1; end <= n; ++end) {
      const auto it = vocab.find(piece.substr(start, end - start));
      if (it == vocab.end()) continue;
      offer(start, end, it->second.first, best[start] + it->second.second);
      single = single || end - start == length;
    }
    const double unknown_score = best[start] + lowest - 10;
    if (!single && (best_id[start + length] == -2 || unknown_score > best[start + length])) {
      if (!in.unknown) return {-1};
      offer(start, start + length, 0, unknown_score);
    }
    start += length;
  }
  std::vector<std::pair<std::size_t, std::size_t>> path;  // (start, end), from the last back.
  for (std::size_t end = n; end > 0; end = from[end]) path.emplace_back(from[end], end);
  std::vector<std::int32_t> ids;
  const auto unknown = [&](std::string_view run) {
    const auto it = vocab.find(run);
    if (it != vocab.end()) return ids.push_back(it->second.first);
    bool every = in.flag;
    for (const char c : run) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      const auto b = static_cast<unsigned char>(c);
      every = every && vocab.count(std::string{'<', '0', 'x', kHex[b >> 4], kHex[b & 15], '>'}) != 0;
    }
    if (!every) return ids.push_back(0);
    for (const char c : run) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      const auto b = static_cast<unsigned char>(c);
      ids.push_back(vocab.find(std::string{'<', '0', 'x', kHex[b >> 4], kHex[b & 15], '>'})->second.first);
    }
  };
  std::size_t run = n + 1;  // Where a run of unknown pieces starts (n + 1: none).
  for (std::size_t i = path.size(); i-- > 0;) {
    const auto [start, end] = path[i];
    if (best_id[end] == 0 && in.unknown) {
      if (run > n) run = start;
      continue;
    }
    if (run <= n) unknown(piece.substr(run, start - run));
    run = n + 1;
    ids.push_back(best_id[end]);
  }
  if (run <= n) unknown(piece.substr(run));
  return ids;
}

inline void tokenizer_models_target(const std::uint8_t* data, std::size_t size, Findings& findings) {
  const ModelsInput in = models_input(data, size);
  Tokenizer tokenizer;
  std::string error;
  if (!Tokenizer::from_json(models_json(in), tokenizer, error))
    return findings.fail("a Unigram or WordPiece file made of valid tokens was refused: " + error);
  check_encoding(tokenizer, in.text, false, in.text.size() % 7, findings);
  // (The references look up every substring: short texts only.)
  if (!findings.ok() || in.split || in.text.size() > (in.word_piece ? 256 : 1024)) return;
  Tokenizer::EncodeOptions options;
  std::vector<std::int32_t> ids;
  const Tokenizer::Encoded result = tokenizer.encode(in.text, options, ids, error);
  if (result == Tokenizer::Encoded::Refused && error.find("would read more than") != std::string::npos)
    return;
  const std::vector<std::int32_t> expected = in.text.empty() ? std::vector<std::int32_t>{}
                                             : in.word_piece ? word_piece_reference(in, in.text)
                                                             : unigram_reference(in, in.text);
  if (expected == std::vector<std::int32_t>{-1}) {
    if (result != Tokenizer::Encoded::Refused) findings.fail("encoded what the Rust library fails on");
    return;
  }
  if (result != Tokenizer::Encoded::Ok)
    return findings.fail("refused a text the reference encodes: " + error);
  if (ids != expected) findings.fail("ids other than the reference's");
}

}  // namespace embeddings::fuzz
