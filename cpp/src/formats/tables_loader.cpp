#include "embeddings/formats/tables_loader.h"

#include <string>
#include <utility>

#include "embeddings/common/message.h"
#include "embeddings/formats/json.h"
#include "embeddings/kernels/kernels.h"

// Tensor bytes are kept as the file stores them and read by the kernels as
// float32, half and bfloat16 numbers: both targets (x86-64 and WebAssembly)
// are little-endian, as is the safetensors format.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "safetensors data is little-endian");

namespace embeddings {

namespace {

// Each table may hold at most this many bytes, in its own format (a 16-bit
// table stays 16-bit: twice the numbers of a float32 one). WebAssembly
// memory tops out at a few GiB, and a size this module cannot hold must be
// an error, not an allocation failure (which would abort the runtime).
constexpr std::uint64_t kMaxTableBytes = std::uint64_t{1} << 30;

// Checks a table's shape and dtype once it is found.
bool check_table(const safetensors::TensorInfo& found, const char* what, std::string& error) {
  if (found.shape.size() != 2) {
    error = found.name + " has " + std::to_string(found.shape.size()) + " dimensions; the " + what +
            " must have 2 (rows, width)";
    return false;
  }
  if (found.shape[0] == 0 || found.shape[1] == 0) {
    error = found.name + " is empty (" + std::to_string(found.shape[0]) + " × " +
            std::to_string(found.shape[1]) + ")";
    return false;
  }
  using safetensors::DType;
  if (found.dtype != DType::F32 && found.dtype != DType::F16 && found.dtype != DType::BF16) {
    error = found.name + " has dtype " + safetensors::dtype_name(found.dtype) +
            "; only F32, F16 and BF16 tables can be loaded";
    return false;
  }
  const std::uint64_t most = kMaxTableBytes / safetensors::dtype_size(found.dtype);
  if (found.element_count > most) {
    error = found.name + " has " + std::to_string(found.element_count) +
            " numbers, more than this module can hold (" + std::to_string(most) + " of " +
            safetensors::dtype_name(found.dtype) + ", 1 GiB)";
    return false;
  }
  return true;
}

// A table's dtype (F32, F16 or BF16: check_table() let no other through) as the kernels name it.
kernels::NumberFormat number_format(safetensors::DType dtype) {
  return dtype == safetensors::DType::F16    ? kernels::NumberFormat::F16
         : dtype == safetensors::DType::BF16 ? kernels::NumberFormat::BF16
                                             : kernels::NumberFormat::F32;
}

}  // namespace

bool TablesLoader::begin(const unsigned char* first_bytes, std::size_t available, std::uint64_t file_size,
                         std::string& error) {
  error_source_ = ErrorSource::Weights;
  if (stage_ != Stage::Start) {
    error = "the loader has already begun";
    return false;
  }
  if (!safetensors::read_header_length(first_bytes, available, file_size, header_length_, error))
    return false;
  file_size_ = file_size;
  stage_ = Stage::HaveLength;
  return true;
}

bool TablesLoader::read_header(std::string_view header_bytes, std::string& error) {
  return parse_header(header_bytes, error) && allocate(error);
}

bool TablesLoader::parse_header(std::string_view header_bytes, std::string& error) {
  error_source_ = ErrorSource::Weights;
  if (stage_ != Stage::HaveLength) {
    error = "read_header() needs begin() first, once";
    return false;
  }
  if (header_bytes.size() != header_length_) {
    error = "got " + std::to_string(header_bytes.size()) + " header bytes, expected " +
            std::to_string(header_length_);
    return false;
  }
  safetensors::Header header;
  if (!safetensors::parse_header(header_bytes, file_size_, header, error)) return false;
  header_ = std::move(header);
  const CheckpointFamily* family = find_family(header_, error);
  if (family == nullptr) return false;
  const safetensors::TensorInfo* token = header_.find(family->token_name);
  if (!check_table(*token, "token embedding table (wte)", error)) return false;
  const safetensors::TensorInfo* position = nullptr;
  if (family->position_name != nullptr) {
    position = header_.find(family->position_name);
    if (position == nullptr) {
      error = std::string("no position embedding table (wpe): a ") + family->family + " checkpoint with " +
              token->name + " needs " + family->position_name;
      return false;
    }
    if (!check_table(*position, "position embedding table (wpe)", error)) return false;
    if (position->shape[0] <= family->position_offset) {
      error = position->name + " has " + std::to_string(position->shape[0]) + " rows; " + family->family +
              " keeps the first " + std::to_string(family->position_offset) +
              " rows before position 0, so it needs more";
      return false;
    }
  }
  if (position != nullptr && token->shape[1] != position->shape[1]) {
    error = token->name + " is " + std::to_string(token->shape[1]) + " numbers wide but " + position->name +
            " is " + std::to_string(position->shape[1]) + "; they must have the same width to be added";
    return false;
  }
  family_ = family;
  pending(Table::Token).info = token;
  pending(Table::Position).info = position;
  stage_ = Stage::HaveHeader;
  return true;
}

std::uint64_t TablesLoader::allocation_bytes() const {
  std::uint64_t total = 0;
  for (const Pending& p : tables_) {
    if (p.info == nullptr) continue;
    total += p.info->byte_length;  // At most kMaxTableBytes each, so the sum cannot overflow.
  }
  return total;
}

bool TablesLoader::allocate(std::string& error) {
  error_source_ = ErrorSource::Weights;
  if (stage_ != Stage::HaveHeader) {
    error = "allocate() needs parse_header() first, once";
    return false;
  }
  for (Pending& p : tables_) {
    if (p.info == nullptr) continue;  // no position table
    if (!p.numbers.allocate(p.info->byte_length)) {
      error = "out of memory: the tables need " + mebibytes(allocation_bytes()) +
              " and no more memory could be had for " + p.info->name;
      for (Pending& q : tables_) q = Pending{};
      stage_ = Stage::Failed;
      return false;
    }
  }
  stage_ = Stage::Allocated;
  return true;
}

std::uint64_t TablesLoader::table_offset(Table table) const {
  const Pending& p = pending(table);
  return p.info != nullptr ? p.info->file_offset : 0;
}

std::uint64_t TablesLoader::table_bytes(Table table) const {
  const Pending& p = pending(table);
  return p.info != nullptr ? p.info->byte_length : 0;
}

unsigned char* TablesLoader::table_buffer(Table table) {
  Pending& p = pending(table);
  if (p.info == nullptr || stage_ != Stage::Allocated) return nullptr;
  return p.numbers.data();
}

bool TablesLoader::read_config(std::string_view json_text, std::string& error) {
  ModelConfig config;
  if (!parse_config(json_text, config, error)) {
    error_source_ = ErrorSource::Config;
    return false;
  }
  config_ = config;
  have_config_ = true;
  return true;
}

bool TablesLoader::finish(EmbeddingTables& out, std::string& error) {
  error_source_ = ErrorSource::Weights;
  if (stage_ != Stage::Allocated) {
    error = "finish() needs read_header() first";
    return false;
  }
  const safetensors::TensorInfo& token = *pending(Table::Token).info;
  const safetensors::TensorInfo* position = pending(Table::Position).info;
  const std::uint64_t offset = family_->position_offset;
  const std::uint64_t vocab = token.shape[0], width = token.shape[1];
  // Without a position table the context is what config.json says (0 when it does not).
  const std::uint64_t context =
      position != nullptr ? position->shape[0] - offset : (have_config_ ? config_.context : 0);
  const std::uint64_t layers = count_layers(header_);
  if (have_config_) {
    const auto contradicts = [&](std::uint64_t said, std::uint64_t found, const char* field,
                                 const std::string& evidence) {
      if (said == 0 || said == found) return false;
      error = std::string(field) + " is " + std::to_string(said) + " but " + evidence + " " +
              std::to_string(found);
      error_source_ = ErrorSource::Config;
      return true;
    };
    const std::string position_rows =
        position == nullptr ? ""
        : offset == 0       ? position->name + " has rows:"
                            : position->name + " has, after its " + std::to_string(offset) + " leading rows,";
    if (contradicts(config_.vocab_size, vocab, "vocab_size", token.name + " has rows:") ||
        contradicts(config_.width, width, config_.width_field, token.name + " has columns:") ||
        (position != nullptr &&
         contradicts(config_.context, context, config_.context_field, position_rows)) ||
        (layers != 0 && !one_shard_of_many_ &&
         contradicts(config_.layers, layers, config_.layers_field, "the weights hold layers:")))
      return false;
  }
  EmbeddingTables tables;
  tables.vocab_size_ = vocab;
  tables.width_ = width;
  tables.context_ = context;
  tables.position_offset_ = offset;
  tables.family_ = family_;
  tables.wte_name_ = token.name;
  if (position != nullptr) tables.wpe_name_ = position->name;
  tables.config_ = config_;
  const bool tied = !have_config_ || config_.tied_output;
  for (const auto& tensor : header_.tensors) {
    if (is_buffer_not_parameter(tensor)) continue;
    if (tied && tensor.name == "lm_head.weight") continue;  // The same numbers as wte.
    tables.parameter_count_ += tensor.element_count;
  }
  // The loader is spent: the metadata moves rather than being copied, as
  // nothing after the caller's memory budget may allocate.
  tables.metadata_ = std::move(header_.metadata);
  tables.wte_ = std::move(pending(Table::Token).numbers);
  tables.wte_format_ = number_format(token.dtype);
  if (position != nullptr) {
    tables.wpe_ = std::move(pending(Table::Position).numbers);
    tables.wpe_format_ = number_format(position->dtype);
  }
  out = std::move(tables);
  stage_ = Stage::Done;
  return true;
}

}  // namespace embeddings
