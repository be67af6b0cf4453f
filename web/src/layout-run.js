// What the main thread (map.js) and the map's Worker (map-worker.js) share
// to run a UMAP layout in the layout module (web/dist/layout.wasm): the
// instance made from a compiled module, and a layout's start and end. It
// imports only the instance guard (itself without imports), so that the
// Worker loads nothing else.
import { guardedInstantiation, instanceFailed, registerGuard } from './instance-guard.js';

export { instanceFailed };

/**
 * An instance of the layout module's glue `create` from the compiled `wasm`
 * (a WebAssembly.Module), stopped at its first failure (instance-guard.js):
 * the next map then makes another.
 */
export async function instantiateLayout(create, wasm) {
  const instantiateWasm = guardedInstantiation(wasm, "the map's layout", 'The next map starts a new one.');
  return registerGuard(await create({
    instantiateWasm,
    printErr: (text) => console.error(`[layout] ${text}`),
  }), instantiateWasm.state);
}

/** The layout module's last failure message. */
export function lastError(module) {
  const bytes = module.HEAPU8.subarray(module._layout_error(), module._layout_error() + module._layout_error_length());
  return new TextDecoder().decode(bytes);
}

/**
 * Starts a UMAP layout of `data` (rows × cols float32) with `settings`
 * ({ neighbours, minDist, epochs, seed }) from `init` (rows × 2 float32) or
 * the PCA: the layout's handle. Throws a RangeError with the module's
 * message (prefixed by `caller`) for what it cannot lay out.
 */
export function beginUmap(module, data, rows, cols, settings, init, caller) {
  const pointer = module._layout_floats(rows * cols);
  if (!pointer) throw new RangeError(`${caller}: out of memory for a copy of the ${rows} × ${cols} table`);
  let start = 0;
  try {
    module.HEAPF32.set(data, pointer >> 2);
    if (init) {
      start = module._layout_floats(rows * 2);
      if (!start) throw new RangeError(`${caller}: out of memory for a copy of the starting layout`);
      module.HEAPF32.set(init, start >> 2);
    }
    const seedLow = settings.seed % 2 ** 32, seedHigh = Math.floor(settings.seed / 2 ** 32);
    const handle = module._layout_umap_begin(pointer, rows, cols, settings.neighbours, settings.minDist, settings.epochs,
      seedLow, seedHigh, start);
    if (!handle) throw new RangeError(`${caller}: ${lastError(module)}`);
    return handle;
  } finally {
    // The layout keeps its own copies.
    module._free(pointer);
    if (start) module._free(start);
  }
}

/** A finished layout's points (a copy) and its epochs; frees the layout. */
export function finishUmap(module, handle, rows) {
  try {
    const pointer = module._layout_umap_embedding(handle);
    const points = new Float32Array(rows * 2);
    points.set(module.HEAPF32.subarray(pointer >> 2, (pointer >> 2) + rows * 2));
    return { points, epochs: module._layout_umap_epochs(handle) };
  } finally {
    module._layout_umap_free(handle);
  }
}
