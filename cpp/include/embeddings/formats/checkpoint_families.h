// The checkpoint families this project reads: how each names its token and
// position tables, and what else its tensors' names say (its layers, the
// buffers that are not parameters).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "embeddings/formats/safetensors.h"

namespace embeddings {

// One family's tensor names. A family without a position table uses
// positions that are not a learned table (rotary, as Llama has).
struct CheckpointFamily {
  const char* family;             // for messages: "GPT-2", "Llama, Mistral, Qwen, Gemma, Phi"
  const char* token_name;         // the token embedding table
  const char* position_name;      // the position table, or nullptr when the family has none
  std::uint64_t position_offset;  // rows of the position table before position 0 (OPT: 2)
};
// Every naming the loader recognises, in the order messages list them.
extern const CheckpointFamily kCheckpointFamilies[];
extern const std::size_t kCheckpointFamilyCount;
// The token table names of kCheckpointFamilies (and with_positions, the
// position table names after them), once each, separated by ", ": for
// messages, and what a caller looks for in a sharded checkpoint's index.
std::string checkpoint_table_names(bool with_positions);

// The family whose token table `header` holds; nullptr, with a message, when
// there is none or when two families' token tables are there (ambiguous).
const CheckpointFamily* find_family(const safetensors::Header& header, std::string& error);

// Tensors that old GPT-2 checkpoints store but that are not learned (the
// causal-mask buffers of each attention layer): not counted as parameters.
bool is_buffer_not_parameter(const safetensors::TensorInfo& tensor);

// Number of transformer blocks, named as the families name them, or 0 when
// the file holds none (a file with only the tables).
std::uint64_t count_layers(const safetensors::Header& header);

}  // namespace embeddings
