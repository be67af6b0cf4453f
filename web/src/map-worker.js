// The vocabulary map's Worker (started by map.js in a browser): it lays out
// UMAP maps in its own instance of the layout module, off the page's main
// thread, whole, with no slices to yield between. Messages in:
// { wasm } first (the compiled layout.wasm, so it is fetched and compiled
// once per page), then jobs { id, data, rows, cols, settings, init }. Out:
// { ready } once the instance is made, { id, progress } about every 50 ms,
// then { id, points, epochs } or { id, error, name }. A cancelled job is
// ended by terminating the Worker (map.js starts another for the rest).
import createLayoutModule from '../dist/layout.js';
import { beginUmap, finishUmap, instanceFailed, instantiateLayout } from './layout-run.js';

const STAGES = ['neighbours', 'graph', 'initialise', 'optimise', 'done'];
/** Milliseconds between two progress messages. */
const PROGRESS_MS = 50;
let module, wasm;

self.onmessage = async ({ data: message }) => {
  if (message.wasm) {
    wasm = message.wasm;
    module = instantiateLayout(createLayoutModule, wasm);
    await module;
    self.postMessage({ ready: true });
    return;
  }
  const { id, data, rows, cols, settings, init } = message;
  // An instance that failed refuses every call: the next job has a new one.
  if (instanceFailed(await module)) module = instantiateLayout(createLayoutModule, wasm);
  const layout = await module;
  let handle = 0;
  try {
    handle = beginUmap(layout, data, rows, cols, settings, init, 'map');
    let reported = performance.now();
    while (layout._layout_umap_step(handle, 1 << 16)) {
      if (performance.now() - reported >= PROGRESS_MS) {
        self.postMessage({ id, progress: { stage: STAGES[layout._layout_umap_stage(handle)], progress: layout._layout_umap_progress(handle) } });
        reported = performance.now();
      }
    }
    const { points, epochs } = finishUmap(layout, handle, rows);
    handle = 0;
    self.postMessage({ id, points, epochs }, [points.buffer]);
  } catch (error) {
    if (handle) layout._layout_umap_free(handle);
    self.postMessage({ id, error: error.message, name: error.name });
  }
};
