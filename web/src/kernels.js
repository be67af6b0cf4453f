// The one instance that computes on vectors belonging to no model (plain
// arrays, the rows of a trace), started as soon as the package is imported
// and awaited by loadModel(), never at a module's top level: a module graph
// that awaits at its top level cannot be require()d, and a .wasm missing
// there would fail the whole graph, the page's own try/catch around
// loadModel() included. Its scratch is allocated once, here.
import { instantiate } from './runtime.js';
import { setDefaultHost, setDefaultHostFailure } from './vectors.js';

let backendName = '';

/**
 * Resolves once dot() and cosine() can compute on any vector; rejects with
 * the reason the module could not start. It starts once every module of the
 * app's graph has run (a graph with no top-level await runs in one go), so
 * that locateFiles() (files.js), called at the top of any of them, comes first.
 */
export const kernelsReady = Promise.resolve().then(() => instantiate()).then((module) => {
  const chunk = module.vectorChunk();
  setDefaultHost({
    module,
    vectorA: module._malloc(chunk * 4),
    vectorB: module._malloc(chunk * 4),
    sums: module._malloc(3 * 8),
    chunk,
    checkAlive() {},
  });
  backendName = module.backendName();
}, (error) => {
  setDefaultHostFailure(error);
  throw error;
});
// Nobody may be waiting: loadModel(), dot() and cosine() report the failure to whoever calls them.
kernelsReady.catch(() => {});

/** Which SIMD kernels this build runs ("wasm-simd128"), once kernelsReady has resolved; '' before. */
export function kernelsBackend() {
  return backendName;
}
