// Judging maps and neighbour graphs (judge.h).
#include "embeddings/layout/judge.h"

#include <algorithm>
#include <utility>

#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/knn.h"

namespace embeddings::layout {
namespace {

// Row i's k nearest other rows by cosine, by a scan of every row (ties to the smaller index).
std::vector<std::int32_t> nearest_rows(const TableView& table, const CosineRows& cosines, std::size_t i,
                                       std::size_t k) {
  std::vector<std::pair<float, std::int32_t>> scored;
  scored.reserve(table.rows);
  for (std::size_t j = 0; j < table.rows; ++j)
    if (j != i) scored.emplace_back(-cosines.cosine(table, i, j), static_cast<std::int32_t>(j));
  std::partial_sort(scored.begin(), scored.begin() + k, scored.end());
  std::vector<std::int32_t> out(k);
  for (std::size_t n = 0; n < k; ++n) out[n] = scored[n].second;
  return out;
}

// Row i's k nearest other points on the map.
std::vector<std::int32_t> nearest_points(const float* map, std::size_t rows, std::size_t i, std::size_t k) {
  std::vector<std::pair<float, std::int32_t>> scored;
  scored.reserve(rows);
  for (std::size_t j = 0; j < rows; ++j) {
    if (j == i) continue;
    const float dx = map[2 * i] - map[2 * j], dy = map[2 * i + 1] - map[2 * j + 1];
    scored.emplace_back(dx * dx + dy * dy, static_cast<std::int32_t>(j));
  }
  std::partial_sort(scored.begin(), scored.begin() + k, scored.end());
  std::vector<std::int32_t> out(k);
  for (std::size_t n = 0; n < k; ++n) out[n] = scored[n].second;
  return out;
}

std::size_t shared(const std::vector<std::int32_t>& a, const std::int32_t* b, std::size_t k) {
  std::size_t count = 0;
  for (std::int32_t x : a)
    for (std::size_t q = 0; q < k; ++q)
      if (b[q] == x) {
        ++count;
        break;
      }
  return count;
}

}  // namespace

double neighbours_kept(const float* table, std::size_t rows, std::size_t cols, const float* map,
                       std::size_t k) {
  if (rows < 2 || k == 0) return 0;
  if (k > rows - 1) k = rows - 1;
  KnnGraph graph;
  graph.begin(table, rows, cols, k);
  while (graph.step()) {
  }
  std::vector<std::pair<float, std::int32_t>> scored(rows);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    std::size_t n = 0;
    for (std::size_t j = 0; j < rows; ++j) {
      if (j == i) continue;
      const float dx = map[2 * i] - map[2 * j], dy = map[2 * i + 1] - map[2 * j + 1];
      scored[n++] = {dx * dx + dy * dy, static_cast<std::int32_t>(j)};
    }
    std::partial_sort(scored.begin(), scored.begin() + k, scored.begin() + n);
    const std::int32_t* near = &graph.indices()[i * k];
    for (std::size_t m = 0; m < k; ++m)
      for (std::size_t q = 0; q < k; ++q)
        if (scored[m].second == near[q]) {
          ++kept;
          break;
        }
  }
  return static_cast<double>(kept) / static_cast<double>(rows * k);
}

double neighbours_kept_sample(const TableView& table, const float* map, std::size_t k,
                              const std::vector<std::size_t>& sample) {
  if (table.rows < 2 || k == 0 || sample.empty()) return 0;
  if (k > table.rows - 1) k = table.rows - 1;
  CosineRows cosines;
  cosines.compute(table, 0, table.rows);
  std::size_t kept = 0;
  for (std::size_t i : sample) {
    const std::vector<std::int32_t> near = nearest_rows(table, cosines, i, k);
    kept += shared(nearest_points(map, table.rows, i, k), near.data(), k);
  }
  return static_cast<double>(kept) / static_cast<double>(sample.size() * k);
}

double knn_recall(const TableView& table, const std::int32_t* indices, std::size_t k,
                  const std::vector<std::size_t>& sample) {
  if (sample.empty() || k == 0) return 0;
  CosineRows cosines;
  cosines.compute(table, 0, table.rows);
  std::size_t found = 0;
  for (std::size_t i : sample) found += shared(nearest_rows(table, cosines, i, k), &indices[i * k], k);
  return static_cast<double>(found) / static_cast<double>(sample.size() * k);
}

std::vector<std::size_t> sample_rows(std::size_t rows, std::size_t count, std::uint64_t seed) {
  if (count >= rows) {
    std::vector<std::size_t> all(rows);
    for (std::size_t r = 0; r < rows; ++r) all[r] = r;
    return all;
  }
  // Floyd's algorithm: count distinct draws, each once.
  std::vector<std::size_t> chosen;
  SplitMix64 random(seed);
  for (std::size_t j = rows - count; j < rows; ++j) {
    const std::size_t t = random.below(static_cast<std::uint32_t>(j + 1));
    chosen.push_back(std::find(chosen.begin(), chosen.end(), t) == chosen.end() ? t : j);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace embeddings::layout
