// What one loaded model is to its caller: a ModelSession owns the tables
// loader, the two tables and a workspace for every later call. The
// WebAssembly bindings hand it to JavaScript almost unchanged
// (bindings/embind.cpp), and the native tests drive it the same way.
//
// Memory discipline. A ModelSession allocates everything it will ever need in
// read_header(), before a byte of the tables is read, and checks the total
// against a MemoryBudget first: so a model that cannot fit is refused with
// its sizes, and no later call allocates more than a short message. (The
// JavaScript layer relies on this: views of the tables stay valid only while
// the memory under them never grows.)
//
// Failures are `false` with error() saying why, never an exception or an
// abort. Messages name no file: error_source() says which file an error is
// about, and the caller, which knows what it called the files, names it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/common/buffer.h"
#include "embeddings/common/memory_budget.h"
#include "embeddings/formats/tables_loader.h"
#include "embeddings/kernels/kernels.h"

namespace embeddings {

// Longest vector a caller copies into a session at once: longer vectors from
// outside are processed in chunks of this many numbers, so none needs an
// allocation.
inline constexpr std::size_t kVectorChunk = 16384;
// Numbers in one block of a cosine matrix handed back to the caller.
inline constexpr std::size_t kMatrixBlock = 1 << 18;
// Heap room kept free after loading, for the short strings later calls
// allocate (messages, names), so that they never grow memory.
inline constexpr std::size_t kSlackBytes = 1 << 20;
// The JSON reader builds its tree with std containers: at worst
// ("[0,0,0,...]") about 88 bytes of memory per input byte in wasm32,
// measured. A JSON text whose worst case cannot fit is refused before
// parsing. (tokenizer.json is not read as a tree; its loader estimates its
// own tables and checks them against the budget.)
inline constexpr std::uint64_t kJsonBytesPerInputByte = 96;
// Tokens one trace holds for a model without a position table (rotary
// positions): its context (Llama 3's is 131,072) would make the trace rows
// gigabytes, and the chapter traces sentences.
inline constexpr std::size_t kTraceTokensWithoutPositionTable = 1024;
// Bytes of the file a loader reads first (the header's length).
inline constexpr std::size_t kPrefixBytes = 8;
// Sizes arrive from JavaScript as doubles, exact up to 2^53.
inline constexpr double kLargestExactDouble = 9007199254740992.0;

class ModelSession {
 public:
  explicit ModelSession(MemoryBudget budget = {}) : budget_(budget) {}

  const std::string& error() const { return error_; }
  ErrorSource error_source() const { return error_source_; }

  // ---- Loading, in this order --------------------------------------------
  // The caller writes the file's first kPrefixBytes (or fewer) here.
  unsigned char* prefix_buffer() { return prefix_; }
  bool begin(std::size_t available, double file_size);
  std::uint64_t header_length() const { return loader_.header_length(); }
  // A buffer of header_length() bytes for the header; null when there is no
  // memory for it.
  unsigned char* header_buffer();
  // Parses the header, then allocates everything the model will need (the
  // tables and the workspace), after checking that it fits the budget.
  bool read_header();
  // For table 0 (wte) and 1 (wpe): where in the file its bytes are, and
  // where they go (null for another table number).
  std::uint64_t table_offset(int table) const;
  std::uint64_t table_bytes(int table) const;
  unsigned char* table_buffer(int table);
  // Optional: a buffer for config.json's text (null when it is longer than
  // kMaxConfigBytes or memory is short), then its check.
  char* config_buffer(std::size_t bytes);
  // Before finish(): the file is one shard of a sharded checkpoint
  // (TablesLoader::set_one_shard_of_many()).
  void set_one_shard_of_many() { loader_.set_one_shard_of_many(); }
  bool read_config();
  bool finish();
  bool loaded() const { return loaded_; }

  // ---- The model -----------------------------------------------------------
  const EmbeddingTables& tables() const { return tables_; }
  // The safetensors __metadata__ as the text of a JSON object of strings.
  std::string_view metadata_json() const { return {workspace_.metadata_json.data(), metadata_json_size_}; }
  // robust_limit() of table 0 (wte) or 1 (wpe), read by finish(): the scale
  // the page colours a table's numbers by (1 for a model without wpe); 0 for
  // another table number or before finish().
  float robust_limit(int table) const;
  // nearest() leaves out rows at and after this one: the rows of a padded
  // token table that have no token. All rows by default.
  void set_rows_with_tokens(std::size_t rows);

  // Most tokens one trace() takes: the rows of wpe, or
  // kTraceTokensWithoutPositionTable for a model that has none.
  std::size_t trace_capacity() const { return trace_capacity_; }

  // ---- Workspace -------------------------------------------------------------
  // Filled by the caller before trace(): up to trace_capacity() token ids.
  std::int32_t* ids() { return workspace_.ids.data(); }
  // trace()'s results, trace_capacity() × width() each. Without a position
  // table, position_rows() stays zero and sum_rows() are the token rows.
  const float* token_rows() const { return workspace_.token_rows.data(); }
  const float* position_rows() const { return workspace_.position_rows.data(); }
  const float* sum_rows() const { return workspace_.sum_rows.data(); }
  // Filled by the caller before nearest_to_query(): width() numbers.
  float* query() { return workspace_.query.data(); }
  // nearest()'s results: result_count() ids and scores, best first. The
  // count is also at result_count_address(), for a caller across a slow
  // boundary (an Embind call costs as much as a few percent of nearest()).
  const std::int32_t* result_ids() const { return workspace_.result_ids.data(); }
  const float* result_scores() const { return workspace_.result_scores.data(); }
  std::size_t result_count() const { return result_count_; }
  const std::uint32_t* result_count_address() const { return &result_count_; }
  // Scratch for vectors from outside, kVectorChunk numbers each, and the three
  // sums of a cosine over chunks.
  float* vector_a() { return workspace_.vector_a.data(); }
  float* vector_b() { return workspace_.vector_b.data(); }
  double* sums() { return sums_; }
  // A block of a cosine matrix, kMatrixBlock numbers.
  const float* matrix_block() const { return workspace_.matrix_block.data(); }

  // ---- Computations over the workspace ---------------------------------------
  // The trace of the n ids at ids(): fills the three row blocks.
  bool trace(std::size_t n);
  // The k tokens closest to row `id` of wte (not listing `id` itself), or
  // to the vector at query(). Results at result_ids(), result_scores().
  // For a 16-bit wte, nearest_to_token() leaves the row, widened, at query().
  bool nearest_to_token(std::size_t id, std::size_t k);
  bool nearest_to_query(std::size_t k);
  // Rows [begin, end) of the cosine matrix of table 0 (wte) or 1 (wpe, an error
  // for a model without one) into
  // matrix_block(); (end - begin) × rows must fit in kMatrixBlock.
  bool cosine_matrix_rows(int table, std::size_t begin, std::size_t end);
  // The whole cosine matrix of a table of at most sqrt(kMatrixBlock) rows (wpe), each pair
  // computed once.
  bool cosine_matrix(int table);
  // Rows [begin, begin + count) of wte times the count numbers at vector_a()
  // (count <= kVectorChunk), added to the width() numbers at query(): the
  // caller zeroes them first, then a vector longer than a chunk goes through
  // chunk by chunk (kernels::vector_times_table; the chapter's one-hot
  // lookup as a product). wte only: the page's module has no room for more.
  bool vector_times_wte(std::size_t begin, std::size_t count);

 private:
  // Every buffer read_header() allocates besides the tables. It counts them
  // for the budget and then allocates them through the same for_each(), so
  // the budget and the allocation cannot disagree.
  struct Workspace {
    Buffer<std::int32_t> ids, result_ids;
    Buffer<float> token_rows, position_rows, sum_rows, query, scratch, result_scores, vector_a, vector_b,
        matrix_block;
    Buffer<char> metadata_json, slack;
    template <typename Visit>
    void for_each(std::size_t vocab, std::size_t width, std::size_t context, std::size_t metadata_bytes,
                  Visit visit);
  };

  bool fail(std::string message, ErrorSource source = ErrorSource::Weights);
  bool fail_from_loader();
  bool check_loaded();
  bool table_view(int table, TableView& view);
  bool nearest(const float* query, std::size_t k, std::int64_t exclude);
  std::size_t metadata_json_length() const;
  void write_metadata_json();

  MemoryBudget budget_;
  TablesLoader loader_;
  EmbeddingTables tables_;
  Workspace workspace_;
  bool loaded_ = false;
  std::size_t rows_with_tokens_ = 0;
  std::size_t trace_capacity_ = 0;
  float robust_limits_[2] = {};
  std::uint32_t result_count_ = 0;  // At most the rows of wte, which fit (kMaxTableBytes).
  std::size_t metadata_json_size_ = 0;
  std::string error_;
  ErrorSource error_source_ = ErrorSource::Weights;
  unsigned char prefix_[kPrefixBytes] = {};
  double sums_[3] = {};
  Buffer<unsigned char> header_;
  Buffer<char> config_;
};

}  // namespace embeddings
