// Replays the fuzz targets' seed corpora and every input a fuzzer once
// crashed on (tests/fuzz/regressions/<target>/), in the ordinary test
// build and under the sanitizers. The targets are the same code the
// libFuzzer binaries run (tests/fuzz/targets/).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../fuzz/targets/json.h"
#include "../fuzz/targets/safetensors.h"
#include "../fuzz/targets/tokenizer_encode.h"
#include "../fuzz/targets/tokenizer_json.h"
#include "../fuzz/targets/tokenizer_models.h"

namespace {

namespace fs = std::filesystem;
using Target = void (*)(const std::uint8_t*, std::size_t, embeddings::fuzz::Findings&);

// Files of tests/fuzz/<kind>/<target>/, sorted; none if the folder does not exist.
std::vector<fs::path> inputs(const char* kind, const char* target) {
  std::vector<fs::path> out;
  const fs::path dir = fs::path(EMBEDDINGS_SOURCE_DIR) / "tests" / "fuzz" / kind / target;
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file()) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t replay(const char* kind, const char* target, Target run) {
  std::size_t count = 0;
  for (const fs::path& path : inputs(kind, target)) {
    std::ifstream file(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    embeddings::fuzz::Findings findings;
    run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), findings);
    EXPECT_TRUE(findings.ok()) << path << ": " << findings.first;
    ++count;
  }
  return count;
}

struct TargetCase {
  const char* name;
  Target run;
};

void PrintTo(const TargetCase& target, std::ostream* out) { *out << target.name; }

class FuzzReplay : public ::testing::TestWithParam<TargetCase> {};

TEST_P(FuzzReplay, SeedCorpus) {
  EXPECT_GT(replay("corpus", GetParam().name, GetParam().run), 0u) << "no seeds for " << GetParam().name;
}

// The folder holds the inputs that once broke a target or the package
// (tests/fuzz/make_regressions.mjs) and every fuzz finding; an empty or
// missing folder would make this pass without checking anything.
TEST_P(FuzzReplay, Regressions) {
  EXPECT_GT(replay("regressions", GetParam().name, GetParam().run), 0u)
      << "no regression inputs for " << GetParam().name << " (tests/fuzz/regressions/" << GetParam().name
      << "/)";
}

INSTANTIATE_TEST_SUITE_P(
    Targets, FuzzReplay,
    ::testing::Values(TargetCase{"safetensors", embeddings::fuzz::safetensors_target},
                      TargetCase{"tokenizer_json", embeddings::fuzz::tokenizer_json_target},
                      TargetCase{"tokenizer_encode", embeddings::fuzz::tokenizer_encode_target},
                      TargetCase{"tokenizer_models", embeddings::fuzz::tokenizer_models_target},
                      TargetCase{"json", embeddings::fuzz::json_target}),
    [](const ::testing::TestParamInfo<TargetCase>& info) { return std::string(info.param.name); });

}  // namespace
