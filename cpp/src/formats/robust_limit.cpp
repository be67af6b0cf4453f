// robust_limit (tables.h): a table's colour scale, read once when a model
// has loaded. The page computed it in JavaScript before, on the first
// widget's path: about 50 ms with the CPU 4x slower, most of it code run
// cold; compiled, the selection takes well under a millisecond.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "embeddings/formats/tables.h"

namespace embeddings {

float robust_limit(const TableView& table, float* scratch) {
  const std::size_t count = table.rows * table.cols;
  if (count == 0 || table.numbers.data == nullptr) return 1.0f;
  const std::size_t step = std::max<std::size_t>(1, count / kRobustLimitSample);
  const std::size_t sampled = (count + step - 1) / step;
  // The rank among all sampled numbers, NaNs counted (they would sort last).
  const auto rank =
      std::min(sampled - 1, static_cast<std::size_t>(std::floor(static_cast<double>(sampled) * 0.995)));
  std::size_t kept = 0;
  for (std::size_t i = 0; i < count; i += step) {
    float number;
    kernels::widen(table.numbers.from(i), 1, &number);  // the library's one widener, as TableView::at
    const float size = std::fabs(number);
    if (!std::isnan(size)) scratch[kept++] = size;
  }
  if (rank >= kept) return 1.0f;  // a NaN at that rank: no scale to read
  std::nth_element(scratch, scratch + rank, scratch + kept);
  const float value = scratch[rank];
  return value > 0 ? value : 1.0f;
}

}  // namespace embeddings
