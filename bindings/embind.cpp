// Embind glue between the C++ library and web/. It adds no maths: it owns
// the objects JavaScript holds, turns failures into (false, message) pairs
// the JS layer throws as Errors, and hands out pointers into WebAssembly
// memory for the JS layer to read and write.
//
// Memory discipline (the reason for the workspace): the JS layer gives each
// model's tables their own WebAssembly instance. Everything that instance
// will ever need after loading (trace rows, query, results, scratch) is
// allocated in finish(), so no later call allocates, memory never grows,
// and Float32Array views of wte and wpe stay valid for the model's life.
// Text work (tokenizer) lives in a separate instance, because text length,
// and so its memory, is up to the reader.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>
#include <vector>

#include "embeddings/json.h"
#include "embeddings/kernels.h"
#include "embeddings/model.h"
#include "embeddings/tokenizer.h"

namespace {

using embeddings::EmbeddingTables;
using embeddings::Table;
using embeddings::TablesLoader;
namespace kernels = embeddings::kernels;

std::uintptr_t address(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }

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
    if (!(file_size >= 0) || file_size > 9007199254740992.0) return fail("invalid file size");
    return check(loader_.begin(prefix_, available > 8 ? 8 : available, static_cast<std::uint64_t>(file_size),
                               error_));
  }
  double headerLength() const { return static_cast<double>(loader_.header_length()); }
  // A buffer of headerLength() bytes for JS to fill with the header.
  std::uintptr_t headerBuffer() {
    header_.assign(loader_.header_length(), '\0');
    return address(header_.data());
  }
  bool readHeader() {
    const bool ok = loader_.read_header(header_, error_);
    std::string().swap(header_);
    return check(ok);
  }
  double tableOffset(int table) const { return static_cast<double>(loader_.table_offset(as_table(table))); }
  double tableBytes(int table) const { return static_cast<double>(loader_.table_bytes(as_table(table))); }
  std::uintptr_t tableBuffer(int table) { return address(loader_.table_buffer(as_table(table))); }
  bool readConfig(const std::string& json_text) { return check(loader_.read_config(json_text, error_)); }
  bool finish() {
    if (!loader_.finish(tables_, error_)) return fail(error_);
    const std::size_t vocab = tables_.vocab_size(), context = tables_.context(), width = tables_.width();
    ids_.assign(context, 0);
    token_rows_.assign(context * width, 0.0f);
    position_rows_.assign(context * width, 0.0f);
    sum_rows_.assign(context * width, 0.0f);
    query_.assign(width, 0.0f);
    scores_.assign(vocab, 0.0f);
    result_ids_.assign(vocab, 0);
    result_scores_.assign(vocab, 0.0f);
    vector_a_.assign(kVectorChunk, 0.0f);
    vector_b_.assign(kVectorChunk, 0.0f);
    map_block_.assign(kMapBlock, 0.0f);
    loaded_ = true;
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
  std::string metadataJson() const {
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
    for (std::size_t i = 0; i < n; ++i)
      if (ids_[i] < 0 || static_cast<std::size_t>(ids_[i]) >= tables_.vocab_size())
        return fail("token id " + std::to_string(ids_[i]) + " is outside the token table");
    kernels::embed_tokens(ids_.data(), n, tables_.wte().data, tables_.wpe().data, tables_.width(),
                          token_rows_.data(), position_rows_.data(), sum_rows_.data());
    return true;
  }

  // Nearest tokens to a query vector at `query` (a pointer into this
  // instance: a wte row or queryBuffer()), excluding token `exclude` (-1 for
  // none). Results in resultIds()/resultScores(); returns how many.
  std::size_t nearest(std::uintptr_t query, std::size_t k, int exclude) {
    if (!loaded_) return 0;
    const auto* q = reinterpret_cast<const float*>(query);
    const std::size_t vocab = tables_.vocab_size(), width = tables_.width();
    kernels::cosine_scores(q, kernels::inverse_norm(q, width), tables_.wte().data, tables_.wte_inverse_norms(),
                           vocab, width, scores_.data());
    return kernels::top_k(scores_.data(), vocab, k > vocab ? vocab : k, exclude, result_ids_.data(),
                          result_scores_.data());
  }

  // Rows [begin, end) of the cosine map of a model table (0 = wte, 1 = wpe)
  // into mapBlock(). JS keeps (end - begin) * rows <= mapBlockSize().
  bool cosineMapRows(int table, std::size_t begin, std::size_t end) {
    if (!loaded_) return fail("no model is loaded");
    const bool token = table == 0;
    const embeddings::TableView view = token ? tables_.wte() : tables_.wpe();
    const float* norms = token ? tables_.wte_inverse_norms() : tables_.wpe_inverse_norms();
    if (begin > end || end > view.rows || (end - begin) * view.rows > kMapBlock) return fail("bad row range");
    kernels::cosine_map_rows(view.data, norms, view.rows, view.cols, begin, end, map_block_.data());
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
    kernels::cosine_map(view.data, token ? tables_.wte_inverse_norms() : tables_.wpe_inverse_norms(), view.rows,
                        view.cols, map_block_.data());
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
  unsigned char prefix_[8] = {};
  double sums_[3] = {};
  std::string header_;
  std::vector<std::int32_t> ids_, result_ids_;
  std::vector<float> token_rows_, position_rows_, sum_rows_, query_, scores_, result_scores_, vector_a_,
      vector_b_, map_block_;
};

class TextTokenizer {
 public:
  const std::string& error() const { return error_; }

  // JS writes UTF-8 input (tokenizer.json or text to encode) into a buffer
  // of the size it asks for, then calls load() or encode().
  std::uintptr_t inputBuffer(std::size_t bytes) {
    input_.assign(bytes, '\0');
    return address(input_.data());
  }
  bool load() {
    embeddings::Tokenizer tokenizer;
    const bool ok = embeddings::Tokenizer::from_json(input_, tokenizer, error_);
    std::string().swap(input_);
    if (!ok) return false;
    tokenizer_ = std::move(tokenizer);
    loaded_ = true;
    return true;
  }
  // Encodes the input buffer; the ids are at ids(), count returned.
  std::size_t encode() {
    ids_ = tokenizer_.encode(input_);
    std::string().swap(input_);
    return ids_.size();
  }
  std::uintptr_t ids() { return address(ids_.data()); }
  // Frees what the last encode() kept, so a long text does not stay resident.
  void release() { std::vector<std::int32_t>().swap(ids_); }

  // Decodes `count` ids that JS wrote at idsInput(count).
  std::uintptr_t idsInput(std::size_t count) {
    ids_in_.assign(count, 0);
    return address(ids_in_.data());
  }
  bool decode() {
    std::string text;
    const bool ok = tokenizer_.decode(ids_in_.data(), ids_in_.size(), text, error_);
    std::vector<std::int32_t>().swap(ids_in_);
    if (ok) decoded_ = std::move(text);
    return ok;
  }
  std::string decoded() const { return decoded_; }

  std::size_t vocabSize() const { return tokenizer_.vocab_size(); }
  std::size_t maxTokenBytes() const { return tokenizer_.max_token_bytes(); }
  std::string tokenText(int id) const { return tokenizer_.token_display(id); }
  int tokenId(const std::string& text) const { return tokenizer_.token_id(text); }
  bool isSpecial(int id) const { return tokenizer_.is_special(id); }

 private:
  embeddings::Tokenizer tokenizer_;
  bool loaded_ = false;
  std::string error_, input_, decoded_;
  std::vector<std::int32_t> ids_, ids_in_;
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
// The (rows, rows) cosine map of a (rows, cols) table outside any model;
// `norms` is scratch for `rows` floats, `out` receives rows * rows floats.
EMSCRIPTEN_KEEPALIVE void embeddings_cosine_map(const float* table, std::size_t rows, std::size_t cols,
                                                float* norms, float* out) {
  kernels::inverse_row_norms(table, rows, cols, norms);
  kernels::cosine_map(table, norms, rows, cols, out);
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
      .function("tokenId", &TextTokenizer::tokenId)
      .function("isSpecial", &TextTokenizer::isSpecial);
  function("backendName", emscripten::optional_override([]() { return std::string(kernels::backend_name()); }));
}
