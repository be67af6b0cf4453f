// Fuzz target: encode and decode arbitrary bytes with two fixed tokenizers.
//
//  - "plain": GPT-2's layout in small: the 256 byte tokens, merges for some
//    English, "<|endoftext|>" as a special token. For it,
//    decode_bytes(encode(s)) == s for every byte string s.
//  - "exotic": every option the loader supports that changes the ids:
//    add_prefix_space, added tokens with lstrip / rstrip / single_word /
//    normalized false, bytes with no token (unk_token, fuse_unk). Only the
//    ids are checked there (they exist, decode takes them, encode_at_most
//    agrees); the text does not round-trip by design.
//
// The first input byte picks the tokenizer and the encode_at_most() limit;
// the rest is the text.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/formats/json.h"
#include "embeddings/text/byte_level.h"
#include "embeddings/text/tokenizer.h"
#include "findings.h"
#include "tokenizer_json.h"

namespace embeddings::fuzz {

// A byte-level BPE tokenizer.json. `skip_bytes` have no token; `merges` are
// "left right" pairs of byte-level strings; `added` is the added_tokens
// array text, whose ids must follow the vocabulary (HF's rule).
inline std::string tokenizer_json(std::string_view skip_bytes, const std::vector<std::string>& merges,
                                  const std::string& added, bool add_prefix_space, const char* unk) {
  std::string vocab = "{";
  int id = 0;
  std::vector<std::string> keys;
  const auto add_key = [&](const std::string& key) {
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) return;
    keys.push_back(key);
    if (vocab.size() > 1) vocab += ",";
    json::append_quoted(vocab, key);
    vocab += ":" + std::to_string(id++);
  };
  for (int byte = 0; byte < 256; ++byte) {
    if (skip_bytes.find(static_cast<char>(byte)) != std::string_view::npos) continue;
    std::string key;
    byte_level::append_encoded(key, std::string(1, static_cast<char>(byte)));
    add_key(key);
  }
  std::string merge_list = "[";
  for (const std::string& merge : merges) {
    std::string merged = merge;
    merged.erase(merged.find(' '), 1);
    add_key(merged);
    if (merge_list.size() > 1) merge_list += ",";
    json::append_quoted(merge_list, merge);
  }
  if (unk != nullptr) add_key(unk);
  std::string out =
      R"({"version":"1.0","truncation":null,"padding":null,"added_tokens":)" + added +
      R"(,"normalizer":null,"pre_tokenizer":{"type":"ByteLevel","add_prefix_space":)" +
      (add_prefix_space ? "true" : "false") +
      R"(,"trim_offsets":true,"use_regex":true},"post_processor":null,"decoder":{"type":"ByteLevel"},)"
      R"("model":{"type":"BPE","dropout":null,"unk_token":)";
  if (unk != nullptr) {
    json::append_quoted(out, unk);
  } else {
    out += "null";
  }
  out += R"(,"fuse_unk":)" + std::string(unk != nullptr ? "true" : "false") + R"(,"vocab":)" + vocab + "},";
  out += R"("merges":)" + merge_list + "]}}";
  // Keep the vocabulary size for the added tokens' ids (next ids after it).
  return out;
}

inline const std::vector<std::string>& english_merges() {
  static const std::vector<std::string> merges = {"Ġ t", "h e",   "Ġt he", "Ġ a",    "i n", "e r",  "Ġ s",
                                                  "Ġ w", "o n",   "r e",   "Ġ L",    "i l", "il y", "ĠL ily",
                                                  "Ġ g", "i r",   "Ġg ir", "Ġgir l", "a a", "aa a", "Ċ Ċ",
                                                  "Ġ Ġ", "ĠĠ ĠĠ", "ð Ł",   "' s",    "1 2", "12 3"};
  return merges;
}

// 256 byte tokens + 27 merges = 283 ids, so the added tokens take 283 and on.
inline const Tokenizer& plain_tokenizer() {
  static const Tokenizer tokenizer = [] {
    const std::string json = tokenizer_json(
        "", english_merges(),
        R"([{"id":283,"content":"<|endoftext|>","single_word":false,"lstrip":false,"rstrip":false,)"
        R"("normalized":true,"special":true}])",
        false, nullptr);
    Tokenizer t;
    std::string error;
    if (!Tokenizer::from_json(json, t, error)) {
      std::fprintf(stderr, "plain tokenizer: %s\n", error.c_str());
      std::abort();
    }
    return t;
  }();
  return tokenizer;
}

// Bytes 0x00, 0x7F and 0xFF have no token; "<unk>" stands in for them.
// 253 byte tokens + 27 merges + <unk> = 281 ids; added tokens 281..284.
inline const Tokenizer& exotic_tokenizer() {
  static const Tokenizer tokenizer = [] {
    const std::string json = tokenizer_json(
        std::string_view("\x00\x7F\xFF", 3), english_merges(),
        R"([{"id":281,"content":"<|endoftext|>","single_word":false,"lstrip":true,"rstrip":true,)"
        R"("normalized":false,"special":true},)"
        R"({"id":282,"content":"[MASK]","single_word":true,"lstrip":false,"rstrip":false,)"
        R"("normalized":true,"special":true},)"
        R"({"id":283,"content":"ab","single_word":false,"lstrip":false,"rstrip":true,)"
        R"("normalized":true,"special":false},)"
        R"({"id":284,"content":"\u00e9t\u00e9","single_word":true,"lstrip":true,"rstrip":false,)"
        R"("normalized":false,"special":false}])",
        true, "<unk>");
    Tokenizer t;
    std::string error;
    if (!Tokenizer::from_json(json, t, error)) {
      std::fprintf(stderr, "exotic tokenizer: %s\n", error.c_str());
      std::abort();
    }
    return t;
  }();
  return tokenizer;
}

inline void tokenizer_encode_target(const std::uint8_t* data, std::size_t size, Findings& findings) {
  if (size == 0) return;
  const std::uint8_t control = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool exotic = (control & 0x80) != 0;
  const std::size_t limit = control & 0x3F;
  check_encoding(exotic ? exotic_tokenizer() : plain_tokenizer(), text, !exotic, limit, findings);
}

}  // namespace embeddings::fuzz
