// Lays out a table the way model.map() does, natively: reads rows × cols
// numbers (little-endian float32, or the bits of float16 or bfloat16) from
// standard input and writes the map, rows × 2 float32 numbers, to standard
// output. The Node tests compare its output with the WebAssembly module's,
// bit for bit.
//
//   map-layout --rows 500 --cols 128 [--numbers float32|float16|bfloat16] [--method umap|pca]
//              [--solver auto|covariance|krylov] [--seed 1] [--neighbours 15] [--min-dist 0.1]
//              [--epochs 0] [--init start.f32] < table > map.f32
// (--init: a file of rows × 2 float32 numbers, the layout UMAP starts from;
// --solver: the PCA's method, as model.map() picks it by default.)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "embeddings/layout/layout.h"

namespace {

namespace layout = embeddings::layout;

int usage(const char* message) {
  std::fprintf(
      stderr,
      "map-layout: %s\nusage: map-layout --rows R --cols C [--numbers float32|float16|bfloat16] "
      "[--method umap|pca] [--solver auto|covariance|krylov] [--seed S] [--neighbours K] [--min-dist D] "
      "[--epochs E] [--init start.f32] "
      "< table > map.f32\n",
      message);
  return 2;
}

struct Arguments {
  std::size_t rows = 0, cols = 0;
  std::string method = "umap", numbers = "float32", solver = "auto", init_path;
  layout::UmapOptions options;
};

// The flags into `out`; an empty string, or what is wrong.
std::string parse(int argc, char** argv, Arguments& out) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) return "missing value after " + flag;
    const char* value = argv[++i];
    if (flag == "--rows")
      out.rows = std::strtoull(value, nullptr, 10);
    else if (flag == "--cols")
      out.cols = std::strtoull(value, nullptr, 10);
    else if (flag == "--numbers")
      out.numbers = value;
    else if (flag == "--method")
      out.method = value;
    else if (flag == "--solver")
      out.solver = value;
    else if (flag == "--seed")
      out.options.seed = std::strtoull(value, nullptr, 10);
    else if (flag == "--neighbours")
      out.options.n_neighbors = std::strtoull(value, nullptr, 10);
    else if (flag == "--min-dist")
      out.options.min_dist = std::strtod(value, nullptr);
    else if (flag == "--epochs")
      out.options.n_epochs = std::strtoull(value, nullptr, 10);
    else if (flag == "--init")
      out.init_path = value;
    else
      return "unknown option " + flag;
  }
  if (out.rows == 0 || out.cols == 0) return "--rows and --cols are required";
  if (out.method != "umap" && out.method != "pca") return "--method must be umap or pca";
  if (out.solver != "auto" && out.solver != "covariance" && out.solver != "krylov")
    return "--solver must be auto, covariance or krylov";
  if (out.numbers != "float32" && out.numbers != "float16" && out.numbers != "bfloat16")
    return "--numbers must be float32, float16 or bfloat16";
  return "";
}

bool read_start(const std::string& path, std::vector<float>& start) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return false;
  const std::size_t read = std::fread(start.data(), sizeof(float), start.size(), file);
  std::fclose(file);
  return read == start.size();
}

}  // namespace

int main(int argc, char** argv) {
  Arguments args;
  const std::string problem = parse(argc, argv, args);
  if (!problem.empty()) return usage(problem.c_str());
  const layout::Numbers numbers = args.numbers == "float32"   ? layout::Numbers::Float32
                                  : args.numbers == "float16" ? layout::Numbers::Float16
                                                              : layout::Numbers::BFloat16;
  const std::size_t bytes = args.rows * args.cols * layout::bytes_per_number(numbers);
  std::vector<unsigned char> table(bytes);
  if (std::fread(table.data(), 1, bytes, stdin) != bytes)
    return usage("standard input holds fewer than rows × cols numbers");
  const layout::TableView view{table.data(), args.rows, args.cols, numbers};
  std::vector<float> map(args.rows * 2);
  std::string error;
  bool ok;
  if (args.method == "pca") {
    layout::Pca pca;
    layout::PcaOptions options;
    if (args.solver != "auto")
      options.method = args.solver == "covariance" ? layout::PcaOptions::Method::Covariance
                                                   : layout::PcaOptions::Method::Krylov;
    ok = layout::pca(view, options, pca, map.data(), error);
  } else {
    std::vector<float> start(args.init_path.empty() ? 0 : args.rows * 2);
    if (!args.init_path.empty() && !read_start(args.init_path, start))
      return usage(("cannot read rows × 2 float32 numbers from " + args.init_path).c_str());
    ok = layout::umap(view, args.options, map.data(), error, start.empty() ? nullptr : start.data());
  }
  if (!ok) {
    std::fprintf(stderr, "map-layout: %s\n", error.c_str());
    return 1;
  }
  std::fwrite(map.data(), sizeof(float), map.size(), stdout);
  return 0;
}
