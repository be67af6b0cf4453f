// How good a map is, for the tests and the benchmarks (tools/bench/map.mjs,
// scale.mjs): the share of each row's nearest rows kept among its nearest
// points on the map, and the recall of the approximate neighbours UMAP uses
// past its exact size (cpp/src/layout/judge.cpp, exported by the layout
// module), computed in the package's layout instance of this thread.
import { copyAsFloat32 } from '../../../web/src/matrix.js';
import { LayoutJob, tableBytes } from '../../../web/src/map/layout-run.js';
import { layoutInstance, releaseLargeInstance } from '../../../web/src/map/instance.js';

const layoutModule = async () => (await layoutInstance()).module;

/**
 * For tests and benchmarks: the share of each row's k nearest rows
 * (cosine, in the table) kept among its k nearest points on the map.
 */
export async function neighboursKept(table, map, k = 10) {
  const module = await layoutModule();
  const a = module._layout_floats(table.rows * table.cols), b = module._layout_floats(map.rows * 2);
  try {
    copyAsFloat32(table, module.HEAPF32, a >> 2);
    module.HEAPF32.set(map.data, b >> 2);
    return module._layout_neighbours_kept(a, table.rows, table.cols, b, k);
  } finally {
    module._free(a);
    module._free(b);
  }
}

/** A table's own numbers copied into the layout instance, for the judging functions below. */
async function withTable(table, use) {
  const module = await layoutModule();
  const job = new LayoutJob(module, { method: 'pca', rows: table.rows, cols: table.cols, dtype: table.dtype, caller: 'map', settings: {} });
  try {
    job.write(0, tableBytes(table.data));
    return use(module, job.table, ['float32', 'float16', 'bfloat16'].indexOf(table.dtype));
  } finally {
    job.free();
    releaseLargeInstance(module);
  }
}

/**
 * For benchmarks: neighboursKept over `count` rows drawn for `seed`, each
 * against every row, for tables whose every row's exact neighbours would
 * take too long.
 */
export function neighboursKeptSample(table, map, k = 10, count = 1000, seed = 1) {
  return withTable(table, (module, pointer, numbers) => {
    const points = module._layout_floats(map.rows * 2);
    try {
      module.HEAPF32.set(map.data, points >> 2);
      return module._layout_neighbours_kept_sample(pointer, table.rows, table.cols, numbers, points, k, count, seed);
    } finally {
      module._free(points);
    }
  });
}

/**
 * For tests and benchmarks: the recall of the approximate neighbours UMAP
 * uses past its exact size (NN-descent, k others a row, for `seed`) against
 * the exact ones, over `count` rows drawn for the seed. It blocks: not for pages.
 */
export function nnDescentRecall(table, k = 14, count = 1000, seed = 1) {
  return withTable(table, (module, pointer, numbers) => module._layout_nn_descent_recall(pointer, table.rows, table.cols, numbers, k, count, seed));
}
