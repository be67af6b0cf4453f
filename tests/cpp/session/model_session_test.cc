// The model session the WebAssembly bindings hand to JavaScript, driven here
// the way the JavaScript layer drives it: loading step by step into its
// buffers, the memory budget, the workspace computations, and the messages.
#include "embeddings/session/model_session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "embeddings/common/message.h"
#include "embeddings/common/widen.h"
#include "embeddings/formats/safetensors.h"
#include "formats/safetensors_writer.h"
#include "session/session_testing.h"

namespace {

using embeddings::ErrorSource;
using embeddings::MemoryBudget;
using embeddings::ModelSession;
using namespace embeddings::testing;
namespace kernels = embeddings::kernels;

constexpr int kWte = 0, kWpe = 1;

// Loads a whole in-memory file as the JS layer does, through the session's buffers.
bool load(ModelSession& session, const std::string& file, const std::string* config = nullptr) {
  const std::size_t prefix = std::min<std::size_t>(file.size(), embeddings::kPrefixBytes);
  std::memcpy(session.prefix_buffer(), file.data(), prefix);
  if (!session.begin(prefix, static_cast<double>(file.size()))) return false;
  unsigned char* header = session.header_buffer();
  if (header == nullptr) return false;
  std::memcpy(header, file.data() + embeddings::kPrefixBytes, session.header_length());
  if (!session.read_header()) return false;
  for (int table : {kWte, kWpe})
    if (session.table_bytes(table) != 0)  // 0: a model without a position table
      std::memcpy(session.table_buffer(table), file.data() + session.table_offset(table),
                  session.table_bytes(table));
  if (config != nullptr) {
    char* buffer = session.config_buffer(config->size());
    if (buffer == nullptr) return false;
    std::memcpy(buffer, config->data(), config->size());
    if (!session.read_config()) return false;
  }
  return session.finish();
}

// A model whose rows point every which way, so nearest() has something to rank.
std::string random_model(std::size_t vocab, std::size_t context, std::size_t width,
                         const std::string& metadata = "", unsigned seed = 7) {
  std::mt19937 random(seed);
  std::normal_distribution<float> normal;
  std::vector<float> wte(vocab * width), wpe(context * width);
  for (float& x : wte) x = normal(random);
  for (float& x : wpe) x = normal(random);
  return safetensors_file({{"wte.weight", "F32", {vocab, width}, f32_bytes(wte)},
                           {"wpe.weight", "F32", {context, width}, f32_bytes(wpe)}},
                          metadata);
}

// What nearest() must return: the full exact scan.
std::vector<std::int32_t> nearest_by_full_scan(const embeddings::EmbeddingTables& tables, const float* query,
                                               std::size_t rows, std::size_t k, std::int64_t exclude) {
  std::vector<float> scores(rows);
  kernels::cosine_scores(query, tables.wte().numbers, rows, tables.width(), scores.data());
  std::vector<std::int32_t> ids(k);
  std::vector<float> top(k);
  ids.resize(kernels::top_k(scores.data(), rows, k, exclude, ids.data(), top.data()));
  return ids;
}

std::vector<std::int32_t> results(const ModelSession& session) {
  return {session.result_ids(), session.result_ids() + session.result_count()};
}

// The "needs N MiB" figure of a refusal, in MiB.
double needed_mib(const std::string& error) {
  const std::size_t at = error.find("needs ");
  return at == std::string::npos ? -1 : std::stod(error.substr(at + 6));
}

TEST(ModelSession, LoadsAndComputesOverItsWorkspace) {
  const std::string file = random_model(300, 16, 24, R"({"format":"pt","note":"a \"quoted\" word"})");
  ModelSession session;
  ASSERT_TRUE(load(session, file)) << session.error();
  EXPECT_TRUE(session.loaded());
  EXPECT_EQ(session.tables().vocab_size(), 300u);
  EXPECT_EQ(session.metadata_json(), R"({"format":"pt","note":"a \"quoted\" word"})");

  // Trace rows: token rows, position rows and their sums.
  const std::int32_t ids[] = {5, 299, 0};
  std::memcpy(session.ids(), ids, sizeof ids);
  ASSERT_TRUE(session.trace(3)) << session.error();
  EXPECT_EQ(session.token_rows()[24], session.tables().wte().row(299)[0]);
  EXPECT_EQ(session.position_rows()[2 * 24 + 5], session.tables().wpe().row(2)[5]);
  EXPECT_EQ(session.sum_rows()[1], session.tables().wte().row(5)[1] + session.tables().wpe().row(0)[1]);

  // nearest by id and by vector: the full scan's answer.
  for (std::size_t id : {0u, 17u, 299u}) {
    ASSERT_TRUE(session.nearest_to_token(id, 10)) << session.error();
    EXPECT_EQ(results(session), nearest_by_full_scan(session.tables(), session.tables().wte().row(id), 300,
                                                     10, static_cast<std::int64_t>(id)));
  }
  for (std::size_t c = 0; c < 24; ++c) session.query()[c] = std::sin(static_cast<float>(c));
  ASSERT_TRUE(session.nearest_to_query(5)) << session.error();
  EXPECT_EQ(results(session), nearest_by_full_scan(session.tables(), session.query(), 300, 5, -1));
  EXPECT_EQ(*session.result_count_address(), 5u);

  // Each table's colour scale, read by finish(); the matrix block it used as scratch is zeroed again.
  std::vector<float> scratch(embeddings::kRobustLimitScratch);
  EXPECT_EQ(session.robust_limit(kWte), embeddings::robust_limit(session.tables().wte(), scratch.data()));
  EXPECT_EQ(session.robust_limit(kWpe), embeddings::robust_limit(session.tables().wpe(), scratch.data()));
  EXPECT_GT(session.robust_limit(kWte), 0.0f);
  EXPECT_EQ(session.robust_limit(2), 0.0f);
  EXPECT_EQ(ModelSession().robust_limit(kWte), 0.0f);
  EXPECT_TRUE(std::all_of(session.matrix_block(), session.matrix_block() + embeddings::kMatrixBlock,
                          [](float x) { return x == 0.0f; }));

  // Every table and workspace buffer starts on a cache line.
  for (const void* p :
       {static_cast<const void*>(session.tables().wte().numbers.data),
        static_cast<const void*>(session.tables().wpe().numbers.data),
        static_cast<const void*>(session.query()), static_cast<const void*>(session.matrix_block()),
        static_cast<const void*>(session.result_ids())})
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % embeddings::kBufferAlignment, 0u);

  // The position map, whole and by row blocks, agree.
  ASSERT_TRUE(session.cosine_matrix(kWpe)) << session.error();
  const std::vector<float> whole(session.matrix_block(), session.matrix_block() + 16 * 16);
  ASSERT_TRUE(session.cosine_matrix_rows(kWpe, 3, 5)) << session.error();
  for (std::size_t j = 0; j < 16; ++j) EXPECT_NEAR(session.matrix_block()[j], whole[3 * 16 + j], 1e-6);
}

TEST(ModelSession, RefusesWhatItCannotDoWithAMessage) {
  ModelSession empty;
  EXPECT_FALSE(empty.nearest_to_token(0, 1));
  EXPECT_EQ(empty.error(), "no model is loaded");
  EXPECT_FALSE(empty.nearest_to_query(1));
  EXPECT_EQ(empty.error(), "no model is loaded");
  EXPECT_FALSE(empty.trace(0));
  EXPECT_FALSE(empty.cosine_matrix(kWpe));
  EXPECT_EQ(empty.error(), "no model is loaded");

  ModelSession session;
  ASSERT_TRUE(load(session, random_model(100, 8, 16))) << session.error();
  EXPECT_FALSE(session.nearest_to_token(100, 3));
  EXPECT_EQ(session.error(), "token id 100 is outside the token table");
  EXPECT_FALSE(session.nearest_to_token(1, 0));
  EXPECT_FALSE(session.nearest_to_token(1, 101));
  EXPECT_FALSE(session.cosine_matrix(2));
  EXPECT_EQ(session.error(), "table 2 does not exist (0 is wte, 1 is wpe)");
  EXPECT_FALSE(session.cosine_matrix_rows(-1, 0, 1));
  EXPECT_FALSE(session.cosine_matrix_rows(kWpe, 5, 9));
  EXPECT_EQ(session.error(), "bad row range");
  EXPECT_EQ(session.table_buffer(2), nullptr);  // after finish(), and for a table that does not exist
  const std::int32_t outside[] = {100};
  std::memcpy(session.ids(), outside, sizeof outside);
  EXPECT_FALSE(session.trace(1));
  EXPECT_EQ(session.error(), "token id 100 is outside the token table");
  EXPECT_FALSE(session.trace(9));
  // Still works after every refusal.
  EXPECT_TRUE(session.nearest_to_token(1, 3));
  EXPECT_EQ(session.result_count(), 3u);

  ModelSession sized;
  for (double size : {-1.0, 0.5, 1e300, std::nan("")}) {
    EXPECT_FALSE(sized.begin(8, size));
    EXPECT_EQ(sized.error(), "invalid file size");
  }
}

// The one-hot lookup as a product: wte's rows in chunks from vector_a() into query().
TEST(ModelSession, MultipliesAVectorByTheTokenTableInChunks) {
  const std::size_t vocab = 300, width = 24;
  ModelSession session;
  ASSERT_TRUE(load(session, random_model(vocab, 16, width))) << session.error();
  std::fill(session.vector_a(), session.vector_a() + vocab, 0.0f);
  session.vector_a()[17] = 1.0f;
  std::fill(session.query(), session.query() + width, 0.0f);
  ASSERT_TRUE(session.vector_times_wte(0, vocab)) << session.error();
  for (std::size_t j = 0; j < width; ++j) EXPECT_EQ(session.query()[j], session.tables().wte().row(17)[j]);
  // Two chunks, the second added to the first, are the whole product.
  std::mt19937 random(2);
  std::normal_distribution<float> normal;
  std::vector<float> x(vocab);
  for (float& v : x) v = normal(random);
  std::vector<double> expected(width);
  kernels::vector_times_table_reference(x.data(), session.tables().wte().row(0), vocab, width,
                                        expected.data());
  std::copy(x.begin(), x.begin() + 100, session.vector_a());
  std::fill(session.query(), session.query() + width, 0.0f);
  ASSERT_TRUE(session.vector_times_wte(0, 100));
  std::copy(x.begin() + 100, x.end(), session.vector_a());
  ASSERT_TRUE(session.vector_times_wte(100, vocab - 100));
  for (std::size_t j = 0; j < width; ++j) EXPECT_NEAR(session.query()[j], expected[j], 1e-4);
  // Rows outside the table, or more than a chunk, are refused.
  EXPECT_FALSE(session.vector_times_wte(200, 101));
  EXPECT_EQ(session.error(), "bad row range");
  EXPECT_FALSE(session.vector_times_wte(301, 0));
  EXPECT_FALSE(session.vector_times_wte(static_cast<std::size_t>(-1), 2));
  ModelSession wide;
  ASSERT_TRUE(load(wide, random_model(embeddings::kVectorChunk + 1, 4, 2))) << wide.error();
  EXPECT_FALSE(wide.vector_times_wte(0, embeddings::kVectorChunk + 1));
  EXPECT_TRUE(wide.vector_times_wte(1, embeddings::kVectorChunk));
  ModelSession empty;  // no table yet: no rows to multiply
  EXPECT_FALSE(empty.vector_times_wte(0, 1));
  EXPECT_EQ(empty.error(), "bad row range");
}

TEST(ModelSession, NearestLeavesOutRowsWithoutATokenWhenTold) {
  // A padded table, as nanoGPT and llm.c pad GPT-2: 260 rows, 250 of them tokens.
  ModelSession session;
  ASSERT_TRUE(load(session, random_model(260, 8, 16))) << session.error();
  session.set_rows_with_tokens(250);
  for (std::size_t id : {3u, 255u}) {
    ASSERT_TRUE(session.nearest_to_token(id, 260)) << session.error();
    const auto ids = results(session);
    EXPECT_EQ(ids.size(), id < 250 ? 249u : 250u);
    for (std::int32_t found : ids) EXPECT_LT(found, 250);
    EXPECT_EQ(ids, nearest_by_full_scan(session.tables(), session.tables().wte().row(id), 250, 260,
                                        static_cast<std::int64_t>(id)));
  }
  session.set_rows_with_tokens(1000);  // more than the table has: all of them
  ASSERT_TRUE(session.nearest_to_token(3, 260));
  EXPECT_EQ(session.result_count(), 259u);
}

TEST(ModelSession, TracesAModelWithoutAPositionTableAsItsTokenRows) {
  std::mt19937 random(3);
  std::normal_distribution<float> normal;
  const std::size_t vocab = 40, width = 8;
  std::vector<float> wte(vocab * width);
  for (float& x : wte) x = normal(random);
  const std::string file =
      safetensors_file({{"model.embed_tokens.weight", "F32", {vocab, width}, f32_bytes(wte)}});
  const std::string config =
      R"({"model_type":"llama","hidden_size":8,"vocab_size":40,"max_position_embeddings":131072})";
  ModelSession session;
  ASSERT_TRUE(load(session, file, &config)) << session.error();
  EXPECT_FALSE(session.tables().has_position_table());
  EXPECT_EQ(session.tables().wpe().numbers.data, nullptr);
  EXPECT_EQ(session.tables().context(), 131072u);  // what config.json says
  // The trace's rows are bounded apart from that context.
  EXPECT_EQ(session.trace_capacity(), embeddings::kTraceTokensWithoutPositionTable);
  const std::int32_t ids[] = {5, 0, 39, 5};
  std::copy(std::begin(ids), std::end(ids), session.ids());
  ASSERT_TRUE(session.trace(4)) << session.error();
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t k = 0; k < width; ++k) {
      EXPECT_EQ(session.token_rows()[i * width + k], wte[ids[i] * width + k]);
      EXPECT_EQ(session.sum_rows()[i * width + k], wte[ids[i] * width + k]);
      EXPECT_EQ(session.position_rows()[i * width + k], 0.0f);
    }
  EXPECT_FALSE(session.trace(embeddings::kTraceTokensWithoutPositionTable + 1));
  EXPECT_FALSE(session.cosine_matrix(kWpe));
  EXPECT_NE(session.error().find("no position table: it uses rotary positions"), std::string::npos);
  ASSERT_TRUE(session.nearest_to_token(5, 3)) << session.error();
  EXPECT_EQ(results(session),
            nearest_by_full_scan(session.tables(), session.tables().wte().row(5), vocab, 3, 5));
}

// Random numbers as 16-bit bits of `format` (F16: a float32's exponent and
// top mantissa bits, near 1 in size; BF16: its top half), and their values
// by safetensors.h's scalar conversion (not the kernels').
std::string random_16bit(kernels::NumberFormat format, std::size_t count, std::mt19937& random,
                         std::vector<float>& values) {
  std::normal_distribution<float> normal;
  std::string bytes(2 * count, '\0');
  values.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t bits;
    const float x = normal(random);
    std::memcpy(&bits, &x, sizeof bits);
    std::uint16_t stored = static_cast<std::uint16_t>(bits >> 16);
    if (format == kernels::NumberFormat::F16) {
      const int exponent = std::clamp(static_cast<int>((bits >> 23) & 0xFF) - 127 + 15, 0, 30);
      stored = static_cast<std::uint16_t>((bits >> 16 & 0x8000) | exponent << 10 | (bits >> 13 & 0x3FF));
    }
    bytes[2 * i] = static_cast<char>(stored & 0xFF);
    bytes[2 * i + 1] = static_cast<char>(stored >> 8);
    values[i] = format == kernels::NumberFormat::F16 ? embeddings::f16_bits_to_f32(stored)
                                                     : embeddings::bf16_bits_to_f32(stored);
  }
  return bytes;
}

// A 16-bit checkpoint stays 16-bit in memory, and everything the session
// computes over it is bit for bit what it computes over the same numbers
// stored as float32: the trace, nearest by id and by vector, the cosine matrices.
TEST(ModelSession, A16BitCheckpointComputesBitForBitAsItsFloat32Conversion) {
  std::mt19937 random(5);
  const std::size_t vocab = 203, context = 12, width = 37;
  for (const auto format : {kernels::NumberFormat::F16, kernels::NumberFormat::BF16}) {
    const char* dtype = format == kernels::NumberFormat::F16 ? "F16" : "BF16";
    for (const bool with_positions : {true, false}) {
      SCOPED_TRACE(std::string(dtype) + (with_positions ? " with wpe" : " without wpe"));
      std::vector<float> wte, wpe;
      const std::string wte_bits = random_16bit(format, vocab * width, random, wte);
      const std::string wpe_bits = random_16bit(format, context * width, random, wpe);
      const std::string names[2] = {with_positions ? "wte.weight" : "model.embed_tokens.weight",
                                    "wpe.weight"};
      std::vector<TestTensor> narrow = {{names[0], dtype, {vocab, width}, wte_bits}};
      std::vector<TestTensor> wide = {{names[0], "F32", {vocab, width}, f32_bytes(wte)}};
      if (with_positions) {
        narrow.push_back({names[1], dtype, {context, width}, wpe_bits});
        wide.push_back({names[1], "F32", {context, width}, f32_bytes(wpe)});
      }
      ModelSession sixteen, thirty_two;
      ASSERT_TRUE(load(sixteen, safetensors_file(narrow))) << sixteen.error();
      ASSERT_TRUE(load(thirty_two, safetensors_file(wide))) << thirty_two.error();
      EXPECT_EQ(sixteen.tables().wte().format(), format);
      EXPECT_EQ(sixteen.table_bytes(kWte), vocab * width * 2);
      EXPECT_EQ(std::memcmp(sixteen.tables().wte().numbers.data, wte_bits.data(), wte_bits.size()), 0);

      const std::size_t n = with_positions ? context : 9;
      for (std::size_t i = 0; i < n; ++i) sixteen.ids()[i] = thirty_two.ids()[i] = (i * 37 + 11) % vocab;
      ASSERT_TRUE(sixteen.trace(n)) << sixteen.error();
      ASSERT_TRUE(thirty_two.trace(n)) << thirty_two.error();
      const auto same_floats = [](const float* a, const float* b, std::size_t count) {
        return std::memcmp(a, b, count * sizeof(float)) == 0;
      };
      EXPECT_TRUE(same_floats(sixteen.token_rows(), thirty_two.token_rows(), n * width));
      EXPECT_TRUE(same_floats(sixteen.position_rows(), thirty_two.position_rows(), n * width));
      EXPECT_TRUE(same_floats(sixteen.sum_rows(), thirty_two.sum_rows(), n * width));
      EXPECT_EQ(sixteen.token_rows()[width + 3], wte[((37 + 11) % vocab) * width + 3]);

      for (std::size_t id : {0u, 17u, 202u}) {
        ASSERT_TRUE(sixteen.nearest_to_token(id, 10)) << sixteen.error();
        ASSERT_TRUE(thirty_two.nearest_to_token(id, 10)) << thirty_two.error();
        EXPECT_EQ(results(sixteen), results(thirty_two)) << id;
        EXPECT_TRUE(same_floats(sixteen.result_scores(), thirty_two.result_scores(), 10)) << id;
      }
      for (std::size_t c = 0; c < width; ++c) sixteen.query()[c] = thirty_two.query()[c] = std::cos(float(c));
      ASSERT_TRUE(sixteen.nearest_to_query(7)) << sixteen.error();
      ASSERT_TRUE(thirty_two.nearest_to_query(7)) << thirty_two.error();
      EXPECT_EQ(results(sixteen), results(thirty_two));
      EXPECT_TRUE(same_floats(sixteen.result_scores(), thirty_two.result_scores(), 7));

      ASSERT_TRUE(sixteen.cosine_matrix_rows(kWte, 40, 50)) << sixteen.error();
      ASSERT_TRUE(thirty_two.cosine_matrix_rows(kWte, 40, 50)) << thirty_two.error();
      EXPECT_TRUE(same_floats(sixteen.matrix_block(), thirty_two.matrix_block(), 10 * vocab));
      if (with_positions) {
        ASSERT_TRUE(sixteen.cosine_matrix(kWpe)) << sixteen.error();
        ASSERT_TRUE(thirty_two.cosine_matrix(kWpe)) << thirty_two.error();
        EXPECT_TRUE(same_floats(sixteen.matrix_block(), thirty_two.matrix_block(), context * context));
      }
    }
  }
}

TEST(ModelSession, ConfigErrorsSayTheyAreAboutTheConfigWithoutNamingIt) {
  const std::string file = random_model(10, 4, 8);
  for (const std::string config : {R"({"n_embd": 9})", R"({"n_embd": -1})", "{", R"({"model_type": 7})"}) {
    ModelSession session;
    EXPECT_FALSE(load(session, file, &config));
    EXPECT_EQ(session.error_source(), ErrorSource::Config) << session.error();
    EXPECT_EQ(session.error().find("config.json"), std::string::npos) << session.error();
  }
  ModelSession broken;
  EXPECT_FALSE(load(broken, file.substr(0, file.size() - 4)));
  EXPECT_EQ(broken.error_source(), ErrorSource::Weights) << broken.error();
}

TEST(ModelSession, ConfigIsBoundedInSizeAndInValues) {
  const std::string file = random_model(10, 4, 8);
  ModelSession session;
  std::memcpy(session.prefix_buffer(), file.data(), 8);
  ASSERT_TRUE(session.begin(8, static_cast<double>(file.size())));
  std::memcpy(session.header_buffer(), file.data() + 8, session.header_length());
  ASSERT_TRUE(session.read_header());
  // Too long: refused before a byte is copied in.
  EXPECT_EQ(session.config_buffer(embeddings::kMaxConfigBytes + 1), nullptr);
  EXPECT_EQ(session.error_source(), ErrorSource::Config);
  EXPECT_EQ(session.error(),
            "the file is 4.0 MiB; a model configuration may hold at most 4.0 MiB (GPT-2's has "
            "under a kilobyte)");
  // Short, but too many values: refused while parsing, the tree never built.
  std::string many = R"({"n_embd": 8, "labels": [)";
  for (std::size_t i = 0; i < embeddings::kMaxConfigValues; ++i) many += i ? ",0" : "0";
  many += "]}";
  ASSERT_LT(many.size(), embeddings::kMaxConfigBytes);
  ModelSession counted;
  EXPECT_FALSE(load(counted, file, &many));
  EXPECT_EQ(counted.error_source(), ErrorSource::Config);
  EXPECT_NE(counted.error().find("more than 65536 values"), std::string::npos) << counted.error();
  // A realistic configuration with a label map loads.
  std::string labels = R"({"n_embd": 8, "id2label": {)";
  for (int i = 0; i < 1000; ++i)
    labels += (i ? ",\"" : "\"") + std::to_string(i) + "\": \"class " + std::to_string(i) + "\"";
  labels += "}}";
  ModelSession fine;
  EXPECT_TRUE(load(fine, file, &labels)) << fine.error();
}

TEST(ModelSession, TheBudgetCountsEverythingAllocatedAfterIt) {
  // Metadata is copied after the check (as the JSON text handed to the
  // caller), so it must be in the figure the budget is checked against.
  std::string big_value(2 << 20, 'x');
  const std::string plain = random_model(64, 8, 16);
  const std::string with_metadata = random_model(64, 8, 16, R"({"notes":")" + big_value + R"("})");
  // The header's parse is budgeted first, through the cheap probe (what
  // memory can grow by); the whole model is checked against the exact room.
  // So: room to parse, 1 MiB for everything after it.
  fixed_room = 1 << 20;
  const MemoryBudget budget(fixed_budget, [] { return std::uint64_t{1} << 40; });
  ModelSession a(budget), b(budget);
  std::memcpy(a.prefix_buffer(), plain.data(), 8);
  std::memcpy(b.prefix_buffer(), with_metadata.data(), 8);
  ASSERT_TRUE(a.begin(8, static_cast<double>(plain.size())));
  ASSERT_TRUE(b.begin(8, static_cast<double>(with_metadata.size())));
  std::memcpy(a.header_buffer(), plain.data() + 8, a.header_length());
  std::memcpy(b.header_buffer(), with_metadata.data() + 8, b.header_length());
  EXPECT_FALSE(a.read_header());
  EXPECT_FALSE(b.read_header());
  EXPECT_NE(b.error().find("but this WebAssembly instance can get at most 1.0 MiB"), std::string::npos)
      << b.error();
  EXPECT_GE(needed_mib(b.error()) - needed_mib(a.error()), 1.9) << a.error() << "\n" << b.error();

  // With room, it loads; the metadata text is all there.
  fixed_room = std::uint64_t{1} << 40;
  ModelSession c(budget);
  ASSERT_TRUE(load(c, with_metadata)) << c.error();
  EXPECT_EQ(c.metadata_json().size(), big_value.size() + 12);
}

TEST(ModelSession, JsonTooLargeForTheBudgetIsRefusedBeforeParsing) {
  const std::string file = random_model(8, 4, 8);
  fixed_room = 1000;
  ModelSession session(MemoryBudget(fixed_budget, fixed_budget));
  std::memcpy(session.prefix_buffer(), file.data(), 8);
  ASSERT_TRUE(session.begin(8, static_cast<double>(file.size())));
  std::memcpy(session.header_buffer(), file.data() + 8, session.header_length());
  EXPECT_FALSE(session.read_header());
  EXPECT_NE(session.error().find("the header is "), std::string::npos) << session.error();
  EXPECT_NE(session.error().find("reading it could take up to"), std::string::npos) << session.error();
}

TEST(Messages, QuotedTextIsShortAndReadsAsWhatItIs) {
  EXPECT_EQ(embeddings::quote("girl"), "\"girl\"");
  EXPECT_EQ(embeddings::quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(embeddings::quote("line\nbreak\ttab\x01\x7F"), "\"line\\nbreak\\ttab\\u0001\\u007f\"");
  // Right-to-left override, isolates, marks, C1 controls and separators are escaped.
  EXPECT_EQ(embeddings::quote("abc\u202Edcba\u2066x\u2069\u200F\u0085\u2028"),
            "\"abc\\u202edcba\\u2066x\\u2069\\u200f\\u0085\\u2028\"");
  EXPECT_EQ(embeddings::quote("\xFF"
                              "ok"),
            "\"\xEF\xBF\xBD"
            "ok\"");  // invalid UTF-8 becomes U+FFFD
  // Cut at a character boundary, marked with "...".
  const std::string long_name = std::string(39, 'a') + "\xC3\xA9" + std::string(1 << 20, 'b');
  EXPECT_EQ(embeddings::quote(long_name), "\"" + std::string(39, 'a') + "...\"");
  EXPECT_EQ(embeddings::mebibytes(1), "1 byte");
  EXPECT_EQ(embeddings::mebibytes(512), "512 bytes");
  EXPECT_EQ(embeddings::mebibytes(3 << 19), "1.5 MiB");
}

TEST(Messages, HostileNamesInFilesGiveShortMessages) {
  // A megabyte-long tensor name with a direction override, and a duplicate
  // JSON key as long: each message stays short and escapes the override.
  const std::string name = "\u202E" + std::string(1 << 20, 'n');
  const std::string header = R"({"wte.weight":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]},")" + name +
                             R"(":{"dtype":"Q7","shape":[1],"data_offsets":[4,8]}})";
  ModelSession session;
  EXPECT_FALSE(load(session, file_from(header, std::string(8, '\0'))));
  EXPECT_LT(session.error().size(), 200u) << session.error().substr(0, 300);
  EXPECT_NE(session.error().find("\\u202e"), std::string::npos) << session.error().substr(0, 300);
  EXPECT_EQ(session.error().find("\u202E"), std::string::npos);

  const std::string key(1 << 20, 'k');
  const std::string duplicate = "{\"" + key + "\":1,\"" + key + "\":2}";
  ModelSession twice;
  EXPECT_FALSE(load(twice, file_from(duplicate, "")));
  EXPECT_LT(twice.error().size(), 200u) << twice.error().substr(0, 300);
  EXPECT_NE(twice.error().find("duplicate key \"kkkk"), std::string::npos) << twice.error().substr(0, 300);
}

}  // namespace
