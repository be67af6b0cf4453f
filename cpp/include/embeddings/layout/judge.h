// Judging maps and neighbour graphs, for the tests and the benchmarks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "embeddings/layout/table.h"

namespace embeddings::layout {

// Share of each row's k nearest rows (cosine, in the table) that are also
// among its k nearest points on the map (Euclidean, rows × 2), averaged
// over rows: 1 is a map that keeps every neighbourhood.
double neighbours_kept(const float* table, std::size_t rows, std::size_t cols, const float* map,
                       std::size_t k);
// The same over the rows `sample` only (each against every row), for
// tables too large for the exact graph of all rows.
double neighbours_kept_sample(const TableView& table, const float* map, std::size_t k,
                              const std::vector<std::size_t>& sample);
// Recall of a kNN graph (indices (rows, k), best first) against the exact
// k nearest rows by cosine, over the rows `sample`: the share of each
// sampled row's exact neighbours the graph holds.
double knn_recall(const TableView& table, const std::int32_t* indices, std::size_t k,
                  const std::vector<std::size_t>& sample);
// `count` distinct rows of `rows`, drawn for `seed`, in increasing order.
std::vector<std::size_t> sample_rows(std::size_t rows, std::size_t count, std::uint64_t seed);

}  // namespace embeddings::layout
