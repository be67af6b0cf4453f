// The kernels over F16 and BF16 tables, read as stored (kernels.h, "Tables
// of float32, F16 or BF16 numbers"), on every built backend: each result is
// bit for bit the same kernel's over the table converted to float32 first
// (by the arithmetic oracle of widen_oracle.h, not by the kernels' loads),
// and so as close to the double-precision reference as a float32 table's.
// Compiled to WebAssembly and run under Node too (tools/test.sh wasm).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "backend_param_name.h"
#include "embeddings/kernels/backends.h"
#include "embeddings/kernels/kernels.h"
#include "widen_oracle.h"

namespace {

namespace k = embeddings::kernels;
using embeddings::test::bf16_oracle;
using embeddings::test::bits_of;
using embeddings::test::f16_oracle;
using k::KernelBackend;
using k::NumberFormat;

class Tables16 : public ::testing::TestWithParam<const KernelBackend*> {
 protected:
  const KernelBackend& be = *GetParam();
};

const char* name_of(NumberFormat format) { return format == NumberFormat::F16 ? "F16" : "BF16"; }

// A (rows, cols) table of 16-bit numbers one number into its storage (so
// its rows start misaligned), and the same numbers converted to float32.
struct Table16 {
  NumberFormat format;
  std::size_t rows, cols;
  std::vector<std::uint16_t> storage;
  std::vector<float> wide;
  const std::uint16_t* bits() const { return storage.data() + 1; }
  k::TableNumbers numbers() const { return {bits(), format}; }
  void set(std::size_t index, std::uint16_t value) {
    storage[index + 1] = value;
    wide[index] = format == NumberFormat::F16 ? f16_oracle(value) : bf16_oracle(value);
  }
};

// Numbers of the size embeddings have (F16: exponents 2^-7 to 2^2, now and
// then a subnormal; BF16: a normal float32's top half), with row 1 all
// zeros; `odd_rows` adds a row of tiny and a row of huge numbers (BF16:
// outside float32's safe range, scaled or scored in double) where there is room.
Table16 random_table(NumberFormat format, std::size_t rows, std::size_t cols, std::mt19937& rng,
                     bool odd_rows = true) {
  Table16 t{format, rows, cols, std::vector<std::uint16_t>(rows * cols + 1), std::vector<float>(rows * cols)};
  std::uniform_int_distribution<int> sign(0, 1), exponent(8, 17), mantissa(0, 1023), subnormal(0, 40);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (std::size_t i = 0; i < rows * cols; ++i) {
    const std::size_t row = i / cols;
    std::uint16_t value;
    if (format == NumberFormat::F16) {
      const int e = subnormal(rng) == 0 ? 0 : exponent(rng);
      value = static_cast<std::uint16_t>(sign(rng) << 15 | e << 10 | mantissa(rng));
    } else {
      float x = normal(rng);
      if (odd_rows && row == 2) x *= 1e-30f;
      if (odd_rows && row == 3) x *= 1e30f;
      value = static_cast<std::uint16_t>(bits_of(x) >> 16);
    }
    if (format == NumberFormat::F16 && odd_rows && row == 2) value &= 0x83FF;  // subnormals only
    if (format == NumberFormat::F16 && odd_rows && row == 3) value = (value & 0x83FF) | 0x7800;  // 2^15 up
    if (row == 1) value = 0;
    t.set(i, value);
  }
  return t;
}

bool same_bits(float a, float b) { return bits_of(a) == bits_of(b) || (std::isnan(a) && std::isnan(b)); }

const NumberFormat kFormats[] = {NumberFormat::F16, NumberFormat::BF16};

TEST_P(Tables16, CosineScoresAndNearestAreThoseOfTheFloat32Conversion) {
  std::mt19937 rng(21);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (NumberFormat format : kFormats) {
    for (std::size_t cols : {1, 3, 4, 5, 7, 8, 9, 17, 128, 129, 896}) {
      for (std::size_t rows : {0, 1, 3, 4, 5, 9, 33}) {
        const Table16 t = random_table(format, rows, cols, rng);
        std::vector<std::vector<float>> queries(3, std::vector<float>(cols));
        for (auto& x : queries[0]) x = normal(rng);
        for (auto& x : queries[1]) x = normal(rng) * 1e25f;  // scaled into range first
        if (rows > 0) std::copy_n(t.wide.begin() + (rows - 1) * cols, cols, queries[2].begin());
        const std::string what =
            std::string(name_of(format)) + " " + std::to_string(rows) + "x" + std::to_string(cols);
        for (const auto& query : queries) {
          std::vector<float> got(rows), converted(rows), scratch(rows);
          std::vector<double> reference(rows);
          be.cosine_scores(query.data(), t.numbers(), rows, cols, got.data());
          be.cosine_scores(query.data(), t.wide.data(), rows, cols, converted.data());
          k::cosine_scores_reference(query.data(), t.wide.data(), rows, cols, reference.data());
          for (std::size_t r = 0; r < rows; ++r) {
            ASSERT_TRUE(same_bits(got[r], converted[r])) << what << " row " << r;
            EXPECT_NEAR(got[r], reference[r], 2e-5) << what << " row " << r;
          }
          const std::size_t kk = std::min<std::size_t>(rows, 5);
          std::vector<std::int32_t> ids(kk + 1), converted_ids(kk + 1);
          std::vector<float> scores(kk + 1), converted_scores(kk + 1);
          const std::int64_t exclude = rows > 2 ? 2 : -1;
          const std::size_t n = be.nearest(query.data(), t.numbers(), rows, cols, kk, exclude, scratch.data(),
                                           ids.data(), scores.data());
          ASSERT_EQ(n, be.nearest(query.data(), t.wide.data(), rows, cols, kk, exclude, scratch.data(),
                                  converted_ids.data(), converted_scores.data()));
          for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(ids[i], converted_ids[i]) << what << " rank " << i;
            ASSERT_TRUE(same_bits(scores[i], converted_scores[i])) << what << " rank " << i;
          }
        }
      }
    }
  }
}

TEST_P(Tables16, CosineMatricesAreThoseOfTheFloat32Conversion) {
  std::mt19937 rng(22);
  for (NumberFormat format : kFormats) {
    // 2,100 numbers a row: wider than a query the kernels scale, so a row
    // outside the safe range is scored in double against every row.
    for (std::size_t cols : {1, 3, 8, 9, 128, 129, 2100}) {
      for (std::size_t rows : {0, 1, 2, 3, 4, 5, 8, 9, 13}) {
        const Table16 t = random_table(format, rows, cols, rng);
        const std::string what =
            std::string(name_of(format)) + " " + std::to_string(rows) + "x" + std::to_string(cols);
        // A 16-bit table's maps take rows + cols floats of scratch.
        std::vector<float> scratch(rows + cols), map(rows * rows), converted(rows * rows);
        be.cosine_matrix(t.numbers(), rows, cols, scratch.data(), map.data());
        be.cosine_matrix(t.wide.data(), rows, cols, scratch.data(), converted.data());
        for (std::size_t i = 0; i < rows * rows; ++i)
          ASSERT_TRUE(same_bits(map[i], converted[i])) << what << " cosine_matrix at " << i;
        for (std::size_t begin : {std::size_t{0}, rows / 2}) {
          std::vector<float> part((rows - begin) * rows), converted_part((rows - begin) * rows);
          be.cosine_matrix_rows(t.numbers(), rows, cols, begin, rows, scratch.data(), part.data());
          be.cosine_matrix_rows(t.wide.data(), rows, cols, begin, rows, scratch.data(),
                                converted_part.data());
          for (std::size_t i = 0; i < part.size(); ++i)
            ASSERT_TRUE(same_bits(part[i], converted_part[i])) << what << " cosine_matrix_rows at " << i;
          for (std::size_t i = begin; i < rows; ++i) {
            for (std::size_t j = 0; j < rows; ++j) {
              const double expected =
                  k::cosine_reference(t.wide.data() + i * cols, t.wide.data() + j * cols, cols);
              EXPECT_NEAR(part[(i - begin) * rows + j], expected, 2e-5) << what << " at " << i << "," << j;
            }
          }
        }
      }
    }
  }
}

TEST_P(Tables16, EmbedTokensWidensTheRowsOfAnyPairOfFormats) {
  std::mt19937 rng(23);
  const NumberFormat formats[] = {NumberFormat::F32, NumberFormat::F16, NumberFormat::BF16};
  for (std::size_t d : {1, 3, 4, 5, 127, 128, 129}) {
    const std::size_t vocab = 11, context = 6, n = 5;
    const std::int32_t ids[n] = {3, 3, 10, 0, 7};
    // Every table in each format: the float32 one is the 16-bit one's conversion.
    const Table16 wte16[2] = {random_table(NumberFormat::F16, vocab, d, rng, false),
                              random_table(NumberFormat::BF16, vocab, d, rng, false)};
    const Table16 wpe16[2] = {random_table(NumberFormat::F16, context, d, rng, false),
                              random_table(NumberFormat::BF16, context, d, rng, false)};
    // A float32 table is given as the conversion of the first 16-bit one.
    const auto table_of = [](const Table16(&tables)[2], NumberFormat format) -> const Table16& {
      return tables[format == NumberFormat::BF16 ? 1 : 0];
    };
    const auto numbers_of = [](const Table16& table, NumberFormat format) {
      return format == NumberFormat::F32 ? k::TableNumbers(table.wide.data()) : table.numbers();
    };
    for (NumberFormat token_format : formats) {
      for (NumberFormat position_format : formats) {
        const Table16& wte = table_of(wte16, token_format);
        const Table16& wpe = table_of(wpe16, position_format);
        const k::TableNumbers wte_numbers = numbers_of(wte, token_format);
        const k::TableNumbers wpe_numbers = numbers_of(wpe, position_format);
        std::vector<float> token(n * d), position(n * d), sum(n * d);
        std::vector<float> converted_token(n * d), converted_position(n * d), converted_sum(n * d);
        be.embed_tokens(ids, n, wte_numbers, wpe_numbers, d, token.data(), position.data(), sum.data());
        be.embed_tokens(ids, n, wte.wide.data(), wpe.wide.data(), d, converted_token.data(),
                        converted_position.data(), converted_sum.data());
        for (std::size_t i = 0; i < n * d; ++i) {
          ASSERT_EQ(bits_of(token[i]), bits_of(converted_token[i])) << d << " " << i;
          ASSERT_EQ(bits_of(position[i]), bits_of(converted_position[i])) << d << " " << i;
          ASSERT_EQ(bits_of(sum[i]), bits_of(converted_sum[i])) << d << " " << i;
        }
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t c = 0; c < d; ++c) {
            ASSERT_EQ(token[i * d + c], wte.wide[ids[i] * d + c]);
            ASSERT_EQ(sum[i * d + c], wte.wide[ids[i] * d + c] + wpe.wide[i * d + c]);
          }
      }
    }
  }
}

TEST_P(Tables16, WidenReadsEachFormat) {
  std::mt19937 rng(24);
  for (NumberFormat format : kFormats) {
    for (std::size_t n : {0, 1, 3, 4, 5, 9, 130}) {
      const Table16 t = random_table(format, 1, n, rng, false);
      std::vector<float> out(n + 1, 7.0f), copy(n + 1, 7.0f);
      be.widen(t.numbers(), n, out.data());
      be.widen(t.wide.data(), n, copy.data());
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(bits_of(out[i]), bits_of(t.wide[i])) << name_of(format) << " " << i;
        ASSERT_EQ(bits_of(copy[i]), bits_of(t.wide[i])) << "float32 copy " << i;
      }
      EXPECT_EQ(out[n], 7.0f) << "wrote past the end";
      EXPECT_EQ(copy[n], 7.0f) << "wrote past the end";
    }
  }
}

TEST_P(Tables16, VectorTimesTableIsThatOfTheFloat32Conversion) {
  std::mt19937 rng(26);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (NumberFormat format : kFormats) {
    for (std::size_t cols : {1, 3, 4, 5, 9, 128, 129, 600}) {
      const std::size_t rows = 7;
      const Table16 t = random_table(format, rows, cols, rng, false);
      std::vector<float> x(rows);
      for (auto& v : x) v = normal(rng);
      std::vector<float> out(cols, 0.5f), converted(cols, 0.5f), scratch(cols);  // added to what is there
      be.vector_times_table(x.data(), t.numbers(), rows, cols, scratch.data(), out.data());
      be.vector_times_table(x.data(), t.wide.data(), rows, cols, scratch.data(), converted.data());
      for (std::size_t j = 0; j < cols; ++j)
        ASSERT_TRUE(same_bits(out[j], converted[j])) << name_of(format) << " " << cols << " " << j;
    }
  }
}

// kernels.h's functions over a 16-bit table are the selected backend's.
TEST(Tables16Selected, ThePublicFunctionsRunTheSelectedBackend) {
  std::mt19937 rng(25);
  const std::size_t rows = 70, cols = 33;
  const Table16 t = random_table(NumberFormat::BF16, rows, cols, rng);
  const KernelBackend& selected = k::selected_backend();
  std::vector<float> a(rows), b(rows), query(t.wide.begin(), t.wide.begin() + cols);
  k::cosine_scores(query.data(), t.numbers(), rows, cols, a.data());
  selected.cosine_scores(query.data(), t.numbers(), rows, cols, b.data());
  EXPECT_EQ(a, b);
  std::vector<float> map(rows * rows), selected_map(rows * rows), scratch(rows + cols);
  k::cosine_matrix(t.numbers(), rows, cols, scratch.data(), map.data());
  selected.cosine_matrix(t.numbers(), rows, cols, scratch.data(), selected_map.data());
  for (std::size_t i = 0; i < map.size(); ++i) ASSERT_TRUE(same_bits(map[i], selected_map[i])) << i;
}

INSTANTIATE_TEST_SUITE_P(Backends, Tables16, ::testing::ValuesIn(k::available_backends()),
                         backend_param_name);

}  // namespace
