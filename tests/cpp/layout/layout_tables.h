// Tables the layout tests share: random ones with a real wte's uneven
// columns, tight clusters, the default model's wte, and 16-bit copies.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "embeddings/file_io/file_io.h"
#include "embeddings/formats/tables.h"
#include "embeddings/layout/table.h"

namespace embeddings::test {

// A table whose columns have very different variances (as a real wte does).
inline std::vector<float> anisotropic_table(std::size_t rows, std::size_t cols, unsigned seed) {
  std::mt19937 random(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> table(rows * cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      table[r * cols + c] = normal(random) * (1.0f + 3.0f / (1 + c)) + 0.5f;
  return table;
}

// `clusters` tight groups of `per_cluster` rows around random centres, each
// row moved within a few directions of its own cluster (as real embeddings
// vary), plus a little noise in every column.
inline std::vector<float> clustered_table(std::size_t clusters, std::size_t per_cluster, std::size_t cols,
                                          unsigned seed, float noise = 0.15f) {
  std::mt19937 random(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> table(clusters * per_cluster * cols);
  for (std::size_t g = 0; g < clusters; ++g) {
    std::vector<float> centre(cols);
    for (float& x : centre) x = normal(random);
    for (std::size_t m = 0; m < per_cluster; ++m)
      for (std::size_t c = 0; c < cols; ++c)
        table[(g * per_cluster + m) * cols + c] = centre[c] + noise * normal(random);
  }
  return table;
}

// A float32 table rounded to bfloat16 (to nearest even) or half, as its bits.
inline std::vector<std::uint16_t> bfloat16_bits(const std::vector<float>& values) {
  std::vector<std::uint16_t> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, &values[i], sizeof bits);
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    out[i] = static_cast<std::uint16_t>(bits >> 16);
  }
  return out;
}
inline std::vector<std::uint16_t> float16_bits(const std::vector<float>& values) {
  // To nearest even, by the exponent and an exact double (finite halves only).
  std::vector<std::uint16_t> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = std::fabs(static_cast<double>(values[i]));
    int e = 0;
    std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1)
    std::uint32_t bits;
    if (x == 0) {
      bits = 0;
    } else if (e - 1 >= -14) {
      bits = static_cast<std::uint32_t>(e - 1 + 15) << 10;
      bits += static_cast<std::uint32_t>(std::nearbyint((x / std::ldexp(1.0, e - 1) - 1) * 1024));
    } else {
      bits = static_cast<std::uint32_t>(std::nearbyint(x / std::ldexp(1.0, -24)));
    }
    out[i] = static_cast<std::uint16_t>(bits | (values[i] < 0 ? 0x8000u : 0u));
  }
  return out;
}
// The numbers of a 16-bit table as float32.
inline std::vector<float> widened(const layout::TableView& table) {
  std::vector<float> out(table.rows * table.cols);
  for (std::size_t r = 0; r < table.rows; ++r) table.widen_row(r, &out[r * table.cols]);
  return out;
}

inline const EmbeddingTables& default_model() {
  static EmbeddingTables tables;
  static bool loaded = false;
  if (!loaded) {
    std::string error;
    const bool ok = load_tables_from_file(std::string(EMBEDDINGS_SOURCE_DIR) + "/model/model.safetensors",
                                          nullptr, tables, error);
    if (!ok) std::abort();
    loaded = true;
  }
  return tables;
}

// A float32 table rounded to both 16-bit formats: the tables, and views of them.
struct SixteenBitTables {
  SixteenBitTables(const std::vector<float>& values, std::size_t rows, std::size_t cols)
      : bf16(bfloat16_bits(values)), f16(float16_bits(values)), rows(rows), cols(cols) {}
  std::vector<layout::TableView> views() const {
    return {layout::TableView{bf16.data(), rows, cols, layout::Numbers::BFloat16},
            layout::TableView{f16.data(), rows, cols, layout::Numbers::Float16}};
  }
  std::vector<std::uint16_t> bf16, f16;
  std::size_t rows, cols;
};

}  // namespace embeddings::test
