// The chapter's computations, native: each fast kernel next to the scalar
// double-precision reference it is tested against, on the default model's
// tables (or a random model of the same shape while model/ is empty).
//
//   build/native/embeddings_bench                       everything
//   build/native/embeddings_bench --benchmark_filter=Nearest
//
// Rates: bytes/s counts the float32 numbers each call reads from its inputs
// (a table scan reads the whole table once); items/s counts rows scored,
// map cells, or tokens.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "bench_data.h"
#include "embeddings/kernels/backends.h"
#include "embeddings/kernels/kernels.h"

namespace {

namespace k = embeddings::kernels;
using bench::data;

constexpr std::size_t kTopK = 10;

// Two rows of wte, as the chapter's cosine(rowView(model.wte, 477), rowView(model.wte, 497)).
struct Pair {
  const float* a;
  const float* b;
  std::size_t n;
};
Pair row_pair() {
  const auto wte = data().tables.wte();
  return {wte.row(477), wte.row(497), wte.cols};
}

void Dot128_Reference(benchmark::State& state) {
  const Pair p = row_pair();
  for (auto _ : state) benchmark::DoNotOptimize(k::dot_reference(p.a, p.b, p.n));
  state.SetBytesProcessed(state.iterations() * 2 * p.n * sizeof(float));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(Dot128_Reference);

void Dot128(benchmark::State& state) {
  const Pair p = row_pair();
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.a);
    benchmark::DoNotOptimize(k::dot(p.a, p.b, p.n));
  }
  state.SetBytesProcessed(state.iterations() * 2 * p.n * sizeof(float));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(Dot128);

void Cosine128_Reference(benchmark::State& state) {
  const Pair p = row_pair();
  for (auto _ : state) benchmark::DoNotOptimize(k::cosine_reference(p.a, p.b, p.n));
  state.SetBytesProcessed(state.iterations() * 2 * p.n * sizeof(float));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(Cosine128_Reference);

void Cosine128(benchmark::State& state) {
  const Pair p = row_pair();
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.a);
    benchmark::DoNotOptimize(k::cosine(p.a, p.b, p.n));
  }
  state.SetBytesProcessed(state.iterations() * 2 * p.n * sizeof(float));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(Cosine128);

// The same two rows scaled by 1e20: float32 sums of squares would overflow,
// so the kernel sums in double (what float32's whole range costs when it is used).
void Cosine128_OutOfRange(benchmark::State& state) {
  const Pair p = row_pair();
  std::vector<float> a(p.a, p.a + p.n), b(p.b, p.b + p.n);
  for (auto& x : a) x *= 1e20f;
  for (auto& x : b) x *= 1e20f;
  for (auto _ : state) {
    benchmark::DoNotOptimize(a.data());
    benchmark::DoNotOptimize(k::cosine(a.data(), b.data(), p.n));
  }
  state.SetBytesProcessed(state.iterations() * 2 * p.n * sizeof(float));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(Cosine128_OutOfRange);

// ---- Nearest over the whole vocabulary, top 10 --------------------------------

// Reference: every cosine in double, then a full sort (score desc, id asc).
void Nearest4096_Reference(benchmark::State& state) {
  const auto wte = data().tables.wte();
  const std::int64_t query = 477;
  std::vector<double> scores(wte.rows);
  std::vector<std::int32_t> order(wte.rows);
  for (auto _ : state) {
    k::cosine_scores_reference(wte.row(query), wte.floats(), wte.rows, wte.cols, scores.data());
    std::iota(order.begin(), order.end(), 0);
    order.erase(order.begin() + query);
    std::partial_sort(order.begin(), order.begin() + kTopK, order.end(), [&](std::int32_t x, std::int32_t y) {
      return scores[x] != scores[y] ? scores[x] > scores[y] : x < y;
    });
    order.resize(wte.rows);
    benchmark::DoNotOptimize(order.data());
  }
  state.SetBytesProcessed(state.iterations() * wte.rows * wte.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations() * wte.rows);
}
BENCHMARK(Nearest4096_Reference)->Unit(benchmark::kMicrosecond);

// What ModelTables::nearest does: kernels::nearest, one pass over the table
// as it is now (each row's dot product with the query and its norm), then
// the 10 best.
void Nearest4096(benchmark::State& state) {
  const auto wte = data().tables.wte();
  const std::int64_t query = 477;
  std::vector<float> scratch(wte.rows), top_scores(kTopK);
  std::vector<std::int32_t> top_ids(kTopK);
  for (auto _ : state) {
    benchmark::DoNotOptimize(k::nearest(wte.row(query), wte.numbers, wte.rows, wte.cols, kTopK, query,
                                        scratch.data(), top_ids.data(), top_scores.data()));
  }
  state.SetBytesProcessed(state.iterations() * wte.rows * wte.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations() * wte.rows);
}
BENCHMARK(Nearest4096)->Unit(benchmark::kMicrosecond);

// The same scan over the table's numbers rounded to F16 or BF16 (by
// truncation) and kept in 16 bits, as a 16-bit checkpoint is: the rows are
// widened in registers as they are read. Beside Nearest4096 for the cost.
void Nearest4096_16Bit(benchmark::State& state, k::NumberFormat format) {
  const auto wte = data().tables.wte();
  std::vector<std::uint16_t> bits(wte.rows * wte.cols);
  for (std::size_t i = 0; i < bits.size(); ++i) {
    std::uint32_t f32;
    std::memcpy(&f32, wte.floats() + i, sizeof f32);
    const int exponent = std::clamp(static_cast<int>((f32 >> 23) & 0xFF) - 127 + 15, 0, 30);
    bits[i] = format == k::NumberFormat::BF16
                  ? static_cast<std::uint16_t>(f32 >> 16)
                  : static_cast<std::uint16_t>((f32 >> 16 & 0x8000) | exponent << 10 | (f32 >> 13 & 0x3FF));
  }
  const std::int64_t query = 477;
  std::vector<float> query_row(wte.cols), scratch(wte.rows), top_scores(kTopK);
  k::widen({bits.data() + query * wte.cols, format}, wte.cols, query_row.data());
  std::vector<std::int32_t> top_ids(kTopK);
  for (auto _ : state) {
    benchmark::DoNotOptimize(k::nearest(query_row.data(), {bits.data(), format}, wte.rows, wte.cols, kTopK,
                                        query, scratch.data(), top_ids.data(), top_scores.data()));
  }
  state.SetBytesProcessed(state.iterations() * wte.rows * wte.cols * sizeof(std::uint16_t));
  state.SetItemsProcessed(state.iterations() * wte.rows);
}
BENCHMARK_CAPTURE(Nearest4096_16Bit, F16, k::NumberFormat::F16)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(Nearest4096_16Bit, BF16, k::NumberFormat::BF16)->Unit(benchmark::kMicrosecond);

// A query of size 1e-25 (its float32 squared norm underflows): every row is
// scored from double sums, the slow path of float32's whole range.
void Nearest4096_TinyQuery(benchmark::State& state) {
  const auto wte = data().tables.wte();
  std::vector<float> query(wte.row(477), wte.row(477) + wte.cols), scratch(wte.rows), top_scores(kTopK);
  for (auto& x : query) x *= 1e-25f;
  std::vector<std::int32_t> top_ids(kTopK);
  for (auto _ : state) {
    benchmark::DoNotOptimize(k::nearest(query.data(), wte.numbers, wte.rows, wte.cols, kTopK, 477,
                                        scratch.data(), top_ids.data(), top_scores.data()));
  }
  state.SetBytesProcessed(state.iterations() * wte.rows * wte.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations() * wte.rows);
}
BENCHMARK(Nearest4096_TinyQuery)->Unit(benchmark::kMicrosecond);

// Dot128, Cosine128 and Nearest4096 on each backend this CPU runs, called
// through its table ("Nearest4096_Backend/portable"): the ratio of SIMD to
// plain code, and, beside the public functions' figures, what choosing the
// backend at run time costs.
void Dot128_Backend(benchmark::State& state, const k::KernelBackend* backend) {
  const Pair p = row_pair();
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.a);
    benchmark::DoNotOptimize(backend->dot(p.a, p.b, p.n));
  }
  state.SetBytesProcessed(state.iterations() * 2 * p.n * sizeof(float));
  state.SetItemsProcessed(state.iterations());
}

void Cosine128_Backend(benchmark::State& state, const k::KernelBackend* backend) {
  const Pair p = row_pair();
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.a);
    benchmark::DoNotOptimize(backend->cosine(p.a, p.b, p.n));
  }
  state.SetBytesProcessed(state.iterations() * 2 * p.n * sizeof(float));
  state.SetItemsProcessed(state.iterations());
}

void Nearest4096_Backend(benchmark::State& state, const k::KernelBackend* backend) {
  const auto wte = data().tables.wte();
  const std::int64_t query = 477;
  std::vector<float> scratch(wte.rows), top_scores(kTopK);
  std::vector<std::int32_t> top_ids(kTopK);
  for (auto _ : state) {
    benchmark::DoNotOptimize(backend->nearest(wte.row(query), wte.numbers, wte.rows, wte.cols, kTopK, query,
                                              scratch.data(), top_ids.data(), top_scores.data()));
  }
  state.SetBytesProcessed(state.iterations() * wte.rows * wte.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations() * wte.rows);
}

bool register_backend_benchmarks() {
  for (const k::KernelBackend* backend : k::available_backends()) {
    const std::string name = backend->name;
    benchmark::RegisterBenchmark(("Dot128_Backend/" + name).c_str(), Dot128_Backend, backend);
    benchmark::RegisterBenchmark(("Cosine128_Backend/" + name).c_str(), Cosine128_Backend, backend);
    benchmark::RegisterBenchmark(("Nearest4096_Backend/" + name).c_str(), Nearest4096_Backend, backend)
        ->Unit(benchmark::kMicrosecond);
  }
  return true;
}
const bool backend_benchmarks_registered = register_backend_benchmarks();

// The two halves of Nearest4096 on their own.
void Nearest4096_ScoresOnly(benchmark::State& state) {
  const auto wte = data().tables.wte();
  std::vector<float> scores(wte.rows);
  for (auto _ : state) {
    k::cosine_scores(wte.row(477), wte.numbers, wte.rows, wte.cols, scores.data());
    benchmark::DoNotOptimize(scores.data());
  }
  state.SetBytesProcessed(state.iterations() * wte.rows * wte.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations() * wte.rows);
}
BENCHMARK(Nearest4096_ScoresOnly)->Unit(benchmark::kMicrosecond);

void Nearest4096_TopKOnly(benchmark::State& state) {
  const auto wte = data().tables.wte();
  std::vector<float> scores(wte.rows), top_scores(kTopK);
  std::vector<std::int32_t> top_ids(kTopK);
  k::cosine_scores(wte.row(477), wte.numbers, wte.rows, wte.cols, scores.data());
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        k::top_k(scores.data(), wte.rows, kTopK, 477, top_ids.data(), top_scores.data()));
  }
  state.SetItemsProcessed(state.iterations() * wte.rows);
}
BENCHMARK(Nearest4096_TopKOnly)->Unit(benchmark::kMicrosecond);

// ---- The one-hot lookup as a product: onehot(665) times the 4,096 × 128 table --

std::vector<float> one_hot_665() {
  std::vector<float> x(data().tables.wte().rows, 0.0f);
  x[665] = 1.0f;
  return x;
}

void OneHotTimesTable_Reference(benchmark::State& state) {
  const auto wte = data().tables.wte();
  const std::vector<float> x = one_hot_665();
  std::vector<double> out(wte.cols);
  for (auto _ : state) {
    k::vector_times_table_reference(x.data(), wte.row(0), wte.rows, wte.cols, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * wte.rows * wte.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations() * wte.rows);
}
BENCHMARK(OneHotTimesTable_Reference)->Unit(benchmark::kMicrosecond);

void OneHotTimesTable(benchmark::State& state) {
  const auto wte = data().tables.wte();
  const std::vector<float> x = one_hot_665();
  std::vector<float> out(wte.cols), scratch(wte.cols);
  for (auto _ : state) {
    std::fill(out.begin(), out.end(), 0.0f);
    k::vector_times_table(x.data(), wte.numbers, wte.rows, wte.cols, scratch.data(), out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * wte.rows * wte.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations() * wte.rows);
}
BENCHMARK(OneHotTimesTable)->Unit(benchmark::kMicrosecond);

// What the model does instead: the row itself, 128 numbers read.
void OneHotAsALookup(benchmark::State& state) {
  const auto wte = data().tables.wte();
  std::vector<float> out(wte.cols);
  for (auto _ : state) {
    std::memcpy(out.data(), wte.row(665), wte.cols * sizeof(float));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * wte.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(OneHotAsALookup);

// ---- The 128 × 128 position cosine matrix -------------------------------------

void PositionMap_Reference(benchmark::State& state) {
  const auto wpe = data().tables.wpe();
  std::vector<double> map(wpe.rows * wpe.rows);
  for (auto _ : state) {
    for (std::size_t i = 0; i < wpe.rows; ++i)
      for (std::size_t j = 0; j < wpe.rows; ++j)
        map[i * wpe.rows + j] = k::cosine_reference(wpe.row(i), wpe.row(j), wpe.cols);
    benchmark::DoNotOptimize(map.data());
  }
  state.SetBytesProcessed(state.iterations() * wpe.rows * wpe.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations() * wpe.rows * wpe.rows);
}
BENCHMARK(PositionMap_Reference)->Unit(benchmark::kMicrosecond);

// Row by row: one cosine_scores per row (cosine_matrix_rows over every row).
void PositionMap_Rows(benchmark::State& state) {
  const auto& tables = data().tables;
  const auto wpe = tables.wpe();
  std::vector<float> map(wpe.rows * wpe.rows), scratch(wpe.rows);
  for (auto _ : state) {
    k::cosine_matrix_rows(wpe.numbers, wpe.rows, wpe.cols, 0, wpe.rows, scratch.data(), map.data());
    benchmark::DoNotOptimize(map.data());
  }
  state.SetBytesProcessed(state.iterations() * wpe.rows * wpe.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations() * wpe.rows * wpe.rows);
}
BENCHMARK(PositionMap_Rows)->Unit(benchmark::kMicrosecond);

// Each pair once, mirrored (cosine_matrix): what the module computes for model.wpe.
void PositionMap(benchmark::State& state) {
  const auto& tables = data().tables;
  const auto wpe = tables.wpe();
  std::vector<float> map(wpe.rows * wpe.rows), scratch(wpe.rows);
  for (auto _ : state) {
    k::cosine_matrix(wpe.numbers, wpe.rows, wpe.cols, scratch.data(), map.data());
    benchmark::DoNotOptimize(map.data());
  }
  state.SetBytesProcessed(state.iterations() * wpe.rows * wpe.cols * sizeof(float));
  state.SetItemsProcessed(state.iterations() * wpe.rows * wpe.rows);
}
BENCHMARK(PositionMap)->Unit(benchmark::kMicrosecond);

}  // namespace
