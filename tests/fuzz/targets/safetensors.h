// Fuzz target: a safetensors file through the whole TablesLoader, as the
// WebAssembly bindings drive it, then the kernels over the loaded tables.
//
// Input: the file's bytes, optionally followed by kConfigMarker and a
// config.json text.
//
// Properties checked besides "no crash, no leak, no UB":
// - every byte range the loader asks for lies inside the file, and has the
//   size the tensor's shape and dtype say;
// - allocation is bounded by the file (a small file cannot make it
//   allocate much), and succeeds;
// - on failure there is a message and nothing reaches the tables;
// - on success the tables have the header's shapes, F32 tables hold the
//   file's bytes exactly, and the kernels run over them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/formats/tables_loader.h"
#include "embeddings/kernels/kernels.h"
#include "findings.h"

namespace embeddings::fuzz {

inline constexpr std::string_view kConfigMarker = "\n#config.json#\n";

// The kernels over whatever numbers the file held (NaN, infinities,
// subnormals), the way the bindings call them.
inline void kernels_over(const EmbeddingTables& tables, Findings& findings) {
  const std::size_t vocab = tables.vocab_size(), width = tables.width(), context = tables.context();
  const TableView wte = tables.wte(), wpe = tables.wpe();
  std::vector<float> scores(vocab), result_scores(vocab);
  std::vector<std::int32_t> result_ids(vocab);
  const std::size_t query = vocab / 2;
  std::vector<float> query_row(width);
  kernels::widen(wte.row_numbers(query), width, query_row.data());
  kernels::cosine_scores(query_row.data(), wte.numbers, vocab, width, scores.data());
  const std::size_t k = std::min<std::size_t>(vocab, 5);
  const std::size_t found = kernels::top_k(scores.data(), vocab, k, static_cast<std::int64_t>(query),
                                           result_ids.data(), result_scores.data());
  if (found > k) return findings.fail("top_k returned more than k results");
  for (std::size_t i = 0; i < found; ++i) {
    if (result_ids[i] < 0 || static_cast<std::size_t>(result_ids[i]) >= vocab ||
        static_cast<std::size_t>(result_ids[i]) == query)
      return findings.fail("top_k returned a bad index");
  }
  if (!tables.has_position_table()) return;
  const std::size_t n = std::min(context, vocab);
  std::vector<std::int32_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<std::int32_t>((i * 7) % vocab);
  std::vector<float> token_rows(n * width), position_rows(n * width), sums(n * width);
  kernels::embed_tokens(ids.data(), n, wte.numbers, wpe.numbers, width, token_rows.data(),
                        position_rows.data(), sums.data());
  const std::size_t map_rows = std::min<std::size_t>(context, 64);
  std::vector<float> map(map_rows * context), map_scratch(context + width);
  kernels::cosine_matrix_rows(wpe.numbers, context, width, 0, map_rows, map_scratch.data(), map.data());
}

inline void safetensors_target(const std::uint8_t* data, std::size_t size, Findings& findings) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string_view file = input, config;
  bool have_config = false;
  if (const std::size_t marker = input.find(kConfigMarker); marker != std::string_view::npos) {
    file = input.substr(0, marker);
    config = input.substr(marker + kConfigMarker.size());
    have_config = true;
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(file.data());
  TablesLoader loader;
  std::string error;
  const auto failed = [&](const char* step) {
    if (error.empty()) findings.fail(std::string(step) + " failed without a message");
  };
  if (!loader.begin(bytes, std::min<std::size_t>(file.size(), 8), file.size(), error)) return failed("begin");
  if (loader.header_length() > file.size() - 8)
    return findings.fail("the header length passes the end of the file");
  if (!loader.parse_header(file.substr(8, loader.header_length()), error)) return failed("parse_header");

  std::uint64_t claimed = 0;
  for (Table table : {Table::Token, Table::Position}) {
    const safetensors::TensorInfo* info = loader.table_info(table);
    // A family with rotary positions has no position table.
    if (info == nullptr && table == Table::Position) continue;
    if (info == nullptr) return findings.fail("parse_header succeeded without a token table");
    if (info->file_offset > file.size() || info->byte_length > file.size() - info->file_offset)
      return findings.fail("a table lies outside the file: " + info->name);
    if (info->shape.size() != 2 || info->shape[0] * info->shape[1] != info->element_count ||
        info->element_count * safetensors::dtype_size(info->dtype) != info->byte_length)
      return findings.fail("a table's size does not match its shape and dtype: " + info->name);
    claimed += info->byte_length;
  }
  // The tables stay as the file stores them: exactly their bytes.
  if (loader.allocation_bytes() != claimed) return findings.fail("allocation is not the tables' bytes");
  if (!loader.allocate(error)) return findings.fail("allocate failed for a small file: " + error);
  for (Table table : {Table::Token, Table::Position}) {
    if (loader.table_info(table) == nullptr) continue;
    unsigned char* buffer = loader.table_buffer(table);
    if (buffer == nullptr) return findings.fail("no table buffer after allocate");
    std::memcpy(buffer, bytes + loader.table_offset(table), loader.table_bytes(table));
  }
  if (have_config && !loader.read_config(config, error)) return failed("read_config");

  EmbeddingTables tables;
  if (!loader.finish(tables, error)) {
    failed("finish");
    if (tables.vocab_size() != 0 || tables.wte().numbers.data != nullptr)
      findings.fail("a failed load left tables behind");
    return;
  }
  const safetensors::TensorInfo& token = *loader.header().find(tables.wte_name());
  const std::size_t vocab = tables.vocab_size(), width = tables.width(), context = tables.context();
  if (vocab != token.shape[0] || width != token.shape[1])
    return findings.fail("the token table's size differs from the header's shape");
  if (tables.has_position_table()) {
    const safetensors::TensorInfo& position = *loader.header().find(tables.wpe_name());
    if (context + tables.family().position_offset != position.shape[0] || width != position.shape[1])
      return findings.fail("the position table's size differs from the header's shape");
  } else if (tables.wpe().numbers.data != nullptr || tables.wpe().rows != 0) {
    return findings.fail("a model without a position table has a wpe view");
  }
  if (std::memcmp(tables.wte().numbers.data, bytes + token.file_offset, token.byte_length) != 0)
    return findings.fail("wte differs from the file's bytes");

  kernels_over(tables, findings);
}

}  // namespace embeddings::fuzz
