#include "embeddings/formats/model.h"

#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string_view>

#include "embeddings/common/message.h"
#include "embeddings/formats/json.h"
#include "embeddings/kernels/kernels.h"

// Tensor bytes are kept as the file stores them and read by the kernels as
// float32, half and bfloat16 numbers: both targets (x86-64 and WebAssembly)
// are little-endian, as is the safetensors format.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "safetensors data is little-endian");

namespace embeddings {

const CheckpointFamily kCheckpointFamilies[] = {
    {"GPT-2", "transformer.wte.weight", "transformer.wpe.weight", 0},
    {"GPT-2", "wte.weight", "wpe.weight", 0},
    {"Llama, Mistral, Qwen, Gemma, Phi", "model.embed_tokens.weight", nullptr, 0},
    {"GPT-NeoX", "gpt_neox.embed_in.weight", nullptr, 0},
    // OPT's learned positions start at row 2 (OPTLearnedPositionalEmbedding's offset).
    {"OPT", "model.decoder.embed_tokens.weight", "model.decoder.embed_positions.weight", 2},
    {"OPT", "decoder.embed_tokens.weight", "decoder.embed_positions.weight", 2},
};
const std::size_t kCheckpointFamilyCount = sizeof kCheckpointFamilies / sizeof kCheckpointFamilies[0];

std::string checkpoint_table_names(bool with_positions) {
  // Names 0 .. count - 1 are the token tables, count .. 2 count - 1 the position tables (or null).
  const auto name_at = [](std::size_t i) {
    const CheckpointFamily& family = kCheckpointFamilies[i % kCheckpointFamilyCount];
    return i < kCheckpointFamilyCount ? family.token_name : family.position_name;
  };
  std::string names;
  for (std::size_t i = 0; i < (with_positions ? 2 : 1) * kCheckpointFamilyCount; ++i) {
    const char* name = name_at(i);
    bool seen = name == nullptr;
    for (std::size_t j = 0; j < i && !seen; ++j)
      seen = name_at(j) != nullptr && std::strcmp(name_at(j), name) == 0;
    if (seen) continue;
    if (!names.empty()) names += ", ";
    names += name;
  }
  return names;
}

namespace {

// Each table may hold at most this many bytes, in its own format (a 16-bit
// table stays 16-bit: twice the numbers of a float32 one). WebAssembly
// memory tops out at a few GiB, and a size this module cannot hold must be
// an error, not an allocation failure (which would abort the runtime).
constexpr std::uint64_t kMaxTableBytes = std::uint64_t{1} << 30;

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

// The family whose token table the file holds; two families at once is ambiguous.
const CheckpointFamily* find_family(const safetensors::Header& header, std::string& error) {
  const CheckpointFamily* found = nullptr;
  for (std::size_t i = 0; i < kCheckpointFamilyCount; ++i) {
    const CheckpointFamily& family = kCheckpointFamilies[i];
    if (header.find(family.token_name) == nullptr) continue;
    if (found != nullptr && std::strcmp(found->token_name, family.token_name) != 0) {
      error = std::string("both ") + found->token_name + " and " + family.token_name +
              " are present; which is the token embedding table (wte) is ambiguous";
      return nullptr;
    }
    // Families that share a token name (OPT's with and without a prefix do
    // not; Llama's and Phi's do) are told apart by their position table.
    if (found == nullptr || (family.position_name != nullptr && header.find(family.position_name) != nullptr))
      found = &family;
  }
  if (found == nullptr)
    error =
        "no token embedding table (wte): expected a tensor named as one of the families this module reads "
        "names it (" +
        checkpoint_table_names(false) + ")";
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

// Number of transformer blocks, named as the families name them
// (h.<i>.…, model.layers.<i>.…), or 0 when the file holds none (a file with
// only the tables).
std::uint64_t count_layers(const safetensors::Header& header) {
  constexpr std::string_view kBlockPrefixes[] = {"transformer.h.",        "h.",
                                                 "model.layers.",         "gpt_neox.layers.",
                                                 "model.decoder.layers.", "decoder.layers."};
  std::uint64_t layers = 0;
  for (const auto& tensor : header.tensors) {
    for (std::string_view prefix : kBlockPrefixes) {
      std::string_view name = tensor.name;
      if (name.substr(0, prefix.size()) != prefix) continue;
      name.remove_prefix(prefix.size());
      std::uint64_t index = 0;
      std::size_t digits = 0;
      while (digits < name.size() && digits < 9 && name[digits] >= '0' && name[digits] <= '9') {
        index = index * 10 + static_cast<std::uint64_t>(name[digits] - '0');
        ++digits;
      }
      if (digits == 0 || digits >= name.size() || name[digits] != '.') continue;
      if (index + 1 > layers) layers = index + 1;
    }
  }
  return layers;
}

// The first of a field's spellings that config.json has, read as a
// positive integer; `used` says which it was.
bool read_positive_field_of(const json::Value& root, std::initializer_list<const char*> names,
                            std::uint64_t& out, const char*& used, std::string& error) {
  for (const char* name : names) {
    std::uint64_t value = 0;
    if (!read_positive_field(root, name, value, error)) return false;
    if (value != 0) {
      out = value;
      used = name;
      return true;
    }
  }
  return true;
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
  ModelConfig config;
  if (const json::Value* type = root.find("model_type"); type != nullptr && !type->is_null()) {
    if (!type->is_string()) {
      error = "model_type is not a string";
      return false;
    }
    config.model_type = type->text;
  }
  // Transformers' defaults for tie_word_embeddings differ by family: GPT-2,
  // OPT and Gemma tie the output layer to wte, Llama, Mistral, Qwen, GPT-NeoX
  // and Phi do not (their configs say so when they do).
  for (const char* untied : {"llama", "mistral", "qwen2", "qwen3", "gpt_neox", "phi", "phi3"})
    if (config.model_type == untied) config.tied_output = false;
  const char* field = nullptr;
  // OPT's tables are word_embed_proj_dim wide where that differs from hidden_size (OPT-350m).
  if (!read_positive_field(root, "vocab_size", config.vocab_size, error) ||
      !read_positive_field_of(root, {"n_embd", "word_embed_proj_dim", "hidden_size"}, config.width,
                              config.width_field, error) ||
      !read_positive_field_of(root, {"n_layer", "num_hidden_layers"}, config.layers, config.layers_field,
                              error) ||
      !read_positive_field_of(root, {"n_head", "num_attention_heads"}, config.heads, field, error))
    return false;
  // Newer GPT-2 configs say n_positions (the size of wpe), older ones only
  // n_ctx; the other families max_position_embeddings.
  if (!read_positive_field_of(root, {"n_positions", "n_ctx", "max_position_embeddings"}, config.context,
                              config.context_field, error))
    return false;
  if (const json::Value* tied = root.find("tie_word_embeddings"); tied != nullptr && !tied->is_null()) {
    if (!tied->is_bool()) {
      error = "tie_word_embeddings is not true or false";
      return false;
    }
    config.tied_output = tied->boolean;
  }
  // GPT-2's heads split n_embd; other families may size their heads apart
  // (Gemma's head_dim) or project the embeddings first (OPT-350m).
  if (config.width_field == std::string_view("n_embd") && config.heads != 0 &&
      config.width % config.heads != 0) {
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
    if (loader.table_bytes(table) != 0)
      std::memcpy(loader.table_buffer(table), data + loader.table_offset(table), loader.table_bytes(table));
  // (read_header() checked that every table lies inside the file.)
  if (config_json != nullptr && !loader.read_config(*config_json, why)) return failed("config.json");
  if (!loader.finish(out, why))
    return failed(loader.error_source() == ErrorSource::Config ? "config.json" : path);
  return true;
}

}  // namespace embeddings
