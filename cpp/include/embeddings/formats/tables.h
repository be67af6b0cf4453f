// The two tables this chapter is about, as a loaded model holds them: the
// token table (wte, vocab × width) and, where the model learned one, the
// position table (wpe, context × width), in the file's format (F32, F16 or
// BF16: a 16-bit table takes half the memory of float32, and the kernels
// read it as it is). TablesLoader (tables_loader.h) makes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "embeddings/common/buffer.h"
#include "embeddings/formats/checkpoint_families.h"
#include "embeddings/formats/config.h"
#include "embeddings/kernels/kernels.h"

namespace embeddings {

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

// Numbers robust_limit() reads of a table, about: every step-th in row-major
// order, step = max(1, count / kRobustLimitSample).
inline constexpr std::size_t kRobustLimitSample = 20000;
// Floats of scratch robust_limit() needs: that sample has fewer than twice
// kRobustLimitSample numbers (a step of 1 up to there, and fewer after).
inline constexpr std::size_t kRobustLimitScratch = 2 * kRobustLimitSample;

// A symmetric scale for colouring a table's numbers: the 99.5th percentile of
// |x| over that evenly spaced sample, so that a few large numbers do not wash
// the rest out (larger ones take the end colours). NaNs are left out; 1 where
// no number is left or the percentile is 0. Found by selection, O(sample).
// The page's JavaScript reference (robustLimit, web/widgets/parts/color.js)
// gives the same number, to the bit.
float robust_limit(const TableView& table, float* scratch);

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

// The two tables, as the loader's steps name them.
enum class Table { Token = 0, Position = 1 };

}  // namespace embeddings
