// The vocabulary map's WebAssembly module (web/dist/layout.{js,wasm}): PCA
// and the UMAP-method layout of cpp/include/embeddings/layout/layout.h as plain C
// exports. It is a module of its own so that the chapter's main module stays
// small; only model.map() loads it. No maths here: it checks what JS hands
// over, keeps the layouts JS holds, and reports failures as messages.
//
// Memory: the table is copied in by JS (layout_buffer), so this instance may
// grow freely; JS reads results through fresh views after every call.
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

}  // namespace

extern "C" {

// The last failure's message (UTF-8, layout_error_length() bytes).
EMSCRIPTEN_KEEPALIVE const char* layout_error() { return last_error.data(); }
EMSCRIPTEN_KEEPALIVE std::size_t layout_error_length() { return last_error.size(); }

// Room for `count` floats (0 when memory cannot grow that far); freed with free().
EMSCRIPTEN_KEEPALIVE float* layout_floats(double count) {
  if (!(count >= 0) || count > 1073741824.0) return nullptr;
  return static_cast<float*>(std::malloc(static_cast<std::size_t>(count) * sizeof(float)));
}

// PCA: coords (rows, components) and shares (components doubles) of variance.
EMSCRIPTEN_KEEPALIVE bool layout_pca(const float* table, std::size_t rows, std::size_t cols,
                                     std::size_t components, float* coords, double* shares) {
  if (components == 0 || components > cols) return fail("components must be from 1 to the number of columns");
  if (rows < 2) return fail("a map needs at least 2 rows");
  if (!layout::all_finite(table, rows * cols))
    return fail("the table holds values that are not finite numbers (NaN or infinity)");
  layout::Pca result;
  layout::pca(table, rows, cols, components, result, coords);
  for (std::size_t i = 0; i < components; ++i) shares[i] = result.variance_share[i];
  return true;
}

// A UMAP layout of a table (copied; `table` may be freed after this call),
// or 0 with layout_error() saying why. The seed is given as two 32-bit
// halves; `initial` (rows, 2) is the starting layout, or null for the PCA.
EMSCRIPTEN_KEEPALIVE layout::UmapLayout* layout_umap_begin(const float* table, std::size_t rows,
                                                           std::size_t cols, std::size_t n_neighbors,
                                                           double min_dist, std::size_t n_epochs,
                                                           std::uint32_t seed_low, std::uint32_t seed_high,
                                                           const float* initial) {
  auto* umap = new (std::nothrow) layout::UmapLayout();
  if (umap == nullptr) return fail("out of memory"), nullptr;
  layout::UmapOptions options;
  options.n_neighbors = n_neighbors;
  options.min_dist = min_dist;
  options.n_epochs = n_epochs;
  options.seed = (static_cast<std::uint64_t>(seed_high) << 32) | seed_low;
  if (!umap->begin(table, rows, cols, options, last_error, initial)) {
    delete umap;
    return nullptr;
  }
  return umap;
}
// One slice of work (see UmapLayout::step); false once the layout is done.
EMSCRIPTEN_KEEPALIVE bool layout_umap_step(layout::UmapLayout* umap, std::size_t budget) {
  return umap->step(budget);
}
EMSCRIPTEN_KEEPALIVE int layout_umap_stage(const layout::UmapLayout* umap) {
  return static_cast<int>(umap->stage());
}
EMSCRIPTEN_KEEPALIVE double layout_umap_progress(const layout::UmapLayout* umap) { return umap->progress(); }
EMSCRIPTEN_KEEPALIVE std::size_t layout_umap_epochs(const layout::UmapLayout* umap) { return umap->epochs(); }
EMSCRIPTEN_KEEPALIVE std::size_t layout_umap_edges(const layout::UmapLayout* umap) { return umap->edges(); }
EMSCRIPTEN_KEEPALIVE const float* layout_umap_embedding(const layout::UmapLayout* umap) {
  return umap->embedding().data();
}
EMSCRIPTEN_KEEPALIVE void layout_umap_free(layout::UmapLayout* umap) { delete umap; }

// The share of 10-nearest neighbours (cosine, in the table) a map keeps.
EMSCRIPTEN_KEEPALIVE double layout_neighbours_kept(const float* table, std::size_t rows, std::size_t cols,
                                                   const float* map, std::size_t k) {
  return layout::neighbours_kept(table, rows, cols, map, k);
}
}
