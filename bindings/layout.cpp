// The vocabulary map's WebAssembly module (web/dist/layout.{js,wasm}): PCA,
// the kNN graphs and the UMAP-method layout of cpp/include/embeddings/layout/
// as plain C exports. It is a module of its own so that the chapter's main
// module stays small; only model.map() loads it. No maths here: it checks
// what JS hands over, keeps the jobs JS holds, and reports failures as
// messages.
//
// Memory: JS copies a table in, in its own numbers (float32, or the bits of a
// 16-bit table), into room it asks for (layout_alloc); a job reads it in
// place while it needs it (layout_umap_table_needed) and JS frees it then.
// This instance may grow freely: JS reads results through fresh views.
#include "embeddings/layout/layout.h"

#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>

namespace {

namespace layout = embeddings::layout;

std::string last_error;

bool fail(const std::string& message) {
  last_error = message;
  return false;
}

// A table JS wrote: numbers 0 float32, 1 float16, 2 bfloat16.
bool table_view(const void* data, std::size_t rows, std::size_t cols, int numbers, layout::TableView& view) {
  if (numbers < 0 || numbers > 2) return fail("numbers must be 0 (float32), 1 (float16) or 2 (bfloat16)");
  view = {data, rows, cols, static_cast<layout::Numbers>(numbers)};
  return true;
}

std::uint64_t seed_of(std::uint32_t low, std::uint32_t high) {
  return (static_cast<std::uint64_t>(high) << 32) | low;
}

}  // namespace

extern "C" {

// The last failure's message (UTF-8, layout_error_length() bytes).
EMSCRIPTEN_KEEPALIVE const char* layout_error() { return last_error.data(); }
EMSCRIPTEN_KEEPALIVE std::size_t layout_error_length() { return last_error.size(); }

// Room for `bytes` bytes (0 when memory cannot grow that far); freed with free().
EMSCRIPTEN_KEEPALIVE void* layout_alloc(double bytes) {
  if (!(bytes >= 0) || bytes > 4294967296.0 - 65536) return nullptr;
  return std::malloc(static_cast<std::size_t>(bytes));
}
// Room for `count` floats.
EMSCRIPTEN_KEEPALIVE float* layout_floats(double count) {
  return static_cast<float*>(layout_alloc(count * 4));
}

// ---- PCA: begin, steps, results --------------------------------------------------------

EMSCRIPTEN_KEEPALIVE layout::PcaSteps* layout_pca_begin(const void* table, std::size_t rows, std::size_t cols,
                                                        int numbers, std::size_t components,
                                                        std::uint32_t seed_low, std::uint32_t seed_high) {
  layout::TableView view;
  if (!table_view(table, rows, cols, numbers, view)) return nullptr;
  auto* pca = new (std::nothrow) layout::PcaSteps();
  if (pca == nullptr) return fail("out of memory"), nullptr;
  layout::PcaOptions options;
  options.components = components;
  options.seed = seed_of(seed_low, seed_high);
  if (!pca->begin(view, options, last_error)) {
    delete pca;
    return nullptr;
  }
  return pca;
}
// One chunk of work; false once done (then layout_pca_failed says whether it failed).
EMSCRIPTEN_KEEPALIVE bool layout_pca_step(layout::PcaSteps* pca) { return pca->step(); }
EMSCRIPTEN_KEEPALIVE bool layout_pca_failed(layout::PcaSteps* pca) {
  return pca->failed() ? !fail(pca->error()) : false;
}
EMSCRIPTEN_KEEPALIVE double layout_pca_progress(const layout::PcaSteps* pca) { return pca->progress(); }
EMSCRIPTEN_KEEPALIVE const float* layout_pca_coords(const layout::PcaSteps* pca) {
  return pca->coords().data();
}
EMSCRIPTEN_KEEPALIVE double layout_pca_share(const layout::PcaSteps* pca, std::size_t i) {
  return pca->result().variance_share[i];
}
// 0 the covariance method, 1 the Krylov method.
EMSCRIPTEN_KEEPALIVE int layout_pca_method(const layout::PcaSteps* pca) {
  return pca->method() == layout::PcaOptions::Method::Krylov ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE std::size_t layout_pca_passes(const layout::PcaSteps* pca) { return pca->passes(); }
EMSCRIPTEN_KEEPALIVE void layout_pca_free(layout::PcaSteps* pca) { delete pca; }
// The same work in rounds of tasks that several threads share (pca.h):
// the round's task count (0: none left), one task, the round's end.
EMSCRIPTEN_KEEPALIVE std::size_t layout_pca_begin_tasks(layout::PcaSteps* pca, double budget) {
  pca->set_round(static_cast<std::size_t>(budget > 4e6 ? budget / 4e6 : 1));
  return pca->begin_tasks();
}
EMSCRIPTEN_KEEPALIVE void layout_pca_run_task(layout::PcaSteps* pca, std::size_t task) {
  pca->run_task(task);
}
EMSCRIPTEN_KEEPALIVE bool layout_pca_finish_tasks(layout::PcaSteps* pca) {
  pca->finish_tasks();
  return !pca->done();
}

// ---- UMAP ------------------------------------------------------------------------------

// A UMAP layout of a table, read in place until layout_umap_table_needed
// is false, or 0 with layout_error() saying why. The seed is given as two
// 32-bit halves; `initial` (rows, 2) is the starting layout (copied), or
// null for the PCA.
EMSCRIPTEN_KEEPALIVE layout::UmapLayout* layout_umap_begin(const void* table, std::size_t rows,
                                                           std::size_t cols, int numbers,
                                                           std::size_t n_neighbors, double min_dist,
                                                           std::size_t n_epochs, std::uint32_t seed_low,
                                                           std::uint32_t seed_high, const float* initial) {
  layout::TableView view;
  if (!table_view(table, rows, cols, numbers, view)) return nullptr;
  auto* umap = new (std::nothrow) layout::UmapLayout();
  if (umap == nullptr) return fail("out of memory"), nullptr;
  layout::UmapOptions options;
  options.n_neighbors = n_neighbors;
  options.min_dist = min_dist;
  options.n_epochs = n_epochs;
  options.seed = seed_of(seed_low, seed_high);
  if (!umap->begin(view, options, last_error, initial)) {
    delete umap;
    return nullptr;
  }
  return umap;
}
// One slice of work (see UmapLayout::step); false once done (or failed).
EMSCRIPTEN_KEEPALIVE bool layout_umap_step(layout::UmapLayout* umap, std::size_t budget) {
  return umap->step(budget);
}
// The same work in rounds of tasks that several threads share (umap.h):
// the round's task count (0: the stage under way has none: a step), one
// task, the round's end (false once done or failed).
EMSCRIPTEN_KEEPALIVE std::size_t layout_umap_begin_tasks(layout::UmapLayout* umap, double budget) {
  return umap->begin_tasks(budget);
}
EMSCRIPTEN_KEEPALIVE void layout_umap_run_task(layout::UmapLayout* umap, std::size_t task) {
  umap->run_task(task);
}
EMSCRIPTEN_KEEPALIVE bool layout_umap_finish_tasks(layout::UmapLayout* umap) {
  umap->finish_tasks();
  return umap->stage() != layout::UmapLayout::Stage::Done;
}
EMSCRIPTEN_KEEPALIVE bool layout_umap_failed(layout::UmapLayout* umap) {
  return umap->failed() ? !fail(umap->error()) : false;
}
EMSCRIPTEN_KEEPALIVE bool layout_umap_table_needed(const layout::UmapLayout* umap) {
  return umap->table_needed();
}
EMSCRIPTEN_KEEPALIVE int layout_umap_stage(const layout::UmapLayout* umap) {
  return static_cast<int>(umap->stage());
}
EMSCRIPTEN_KEEPALIVE double layout_umap_progress(const layout::UmapLayout* umap) { return umap->progress(); }
EMSCRIPTEN_KEEPALIVE std::size_t layout_umap_epochs(const layout::UmapLayout* umap) { return umap->epochs(); }
EMSCRIPTEN_KEEPALIVE std::size_t layout_umap_edges(const layout::UmapLayout* umap) { return umap->edges(); }
EMSCRIPTEN_KEEPALIVE bool layout_umap_exact(const layout::UmapLayout* umap) {
  return umap->exact_neighbours();
}
EMSCRIPTEN_KEEPALIVE const float* layout_umap_coords(const layout::UmapLayout* umap) {
  return umap->coords().data();
}
EMSCRIPTEN_KEEPALIVE void layout_umap_free(layout::UmapLayout* umap) { delete umap; }

// ---- Judging a map, for the tests and benchmarks -----------------------------------------

// The share of k-nearest neighbours (cosine, in the float32 table) a map keeps.
EMSCRIPTEN_KEEPALIVE double layout_neighbours_kept(const float* table, std::size_t rows, std::size_t cols,
                                                   const float* map, std::size_t k) {
  return layout::neighbours_kept(table, rows, cols, map, k);
}
// The same over `count` rows drawn for the seed, each against every row, for a table in any numbers.
EMSCRIPTEN_KEEPALIVE double layout_neighbours_kept_sample(const void* table, std::size_t rows,
                                                          std::size_t cols, int numbers, const float* map,
                                                          std::size_t k, std::size_t count,
                                                          std::uint32_t seed) {
  layout::TableView view;
  if (!table_view(table, rows, cols, numbers, view)) return -1;
  return layout::neighbours_kept_sample(view, map, k, layout::sample_rows(rows, count, seed));
}
// NN-descent's graph of the table (k others a row, the UMAP layout's
// settings for a seed), whole, and its recall against the exact neighbours
// of `count` rows drawn for the seed: for the benchmarks (it blocks).
EMSCRIPTEN_KEEPALIVE double layout_nn_descent_recall(const void* table, std::size_t rows, std::size_t cols,
                                                     int numbers, std::size_t k, std::size_t count,
                                                     std::uint32_t seed) {
  layout::TableView view;
  if (!table_view(table, rows, cols, numbers, view)) return -1;
  layout::NnDescent search;
  layout::NnDescentOptions options;
  options.seed = layout::mix(seed, options.seed);
  if (!search.begin(view, k, options, last_error)) return -1;
  while (search.step()) {
  }
  return layout::knn_recall(view, search.indices().data(), k, layout::sample_rows(rows, count, seed));
}
}
