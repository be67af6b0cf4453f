// Embind glue between the C++ library and web/: buffer handoff and one
// declarative binding block. The sessions (embeddings/session/model_session.h, text_session.h) do the
// work; this file only tells them how much memory the WebAssembly heap has
// left, turns their buffers into addresses JavaScript can write through, and
// names what JavaScript may call. Every address JavaScript uses comes from
// here; JavaScript passes back ids, counts and offsets, never addresses.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/heap.h>
#include <malloc.h>

#include <cstdint>
#include <string>

#include "embeddings/kernels/kernels.h"
#include "embeddings/session/model_session.h"
#include "embeddings/session/text_session.h"

namespace {

using embeddings::ModelSession;
using embeddings::TextSession;
namespace kernels = embeddings::kernels;

std::uintptr_t address(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }

// What memory may still grow by: a cheap lower bound of the room left.
std::uint64_t heap_growth_room() {
  const std::uint64_t max = emscripten_get_heap_max(), size = emscripten_get_heap_size();
  return max > size ? max - size : 0;
}
// Growth plus what is free inside the heap. mallinfo() walks the whole heap
// (about 1 ms with GPT-2's tokenizer loaded), so the budget asks it only
// when growth alone could not satisfy a request.
std::uint64_t heap_room() { return heap_growth_room() + static_cast<unsigned>(mallinfo().fordblks); }
const embeddings::MemoryBudget kHeapBudget(heap_room, heap_growth_room);

ModelSession* new_model_session() { return new ModelSession(kHeapBudget); }
TextSession* new_text_session() { return new TextSession(kHeapBudget); }

// A member returning a pointer, bound as one returning its address.
template <auto Member, typename Session, typename... Args>
std::uintptr_t address_of(Session& session, Args... args) {
  return address((session.*Member)(args...));
}

}  // namespace

// Hot vector kernels as plain exports: the chapter calls dot and cosine in
// loops, and a direct WebAssembly call costs far less than an Embind
// invoker built without eval (see docs/benchmarks.md). Their pointers are
// views of an instance's own memory, found by the JavaScript layer.
extern "C" {
EMSCRIPTEN_KEEPALIVE float embeddings_dot(const float* a, const float* b, std::size_t n) {
  return kernels::dot(a, b, n);
}
EMSCRIPTEN_KEEPALIVE float embeddings_cosine(const float* a, const float* b, std::size_t n) {
  return kernels::cosine(a, b, n);
}
// For vectors processed in chunks: adds this chunk's three sums to sums[0..2].
EMSCRIPTEN_KEEPALIVE void embeddings_accumulate_dot_and_norms(const float* a, const float* b, std::size_t n,
                                                              double* sums) {
  const kernels::DotAndNorms part = kernels::dot_and_norms(a, b, n);
  sums[0] += part.ab;
  sums[1] += part.aa;
  sums[2] += part.bb;
}
EMSCRIPTEN_KEEPALIVE float embeddings_cosine_from_sums(const double* sums) {
  return kernels::cosine_from_sums(sums[0], sums[1], sums[2]);
}
// The cosine matrix of a (rows, cols) table outside any model: all of it
// (rows * rows floats into `out`), or rows [begin, end) of it; `scratch`
// holds `rows` floats.
EMSCRIPTEN_KEEPALIVE void embeddings_cosine_matrix(const float* table, std::size_t rows, std::size_t cols,
                                                   float* scratch, float* out) {
  kernels::cosine_matrix(table, rows, cols, scratch, out);
}
EMSCRIPTEN_KEEPALIVE void embeddings_cosine_matrix_rows(const float* table, std::size_t rows,
                                                        std::size_t cols, std::size_t begin, std::size_t end,
                                                        float* scratch, float* out) {
  kernels::cosine_matrix_rows(table, rows, cols, begin, end, scratch, out);
}
}

EMSCRIPTEN_BINDINGS(embeddings) {
  using emscripten::class_;
  using emscripten::function;
  using emscripten::optional_override;
  using M = ModelSession;
  using T = TextSession;
  class_<M>("ModelSession")
      .constructor(&new_model_session, emscripten::allow_raw_pointers())
      .function("error", &M::error)
      .function("errorIsAboutConfig", optional_override([](const M& s) {
                  return s.error_source() == embeddings::ErrorSource::Config;
                }))
      // Loading
      .function("prefixBuffer", &address_of<&M::prefix_buffer, M>)
      .function("begin", &M::begin)
      .function("headerLength", optional_override([](const M& s) { return double(s.header_length()); }))
      .function("headerBuffer", &address_of<&M::header_buffer, M>)
      .function("readHeader", &M::read_header)
      .function("tableOffset", optional_override([](const M& s, int t) { return double(s.table_offset(t)); }))
      .function("tableBytes", optional_override([](const M& s, int t) { return double(s.table_bytes(t)); }))
      .function("tableBuffer", &address_of<&M::table_buffer, M, int>)
      .function("configBuffer", &address_of<&M::config_buffer, M, std::size_t>)
      .function("readConfig", &M::read_config)
      .function("setOneShardOfMany", &M::set_one_shard_of_many)
      .function("finish", &M::finish)
      // The model
      .function("wte", optional_override([](const M& s) { return address(s.tables().wte().numbers.data); }))
      .function("wpe", optional_override([](const M& s) { return address(s.tables().wpe().numbers.data); }))
      // The tables' number formats: 0 float32, 1 F16, 2 BF16 (kernels::NumberFormat).
      .function("wteFormat", optional_override([](const M& s) { return int(s.tables().wte().format()); }))
      .function("wpeFormat", optional_override([](const M& s) { return int(s.tables().wpe().format()); }))
      .function("vocabSize", optional_override([](const M& s) { return s.tables().vocab_size(); }))
      .function("width", optional_override([](const M& s) { return s.tables().width(); }))
      .function("context", optional_override([](const M& s) { return s.tables().context(); }))
      .function("robustLimit", optional_override([](const M& s, int t) { return double(s.robust_limit(t)); }))
      .function("hasPositionTable",
                optional_override([](const M& s) { return s.tables().has_position_table(); }))
      .function("traceCapacity", &M::trace_capacity)
      .function("family",
                optional_override([](const M& s) { return std::string(s.tables().family().family); }))
      .function("parameterCount",
                optional_override([](const M& s) { return double(s.tables().parameter_count()); }))
      .function("wteName", optional_override([](const M& s) { return s.tables().wte_name(); }))
      .function("wpeName", optional_override([](const M& s) { return s.tables().wpe_name(); }))
      .function("metadataJson",
                optional_override([](const M& s) { return address(s.metadata_json().data()); }))
      .function("metadataJsonLength", optional_override([](const M& s) { return s.metadata_json().size(); }))
      .function("configLayers",
                optional_override([](const M& s) { return double(s.tables().config().layers); }))
      .function("configHeads",
                optional_override([](const M& s) { return double(s.tables().config().heads); }))
      .function("setRowsWithTokens", &M::set_rows_with_tokens)
      // Workspace
      .function("idsBuffer", &address_of<&M::ids, M>)
      .function("tokenRows", optional_override([](const M& s) { return address(s.token_rows()); }))
      .function("positionRows", optional_override([](const M& s) { return address(s.position_rows()); }))
      .function("sumRows", optional_override([](const M& s) { return address(s.sum_rows()); }))
      .function("queryBuffer", &address_of<&M::query, M>)
      .function("resultIds", optional_override([](const M& s) { return address(s.result_ids()); }))
      .function("resultScores", optional_override([](const M& s) { return address(s.result_scores()); }))
      .function("resultCountAddress",
                optional_override([](const M& s) { return address(s.result_count_address()); }))
      .function("vectorA", &address_of<&M::vector_a, M>)
      .function("vectorB", &address_of<&M::vector_b, M>)
      .function("sumsBuffer", &address_of<&M::sums, M>)
      .function("matrixBlock", optional_override([](const M& s) { return address(s.matrix_block()); }))
      // Computations
      .function("trace", &M::trace)
      .function("nearestToToken", &M::nearest_to_token)
      .function("nearestToQuery", &M::nearest_to_query)
      .function("cosineMatrixRows", &M::cosine_matrix_rows)
      .function("cosineMatrix", &M::cosine_matrix)
      .function("vectorTimesWte", &M::vector_times_wte);
  class_<T>("TextSession")
      .constructor(&new_text_session, emscripten::allow_raw_pointers())
      .function("error", &T::error)
      .function("inputBuffer", &address_of<&T::input_buffer, T, std::size_t>)
      .function("load", &T::load)
      .function("loadStep", &T::load_step)
      .function("encode", &T::encode)
      .function("encodeAtMost", &T::encode_at_most)
      .function("encodeSpecial", &T::encode_special)
      .function("outputAddress", optional_override([](const T& s) { return address(s.output_address()); }))
      .function("release", &T::release)
      .function("textBuffer", &address_of<&T::text_buffer, T, std::size_t>)
      .function("encodeText", &T::encode_text)
      .function("encodeTextAtMost", &T::encode_text_at_most)
      .function("idsInput", &address_of<&T::ids_input, T, std::size_t>)
      .function("decode", &T::decode)
      .function("decodeSkippingSpecial", &T::decode_skipping_special)
      .function("vocabSize", optional_override([](const T& s) { return s.tokenizer().vocab_size(); }))
      .function("tokenCount", optional_override([](const T& s) { return s.tokenizer().token_count(); }))
      .function("maxTokenBytes",
                optional_override([](const T& s) { return s.tokenizer().max_token_bytes(); }))
      .function("tokenText",
                optional_override([](const T& s, int id) { return s.tokenizer().token_text(id); }))
      .function("vocabularyJson", &T::vocabulary_json)
      .function("tokenId", optional_override([](const T& s, const std::string& text) {
                  return s.tokenizer().token_id(text);
                }));
  function("backendName", optional_override([]() { return std::string(kernels::backend_name()); }));
  // The table names a sharded checkpoint's index is searched for.
  function("checkpointTableNames",
           optional_override([]() { return embeddings::checkpoint_table_names(true); }));
  // Bytes of a weights file read before its header (embeddings::kPrefixBytes).
  function("prefixBytes", optional_override([]() { return embeddings::kPrefixBytes; }));
  // The chunk every instance's vector scratch holds (embeddings::kVectorChunk).
  function("vectorChunk", optional_override([]() { return embeddings::kVectorChunk; }));
  // Numbers in a block of a cosine matrix (embeddings::kMatrixBlock).
  function("matrixBlockSize", optional_override([]() { return embeddings::kMatrixBlock; }));
  // For the tests only (the package does not export it): bytes malloc has
  // handed out and not yet had back, to check that calls leave nothing behind.
  function("heapAllocatedBytes", optional_override([]() {
             return static_cast<double>(static_cast<unsigned>(mallinfo().uordblks));
           }));
}
