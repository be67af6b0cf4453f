// Lays out a table the way model.map() does, natively: reads rows × cols
// float32 numbers (little-endian) from standard input and writes the map,
// rows × 2 float32 numbers, to standard output. The Node tests compare its
// output with the WebAssembly module's, bit for bit.
//
//   map_layout --rows 500 --cols 128 [--method umap|pca] [--seed 1] [--neighbours 15]
//              [--min-dist 0.1] [--epochs 0] [--init start.f32] < table.f32 > map.f32
// (--init: a file of rows × 2 float32 numbers, the layout UMAP starts from.)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "embeddings/layout/layout.h"

namespace {

int usage(const char* message) {
  std::fprintf(stderr,
               "map_layout: %s\nusage: map_layout --rows R --cols C [--method umap|pca] [--seed S] "
               "[--neighbours K] [--min-dist D] [--epochs E] [--init start.f32] < table.f32 > map.f32\n",
               message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t rows = 0, cols = 0;
  std::string method = "umap", init_path;
  embeddings::layout::UmapOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) return usage(("missing value after " + flag).c_str());
    const char* value = argv[++i];
    if (flag == "--rows")
      rows = std::strtoull(value, nullptr, 10);
    else if (flag == "--cols")
      cols = std::strtoull(value, nullptr, 10);
    else if (flag == "--method")
      method = value;
    else if (flag == "--seed")
      options.seed = std::strtoull(value, nullptr, 10);
    else if (flag == "--neighbours")
      options.n_neighbors = std::strtoull(value, nullptr, 10);
    else if (flag == "--min-dist")
      options.min_dist = std::strtod(value, nullptr);
    else if (flag == "--epochs")
      options.n_epochs = std::strtoull(value, nullptr, 10);
    else if (flag == "--init")
      init_path = value;
    else
      return usage(("unknown option " + flag).c_str());
  }
  if (rows == 0 || cols == 0) return usage("--rows and --cols are required");
  if (method != "umap" && method != "pca") return usage("--method must be umap or pca");
  std::vector<float> table(rows * cols), map(rows * 2);
  if (std::fread(table.data(), sizeof(float), table.size(), stdin) != table.size())
    return usage("standard input holds fewer than rows × cols float32 numbers");
  if (method == "pca") {
    embeddings::layout::Pca pca;
    embeddings::layout::pca(table.data(), rows, cols, 2, pca, map.data());
  } else {
    std::vector<float> initial;
    if (!init_path.empty()) {
      initial.resize(rows * 2);
      std::FILE* file = std::fopen(init_path.c_str(), "rb");
      if (file == nullptr) return usage(("cannot open " + init_path).c_str());
      const std::size_t read = std::fread(initial.data(), sizeof(float), initial.size(), file);
      std::fclose(file);
      if (read != initial.size())
        return usage((init_path + " holds fewer than rows × 2 float32 numbers").c_str());
    }
    std::string error;
    if (!embeddings::layout::umap(table.data(), rows, cols, options, map.data(), error,
                                  initial.empty() ? nullptr : initial.data())) {
      std::fprintf(stderr, "map_layout: %s\n", error.c_str());
      return 1;
    }
  }
  std::fwrite(map.data(), sizeof(float), map.size(), stdout);
  return 0;
}
