// Builds safetensors files in memory for tests, including broken ones.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace embeddings::testing {

struct TestTensor {
  std::string name;
  std::string dtype;  // "F32", "F16", ...
  std::vector<std::uint64_t> shape;
  std::string bytes;  // raw little-endian data
};

inline std::string f32_bytes(const std::vector<float>& values) {
  std::string out(values.size() * 4, '\0');
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// The JSON header alone, with offsets laid out contiguously in the given order.
inline std::string header_json(const std::vector<TestTensor>& tensors, const std::string& metadata = "") {
  std::string header = "{";
  if (!metadata.empty()) header += "\"__metadata__\":" + metadata + ",";
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const TestTensor& t = tensors[i];
    header += "\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
    for (std::size_t d = 0; d < t.shape.size(); ++d) header += (d ? "," : "") + std::to_string(t.shape[d]);
    header += "],\"data_offsets\":[" + std::to_string(offset) + "," +
              std::to_string(offset + t.bytes.size()) + "]}";
    offset += t.bytes.size();
    if (i + 1 < tensors.size()) header += ",";
  }
  return header + "}";
}

// A whole file from a header text and a data section.
inline std::string file_from(const std::string& header, const std::string& data) {
  std::string padded = header;
  while (padded.size() % 8 != 0) padded += ' ';
  std::string out(8, '\0');
  std::uint64_t length = padded.size();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((length >> (8 * i)) & 0xFF);
  return out + padded + data;
}

inline std::string safetensors_file(const std::vector<TestTensor>& tensors,
                                    const std::string& metadata = "") {
  std::string data;
  for (const auto& t : tensors) data += t.bytes;
  return file_from(header_json(tensors, metadata), data);
}

// A small GPT-2-like model: wte (vocab, width), wpe (context, width) with
// value(row, col) = row + col / 1000 (token) and -(row + col / 1000) (position).
inline std::vector<TestTensor> tiny_model(std::size_t vocab, std::size_t context, std::size_t width,
                                          const std::string& prefix = "transformer.") {
  std::vector<float> wte(vocab * width), wpe(context * width);
  for (std::size_t r = 0; r < vocab; ++r)
    for (std::size_t c = 0; c < width; ++c) wte[r * width + c] = float(r) + float(c) / 1000.0f;
  for (std::size_t r = 0; r < context; ++r)
    for (std::size_t c = 0; c < width; ++c) wpe[r * width + c] = -(float(r) + float(c) / 1000.0f);
  return {
      {prefix + "h.0.ln_1.weight", "F32", {width}, f32_bytes(std::vector<float>(width, 1.0f))},
      {prefix + "wpe.weight", "F32", {context, width}, f32_bytes(wpe)},
      {prefix + "wte.weight", "F32", {vocab, width}, f32_bytes(wte)},
  };
}

}  // namespace embeddings::testing
