// Embind glue between the C++ library and web/. It adds no maths: it owns
// the objects JavaScript holds, turns failures into (false, message) pairs
// the JS layer throws as Errors, and hands out pointers into WebAssembly
// memory for the JS layer to read and write.
//
// Memory discipline (the reason for the workspace): the JS layer gives each
// model's tables their own WebAssembly instance. Everything that instance
// will ever need after loading (tables, trace rows, query, results, scratch)
// is allocated in readHeader(), before a byte of the tables is fetched, so no
// later call allocates more than a short message, memory never grows after
// loading, and Float32Array views of wte and wpe stay valid for the model's
// life. Text work (tokenizer) lives in a separate instance, because text
// length, and so its memory, is up to the reader.
//
// Out of memory: this build has no exceptions, so operator new aborts the
// instance when malloc fails (and malloc does fail: -sALLOW_MEMORY_GROWTH
// turns ABORTING_MALLOC off). Every allocation whose size comes from a file
// or from the reader therefore goes through embeddings::Buffer (malloc,
// checked) or is checked against heap_room() first; failures are messages.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/heap.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "embeddings/buffer.h"
#include "embeddings/json.h"
#include "embeddings/kernels.h"
#include "embeddings/model.h"
#include "embeddings/tokenizer.h"

namespace {

using embeddings::EmbeddingTables;
using embeddings::Table;
using embeddings::TablesLoader;
namespace kernels = embeddings::kernels;

using embeddings::Buffer;

std::uintptr_t address(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }

// Bytes malloc can still hand out: what memory may grow by, plus what is free inside it.
// mallinfo() walks the whole heap (about 1 ms with GPT-2's tokenizer loaded),
// so hot paths ask heap_has_room() instead, which needs it only when growth
// alone could not satisfy the request.
std::uint64_t heap_growth_room() {
  const std::uint64_t max = emscripten_get_heap_max(), size = emscripten_get_heap_size();
  return max > size ? max - size : 0;
}
std::uint64_t heap_room() { return heap_growth_room() + static_cast<unsigned>(mallinfo().fordblks); }
bool heap_has_room(std::uint64_t bytes) { return bytes <= heap_growth_room() || bytes <= heap_room(); }

// A size for a message: "512 bytes", "3.5 MiB".
std::string mebibytes(std::uint64_t bytes) {
  if (bytes < (1 << 20)) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  const std::uint64_t tenths = (bytes * 10 + (1 << 20) / 2) >> 20;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MiB";
}

// A rainy-day reserve. Even a refusal allocates (its message), and when
// memory is exhausted that small allocation would abort the instance. So
// each instance keeps this much aside; operator new's new_handler gives it
// back when malloc fails, which lets the message be built and returned.
// Entry points that can fail for lack of memory re-arm it first.
constexpr std::size_t kReserveBytes = 64 << 10;
void* reserve = nullptr;

void release_reserve() {
  std::free(reserve);
  reserve = nullptr;
  std::set_new_handler(nullptr);  // A second failure aborts, as it would have.
}

void ensure_reserve() {
  if (reserve != nullptr) return;
  reserve = std::malloc(kReserveBytes);
  if (reserve != nullptr) std::set_new_handler(release_reserve);
}

[[maybe_unused]] const bool reserve_armed = (ensure_reserve(), true);

// The JSON reader builds its tree with std containers (operator new). At
// worst ("[0,0,0,...]") that takes about 88 bytes of memory per input byte
// in wasm32, measured; a tokenizer adds its tables to the tree. A JSON file
// whose worst case cannot fit is refused before parsing, rather than
// aborting the instance halfway through it.
constexpr std::uint64_t kJsonBytesPerInputByte = 96;
constexpr std::uint64_t kTokenizerJsonBytesPerInputByte = 128;

bool json_fits(std::uint64_t bytes, std::uint64_t per_byte, const char* what, std::string& error) {
  const std::uint64_t worst = bytes * per_byte;
  if (heap_has_room(worst)) return true;
  const std::uint64_t room = heap_room();
  error = std::string(what) + " is " + mebibytes(bytes) + "; reading it could take up to " + mebibytes(worst) +
          " of memory, more than this WebAssembly instance can get (" + mebibytes(room) + ")";
  return false;
}

// Heap room kept free after loading a model, for the short strings later
// calls allocate (messages, names), so that they never grow memory.
constexpr std::size_t kSlackBytes = 1 << 20;

// Longest vector the JS layer copies into this instance at once; longer
// vectors from outside are processed in chunks of this many numbers.
constexpr std::size_t kVectorChunk = 16384;
// Numbers in one block of a cosine map handed back to JS.
constexpr std::size_t kMapBlock = 1 << 18;

class ModelTables {
 public:
  const std::string& error() const { return error_; }

  // ---- Loading -------------------------------------------------------------
  // JS writes the file's first 8 bytes (or fewer) here before begin().
  std::uintptr_t prefixBuffer() { return address(prefix_); }
  bool begin(std::size_t available, double file_size) {
    ensure_reserve();
    if (!(file_size >= 0) || file_size > 9007199254740992.0) return fail("invalid file size");
    return check(loader_.begin(prefix_, available > 8 ? 8 : available, static_cast<std::uint64_t>(file_size),
                               error_));
  }
  double headerLength() const { return static_cast<double>(loader_.header_length()); }
  // A buffer of headerLength() bytes for JS to fill with the header; 0 when
  // there is no memory for it (error() says so).
  std::uintptr_t headerBuffer() {
    ensure_reserve();
    if (!header_.allocate(loader_.header_length())) {
      fail("out of memory for the " + mebibytes(loader_.header_length()) + " header");
      return 0;
    }
    return address(header_.data());
  }
  // Parses the header, then allocates everything the model will need: the
  // tables and the workspace. Fails early, with sizes, when they cannot fit.
  bool readHeader() {
    ensure_reserve();
    const std::string_view header(reinterpret_cast<const char*>(header_.data()), header_.size());
    const bool parsed = json_fits(header.size(), kJsonBytesPerInputByte, "the header", error_) &&
                        loader_.parse_header(header, error_);
    header_.reset();
    if (!parsed) return false;
    const std::uint64_t vocab = loader_.table_info(Table::Token)->shape[0];
    const std::uint64_t context = loader_.table_info(Table::Position)->shape[0];
    const std::uint64_t width = loader_.table_info(Table::Token)->shape[1];
    // Sizes are bounded by the loader's per-table limit, so this cannot overflow.
    // (nearest() and the cosine maps need one float of scratch per row.)
    const std::uint64_t scratch_rows = vocab > context ? vocab : context;
    const std::uint64_t workspace = context * 4 + 3 * context * width * 4 + width * 4 + 2 * vocab * 4 +
                                    scratch_rows * 4 + 2 * kVectorChunk * 4 + kMapBlock * 4 + kSlackBytes;
    const std::uint64_t tables = loader_.allocation_bytes();
    const std::uint64_t room = heap_room();
    if (tables + workspace > room) {
      return fail("the model needs " + mebibytes(tables + workspace) + " of memory (tables " + mebibytes(tables) +
                  ", workspace " + mebibytes(workspace) + ") but this WebAssembly instance can get at most " +
                  mebibytes(room));
    }
    if (!loader_.allocate(error_)) return false;
    if (!ids_.allocate_zeroed(context) || !token_rows_.allocate_zeroed(context * width) ||
        !position_rows_.allocate_zeroed(context * width) || !sum_rows_.allocate_zeroed(context * width) ||
        !query_.allocate_zeroed(width) || !scratch_.allocate_zeroed(scratch_rows) ||
        !result_ids_.allocate_zeroed(vocab) || !result_scores_.allocate_zeroed(vocab) ||
        !vector_a_.allocate_zeroed(kVectorChunk) || !vector_b_.allocate_zeroed(kVectorChunk) ||
        !map_block_.allocate_zeroed(kMapBlock)) {
      return fail("out of memory: the model needs " + mebibytes(tables + workspace) +
                  " and the WebAssembly instance could not grow that far");
    }
    error_.clear();
    return true;
  }
  double tableOffset(int table) const { return static_cast<double>(loader_.table_offset(as_table(table))); }
  double tableBytes(int table) const { return static_cast<double>(loader_.table_bytes(as_table(table))); }
  std::uintptr_t tableBuffer(int table) { return address(loader_.table_buffer(as_table(table))); }
  // config.json goes through a buffer like the header: its size is the file's.
  std::uintptr_t configBuffer(std::size_t bytes) {
    ensure_reserve();
    if (!config_.allocate(bytes)) {
      fail("out of memory for " + mebibytes(bytes) + " of config.json");
      return 0;
    }
    return address(config_.data());
  }
  bool readConfig() {
    ensure_reserve();
    const bool ok = json_fits(config_.size(), kJsonBytesPerInputByte, "the file", error_) &&
                    loader_.read_config(std::string_view(config_.data(), config_.size()), error_);
    config_.reset();
    return check(ok);
  }
  bool finish() {
    ensure_reserve();
    if (!loader_.finish(tables_, error_)) return false;
    metadata_json_ = make_metadata_json();
    // Leave room at the top of the heap for the strings later calls allocate
    // (the largest being metadataJson()'s copy), so memory never grows again.
    if (void* slack = std::malloc(kSlackBytes + 2 * metadata_json_.size())) std::free(slack);
    loaded_ = true;
    error_.clear();
    return true;
  }

  // ---- Tables --------------------------------------------------------------
  std::uintptr_t wte() const { return address(tables_.wte().data); }
  std::uintptr_t wpe() const { return address(tables_.wpe().data); }
  std::uintptr_t wteInverseNorms() const { return address(tables_.wte_inverse_norms()); }
  std::size_t vocabSize() const { return tables_.vocab_size(); }
  std::size_t width() const { return tables_.width(); }
  std::size_t context() const { return tables_.context(); }
  double parameterCount() const { return static_cast<double>(tables_.parameter_count()); }
  std::string tokenTableName() const { return tables_.wte_name(); }
  std::string positionTableName() const { return tables_.wpe_name(); }
  // The safetensors __metadata__ as a JSON object text.
  const std::string& metadataJson() const { return metadata_json_; }
  std::string make_metadata_json() const {
    std::string out = "{";
    bool first = true;
    for (const auto& [key, value] : tables_.metadata()) {
      if (!first) out += ",";
      first = false;
      embeddings::json::append_quoted(out, key);
      out += ":";
      embeddings::json::append_quoted(out, value);
    }
    return out + "}";
  }
  // config.json fields as read (0 where config.json was absent or silent).
  std::size_t configLayers() const { return tables_.config().layers; }
  std::size_t configHeads() const { return tables_.config().heads; }

  // ---- Workspace pointers ----------------------------------------------------
  std::uintptr_t idsBuffer() { return address(ids_.data()); }
  std::uintptr_t tokenRows() { return address(token_rows_.data()); }
  std::uintptr_t positionRows() { return address(position_rows_.data()); }
  std::uintptr_t sumRows() { return address(sum_rows_.data()); }
  std::uintptr_t queryBuffer() { return address(query_.data()); }
  std::uintptr_t resultIds() { return address(result_ids_.data()); }
  std::uintptr_t resultScores() { return address(result_scores_.data()); }
  std::uintptr_t vectorA() { return address(vector_a_.data()); }
  std::uintptr_t vectorB() { return address(vector_b_.data()); }
  std::size_t vectorChunk() const { return kVectorChunk; }
  // Three doubles for cosine over vectors processed in chunks.
  std::uintptr_t sumsBuffer() { return address(sums_); }
  std::uintptr_t mapBlock() { return address(map_block_.data()); }
  std::size_t mapBlockSize() const { return kMapBlock; }

  // ---- Kernels over the workspace ------------------------------------------
  // Trace of n token ids (already in idsBuffer()): fills the three row blocks.
  bool embed(std::size_t n) {
    if (!loaded_) return fail("no model is loaded");
    if (n > tables_.context()) return fail("more tokens than the context holds");
    const std::int32_t* ids = ids_.data();
    for (std::size_t i = 0; i < n; ++i)
      if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= tables_.vocab_size())
        return fail("token id " + std::to_string(ids[i]) + " is outside the token table");
    kernels::embed_tokens(ids, n, tables_.wte().data, tables_.wpe().data, tables_.width(),
                          token_rows_.data(), position_rows_.data(), sum_rows_.data());
    return true;
  }

  // Nearest tokens to a query vector at `query` (a pointer into this
  // instance: a wte row or queryBuffer()), excluding token `exclude` (-1 for
  // none). Results in resultIds()/resultScores(); returns how many.
  std::size_t nearest(std::uintptr_t query, std::size_t k, int exclude) {
    if (!loaded_ || k == 0) return 0;
    const auto* q = reinterpret_cast<const float*>(query);
    const std::size_t vocab = tables_.vocab_size(), width = tables_.width();
    return kernels::nearest(q, tables_.wte().data, vocab, width, k > vocab ? vocab : k, exclude,
                            scratch_.data(), result_ids_.data(), result_scores_.data());
  }

  // Rows [begin, end) of the cosine map of a model table (0 = wte, 1 = wpe)
  // into mapBlock(). JS keeps (end - begin) * rows <= mapBlockSize().
  bool cosineMapRows(int table, std::size_t begin, std::size_t end) {
    if (!loaded_) return fail("no model is loaded");
    const bool token = table == 0;
    const embeddings::TableView view = token ? tables_.wte() : tables_.wpe();
    if (begin > end || end > view.rows || (end - begin) * view.rows > kMapBlock) return fail("bad row range");
    kernels::cosine_map_rows(view.data, view.rows, view.cols, begin, end, scratch_.data(), map_block_.data());
    return true;
  }
  // The whole cosine map of a model table into mapBlock(), each pair computed
  // once (half the work of cosineMapRows); for tables of at most
  // sqrt(mapBlockSize()) rows, such as wpe.
  bool cosineMap(int table) {
    if (!loaded_) return fail("no model is loaded");
    const bool token = table == 0;
    const embeddings::TableView view = token ? tables_.wte() : tables_.wpe();
    if (view.rows * view.rows > kMapBlock) return fail("the map does not fit in one block");
    kernels::cosine_map(view.data, view.rows, view.cols, scratch_.data(), map_block_.data());
    return true;
  }

 private:
  static Table as_table(int table) { return table == 0 ? Table::Token : Table::Position; }
  bool fail(const std::string& message) {
    error_ = message;
    return false;
  }
  bool check(bool ok) {
    if (ok) error_.clear();
    return ok;
  }

  TablesLoader loader_;
  EmbeddingTables tables_;
  bool loaded_ = false;
  std::string error_;
  std::string metadata_json_;
  unsigned char prefix_[8] = {};
  double sums_[3] = {};
  Buffer<unsigned char> header_;
  Buffer<char> config_;
  Buffer<std::int32_t> ids_, result_ids_;
  Buffer<float> token_rows_, position_rows_, sum_rows_, query_, scratch_, result_scores_, vector_a_,
      vector_b_, map_block_;
};

class TextTokenizer {
 public:
  const std::string& error() const { return error_; }

  // JS writes UTF-8 input (tokenizer.json or text to encode) into a buffer
  // of the size it asks for, then calls load() or encode(). 0 when there is
  // no memory for it (error() says so).
  std::uintptr_t inputBuffer(std::size_t bytes) {
    ensure_reserve();
    if (!input_.allocate(bytes)) {
      error_ = "out of memory for " + mebibytes(bytes) + " of text";
      return 0;
    }
    return address(input_.data());
  }
  bool load() {
    ensure_reserve();
    embeddings::Tokenizer tokenizer;
    const bool ok = json_fits(input_.size(), kTokenizerJsonBytesPerInputByte, "the file", error_) &&
                    embeddings::Tokenizer::from_json(input(), tokenizer, error_);
    input_.reset();
    if (!ok) return false;
    tokenizer_ = std::move(tokenizer);
    loaded_ = true;
    return true;
  }
  // Encodes the input buffer; the ids are at ids(). Returns their count;
  // -1 when `max_tokens` >= 0 and the text has more tokens than that (the
  // encoder stops early); -2 when memory is short (error() says so).
  double encode(double max_tokens) {
    ensure_reserve();
    const std::string_view text = input();
    // Encoding needs the ids (at most one per byte) and scratch for the
    // longest piece; this bounds both generously, so a text that could not
    // fit is refused instead of aborting the instance halfway.
    if (!heap_has_room(static_cast<std::uint64_t>(text.size()) * kEncodeBytesPerInputByte)) {
      error_ = "out of memory: encoding " + mebibytes(text.size()) + " of text could need " +
               mebibytes(static_cast<std::uint64_t>(text.size()) * kEncodeBytesPerInputByte);
      input_.reset();
      return -2;
    }
    double count;
    if (max_tokens >= 0) {
      const bool fits = tokenizer_.encode_at_most(text, static_cast<std::size_t>(max_tokens), ids_);
      count = fits ? static_cast<double>(ids_.size()) : -1;
    } else {
      ids_ = tokenizer_.encode(text);
      count = static_cast<double>(ids_.size());
    }
    input_.reset();
    return count;
  }
  std::uintptr_t ids() { return address(ids_.data()); }
  // Frees what the last encode() kept, so a long text does not stay resident.
  void release() { std::vector<std::int32_t>().swap(ids_); }

  // Decodes `count` ids that JS wrote at idsInput(count); 0 when there is no memory.
  std::uintptr_t idsInput(std::size_t count) {
    ensure_reserve();
    if (!ids_in_.allocate(count)) {
      error_ = "out of memory for " + std::to_string(count) + " token ids";
      return 0;
    }
    return address(ids_in_.data());
  }
  bool decode() {
    ensure_reserve();
    // The text is at most max_token_bytes() per id, and its UTF-8 repair at
    // most three times that; refuse rather than abort when that cannot fit.
    const std::uint64_t bound = static_cast<std::uint64_t>(ids_in_.size()) * tokenizer_.max_token_bytes() * 5;
    if (!heap_has_room(bound)) {
      error_ = "out of memory: the text of " + std::to_string(ids_in_.size()) + " tokens could need " +
               mebibytes(bound);
      ids_in_.reset();
      return false;
    }
    std::string text;
    const bool ok = tokenizer_.decode(ids_in_.data(), ids_in_.size(), text, error_);
    ids_in_.reset();
    if (ok) decoded_ = std::move(text);
    return ok;
  }
  std::string decoded() {
    std::string out;
    out.swap(decoded_);
    return out;
  }

  std::size_t vocabSize() const { return tokenizer_.vocab_size(); }
  std::size_t maxTokenBytes() const { return tokenizer_.max_token_bytes(); }
  std::string tokenText(int id) const { return tokenizer_.token_display(id); }
  // Every id's display text as one JSON array ("" for unused ids): one call
  // instead of one per token when a page lists the vocabulary.
  std::string vocabularyJson() const {
    std::string out = "[";
    for (std::size_t id = 0; id < tokenizer_.vocab_size(); ++id) {
      if (id != 0) out += ',';
      embeddings::json::append_quoted(out, tokenizer_.token_display(static_cast<std::int32_t>(id)));
    }
    return out + "]";
  }
  int tokenId(const std::string& text) const { return tokenizer_.token_id(text); }
  bool isSpecial(int id) const { return tokenizer_.is_special(id); }

 private:
  // Worst case of Tokenizer::encode per input byte: the ids (4, doubled by
  // vector growth), a piece's symbols (16) and merge queue (up to 3 entries
  // of 12, doubled), the prefixed copy of a gap (1), with margin.
  static constexpr std::uint64_t kEncodeBytesPerInputByte = 128;

  std::string_view input() const { return {input_.data(), input_.size()}; }

  embeddings::Tokenizer tokenizer_;
  bool loaded_ = false;
  std::string error_, decoded_;
  Buffer<char> input_;
  std::vector<std::int32_t> ids_;
  Buffer<std::int32_t> ids_in_;
};

}  // namespace

// Hot vector kernels as plain exports: the chapter calls dot and cosine in
// loops, and a direct WebAssembly call costs far less than an Embind
// invoker built without eval (see docs/benchmarks.md).
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
// The cosine map of a (rows, cols) table outside any model: all of it
// (rows * rows floats into `out`), or rows [begin, end) of it; `scratch`
// holds `rows` floats.
EMSCRIPTEN_KEEPALIVE void embeddings_cosine_map(const float* table, std::size_t rows, std::size_t cols,
                                                float* scratch, float* out) {
  kernels::cosine_map(table, rows, cols, scratch, out);
}
EMSCRIPTEN_KEEPALIVE void embeddings_cosine_map_rows(const float* table, std::size_t rows, std::size_t cols,
                                                     std::size_t begin, std::size_t end, float* scratch,
                                                     float* out) {
  kernels::cosine_map_rows(table, rows, cols, begin, end, scratch, out);
}
}

EMSCRIPTEN_BINDINGS(embeddings) {
  using emscripten::class_;
  using emscripten::function;
  class_<ModelTables>("ModelTables")
      .constructor<>()
      .function("error", &ModelTables::error)
      .function("prefixBuffer", &ModelTables::prefixBuffer)
      .function("begin", &ModelTables::begin)
      .function("headerLength", &ModelTables::headerLength)
      .function("headerBuffer", &ModelTables::headerBuffer)
      .function("readHeader", &ModelTables::readHeader)
      .function("tableOffset", &ModelTables::tableOffset)
      .function("tableBytes", &ModelTables::tableBytes)
      .function("tableBuffer", &ModelTables::tableBuffer)
      .function("configBuffer", &ModelTables::configBuffer)
      .function("readConfig", &ModelTables::readConfig)
      .function("finish", &ModelTables::finish)
      .function("wte", &ModelTables::wte)
      .function("wpe", &ModelTables::wpe)
      .function("wteInverseNorms", &ModelTables::wteInverseNorms)
      .function("vocabSize", &ModelTables::vocabSize)
      .function("width", &ModelTables::width)
      .function("context", &ModelTables::context)
      .function("parameterCount", &ModelTables::parameterCount)
      .function("tokenTableName", &ModelTables::tokenTableName)
      .function("positionTableName", &ModelTables::positionTableName)
      .function("metadataJson", &ModelTables::metadataJson)
      .function("configLayers", &ModelTables::configLayers)
      .function("configHeads", &ModelTables::configHeads)
      .function("idsBuffer", &ModelTables::idsBuffer)
      .function("tokenRows", &ModelTables::tokenRows)
      .function("positionRows", &ModelTables::positionRows)
      .function("sumRows", &ModelTables::sumRows)
      .function("queryBuffer", &ModelTables::queryBuffer)
      .function("resultIds", &ModelTables::resultIds)
      .function("resultScores", &ModelTables::resultScores)
      .function("vectorA", &ModelTables::vectorA)
      .function("vectorB", &ModelTables::vectorB)
      .function("vectorChunk", &ModelTables::vectorChunk)
      .function("sumsBuffer", &ModelTables::sumsBuffer)
      .function("mapBlock", &ModelTables::mapBlock)
      .function("mapBlockSize", &ModelTables::mapBlockSize)
      .function("embed", &ModelTables::embed)
      .function("nearest", &ModelTables::nearest)
      .function("cosineMapRows", &ModelTables::cosineMapRows)
      .function("cosineMap", &ModelTables::cosineMap);
  class_<TextTokenizer>("TextTokenizer")
      .constructor<>()
      .function("error", &TextTokenizer::error)
      .function("inputBuffer", &TextTokenizer::inputBuffer)
      .function("load", &TextTokenizer::load)
      .function("encode", &TextTokenizer::encode)
      .function("ids", &TextTokenizer::ids)
      .function("release", &TextTokenizer::release)
      .function("idsInput", &TextTokenizer::idsInput)
      .function("decode", &TextTokenizer::decode)
      .function("decoded", &TextTokenizer::decoded)
      .function("vocabSize", &TextTokenizer::vocabSize)
      .function("maxTokenBytes", &TextTokenizer::maxTokenBytes)
      .function("tokenText", &TextTokenizer::tokenText)
      .function("vocabularyJson", &TextTokenizer::vocabularyJson)
      .function("tokenId", &TextTokenizer::tokenId)
      .function("isSpecial", &TextTokenizer::isSpecial);
  function("backendName", emscripten::optional_override([]() { return std::string(kernels::backend_name()); }));
  // For the tests only (the package does not export it): bytes malloc has
  // handed out and not yet had back, to check that calls leave nothing behind.
  function("heapAllocatedBytes", emscripten::optional_override([]() {
             return static_cast<double>(static_cast<unsigned>(mallinfo().uordblks));
           }));
}
