#include "embeddings/formats/config.h"

#include <initializer_list>
#include <string_view>

#include "embeddings/common/message.h"
#include "embeddings/formats/json.h"

namespace embeddings {

namespace {

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

}  // namespace embeddings
