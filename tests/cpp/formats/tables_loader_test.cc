// The safetensors reader and the table loader against good and hostile files.
#include "embeddings/formats/tables_loader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "embeddings/common/widen.h"
#include "embeddings/formats/safetensors.h"
#include "embeddings/kernels/kernels.h"
#include "safetensors_writer.h"

namespace {

using embeddings::EmbeddingTables;
using embeddings::ErrorSource;
using embeddings::Table;
using embeddings::TablesLoader;
using namespace embeddings::testing;

// Drives the loader over an in-memory file, like the JS layer does.
bool load_unnamed(TablesLoader& loader, const std::string& file, EmbeddingTables& out, std::string& error,
                  const std::string* config) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(file.data());
  if (!loader.begin(bytes, std::min<std::size_t>(file.size(), 8), file.size(), error)) return false;
  if (!loader.read_header(std::string_view(file).substr(8, loader.header_length()), error)) return false;
  for (Table table : {Table::Token, Table::Position}) {
    const auto offset = loader.table_offset(table), length = loader.table_bytes(table);
    EXPECT_LE(offset + length, file.size());
    if (length != 0) std::memcpy(loader.table_buffer(table), bytes + offset, length);
  }
  if (config != nullptr && !loader.read_config(*config, error)) return false;
  return loader.finish(out, error);
}

// The same, naming the file an error is about as a caller does: the loader's
// messages name none; its error_source() says which it was.
bool load(const std::string& file, EmbeddingTables& out, std::string& error,
          const std::string* config = nullptr) {
  TablesLoader loader;
  if (load_unnamed(loader, file, out, error, config)) return true;
  error = (loader.error_source() == ErrorSource::Config ? "config.json: " : "model.safetensors: ") + error;
  return false;
}

std::string load_error(const std::string& file, const std::string* config = nullptr) {
  EmbeddingTables tables;
  std::string error;
  EXPECT_FALSE(load(file, tables, error, config));
  EXPECT_EQ(tables.vocab_size(), 0u) << "half-loaded";
  return error;
}

#define EXPECT_ERROR_HAS(error, text) EXPECT_NE((error).find(text), std::string::npos) << (error)

TEST(TablesLoader, LoadsTablesAndParameterCount) {
  const std::string file = safetensors_file(tiny_model(5, 3, 4), R"({"format":"pt","step":"7"})");
  EmbeddingTables tables;
  std::string error;
  ASSERT_TRUE(load(file, tables, error)) << error;
  EXPECT_EQ(tables.vocab_size(), 5u);
  EXPECT_EQ(tables.context(), 3u);
  EXPECT_EQ(tables.width(), 4u);
  EXPECT_EQ(tables.wte().row(2)[3], 2.003f);
  EXPECT_EQ(tables.wpe().row(1)[0], -1.0f);
  EXPECT_EQ(tables.parameter_count(), 5u * 4 + 3 * 4 + 4);
  EXPECT_EQ(tables.wte_name(), "transformer.wte.weight");
  ASSERT_EQ(tables.metadata().size(), 2u);
  EXPECT_EQ(tables.metadata()[1].second, "7");
  EXPECT_EQ(tables.wte().format(), embeddings::kernels::NumberFormat::F32);
}

TEST(TablesLoader, AcceptsBareNames) {
  EmbeddingTables tables;
  std::string error;
  ASSERT_TRUE(load(safetensors_file(tiny_model(5, 3, 4, "")), tables, error)) << error;
  EXPECT_EQ(tables.wpe_name(), "wpe.weight");
}

TEST(TablesLoader, KeepsF16AndBF16TablesInTheirBitsAndReadsThemExactly) {
  // 1.0, -2.0, 0.5, 65504 (max half), a subnormal half (2^-24), +inf
  const std::vector<std::uint16_t> halves = {0x3C00, 0xC000, 0x3800, 0x7BFF, 0x0001, 0x7C00};
  const std::vector<float> expected_halves = {1.0f, -2.0f, 0.5f, 65504.0f, std::ldexp(1.0f, -24), INFINITY};
  for (std::size_t i = 0; i < halves.size(); ++i)
    EXPECT_EQ(embeddings::f16_bits_to_f32(halves[i]), expected_halves[i]) << i;
  EXPECT_EQ(embeddings::bf16_bits_to_f32(0x3F80), 1.0f);
  EXPECT_EQ(embeddings::bf16_bits_to_f32(0xC0A0), -5.0f);

  std::string f16(2 * 2 * 3, '\0'), bf16(2 * 1 * 3, '\0');
  for (std::size_t i = 0; i < 6; ++i) {
    f16[2 * i] = static_cast<char>(halves[0] & 0xFF);
    f16[2 * i + 1] = static_cast<char>(halves[0] >> 8);
  }
  for (std::size_t i = 0; i < 3; ++i) {
    bf16[2 * i] = static_cast<char>(0xA0);
    bf16[2 * i + 1] = static_cast<char>(0xC0);
  }
  EmbeddingTables tables;
  std::string error;
  ASSERT_TRUE(
      load(safetensors_file({{"wte.weight", "F16", {2, 3}, f16}, {"wpe.weight", "BF16", {1, 3}, bf16}}),
           tables, error))
      << error;
  // The tables are the file's bytes, not a float32 copy of them.
  EXPECT_EQ(tables.wte().format(), embeddings::kernels::NumberFormat::F16);
  EXPECT_EQ(tables.wpe().format(), embeddings::kernels::NumberFormat::BF16);
  EXPECT_EQ(tables.wte().floats(), nullptr);
  EXPECT_EQ(std::memcmp(tables.wte().numbers.data, f16.data(), f16.size()), 0);
  EXPECT_EQ(std::memcmp(tables.wpe().numbers.data, bf16.data(), bf16.size()), 0);
  EXPECT_EQ(tables.wte().at(1, 2), 1.0f);
  EXPECT_EQ(tables.wpe().at(0, 0), -5.0f);
}

TEST(TablesLoader, RejectsTruncationInsideTheLength) {
  const std::string file = safetensors_file(tiny_model(5, 3, 4));
  EXPECT_ERROR_HAS(load_error(file.substr(0, 5)), "too short");
  EXPECT_ERROR_HAS(load_error(""), "too short");
}

TEST(TablesLoader, RejectsTruncationInsideTheHeaderOrData) {
  const std::string file = safetensors_file(tiny_model(5, 3, 4));
  EXPECT_ERROR_HAS(load_error(file.substr(0, 20)), "header length");
  EXPECT_ERROR_HAS(load_error(file.substr(0, file.size() - 1)), "is the file truncated?");
  EXPECT_ERROR_HAS(load_error(file + "extra"), "trailing");
}

TEST(TablesLoader, RejectsAbsurdHeaderLengthWithoutAllocating) {
  std::string file = safetensors_file(tiny_model(5, 3, 4));
  for (int i = 0; i < 8; ++i) file[i] = static_cast<char>(0xFF);
  EXPECT_ERROR_HAS(load_error(file), "limit");
  file[7] = 0;  // still enormous, but under 2^56
  EXPECT_ERROR_HAS(load_error(file), "header length");
  for (int i = 0; i < 8; ++i) file[i] = 0;
  file[0] = 0x01;  // 1 byte: too short for JSON
  EXPECT_ERROR_HAS(load_error(file), "too short");
}

TEST(TablesLoader, RejectsHeadersThatAreNotJsonObjects) {
  EXPECT_ERROR_HAS(load_error(file_from("{not json}", "")), "not valid JSON");
  EXPECT_ERROR_HAS(load_error(file_from("[1, 2]", "")), "start with '{'");
  EXPECT_ERROR_HAS(load_error(file_from("{\"a\": 1}", "")), "not an object");
  EXPECT_ERROR_HAS(load_error(file_from("{\"__metadata__\": 1}", "")), "__metadata__");
  EXPECT_ERROR_HAS(load_error(file_from("{\"__metadata__\": {\"a\": 1}}", "")), "__metadata__");
}

TEST(TablesLoader, RejectsBadOffsets) {
  const std::string wte = f32_bytes(std::vector<float>(6, 1.0f)),
                    wpe = f32_bytes(std::vector<float>(3, 1.0f));
  const std::string data = wte + wpe;
  const auto header = [](const std::string& wte_offsets, const std::string& wpe_offsets,
                         const std::string& wte_shape = "[2,3]") {
    return "{\"wte.weight\":{\"dtype\":\"F32\",\"shape\":" + wte_shape + ",\"data_offsets\":" + wte_offsets +
           "},\"wpe.weight\":{\"dtype\":\"F32\",\"shape\":[1,3],\"data_offsets\":" + wpe_offsets + "}}";
  };
  EXPECT_ERROR_HAS(load_error(file_from(header("[0,24]", "[24,100]"), data)), "past the end");
  EXPECT_ERROR_HAS(load_error(file_from(header("[0,24]", "[12,24]"), data)), "overlaps");
  EXPECT_ERROR_HAS(load_error(file_from(header("[0,24]", "[28,40]"), data + "1234")), "gap");
  EXPECT_ERROR_HAS(load_error(file_from(header("[0,24]", "[24,36]", "[2,4]"), data)), "need");
  EXPECT_ERROR_HAS(load_error(file_from(header("[24,0]", "[24,36]"), data)), "end before");
  EXPECT_ERROR_HAS(load_error(file_from(header("[0,-24]", "[24,36]"), data)), "non-negative");
  EXPECT_ERROR_HAS(load_error(file_from(header("[0]", "[24,36]"), data)), "data_offsets");
  EXPECT_ERROR_HAS(load_error(file_from(header("[0,24]", "[24,36]", "[4294967296,4294967296,16]"), data)),
                   "overflow");
  EXPECT_ERROR_HAS(load_error(file_from(header("[0,24]", "[24,36]", "[2,-3]"), data)), "shape");
}

TEST(TablesLoader, ChecksDtypes) {
  auto tensors = tiny_model(2, 2, 2);
  tensors[2].dtype = "Q4";
  EXPECT_ERROR_HAS(load_error(safetensors_file(tensors)), "unknown dtype \"Q4\"");
  tensors = tiny_model(2, 2, 2);
  tensors[2].dtype = "I32";  // same byte size as F32
  EXPECT_ERROR_HAS(load_error(safetensors_file(tensors)), "has dtype I32; only F32, F16 and BF16");
  tensors = tiny_model(2, 2, 2);
  tensors[0].dtype = "I32";  // another tensor may have any known dtype
  EmbeddingTables tables;
  std::string error;
  EXPECT_TRUE(load(safetensors_file(tensors), tables, error)) << error;
}

TEST(TablesLoader, RequiresBothTablesWithTheSameWidth) {
  auto tensors = tiny_model(5, 3, 4);
  tensors.erase(tensors.begin() + 2);
  EXPECT_ERROR_HAS(load_error(safetensors_file(tensors)), "no token embedding table");
  tensors = tiny_model(5, 3, 4);
  tensors.erase(tensors.begin() + 1);
  EXPECT_ERROR_HAS(load_error(safetensors_file(tensors)), "no position embedding table");
  tensors = tiny_model(5, 3, 4);
  tensors[1] = tiny_model(5, 3, 6)[1];
  EXPECT_ERROR_HAS(load_error(safetensors_file(tensors)), "same width");
  tensors = tiny_model(5, 3, 4);
  tensors.push_back(tiny_model(5, 3, 4, "")[2]);
  EXPECT_ERROR_HAS(load_error(safetensors_file(tensors)), "ambiguous");
  tensors = tiny_model(5, 3, 4);
  tensors[2].shape = {5, 2, 2};
  EXPECT_ERROR_HAS(load_error(safetensors_file(tensors)), "must have 2");
}

TEST(TablesLoader, ChecksConfigAgainstTensors) {
  const std::string file = safetensors_file(tiny_model(5, 3, 4));
  const std::string good =
      R"({"model_type":"gpt2","vocab_size":5,"n_embd":4,"n_positions":3,"n_layer":1,"n_head":2})";
  EmbeddingTables tables;
  std::string error;
  EXPECT_TRUE(load(file, tables, error, &good)) << error;
  EXPECT_EQ(tables.config().heads, 2u);
  const std::pair<std::string, std::string> cases[] = {
      {R"({"vocab_size":6})", "vocab_size is 6"},
      {R"({"n_embd":8})", "n_embd is 8"},
      {R"({"n_positions":4})", "n_positions is 4"},
      {R"({"n_ctx":4})", "n_ctx is 4"},
      {R"({"n_layer":2})", "n_layer is 2"},
      {R"({"n_embd":"4"})", "n_embd is not a positive integer"},
      {R"({"n_embd":4,"n_head":3})", "multiple of n_head"},
      {R"({"model_type":3})", "model_type is not a string"},
      {R"([])", "not a JSON object"},
      {R"({)", "not valid JSON"},
  };
  for (const auto& [config, expected] : cases) {
    const std::string error = load_error(file, &config);
    EXPECT_ERROR_HAS(error, expected);
    EXPECT_ERROR_HAS(error, "config.json");
  }
}

// A checkpoint named as a family names its tables: the token table, the
// position table (when the family has one) and one block's weight.
std::string family_checkpoint(const std::string& token, const std::string& position, const std::string& block,
                              std::size_t vocab, std::size_t positions, std::size_t width) {
  const auto model = tiny_model(vocab, positions, width);
  std::vector<TestTensor> tensors = {{block, "F32", {width}, f32_bytes(std::vector<float>(width, 1.0f))},
                                     {token, "F32", {vocab, width}, model[2].bytes}};
  if (!position.empty()) tensors.push_back({position, "F32", {positions, width}, model[1].bytes});
  return safetensors_file(tensors);
}

TEST(TablesLoader, ReadsTheTensorNamesAndConfigFieldsOfTheCommonFamilies) {
  struct Case {
    const char* family;
    const char* token;
    const char* position;  // "" for rotary positions
    const char* block;
    const char* config;
    std::size_t position_offset;
  };
  const Case cases[] = {
      {"GPT-2", "transformer.wte.weight", "transformer.wpe.weight", "transformer.h.1.ln_1.weight",
       R"({"model_type":"gpt2","vocab_size":6,"n_embd":4,"n_positions":3,"n_layer":2})", 0},
      {"GPT-2", "wte.weight", "wpe.weight", "h.1.ln_1.weight", R"({"vocab_size":6,"n_embd":4,"n_ctx":3})", 0},
      {"Llama, Mistral, Qwen, Gemma, Phi", "model.embed_tokens.weight", "",
       "model.layers.1.input_layernorm.weight",
       R"({"model_type":"llama","vocab_size":6,"hidden_size":4,"max_position_embeddings":8192,)"
       R"("num_hidden_layers":2,"num_attention_heads":32,"tie_word_embeddings":false})",
       0},
      {"Llama, Mistral, Qwen, Gemma, Phi", "model.embed_tokens.weight", "", "model.layers.1.mlp.fc1.weight",
       R"({"model_type":"phi","vocab_size":6,"hidden_size":4,"max_position_embeddings":2048})", 0},
      {"GPT-NeoX", "gpt_neox.embed_in.weight", "", "gpt_neox.layers.1.attention.dense.weight",
       R"({"model_type":"gpt_neox","vocab_size":6,"hidden_size":4,"max_position_embeddings":2048})", 0},
      // OPT keeps two rows before position 0: max_position_embeddings is the rest.
      {"OPT", "model.decoder.embed_tokens.weight", "model.decoder.embed_positions.weight",
       "model.decoder.layers.1.fc1.weight",
       R"({"model_type":"opt","vocab_size":6,"hidden_size":16,"word_embed_proj_dim":4,)"
       R"("max_position_embeddings":3,"num_hidden_layers":2})",
       2},
      {"OPT", "decoder.embed_tokens.weight", "decoder.embed_positions.weight", "decoder.layers.1.fc1.weight",
       R"({"model_type":"opt","vocab_size":6,"hidden_size":4,"max_position_embeddings":3})", 2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.token);
    const bool rotary = *c.position == '\0';
    const std::string file = family_checkpoint(c.token, c.position, c.block, 6, 3 + c.position_offset, 4);
    const std::string config = c.config;
    EmbeddingTables tables;
    std::string error;
    ASSERT_TRUE(load(file, tables, error, &config)) << error;
    EXPECT_STREQ(tables.family().family, c.family);
    EXPECT_EQ(tables.wte_name(), c.token);
    EXPECT_EQ(tables.vocab_size(), 6u);
    EXPECT_EQ(tables.width(), 4u);
    EXPECT_EQ(tables.wte().row(5)[1], 5.001f);
    EXPECT_EQ(tables.has_position_table(), !rotary);
    if (rotary) {
      EXPECT_EQ(tables.wpe().numbers.data, nullptr);
      EXPECT_EQ(tables.wpe().rows, 0u);
      EXPECT_GT(tables.context(), 3u);  // from max_position_embeddings
    } else {
      EXPECT_EQ(tables.wpe_name(), c.position);
      EXPECT_EQ(tables.context(), 3u);
      // Position 0 is row position_offset of the file's table (values -(row + col / 1000)).
      EXPECT_EQ(tables.wpe().row(0)[1], -(float(c.position_offset) + 0.001f));
      EXPECT_EQ(tables.wpe().row(2)[0], -float(c.position_offset + 2));
    }
  }
}

// A family's config field that contradicts the tensors is named as the
// config spells it; a missing position table and two families' token tables
// are refused.
TEST(TablesLoader, ErrorsNameTheFamilysFieldsAndTables) {
  const std::string llama = family_checkpoint("model.embed_tokens.weight", "", "model.layers.0.x", 6, 3, 4);
  std::string config = R"({"hidden_size":8})";
  EXPECT_ERROR_HAS(load_error(llama, &config),
                   "hidden_size is 8 but model.embed_tokens.weight has columns: 4");
  config = R"({"num_hidden_layers":3})";
  EXPECT_ERROR_HAS(load_error(llama, &config), "num_hidden_layers is 3 but the weights hold layers: 1");
  const std::string opt =
      family_checkpoint("model.decoder.embed_tokens.weight", "model.decoder.embed_positions.weight",
                        "model.decoder.layers.0.x", 6, 5, 4);
  config = R"({"max_position_embeddings":5})";
  EXPECT_ERROR_HAS(load_error(opt, &config),
                   "max_position_embeddings is 5 but model.decoder.embed_positions.weight "
                   "has, after its 2 leading rows, 3");
  EXPECT_ERROR_HAS(load_error(family_checkpoint("model.decoder.embed_tokens.weight", "", "x", 6, 5, 4)),
                   "needs model.decoder.embed_positions.weight");
  auto both = tiny_model(6, 3, 4);
  both.push_back({"model.embed_tokens.weight", "F32", {6, 4}, both[2].bytes});
  EXPECT_ERROR_HAS(load_error(safetensors_file(both)), "ambiguous");
  EXPECT_ERROR_HAS(load_error(family_checkpoint("model.decoder.embed_tokens.weight",
                                                "model.decoder.embed_positions.weight", "x", 6, 2, 4)),
                   "keeps the first 2 rows before position 0");
}

TEST(TablesLoader, ReportsGpt2SizedHeadersWithoutTheData) {
  // A 50257 x 768 token table: the header alone says where to read; the
  // loader sizes its buffers from the file, not from constants.
  const std::string header =
      R"({"wte.weight":{"dtype":"F32","shape":[50257,768],"data_offsets":[0,154389504]},)"
      R"("wpe.weight":{"dtype":"F32","shape":[1024,768],"data_offsets":[154389504,157535232]}})";
  TablesLoader loader;
  std::string error;
  const std::string prefix = file_from(header, "");
  const std::uint64_t file_size = prefix.size() + 157535232ull;
  ASSERT_TRUE(loader.begin(reinterpret_cast<const unsigned char*>(prefix.data()), 8, file_size, error))
      << error;
  ASSERT_TRUE(loader.read_header(std::string_view(prefix).substr(8, loader.header_length()), error)) << error;
  EXPECT_EQ(loader.table_bytes(Table::Token), 154389504u);
  EXPECT_EQ(loader.table_offset(Table::Position), prefix.size() + 154389504u);
}

TEST(TablesLoader, LoaderStepsOutOfOrderAreErrors) {
  TablesLoader loader;
  EmbeddingTables tables;
  std::string error;
  EXPECT_FALSE(loader.read_header("{}", error));
  EXPECT_FALSE(loader.finish(tables, error));
}

}  // namespace
