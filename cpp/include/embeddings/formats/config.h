// A Hugging Face config.json: the fields this project reads, under each
// family's spelling, and the bounds on what the file may hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace embeddings {

// The fields of a Hugging Face config.json this project reads, under
// either family's spelling (GPT-2's, or the hidden_size spelling Llama,
// Qwen, Gemma, GPT-NeoX, OPT and Phi share). A field that config.json
// leaves out stays 0 (unknown) and the tensors decide.
struct ModelConfig {
  std::uint64_t vocab_size = 0;  // vocab_size
  std::uint64_t width = 0;       // n_embd, hidden_size (OPT: word_embed_proj_dim when given)
  std::uint64_t context = 0;     // n_positions (or the older n_ctx), max_position_embeddings
  std::uint64_t layers = 0;      // n_layer, num_hidden_layers
  std::uint64_t heads = 0;       // n_head, num_attention_heads
  bool tied_output = true;       // tie_word_embeddings (GPT2Config's default is true)
  std::string model_type;        // "" when config.json does not say
  // How config.json spelled the width and context, for messages.
  const char* width_field = "n_embd";
  const char* context_field = "n_positions";
  const char* layers_field = "n_layer";
};

// What config.json may hold. A GPT2Config is under a kilobyte with about 40
// values, and the largest configurations of the field (label maps of a
// thousand classes) a few dozen kilobytes and a few thousand values. The
// bounds keep a hostile file from growing the memory the tables live in
// (the parsed tree stays within a few MiB) or taking seconds to read.
inline constexpr std::size_t kMaxConfigBytes = 4 << 20;
inline constexpr std::size_t kMaxConfigValues = 1 << 16;

// Parses config.json. Errors name the field ("n_embd is -3, not a positive
// integer"), not the file: the caller knows its name.
bool parse_config(std::string_view json_text, ModelConfig& out, std::string& error);
// The message for a config.json over kMaxConfigBytes.
std::string config_too_large(std::size_t bytes);

}  // namespace embeddings
