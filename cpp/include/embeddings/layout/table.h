// The table a layout reads: float32, or a 16-bit format (IEEE half or
// bfloat16) kept as its bits and widened exactly as each row is read, so a
// map of a 16-bit table never needs a float32 copy of it. Every number a
// 16-bit table holds is a float32, so a layout reads the same numbers as it
// would from the table converted first, and gives the same bits.
//
// Range: a float32 table may hold numbers whose squares overflow (2e19) or
// underflow (1e-25). The layouts scale such rows or tables by a power of
// two as they read them (exact, so cosines and the PCA's directions do not
// change) and leave every other table's arithmetic as it is: range_scale.
#pragma once

#include <cstddef>
#include <cstdint>

namespace embeddings::layout {

enum class Numbers : std::uint8_t { Float32 = 0, Float16 = 1, BFloat16 = 2 };

std::size_t bytes_per_number(Numbers numbers);

// rows × cols numbers, row-major, not owned.
struct TableView {
  const void* data = nullptr;
  std::size_t rows = 0, cols = 0;
  Numbers numbers = Numbers::Float32;

  static TableView of_floats(const float* values, std::size_t rows, std::size_t cols) {
    return {values, rows, cols, Numbers::Float32};
  }
  const float* floats(std::size_t r) const { return static_cast<const float*>(data) + r * cols; }
  const std::uint16_t* halves(std::size_t r) const {
    return static_cast<const std::uint16_t*>(data) + r * cols;
  }
  float at(std::size_t r, std::size_t c) const;
  // Row r as float32 numbers, each times `scale` (a power of two), into out (cols).
  void widen_row(std::size_t r, float* out, float scale = 1.0f) const { widen_range(r, 0, cols, out, scale); }
  // Columns [first, first + count) of row r, the same way.
  void widen_range(std::size_t r, std::size_t first, std::size_t count, float* out, float scale = 1.0f) const;
  // Whether rows [first, end) are all finite numbers; their largest |x| into `largest` (not lowered).
  bool scan(std::size_t first, std::size_t end, float& largest) const;
  // Row r's largest |x| (the row must be finite).
  float row_magnitude(std::size_t r) const;
};

// The power of two that brings numbers of magnitude up to `largest` near 1
// when `largest` is outside [2^-40, 2^40] (where squares, and sums of a
// table's worth of products, would leave float32's range), else 1; 1 for 0.
float range_scale(float largest);

// layout_dot of rows i and j of `table` as float32 numbers, row i's times
// scale_i and row j's times scale_j (powers of two): the same bits as
// layout_dot of the widened, scaled rows, without writing them down
// (16-bit rows are widened in registers).
float row_dot(const TableView& table, std::size_t i, std::size_t j, float scale_i = 1.0f,
              float scale_j = 1.0f);

// row_dot of row u with each of rows v[0..3] (scales: u's, then each v's),
// into out: the same bits as four calls, faster (each of u's loads feeds
// four sums).
void row_dots4(const TableView& table, std::size_t u, const std::size_t v[4], const float scales[5],
               float out[4]);

}  // namespace embeddings::layout
