#include "embeddings/model.h"

#include <cstdio>
#include <cstring>
#include <limits>

#include "embeddings/json.h"
#include "embeddings/kernels.h"
#include "embeddings/message.h"

// Tensor bytes are copied straight into float storage for F32: both targets
// (x86-64 and WebAssembly) are little-endian, as is the safetensors format.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "safetensors F32 data is little-endian");

namespace embeddings {

namespace {

// Each table may hold at most this many bytes as float32. WebAssembly
// memory tops out at a few GiB, and a size this module cannot hold must be
// an error, not an allocation failure (which would abort the runtime).
constexpr std::uint64_t kMaxTableBytes = std::uint64_t{1} << 30;

constexpr const char* kTokenNames[] = {"transformer.wte.weight", "wte.weight"};
constexpr const char* kPositionNames[] = {"transformer.wpe.weight", "wpe.weight"};

bool read_positive_field(const json::Value& root, const char* name, std::uint64_t& out, std::string& error) {
  const json::Value* field = root.find(name);
  if (field == nullptr || field->is_null()) return true;
  std::uint64_t value = 0;
  if (!field->as_uint64(value) || value == 0) {
    error = std::string(name) + " is not a positive integer";
    return false;
  }
  out = value;
  return true;
}

// Finds one of the accepted names for a table; both spellings at once is ambiguous.
const safetensors::TensorInfo* find_table(const safetensors::Header& header, const char* const (&names)[2],
                                          const char* what, std::string& error) {
  const safetensors::TensorInfo* prefixed = header.find(names[0]);
  const safetensors::TensorInfo* bare = header.find(names[1]);
  if (prefixed != nullptr && bare != nullptr) {
    error = std::string("both ") + names[0] + " and " + names[1] + " are present; which is the " + what +
            " is ambiguous";
    return nullptr;
  }
  const safetensors::TensorInfo* found = prefixed != nullptr ? prefixed : bare;
  if (found == nullptr) {
    error = std::string("no ") + what + ": expected a tensor named " + names[0] + " or " + names[1];
    return nullptr;
  }
  if (found->shape.size() != 2) {
    error = found->name + " has " + std::to_string(found->shape.size()) + " dimensions; the " + what +
            " must have 2 (rows, width)";
    return nullptr;
  }
  if (found->shape[0] == 0 || found->shape[1] == 0) {
    error = found->name + " is empty (" + std::to_string(found->shape[0]) + " × " +
            std::to_string(found->shape[1]) + ")";
    return nullptr;
  }
  using safetensors::DType;
  if (found->dtype != DType::F32 && found->dtype != DType::F16 && found->dtype != DType::BF16) {
    error = found->name + " has dtype " + safetensors::dtype_name(found->dtype) +
            "; only F32, F16 and BF16 tables can be loaded";
    return nullptr;
  }
  if (found->element_count > kMaxTableBytes / sizeof(float)) {
    error = found->name + " has " + std::to_string(found->element_count) +
            " numbers, more than this module can hold (" + std::to_string(kMaxTableBytes / sizeof(float)) +
            ")";
    return nullptr;
  }
  return found;
}

// Tensors that old GPT-2 checkpoints store but that are not learned: the
// causal-mask buffers of each attention layer.
bool is_buffer_not_parameter(const safetensors::TensorInfo& tensor) {
  const auto ends_with = [&](std::string_view suffix) {
    return tensor.name.size() >= suffix.size() &&
           tensor.name.compare(tensor.name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return (ends_with(".attn.bias") && tensor.shape.size() == 4) || ends_with(".attn.masked_bias");
}

// Number of transformer blocks named h.<i>.… (with or without "transformer."),
// or 0 when the file holds none (a file with only the two tables).
std::uint64_t count_layers(const safetensors::Header& header) {
  std::uint64_t layers = 0;
  for (const auto& tensor : header.tensors) {
    std::string_view name = tensor.name;
    if (name.substr(0, 12) == "transformer.") name.remove_prefix(12);
    if (name.substr(0, 2) != "h.") continue;
    name.remove_prefix(2);
    std::uint64_t index = 0;
    std::size_t digits = 0;
    while (digits < name.size() && digits < 9 && name[digits] >= '0' && name[digits] <= '9') {
      index = index * 10 + static_cast<std::uint64_t>(name[digits] - '0');
      ++digits;
    }
    if (digits == 0 || digits >= name.size() || name[digits] != '.') continue;
    if (index + 1 > layers) layers = index + 1;
  }
  return layers;
}

}  // namespace

std::string config_too_large(std::size_t bytes) {
  return "the file is " + mebibytes(bytes) + "; a model configuration may hold at most " +
         mebibytes(kMaxConfigBytes) + " (GPT-2's has under a kilobyte)";
}

bool parse_config(std::string_view json_text, ModelConfig& out, std::string& error) {
  if (json_text.size() > kMaxConfigBytes) {
    error = config_too_large(json_text.size());
    return false;
  }
  json::Value root;
  std::string json_error;
  json::ParseOptions options;
  options.max_values = kMaxConfigValues;
  if (!json::parse(json_text, root, json_error, options)) {
    error = "not valid JSON: " + json_error;
    return false;
  }
  if (!root.is_object()) {
    error = "the top level is not a JSON object";
    return false;
  }
  if (const json::Value* type = root.find("model_type"); type != nullptr) {
    if (!type->is_string() || type->text != "gpt2") {
      error = "model_type is " + (type->is_string() ? quote(type->text) : "not a string") +
              "; only GPT-2-style models (\"gpt2\") are supported";
      return false;
    }
  }
  ModelConfig config;
  if (!read_positive_field(root, "vocab_size", config.vocab_size, error) ||
      !read_positive_field(root, "n_embd", config.width, error) ||
      !read_positive_field(root, "n_layer", config.layers, error) ||
      !read_positive_field(root, "n_head", config.heads, error))
    return false;
  std::uint64_t n_positions = 0, n_ctx = 0;
  if (!read_positive_field(root, "n_positions", n_positions, error) ||
      !read_positive_field(root, "n_ctx", n_ctx, error))
    return false;
  // Newer configs say n_positions (the size of wpe); older ones only n_ctx.
  config.context = n_positions != 0 ? n_positions : n_ctx;
  if (const json::Value* tied = root.find("tie_word_embeddings"); tied != nullptr && !tied->is_null()) {
    if (!tied->is_bool()) {
      error = "tie_word_embeddings is not true or false";
      return false;
    }
    config.tied_output = tied->boolean;
  }
  if (config.width != 0 && config.heads != 0 && config.width % config.heads != 0) {
    error = "n_embd (" + std::to_string(config.width) + ") is not a multiple of n_head (" +
            std::to_string(config.heads) + ")";
    return false;
  }
  out = config;
  return true;
}

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
  const safetensors::TensorInfo* token =
      find_table(header_, kTokenNames, "token embedding table (wte)", error);
  if (token == nullptr) return false;
  const safetensors::TensorInfo* position =
      find_table(header_, kPositionNames, "position embedding table (wpe)", error);
  if (position == nullptr) return false;
  if (token->shape[1] != position->shape[1]) {
    error = token->name + " is " + std::to_string(token->shape[1]) + " numbers wide but " + position->name +
            " is " + std::to_string(position->shape[1]) + "; they must have the same width to be added";
    return false;
  }
  pending(Table::Token).info = token;
  pending(Table::Position).info = position;
  stage_ = Stage::HaveHeader;
  return true;
}

std::uint64_t TablesLoader::allocation_bytes() const {
  std::uint64_t total = 0;
  for (const Pending& p : tables_) {
    if (p.info == nullptr) continue;
    // Each term is bounded by kMaxTableBytes, so the sum cannot overflow.
    total += p.info->element_count * sizeof(float) + p.info->shape[0] * sizeof(float);
    if (p.info->dtype != safetensors::DType::F32) total += p.info->byte_length;
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
    const bool staged = p.info->dtype != safetensors::DType::F32;
    if (!p.values.allocate(p.info->element_count) || !p.inverse_norms.allocate(p.info->shape[0]) ||
        (staged && !p.staged.allocate(p.info->byte_length))) {
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
  if (p.info->dtype == safetensors::DType::F32) return reinterpret_cast<unsigned char*>(p.values.data());
  return p.staged.data();
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
  const safetensors::TensorInfo& position = *pending(Table::Position).info;
  const std::uint64_t vocab = token.shape[0], width = token.shape[1], context = position.shape[0];
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
    if (contradicts(config_.vocab_size, vocab, "vocab_size", token.name + " has rows:") ||
        contradicts(config_.width, width, "n_embd", token.name + " has columns:") ||
        contradicts(config_.context, context, "n_positions", position.name + " has rows:") ||
        (layers != 0 && contradicts(config_.layers, layers, "n_layer", "the weights hold layers:")))
      return false;
  }
  for (Table table : {Table::Token, Table::Position}) {
    Pending& p = pending(table);
    if (p.info->dtype != safetensors::DType::F32) {
      safetensors::convert_to_f32(p.info->dtype, p.staged.data(), p.values.size(), p.values.data());
      p.staged.reset();
    }
  }
  EmbeddingTables tables;
  tables.vocab_size_ = vocab;
  tables.width_ = width;
  tables.context_ = context;
  tables.wte_name_ = token.name;
  tables.wpe_name_ = position.name;
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
  tables.wte_ = std::move(pending(Table::Token).values);
  tables.wpe_ = std::move(pending(Table::Position).values);
  tables.wte_inverse_norms_ = std::move(pending(Table::Token).inverse_norms);
  tables.wpe_inverse_norms_ = std::move(pending(Table::Position).inverse_norms);
  kernels::inverse_row_norms(tables.wte_.data(), vocab, width, tables.wte_inverse_norms_.data());
  kernels::inverse_row_norms(tables.wpe_.data(), context, width, tables.wpe_inverse_norms_.data());
  out = std::move(tables);
  stage_ = Stage::Done;
  return true;
}

bool read_file(const std::string& path, std::string& out, std::string& error) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    error = path + ": cannot open";
    return false;
  }
  std::string data;
  char buffer[1 << 16];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) data.append(buffer, got);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) {
    error = path + ": read error";
    return false;
  }
  out = std::move(data);
  return true;
}

bool load_tables_from_file(const std::string& path, const std::string* config_json, EmbeddingTables& out,
                           std::string& error) {
  std::string bytes;
  if (!read_file(path, bytes, error)) return false;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  TablesLoader loader;
  std::string why;
  const auto failed = [&](const std::string& file) {
    error = file + ": " + why;
    return false;
  };
  if (!loader.begin(data, bytes.size(), bytes.size(), why)) return failed(path);
  if (!loader.read_header(std::string_view(bytes).substr(8, loader.header_length()), why))
    return failed(path);
  for (Table table : {Table::Token, Table::Position})
    std::memcpy(loader.table_buffer(table), data + loader.table_offset(table), loader.table_bytes(table));
  // (read_header() checked that every table lies inside the file.)
  if (config_json != nullptr && !loader.read_config(*config_json, why)) return failed("config.json");
  if (!loader.finish(out, why))
    return failed(loader.error_source() == ErrorSource::Config ? "config.json" : path);
  return true;
}

}  // namespace embeddings
