#include "embeddings/session/model_session.h"

#include <algorithm>
#include <utility>

#include "embeddings/common/message.h"
#include "embeddings/formats/json.h"

namespace embeddings {

namespace {

// Table numbers as callers pass them.
constexpr int kTokenTable = static_cast<int>(Table::Token);
constexpr int kPositionTable = static_cast<int>(Table::Position);

bool is_table(int table) { return table == kTokenTable || table == kPositionTable; }

// Whether a JSON text's worst-case parse fits; the message says what it would take.
bool json_fits(const MemoryBudget& budget, std::uint64_t bytes, std::uint64_t per_byte, const char* what,
               std::string& error) {
  const std::uint64_t worst = bytes * per_byte;
  if (budget.has_room(worst)) return true;
  error = std::string(what) + " is " + mebibytes(bytes) + "; reading it could take up to " +
          mebibytes(worst) + " of memory, more than this WebAssembly instance can get (" +
          mebibytes(budget.room()) + ")";
  return false;
}

}  // namespace

// ---- ModelSession: loading ------------------------------------------------------

template <typename Visit>
void ModelSession::Workspace::for_each(std::size_t vocab, std::size_t width, std::size_t context,
                                       std::size_t metadata_bytes, Visit visit) {
  // visit(buffer, element count, whether it must start zeroed)
  visit(ids, context, true);
  visit(token_rows, context * width, true);
  visit(position_rows, context * width, true);
  visit(sum_rows, context * width, true);
  visit(query, width, true);
  // A score per row (nearest() and the cosine matrices), and a 16-bit table's matrices a widened row.
  visit(scratch, (vocab > context ? vocab : context) + width, true);
  visit(result_ids, vocab, true);
  visit(result_scores, vocab, true);
  visit(vector_a, kVectorChunk, true);
  visit(vector_b, kVectorChunk, true);
  visit(matrix_block, kMatrixBlock, true);
  visit(metadata_json, metadata_bytes, false);
  // Last, so that it lies at the top of the heap; freed by finish().
  visit(slack, kSlackBytes, false);
}

bool ModelSession::fail(std::string message, ErrorSource source) {
  error_ = std::move(message);
  error_source_ = source;
  return false;
}

bool ModelSession::fail_from_loader() {
  error_source_ = loader_.error_source();
  return false;
}

bool ModelSession::begin(std::size_t available, double file_size) {
  arm_reserve();
  if (!(file_size >= 0) || file_size > kLargestExactDouble ||
      file_size != static_cast<double>(static_cast<std::uint64_t>(file_size)))
    return fail("invalid file size");
  const std::size_t prefix = available < kPrefixBytes ? available : kPrefixBytes;
  return loader_.begin(prefix_, prefix, static_cast<std::uint64_t>(file_size), error_) || fail_from_loader();
}

unsigned char* ModelSession::header_buffer() {
  arm_reserve();
  if (header_.allocate(loader_.header_length())) return header_.data();
  fail("out of memory for the " + mebibytes(loader_.header_length()) + " header");
  return nullptr;
}

std::size_t ModelSession::metadata_json_length() const {
  const auto& metadata = loader_.header().metadata;
  std::size_t length = 2 + (metadata.empty() ? 0 : metadata.size() - 1);  // braces and commas
  for (const auto& [key, value] : metadata)
    length += json::quoted_length(key) + 1 + json::quoted_length(value);
  return length;
}

void ModelSession::write_metadata_json() {
  char* out = workspace_.metadata_json.data();
  *out++ = '{';
  bool first = true;
  for (const auto& [key, value] : loader_.header().metadata) {
    if (!first) *out++ = ',';
    first = false;
    out = json::write_quoted(out, key);
    *out++ = ':';
    out = json::write_quoted(out, value);
  }
  *out++ = '}';
  metadata_json_size_ = static_cast<std::size_t>(out - workspace_.metadata_json.data());
}

bool ModelSession::read_header() {
  arm_reserve();
  const std::string_view header(reinterpret_cast<const char*>(header_.data()), header_.size());
  const bool parsed = json_fits(budget_, header.size(), kJsonBytesPerInputByte, "the header", error_) &&
                      loader_.parse_header(header, error_);
  header_.reset();
  if (!parsed) return fail_from_loader();
  const std::size_t vocab = loader_.table_info(Table::Token)->shape[0];
  const safetensors::TensorInfo* position = loader_.table_info(Table::Position);
  // The workspace holds a trace of the positions wpe has (OPT's leading rows are none).
  const std::size_t context =
      position != nullptr ? position->shape[0] - loader_.position_offset() : kTraceTokensWithoutPositionTable;
  const std::size_t width = loader_.table_info(Table::Token)->shape[1];
  const std::size_t metadata_bytes = metadata_json_length();
  // Sizes are bounded by the loader's per-table limit, so this cannot overflow.
  std::uint64_t workspace = 0;
  const auto count = [&](auto& buffer, std::uint64_t elements, bool) {
    workspace += elements * sizeof(buffer[0]);
  };
  workspace_.for_each(vocab, width, context, metadata_bytes, count);
  const std::uint64_t tables = loader_.allocation_bytes();
  const std::uint64_t room = budget_.room();
  if (tables + workspace > room) {
    return fail("the model needs " + mebibytes(tables + workspace) + " of memory (tables " +
                mebibytes(tables) + ", workspace " + mebibytes(workspace) +
                ") but this WebAssembly instance can get at most " + mebibytes(room));
  }
  if (!loader_.allocate(error_)) return fail_from_loader();
  bool allocated = true;
  const auto allocate = [&](auto& buffer, std::uint64_t elements, bool zeroed) {
    if (allocated) allocated = zeroed ? buffer.allocate_zeroed(elements) : buffer.allocate(elements);
  };
  workspace_.for_each(vocab, width, context, metadata_bytes, allocate);
  if (!allocated) {
    return fail("out of memory: the model needs " + mebibytes(tables + workspace) +
                " and the WebAssembly instance could not grow that far");
  }
  write_metadata_json();
  rows_with_tokens_ = vocab;
  trace_capacity_ = context;
  error_.clear();
  return true;
}

std::uint64_t ModelSession::table_offset(int table) const {
  return is_table(table) ? loader_.table_offset(static_cast<Table>(table)) : 0;
}

std::uint64_t ModelSession::table_bytes(int table) const {
  return is_table(table) ? loader_.table_bytes(static_cast<Table>(table)) : 0;
}

unsigned char* ModelSession::table_buffer(int table) {
  return is_table(table) ? loader_.table_buffer(static_cast<Table>(table)) : nullptr;
}

char* ModelSession::config_buffer(std::size_t bytes) {
  arm_reserve();
  // Refused before a byte is copied in: the bound is what keeps a hostile
  // configuration from growing the memory the tables live in.
  if (bytes > kMaxConfigBytes) {
    fail(config_too_large(bytes), ErrorSource::Config);
    return nullptr;
  }
  if (config_.allocate(bytes)) return config_.data();
  fail("out of memory for " + mebibytes(bytes) + " of config.json", ErrorSource::Config);
  return nullptr;
}

bool ModelSession::read_config() {
  arm_reserve();
  const bool ok = json_fits(budget_, config_.size(), kJsonBytesPerInputByte, "the file", error_) &&
                  loader_.read_config(std::string_view(config_.data(), config_.size()), error_);
  config_.reset();
  if (!ok) return fail(error_, ErrorSource::Config);
  error_.clear();
  return true;
}

bool ModelSession::finish() {
  arm_reserve();
  if (!loader_.finish(tables_, error_)) return fail_from_loader();
  // Its room stays free at the top of the heap for later short strings.
  workspace_.slack.reset();
  // Read once here, with the matrix block (free until a cosine matrix) as scratch.
  static_assert(kMatrixBlock >= kRobustLimitScratch);
  robust_limits_[0] = embeddings::robust_limit(tables_.wte(), workspace_.matrix_block.data());
  robust_limits_[1] = embeddings::robust_limit(tables_.wpe(), workspace_.matrix_block.data());
  std::fill_n(workspace_.matrix_block.data(), kRobustLimitScratch, 0.0f);  // zeroed, as read_header() left it
  loaded_ = true;
  error_.clear();
  return true;
}

// ---- ModelSession: computations -------------------------------------------------

float ModelSession::robust_limit(int table) const {
  return loaded_ && is_table(table) ? robust_limits_[table] : 0.0f;
}

void ModelSession::set_rows_with_tokens(std::size_t rows) {
  rows_with_tokens_ = rows < tables_.vocab_size() ? rows : tables_.vocab_size();
}

bool ModelSession::check_loaded() { return loaded_ || fail("no model is loaded"); }

bool ModelSession::trace(std::size_t n) {
  if (!check_loaded()) return false;
  if (n > trace_capacity_) return fail("more tokens than the context holds");
  const std::int32_t* ids = workspace_.ids.data();
  for (std::size_t i = 0; i < n; ++i)
    if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= tables_.vocab_size())
      return fail("token id " + std::to_string(ids[i]) + " is outside the token table");
  if (tables_.has_position_table()) {
    kernels::embed_tokens(ids, n, tables_.wte().numbers, tables_.wpe().numbers, tables_.width(),
                          workspace_.token_rows.data(), workspace_.position_rows.data(),
                          workspace_.sum_rows.data());
    return true;
  }
  // Rotary positions are applied inside attention, not added here: what the
  // first layer reads is the token rows themselves.
  const std::size_t width = tables_.width();
  for (std::size_t i = 0; i < n; ++i) {
    const kernels::TableNumbers row = tables_.wte().row_numbers(static_cast<std::size_t>(ids[i]));
    kernels::widen(row, width, workspace_.token_rows.data() + i * width);
    kernels::widen(row, width, workspace_.sum_rows.data() + i * width);
  }
  return true;
}

bool ModelSession::nearest(const float* query, std::size_t k, std::int64_t exclude) {
  const std::size_t rows = rows_with_tokens_;
  if (k == 0 || k > tables_.vocab_size()) {
    return fail("k is " + std::to_string(k) + "; it must be from 1 to " +
                std::to_string(tables_.vocab_size()));
  }
  // The first `rows` rows of wte are a table of their own.
  result_count_ = static_cast<std::uint32_t>(kernels::nearest(
      query, tables_.wte().numbers, rows, tables_.width(), k < rows ? k : rows, exclude,
      workspace_.scratch.data(), workspace_.result_ids.data(), workspace_.result_scores.data()));
  return true;
}

bool ModelSession::nearest_to_token(std::size_t id, std::size_t k) {
  if (!check_loaded()) return false;
  if (id >= tables_.vocab_size()) {
    return fail("token id " + std::to_string(id) + " is outside the token table");
  }
  const TableView wte = tables_.wte();
  if (wte.floats() != nullptr) return nearest(wte.row(id), k, static_cast<std::int64_t>(id));
  // A 16-bit row is widened into the query buffer (exactly), the query that
  // row converted to float32 would be.
  kernels::widen(wte.row_numbers(id), wte.cols, workspace_.query.data());
  return nearest(workspace_.query.data(), k, static_cast<std::int64_t>(id));
}

bool ModelSession::nearest_to_query(std::size_t k) {
  return check_loaded() && nearest(workspace_.query.data(), k, -1);
}

bool ModelSession::table_view(int table, TableView& view) {
  if (!check_loaded()) return false;
  if (!is_table(table))
    return fail("table " + std::to_string(table) + " does not exist (0 is wte, 1 is wpe)");
  if (table == kPositionTable && !tables_.has_position_table())
    return fail("this model has no position table: it uses rotary positions");
  view = table == kTokenTable ? tables_.wte() : tables_.wpe();
  return true;
}

bool ModelSession::cosine_matrix_rows(int table, std::size_t begin, std::size_t end) {
  TableView view;
  if (!table_view(table, view)) return false;
  if (begin > end || end > view.rows || (end - begin) * view.rows > kMatrixBlock)
    return fail("bad row range");
  kernels::cosine_matrix_rows(view.numbers, view.rows, view.cols, begin, end, workspace_.scratch.data(),
                              workspace_.matrix_block.data());
  return true;
}

bool ModelSession::cosine_matrix(int table) {
  TableView view;
  if (!table_view(table, view)) return false;
  if (view.rows * view.rows > kMatrixBlock) return fail("the map does not fit in one block");
  kernels::cosine_matrix(view.numbers, view.rows, view.cols, workspace_.scratch.data(),
                         workspace_.matrix_block.data());
  return true;
}

bool ModelSession::vector_times_wte(std::size_t begin, std::size_t count) {
  // Before loading wte has no rows, so any rows are out of range. The sum in
  // double cannot wrap, and rounds only above 2^53, far past any table.
  const TableView wte = tables_.wte();
  if (count > kVectorChunk || static_cast<double>(begin) + static_cast<double>(count) > wte.rows)
    return fail("bad row range");
  kernels::vector_times_table(workspace_.vector_a.data(), wte.numbers.from(begin * wte.cols), count, wte.cols,
                              workspace_.scratch.data(), workspace_.query.data());
  return true;
}

}  // namespace embeddings
