#include "embeddings/formats/checkpoint_families.h"

#include <cstring>
#include <string_view>

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

}  // namespace embeddings
