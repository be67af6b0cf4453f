// model.map(): a two-dimensional map of a table's rows, by PCA or by the
// UMAP method, computed in the layout module (web/dist/layout.wasm, see
// bindings/layout.cpp). A map is asked for here: its table and options
// checked (options.js), then laid out in the page's Worker (in-worker.js)
// or, where there is none (Node) or it cannot start, on this thread in
// slices (in-slices.js), and what it is recorded (details.js). Both run the
// same WebAssembly, so they give the same bits.
import { Matrix } from '../matrix.js';
import { checkSignal } from '../sources/index.js';
import { mapSettings } from './options.js';
import { mapInWorker, useWorker } from './in-worker.js';
import { mapInSlices } from './in-slices.js';
import { recordDetails } from './details.js';

/**
 * The map of `table`'s rows: a Matrix of rows × 2 (float32). See
 * Model.map in index.d.ts for the options.
 */
export async function mapRows(table, options, caller = 'map') {
  const settings = mapSettings(table, options, caller);
  checkSignal(settings.signal);
  const { rows, cols } = table;
  const name = table.name || `${rows} × ${cols} table`;
  const result = await (useWorker() ? mapInWorker(table, settings, caller) : mapInSlices(table, settings, caller));
  const map = new Matrix(result.points, rows, 2, { name: `${settings.method.toUpperCase()} of ${name}` });
  recordDetails(map, Object.freeze(settings.method === 'pca'
    ? { method: 'pca', varianceShare: Object.freeze(result.varianceShare), solver: result.solver, passes: result.passes }
    : { method: 'umap', neighbours: settings.neighbours, minDist: settings.minDist, epochs: result.epochs, seed: settings.seed }));
  settings.onProgress({ stage: 'done', progress: 1 });
  return map;
}
