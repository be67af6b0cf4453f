// The maps of each model that <ew-vocabulary-map> shows, computed once per
// model and method, however many elements show them: model.map()'s UMAP
// and PCA, each with how long it took.

// model -> { umap, pca }: { promise, ms } of maps computed once per model (ms: how long it took, once).
const maps = new WeakMap();

/** The map of `model` by `method` ('umap' or 'pca'): { promise, ms }, asked for once (again after a failure). */
export function mapOf(model, method, onProgress) {
  let cache = maps.get(model);
  if (!cache) maps.set(model, (cache = {}));
  if (!cache[method]) {
    const started = performance.now();
    const entry = (cache[method] = {});
    entry.promise = model.map({ method, onProgress }).then((map) => {
      entry.ms = performance.now() - started;
      return map;
    });
    entry.promise.catch(() => { if (cache[method] === entry) delete cache[method]; });
  }
  return cache[method];
}
