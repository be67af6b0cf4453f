// A trace of 128 tokens (tokenize, gather, sum) and loading the default
// model, native. Also the suite's main(), which says which model it ran on.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "bench_data.h"
#include "embeddings/file_io/file_io.h"
#include "embeddings/kernels/kernels.h"

namespace {

namespace k = embeddings::kernels;
using bench::data;

// Reference trace: the same tokenizer, then the gather and the sum one number
// at a time, as the chapter describes them.
void Trace128_Reference(benchmark::State& state) {
  const auto& d = data();
  const auto wte = d.tables.wte(), wpe = d.tables.wpe();
  const std::size_t width = wte.cols;
  std::vector<float> token(wpe.rows * width), position(wpe.rows * width), sum(wpe.rows * width);
  for (auto _ : state) {
    const std::vector<std::int32_t> ids = d.tokenizer.encode(d.trace_text);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      for (std::size_t c = 0; c < width; ++c) {
        const float t = wte.row(ids[i])[c], p = wpe.row(i)[c];
        token[i * width + c] = t;
        position[i * width + c] = p;
        sum[i * width + c] = t + p;
      }
    }
    benchmark::DoNotOptimize(sum.data());
  }
  state.SetItemsProcessed(state.iterations() * d.trace_ids.size());
  state.SetBytesProcessed(state.iterations() * d.trace_text.size());
  state.counters["tokens"] = static_cast<double>(d.trace_ids.size());
}
BENCHMARK(Trace128_Reference)->Unit(benchmark::kMicrosecond);

// What ModelTables::embed does after the tokenizer: embed_tokens into a workspace.
void Trace128(benchmark::State& state) {
  const auto& d = data();
  const auto wte = d.tables.wte(), wpe = d.tables.wpe();
  const std::size_t width = wte.cols;
  std::vector<float> token(wpe.rows * width), position(wpe.rows * width), sum(wpe.rows * width);
  std::vector<std::int32_t> ids;
  ids.reserve(wpe.rows + 1);
  for (auto _ : state) {
    ids.clear();
    d.tokenizer.encode(d.trace_text, ids);
    k::embed_tokens(ids.data(), ids.size(), wte.numbers, wpe.numbers, width, token.data(), position.data(),
                    sum.data());
    benchmark::DoNotOptimize(sum.data());
  }
  state.SetItemsProcessed(state.iterations() * d.trace_ids.size());
  state.SetBytesProcessed(state.iterations() * d.trace_text.size());
  state.counters["tokens"] = static_cast<double>(d.trace_ids.size());
}
BENCHMARK(Trace128)->Unit(benchmark::kMicrosecond);

// The two halves of Trace128 on their own.
void Trace128_TokenizeOnly(benchmark::State& state) {
  const auto& d = data();
  std::vector<std::int32_t> ids;
  ids.reserve(d.tables.context() + 1);
  for (auto _ : state) {
    ids.clear();
    d.tokenizer.encode(d.trace_text, ids);
    benchmark::DoNotOptimize(ids.data());
  }
  state.SetItemsProcessed(state.iterations() * d.trace_ids.size());
  state.SetBytesProcessed(state.iterations() * d.trace_text.size());
}
BENCHMARK(Trace128_TokenizeOnly)->Unit(benchmark::kMicrosecond);

void Trace128_EmbedOnly(benchmark::State& state) {
  const auto& d = data();
  const auto wte = d.tables.wte(), wpe = d.tables.wpe();
  const std::size_t width = wte.cols, n = d.trace_ids.size();
  std::vector<float> token(n * width), position(n * width), sum(n * width);
  for (auto _ : state) {
    k::embed_tokens(d.trace_ids.data(), n, wte.numbers, wpe.numbers, width, token.data(), position.data(),
                    sum.data());
    benchmark::DoNotOptimize(sum.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * 5 * n * width * sizeof(float));  // 2 rows read, 3 written
}
BENCHMARK(Trace128_EmbedOnly)->Unit(benchmark::kMicrosecond);

// ---- Loading ------------------------------------------------------------------

// The weights file read from disk (page cache) and both tables checked,
// converted and normed, as load_tables_from_file does.
void LoadTables(benchmark::State& state) {
  const auto& d = data();
  for (auto _ : state) {
    embeddings::EmbeddingTables tables;
    std::string error;
    if (!embeddings::load_tables_from_file(d.weights_path, d.config_json.empty() ? nullptr : &d.config_json,
                                           tables, error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    benchmark::DoNotOptimize(tables.wte().numbers.data);
  }
  state.SetBytesProcessed(state.iterations() * d.weights_bytes);
}
BENCHMARK(LoadTables)->Unit(benchmark::kMillisecond);

void LoadTokenizer(benchmark::State& state) {
  const auto& d = data();
  for (auto _ : state) {
    embeddings::Tokenizer tokenizer;
    std::string error;
    if (!embeddings::Tokenizer::from_json(d.tokenizer_json, tokenizer, error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    benchmark::DoNotOptimize(tokenizer.vocab_size());
  }
  state.SetBytesProcessed(state.iterations() * d.tokenizer_json.size());
}
BENCHMARK(LoadTokenizer)->Unit(benchmark::kMillisecond);

// Everything loadModel() needs natively, from disk: the tables and tokenizer.json
// (config.json text is read once outside the loop; it is a few hundred bytes).
void LoadModel(benchmark::State& state) {
  const auto& d = data();
  for (auto _ : state) {
    embeddings::EmbeddingTables tables;
    embeddings::Tokenizer tokenizer;
    std::string error, tokenizer_json = d.tokenizer_json;
    if ((!d.tokenizer_path.empty() && !embeddings::read_file(d.tokenizer_path, tokenizer_json, error)) ||
        !embeddings::load_tables_from_file(d.weights_path, d.config_json.empty() ? nullptr : &d.config_json,
                                           tables, error) ||
        !embeddings::Tokenizer::from_json(tokenizer_json, tokenizer, error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    benchmark::DoNotOptimize(tables.wte().numbers.data);
  }
  state.SetBytesProcessed(state.iterations() * (d.weights_bytes + d.tokenizer_json.size()));
}
BENCHMARK(LoadModel)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const auto& d = data();
  benchmark::AddCustomContext("model", d.label);
  benchmark::AddCustomContext("backend", k::backend_name());
  benchmark::AddCustomContext("trace_tokens", std::to_string(d.trace_ids.size()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
