// Reads the token table (wte) and, where the model learned one, the
// position table (wpe) out of a Hugging Face safetensors file, checked
// against config.json, into EmbeddingTables (tables.h). The tensor names of
// the common families are known (checkpoint_families.h); models with rotary
// positions (Llama, Mistral, Qwen, Gemma, Phi, GPT-NeoX) have no position
// table, and then wpe() is empty.
//
// Loading is a small state machine so the caller decides how bytes arrive
// (a file, an in-memory buffer, HTTP range requests in a browser):
//
//   TablesLoader loader;
//   loader.begin(first 8 bytes, file size)       -> header_length()
//   loader.read_header(header bytes)             -> which byte ranges to read
//     (= parse_header(), then allocate(): a caller that must budget memory
//      calls the two itself and checks allocation_bytes() in between)
//   for each table: copy bytes [table_offset, + table_bytes) into table_buffer()
//   loader.read_config(config.json text)         (optional)
//   loader.finish(tables)                        -> checked tables
//
// Tables stay in the file's format (F32, F16 or BF16); nothing is converted.
//
// Nothing reaches `tables` unless every step succeeded. Every buffer whose
// size comes from the file is allocated in allocate(), before any table byte
// is read, with malloc (buffer.h): running out of memory is an error
// message, never an abort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "embeddings/common/buffer.h"
#include "embeddings/formats/checkpoint_families.h"
#include "embeddings/formats/config.h"
#include "embeddings/formats/safetensors.h"
#include "embeddings/formats/tables.h"

namespace embeddings {

// Which file a loader's error is about, for the caller to name it.
enum class ErrorSource { Weights, Config };

class TablesLoader {
 public:
  // Step 1: the file's first bytes (at least 8) and its total size.
  bool begin(const unsigned char* first_bytes, std::size_t available, std::uint64_t file_size,
             std::string& error);
  std::uint64_t header_length() const { return header_length_; }

  // Step 2: the header, bytes [8, 8 + header_length()). Finds the two tables
  // and checks their names, shapes and dtypes; allocates their buffers.
  // Same as parse_header() followed by allocate().
  bool read_header(std::string_view header_bytes, std::string& error);
  // Step 2a: parses and checks the header; allocates nothing.
  bool parse_header(std::string_view header_bytes, std::string& error);
  // Bytes that allocate() will ask for: both tables' bytes as the file
  // stores them (F32, F16 or BF16: nothing is converted).
  std::uint64_t allocation_bytes() const;
  // Step 2b: allocates those buffers. False, with a message that says how
  // much was asked for, when memory is short; the loader is spent then.
  bool allocate(std::string& error);
  // The header's entry for a table, after parse_header(); nullptr before,
  // and for the position table of a model that has none.
  const safetensors::TensorInfo* table_info(Table table) const { return pending(table).info; }
  std::uint64_t table_offset(Table table) const;  // Absolute byte offset in the file.
  std::uint64_t table_bytes(Table table) const;   // 0 for a table the model does not have.
  // Where the caller writes the table's raw bytes (table_bytes() of them);
  // null for a table the model does not have.
  unsigned char* table_buffer(Table table);
  const safetensors::Header& header() const { return header_; }
  // Rows of the position table before position 0 (OPT's 2), after parse_header().
  std::uint64_t position_offset() const { return family_ != nullptr ? family_->position_offset : 0; }

  // Before finish(): the file is one shard of a sharded checkpoint, so its
  // blocks are not all the model's (config.json's layer count is not
  // checked against them) and parameter_count() counts this shard only.
  void set_one_shard_of_many() { one_shard_of_many_ = true; }

  // Optional: config.json, checked against the tensors in finish().
  bool read_config(std::string_view json_text, std::string& error);

  // Step 3: checks config against tensors and moves everything into `out`.
  // The loader is spent afterwards.
  bool finish(EmbeddingTables& out, std::string& error);

  // Which file the last error concerns. Messages never name files: the
  // caller knows what it called them.
  ErrorSource error_source() const { return error_source_; }

 private:
  struct Pending {
    const safetensors::TensorInfo* info = nullptr;
    Buffer<unsigned char> numbers;  // The table's bytes, as the file stores them.
  };
  Pending& pending(Table table) { return tables_[static_cast<int>(table)]; }
  const Pending& pending(Table table) const { return tables_[static_cast<int>(table)]; }

  enum class Stage { Start, HaveLength, HaveHeader, Allocated, Done, Failed };
  Stage stage_ = Stage::Start;
  const CheckpointFamily* family_ = nullptr;
  std::uint64_t file_size_ = 0;
  std::uint64_t header_length_ = 0;
  safetensors::Header header_;
  Pending tables_[2];
  bool have_config_ = false;
  bool one_shard_of_many_ = false;
  ModelConfig config_;
  ErrorSource error_source_ = ErrorSource::Weights;
};

}  // namespace embeddings
