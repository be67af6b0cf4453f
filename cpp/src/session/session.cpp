#include "embeddings/session/session.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <utility>

#include "embeddings/common/message.h"
#include "embeddings/formats/json.h"

namespace embeddings {

namespace {

// A rainy-day reserve. Where there are no exceptions (the WebAssembly build),
// operator new aborts the program when malloc fails, and even a refusal
// allocates (its message). So this much is kept aside; operator new's
// new_handler gives it back when malloc fails, which lets the message be
// built and returned. Entry points that can fail for lack of memory re-arm it.
constexpr std::size_t kReserveBytes = 64 << 10;
void* reserve = nullptr;

void release_reserve() {
  std::free(reserve);
  reserve = nullptr;
  std::set_new_handler(nullptr);  // A second failure fails as it would have.
}

void arm_reserve() {
  if (reserve != nullptr) return;
  reserve = std::malloc(kReserveBytes);
  if (reserve != nullptr) std::set_new_handler(release_reserve);
}

// Armed from the start, so that a fresh instance's heap already holds it.
[[maybe_unused]] const bool reserve_armed = (arm_reserve(), true);

// Whether a TextSession keeps a piece cache: the chapter's module keeps
// none (tokenizer.cpp says why), and leaves its code out.
#if EMBEDDINGS_CRITICAL_MODULE
constexpr bool kKeepsPieceCache = false;
#else
constexpr bool kKeepsPieceCache = true;
#endif

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

// ---- MemoryBudget ---------------------------------------------------------------

std::uint64_t MemoryBudget::room() const { return room_ != nullptr ? room_() : kMaxBufferBytes; }

bool MemoryBudget::has_room(std::uint64_t bytes) const {
  if (room_ == nullptr) return bytes <= kMaxBufferBytes;
  return (fast_room_ != nullptr && bytes <= fast_room_()) || bytes <= room_();
}

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
  // A score per row (nearest() and the maps), and a 16-bit table's maps a widened row.
  visit(scratch, (vocab > context ? vocab : context) + width, true);
  visit(result_ids, vocab, true);
  visit(result_scores, vocab, true);
  visit(vector_a, kVectorChunk, true);
  visit(vector_b, kVectorChunk, true);
  visit(map_block, kMapBlock, true);
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
  loaded_ = true;
  error_.clear();
  return true;
}

// ---- ModelSession: computations -------------------------------------------------

void ModelSession::set_rows_with_tokens(std::size_t rows) {
  rows_with_tokens_ = rows < tables_.vocab_size() ? rows : tables_.vocab_size();
}

bool ModelSession::check_loaded() { return loaded_ || fail("no model is loaded"); }

bool ModelSession::embed(std::size_t n) {
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

bool ModelSession::cosine_map_rows(int table, std::size_t begin, std::size_t end) {
  TableView view;
  if (!table_view(table, view)) return false;
  if (begin > end || end > view.rows || (end - begin) * view.rows > kMapBlock) return fail("bad row range");
  kernels::cosine_map_rows(view.numbers, view.rows, view.cols, begin, end, workspace_.scratch.data(),
                           workspace_.map_block.data());
  return true;
}

bool ModelSession::cosine_map(int table) {
  TableView view;
  if (!table_view(table, view)) return false;
  if (view.rows * view.rows > kMapBlock) return fail("the map does not fit in one block");
  kernels::cosine_map(view.numbers, view.rows, view.cols, workspace_.scratch.data(),
                      workspace_.map_block.data());
  return true;
}

bool ModelSession::token_table_times(std::size_t begin, std::size_t count) {
  // Before loading wte has no rows, so any rows are out of range. The sum in
  // double cannot wrap, and rounds only above 2^53, far past any table.
  const TableView wte = tables_.wte();
  if (count > kVectorChunk || static_cast<double>(begin) + static_cast<double>(count) > wte.rows)
    return fail("bad row range");
  kernels::vector_times_table(workspace_.vector_a.data(), wte.numbers.from(begin * wte.cols), count, wte.cols,
                              workspace_.scratch.data(), workspace_.query.data());
  return true;
}

// ---- TextSession ---------------------------------------------------------------

// JavaScript reads each id's offsets as four 32-bit words (the last one's low byte the flag).
static_assert(sizeof(TokenOffsets) == 16, "TokenOffsets is read as four 32-bit words");

void TextSession::set_output(const void* data, std::size_t count) {
  output_[0] = reinterpret_cast<std::uintptr_t>(data);
  output_[1] = count;
  output_[2] = over_limit_ ? 1 : 0;
  output_[3] = offsets_.empty() ? 0 : reinterpret_cast<std::uintptr_t>(offsets_.data());
}

bool TextSession::fail(std::string message) {
  error_ = std::move(message);
  return false;
}

char* TextSession::input_buffer(std::size_t bytes) {
  arm_reserve();
  if (input_.allocate(bytes)) return input_.data();
  fail("out of memory for " + mebibytes(bytes) + " of text");
  return nullptr;
}

bool TextSession::load() {
  arm_reserve();
  Tokenizer tokenizer;
  // The loader estimates its tables from the file's counts and refuses what
  // the budget cannot hold.
  const bool ok = Tokenizer::from_json(input(), tokenizer, error_, budget_.room());
  input_.reset();
  if (!ok) return false;
  tokenizer_ = std::move(tokenizer);
  loaded_ = true;
  error_.clear();
  return true;
}

bool TextSession::encode_checked(std::string_view text, const std::size_t* max_tokens,
                                 const Request& request) {
  arm_reserve();
  over_limit_ = false;
  if (!loaded_) return fail("no tokenizer is loaded");
  // Encoding needs the ids (at most one per byte) and scratch for the
  // longest piece; this bounds both generously, so a text that could not
  // fit is refused instead of aborting halfway.
  const std::uint64_t worst = static_cast<std::uint64_t>(text.size()) *
                              (kEncodeBytesPerInputByte + (request.offsets ? kOffsetsBytesPerInputByte : 0));
  if (!budget_.has_room(worst)) {
    input_.reset();
    return fail("out of memory: encoding " + mebibytes(text.size()) + " of text could need " +
                mebibytes(worst));
  }
  Tokenizer::EncodeOptions options;
  // Stages that lengthen text (a Replace, a Prepend, NFKD...) are held to
  // what the budget can still hold when the most their growth allows cannot
  // fit; they refuse before they allocate, by name.
  const std::uint64_t most = tokenizer_.most_text_bytes(text.size());
  if (most >= text.size() && !budget_.has_room((most - text.size()) * kEncodeBytesPerInputByte + worst)) {
    const std::uint64_t room = budget_.room();
    options.max_added_bytes =
        room > worst ? static_cast<std::size_t>((room - worst) / kEncodeBytesPerInputByte) : 0;
  }
  // The piece cache is made by the first encode, not by load(): loading's
  // memory is the tables'. Without room for it, encoding goes on without a
  // cache (the same ids).
  if (kKeepsPieceCache && piece_cache_.slot_count() == 0 &&
      budget_.has_room(PieceCache::memory_bytes(kPieceCacheSlots)))
    piece_cache_ = PieceCache(kPieceCacheSlots);
  options.cache = &piece_cache_;
  options.add_special_tokens = request.add_special_tokens;
  if (max_tokens != nullptr) options.max_tokens = *max_tokens;
  const bool pair = request.first_bytes <= text.size();
  const std::string_view second = pair ? text.substr(request.first_bytes) : std::string_view();
  if (pair) options.pair = &second;
  offsets_.clear();
  if (request.offsets) options.offsets = &offsets_;
  std::string error;
  const Tokenizer::Encoded result =
      tokenizer_.encode(text.substr(0, std::min(request.first_bytes, text.size())), options, ids_, error);
  input_.reset();
  if (result == Tokenizer::Encoded::Refused) {
    release();
    return fail(error);
  }
  over_limit_ = result == Tokenizer::Encoded::TooManyTokens;
  set_output(ids_.data(), ids_.size());
  return true;
}

bool TextSession::encode() { return encode_checked(input(), nullptr, {}); }

bool TextSession::encode_at_most(std::size_t max_tokens) { return encode_checked(input(), &max_tokens, {}); }

bool TextSession::encode_special(std::size_t first_bytes, bool add_special_tokens, bool offsets,
                                 std::size_t max_tokens) {
  return encode_checked(input(), &max_tokens, {first_bytes, add_special_tokens, offsets});
}

char* TextSession::text_buffer(std::size_t bytes) {
  arm_reserve();
  if (text_.size() >= bytes && !text_.empty()) return text_.data();
  if (budget_.has_room(bytes) && text_.allocate(bytes)) return text_.data();
  fail("out of memory for " + mebibytes(bytes) + " of text");
  return nullptr;
}

bool TextSession::encode_text(std::size_t length) {
  if (length > text_.size())
    return fail("encode_text: " + std::to_string(length) + " bytes, more than the buffer holds");
  return encode_checked({text_.data(), length}, nullptr, {});
}

bool TextSession::encode_text_at_most(std::size_t length, std::size_t max_tokens) {
  if (length > text_.size())
    return fail("encode_text: " + std::to_string(length) + " bytes, more than the buffer holds");
  return encode_checked({text_.data(), length}, &max_tokens, {});
}

bool TextSession::encode_text_special(std::size_t length, std::size_t first_bytes, bool add_special_tokens) {
  if (length > text_.size())
    return fail("encode_text: " + std::to_string(length) + " bytes, more than the buffer holds");
  return encode_checked({text_.data(), length}, nullptr, {first_bytes, add_special_tokens});
}

void TextSession::release() {
  std::vector<std::int32_t>().swap(ids_);
  std::vector<TokenOffsets>().swap(offsets_);
  std::string().swap(decoded_);
  over_limit_ = false;
  set_output(nullptr, 0);
}

std::int32_t* TextSession::ids_input(std::size_t count) {
  arm_reserve();
  if (ids_in_.allocate(count)) return ids_in_.data();
  fail("out of memory for " + std::to_string(count) + " token ids");
  return nullptr;
}

bool TextSession::decode() { return decode_with(false); }

bool TextSession::decode_skipping_special() { return decode_with(true); }

bool TextSession::decode_with(bool skip_special_tokens) {
  arm_reserve();
  if (!loaded_) return fail("no tokenizer is loaded");
  // The tokens' text is at most max_token_bytes() per id (twice that as a
  // byte-level vocabulary spells it), and its UTF-8 repair at most three
  // times that; refuse rather than abort when that cannot fit.
  const std::size_t count = ids_in_.size();
  const std::uint64_t bound = static_cast<std::uint64_t>(count) * tokenizer_.max_token_bytes() * 5;
  if (!budget_.has_room(bound)) {
    ids_in_.reset();
    return fail("out of memory: the text of " + std::to_string(count) + " tokens could need " +
                mebibytes(bound));
  }
  Tokenizer::DecodeOptions options;
  options.skip_special_tokens = skip_special_tokens;
  // Decoders that lengthen tokens (a Replace) are held to what the budget can still hold.
  const std::uint64_t most = tokenizer_.most_decoded_bytes(count);
  if (!budget_.has_room(most >= Growth::kUnbounded ? most : most * 5 + bound)) {
    const std::uint64_t room = budget_.room();
    options.max_added_bytes = room > bound ? static_cast<std::size_t>((room - bound) / 5) : 0;
  }
  std::string text;
  const bool ok = tokenizer_.decode(ids_in_.data(), count, options, text, error_);
  ids_in_.reset();
  if (!ok) return false;
  decoded_ = std::move(text);
  over_limit_ = false;
  set_output(decoded_.data(), decoded_.size());
  return true;
}

std::string TextSession::vocabulary_json() const {
  std::string out = "[";
  for (std::size_t id = 0; id < tokenizer_.vocab_size(); ++id) {
    if (id != 0) out += ',';
    json::append_quoted(out, tokenizer_.token_display(static_cast<std::int32_t>(id)));
  }
  return out + "]";
}

}  // namespace embeddings
