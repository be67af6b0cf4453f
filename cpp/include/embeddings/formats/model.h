// The part of a transformer this chapter is about: the token table (wte,
// vocab × width) and, where the model learned one, the position table (wpe,
// context × width), read from a Hugging Face safetensors file and checked
// against config.json. The tensor names of the common families are known
// (kCheckpointFamilies); models with rotary positions (Llama, Mistral, Qwen,
// Gemma, Phi, GPT-NeoX) have no position table, and then wpe() is empty.
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
// Tables stay in the file's format (F32, F16 or BF16): a 16-bit table takes
// half the memory of float32, and the kernels read it as it is
// (kernels.h, "Tables of float32, F16 or BF16 numbers").
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
#include <utility>
#include <vector>

#include "embeddings/common/buffer.h"
#include "embeddings/formats/safetensors.h"
#include "embeddings/kernels/kernels.h"

namespace embeddings {

// The fields of a Hugging Face config.json this project reads, under
// either family's spelling (GPT-2's, or the hidden_size spelling Llama,
// Qwen, Gemma, GPT-NeoX, OPT and Phi share). A field that config.json
// leaves out stays 0 (unknown) and the tensors decide.
struct ModelConfig {
  std::uint64_t vocab_size = 0;  // vocab_size
  std::uint64_t width = 0;       // n_embd, hidden_size (OPT: word_embed_proj_dim when given)
  std::uint64_t context = 0;     // n_positions (or the older n_ctx), max_position_embeddings
  std::uint64_t layers = 0;      // n_layer, num_hidden_layers
  std::uint64_t heads = 0;       // n_head, num_attention_heads
  bool tied_output = true;       // tie_word_embeddings (GPT2Config's default is true)
  std::string model_type;        // "" when config.json does not say
  // How config.json spelled the width and context, for messages.
  const char* width_field = "n_embd";
  const char* context_field = "n_positions";
  const char* layers_field = "n_layer";
};

// One family's tensor names. A family without a position table uses
// positions that are not a learned table (rotary, as Llama has).
struct CheckpointFamily {
  const char* family;             // for messages: "GPT-2", "Llama, Mistral, Qwen, Gemma, Phi"
  const char* token_name;         // the token embedding table
  const char* position_name;      // the position table, or nullptr when the family has none
  std::uint64_t position_offset;  // rows of the position table before position 0 (OPT: 2)
};
// Every naming the loader recognises, in the order messages list them.
extern const CheckpointFamily kCheckpointFamilies[];
extern const std::size_t kCheckpointFamilyCount;
// The token table names of kCheckpointFamilies (and with_positions, the
// position table names after them), once each, separated by ", ": for
// messages, and what a caller looks for in a sharded checkpoint's index.
std::string checkpoint_table_names(bool with_positions);

// What config.json may hold. A GPT2Config is under a kilobyte with about 40
// values, and the largest configurations of the field (label maps of a
// thousand classes) a few dozen kilobytes and a few thousand values. The
// bounds keep a hostile file from growing the memory the tables live in
// (the parsed tree stays within a few MiB) or taking seconds to read.
inline constexpr std::size_t kMaxConfigBytes = 4 << 20;
inline constexpr std::size_t kMaxConfigValues = 1 << 16;

// Parses config.json. Errors name the field ("n_embd is -3, not a positive
// integer"), not the file: the caller knows its name.
bool parse_config(std::string_view json_text, ModelConfig& out, std::string& error);
// The message for a config.json over kMaxConfigBytes.
std::string config_too_large(std::size_t bytes);

// A read-only (rows, cols) row-major table of float32, F16 or BF16 numbers.
struct TableView {
  kernels::TableNumbers numbers;  // where they are, and their format
  std::size_t rows = 0;
  std::size_t cols = 0;
  kernels::NumberFormat format() const { return numbers.format; }
  // A float32 table's numbers, and its row r; null for a 16-bit table
  // (whose numbers are read with at() or kernels::widen()).
  const float* floats() const {
    return numbers.format == kernels::NumberFormat::F32 ? static_cast<const float*>(numbers.data) : nullptr;
  }
  const float* row(std::size_t r) const { return floats() != nullptr ? floats() + r * cols : nullptr; }
  // Row r's numbers in the table's format.
  kernels::TableNumbers row_numbers(std::size_t r) const { return numbers.from(r * cols); }
  // The number at (r, c) as float32, whatever the format.
  float at(std::size_t r, std::size_t c) const {
    float value;
    kernels::widen(numbers.from(r * cols + c), 1, &value);
    return value;
  }
};

class EmbeddingTables {
 public:
  // The tables in the file's format (F32, F16 or BF16).
  TableView wte() const { return {{wte_.data(), wte_format_}, vocab_size_, width_}; }
  // The rows of the position table positions use, position 0 first (OPT's
  // two leading rows left out); empty (null, 0 rows) without a position table.
  TableView wpe() const {
    if (!has_position_table()) return {{nullptr, wpe_format_}, 0, width_};
    const kernels::TableNumbers all{wpe_.data(), wpe_format_};
    return {all.from(position_offset_ * width_), context_, width_};
  }
  bool has_position_table() const { return wpe_.size() != 0; }

  std::size_t vocab_size() const { return vocab_size_; }
  std::size_t width() const { return width_; }
  // Rows of wpe; without a position table, the context config.json gives (0 when unknown).
  std::size_t context() const { return context_; }
  // Which naming the file follows (an entry of kCheckpointFamilies).
  const CheckpointFamily& family() const { return *family_; }
  // Learned numbers in the whole model file (every tensor, not only the two
  // tables kept here), so the chapter can say what share the token table is.
  std::uint64_t parameter_count() const { return parameter_count_; }
  const std::string& wte_name() const { return wte_name_; }
  const std::string& wpe_name() const { return wpe_name_; }
  const ModelConfig& config() const { return config_; }
  const std::vector<std::pair<std::string, std::string>>& metadata() const { return metadata_; }

 private:
  friend class TablesLoader;
  Buffer<unsigned char> wte_, wpe_;  // the numbers as the file stores them
  kernels::NumberFormat wte_format_ = kernels::NumberFormat::F32, wpe_format_ = kernels::NumberFormat::F32;
  std::size_t vocab_size_ = 0, width_ = 0, context_ = 0, position_offset_ = 0;
  const CheckpointFamily* family_ = nullptr;
  std::uint64_t parameter_count_ = 0;
  std::string wte_name_, wpe_name_;
  ModelConfig config_;
  std::vector<std::pair<std::string, std::string>> metadata_;
};

enum class Table { Token = 0, Position = 1 };

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

// Convenience for native code: reads a whole safetensors file (and optional
// config.json text) through TablesLoader. Errors start with the path, or
// with "config.json: " for the configuration.
bool load_tables_from_file(const std::string& path, const std::string* config_json, EmbeddingTables& out,
                           std::string& error);

// Reads a whole file into `out`.
bool read_file(const std::string& path, std::string& out, std::string& error);

}  // namespace embeddings
