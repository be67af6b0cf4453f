// Inputs shared by the benchmarks, built once before any timing: the default
// model's tables and tokenizer (model/), or, while model/ is empty, a seeded
// random model of the same shape (4096 × 128 tokens, 128 × 128 positions,
// byte-level tokenizer) so the suite still runs. The label says which.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "embeddings/file_io/file_io.h"
#include "embeddings/formats/tables.h"
#include "embeddings/text/tokenizer.h"

namespace bench {

inline std::string source_path(const char* relative) {
  return std::string(EMBEDDINGS_SOURCE_DIR) + "/" + relative;
}

inline bool file_exists(const std::string& path) {
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    std::fclose(f);
    return true;
  }
  return false;
}

// GPT-2's byte-to-unicode map as UTF-8 strings (the alphabet of tokenizer.json).
inline std::vector<std::string> byte_symbols() {
  std::vector<int> code(256, -1);
  int next = 256;
  for (int b = 0; b < 256; ++b) {
    const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    code[b] = printable ? b : next++;
  }
  std::vector<std::string> out(256);
  for (int b = 0; b < 256; ++b) {
    const int c = code[b];
    std::string s;
    if (c < 0x80) {
      s += static_cast<char>(c);
    } else {
      s += static_cast<char>(0xC0 | (c >> 6));
      s += static_cast<char>(0x80 | (c & 0x3F));
    }
    out[b] = s;
  }
  return out;
}

// A byte-level tokenizer.json with no merges: one token per byte.
inline std::string byte_tokenizer_json() {
  const auto symbols = byte_symbols();
  std::string vocab;
  for (int b = 0; b < 256; ++b) {
    std::string key;
    for (char c : symbols[b]) {
      if (c == '"' || c == '\\') key += '\\';
      key += c;
    }
    vocab += (b ? ",\"" : "\"") + key + "\":" + std::to_string(b);
  }
  return R"({"version":"1.0","truncation":null,"padding":null,)"
         R"("added_tokens":[{"id":256,"content":"<|endoftext|>","single_word":false,"lstrip":false,"rstrip":false,"normalized":true,"special":true}],)"
         R"("normalizer":null,"pre_tokenizer":{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":true,"use_regex":true},)"
         R"("post_processor":null,"decoder":{"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true},)"
         R"("model":{"type":"BPE","dropout":null,"unk_token":null,"continuing_subword_prefix":"","end_of_word_suffix":"",)"
         R"("fuse_unk":false,"byte_fallback":false,"vocab":{)" +
         vocab + R"(},"merges":[]}})";
}

// A safetensors file with F32 tensors (name, shape, data), in order.
struct Tensor {
  std::string name;
  std::vector<std::uint64_t> shape;
  std::vector<float> data;
};
inline std::string safetensors_bytes(const std::vector<Tensor>& tensors) {
  std::string header = "{";
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    header += (i ? ",\"" : "\"") + t.name + "\":{\"dtype\":\"F32\",\"shape\":[";
    for (std::size_t d = 0; d < t.shape.size(); ++d) header += (d ? "," : "") + std::to_string(t.shape[d]);
    const std::uint64_t bytes = t.data.size() * 4;
    header += "],\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(offset + bytes) + "]}";
    offset += bytes;
  }
  header += "}";
  while (header.size() % 8) header += ' ';
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((header.size() >> (8 * i)) & 0xFF);
  out += header;
  for (const Tensor& t : tensors) out.append(reinterpret_cast<const char*>(t.data.data()), t.data.size() * 4);
  return out;
}

struct Data {
  std::string label;                                                      // "default model" or "random model"
  std::string weights_path, tokenizer_path, tokenizer_json, config_json;  // tokenizer_path empty: generated
  std::uint64_t weights_bytes = 0;
  embeddings::EmbeddingTables tables;
  embeddings::Tokenizer tokenizer;
  std::string trace_text;  // A text of exactly `context` tokens (128), or fewer if the tokenizer cannot.
  std::vector<std::int32_t> trace_ids;
};

// The trace text: cpp/bench/trace_text.txt repeated until it has `tokens`
// tokens, cut after the first `tokens` of them (tools/bench/chapter.mjs does the same).
inline void make_trace_text(Data& data, std::size_t tokens) {
  std::string base, error;
  embeddings::read_file(source_path("cpp/bench/trace_text.txt"), base, error);
  while (!base.empty() && (base.back() == '\n' || base.back() == ' ')) base.pop_back();
  std::string text = base;
  auto ids = data.tokenizer.encode(text);
  while (ids.size() < tokens && !base.empty()) {
    text += " " + base;
    ids = data.tokenizer.encode(text);
  }
  if (ids.size() > tokens) ids.resize(tokens);
  std::string cut;
  data.tokenizer.decode_bytes(ids.data(), ids.size(), cut, error);
  data.trace_text = cut;
  data.trace_ids = data.tokenizer.encode(cut);
}

inline const Data& data() {
  static Data* loaded = [] {
    auto* d = new Data;
    std::string error;
    const std::string weights = source_path("model/model.safetensors");
    const std::string tokenizer = source_path("model/tokenizer.json");
    const std::string config = source_path("model/config.json");
    if (file_exists(weights) && file_exists(tokenizer)) {
      d->label = "default model";
      d->weights_path = weights;
      d->tokenizer_path = tokenizer;
      embeddings::read_file(tokenizer, d->tokenizer_json, error);
      if (file_exists(config)) embeddings::read_file(config, d->config_json, error);
    } else {
      // Same shapes and file size as the default model: its 1.33 M numbers
      // are wte, wpe and the rest of the network as one more tensor.
      d->label = "random model (model/ is empty)";
      std::mt19937 rng(1);
      std::normal_distribution<float> normal(0.0f, 0.1f);
      auto random = [&](std::size_t n) {
        std::vector<float> v(n);
        for (auto& x : v) x = normal(rng);
        return v;
      };
      const std::vector<Tensor> tensors = {
          {"transformer.wte.weight", {4096, 128}, random(4096 * 128)},
          {"transformer.wpe.weight", {128, 128}, random(128 * 128)},
          {"transformer.h.0.rest",
           {1330000 - 4096 * 128 - 128 * 128},
           random(1330000 - 4096 * 128 - 128 * 128)},
      };
      d->weights_path =
          (std::filesystem::temp_directory_path() / "embeddings-bench-random-model.safetensors").string();
      const std::string bytes = safetensors_bytes(tensors);
      if (std::FILE* f = std::fopen(d->weights_path.c_str(), "wb")) {
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
      }
      d->tokenizer_json = byte_tokenizer_json();
    }
    std::string file;
    if (embeddings::read_file(d->weights_path, file, error)) d->weights_bytes = file.size();
    if (!embeddings::load_tables_from_file(
            d->weights_path, d->config_json.empty() ? nullptr : &d->config_json, d->tables, error) ||
        !embeddings::Tokenizer::from_json(d->tokenizer_json, d->tokenizer, error)) {
      std::fprintf(stderr, "benchmark data: %s\n", error.c_str());
      std::abort();
    }
    make_trace_text(*d, d->tables.context());
    return d;
  }();
  return *loaded;
}

}  // namespace bench
