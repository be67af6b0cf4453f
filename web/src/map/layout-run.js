// What the main thread (in-slices.js) and the map's Worker (map-worker.js)
// share to compute a map in the layout module (web/dist/layout.wasm): the
// instance made from a compiled module, and a map job from its table's
// bytes to its points. It imports only the instance guard (itself without
// imports), so that the Worker loads nothing else.
import { guardedInstantiation, instanceFailed, registerGuard } from '../instance-guard.js';

/** The stages a UMAP layout reports, in order (UmapLayout::Stage). */
export const UMAP_STAGES = Object.freeze(['initialise', 'neighbours', 'graph', 'optimise', 'done']);
/** The layout module's codes for a table's numbers (layout::Numbers). */
const NUMBERS = { float32: 0, float16: 1, bfloat16: 2 };
/** An instance whose memory grew past this after a job is dropped: the next job gets a fresh one. */
export const LARGEST_KEPT_INSTANCE = 256 * 1048576;

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
 * One map being computed in a layout instance. `spec`: { method ('pca' or
 * 'umap'), rows, cols, dtype (the table's numbers: 'float32', 'float16',
 * 'bfloat16'), settings ({ neighbours, minDist, epochs, seed }), init (a
 * Float32Array of rows × 2, or undefined), caller }. Its table is written in
 * as bytes (write), in the table's own numbers, then start() and step()
 * until step() returns false; result() gives the map. Errors are
 * RangeErrors prefixed by `caller`. free() releases everything.
 */
export class LayoutJob {
  constructor(module, spec) {
    this.module = module;
    this.spec = spec;
    this.umap = spec.method === 'umap';
    this.handle = 0;
    this.bytes = spec.rows * spec.cols * (spec.dtype === 'float32' ? 4 : 2);
    this.table = module._layout_alloc(Math.max(1, this.bytes));
    if (!this.table) throw new RangeError(`${spec.caller}: out of memory for a copy of the ${spec.rows} × ${spec.cols} table`);
  }

  /** Copies `bytes` (a Uint8Array) into the table from byte `offset` on. */
  write(offset, bytes) {
    this.module.HEAPU8.set(bytes, this.table + offset);
  }

  start() {
    const { module, spec } = this;
    const { rows, cols, settings } = spec;
    const numbers = NUMBERS[spec.dtype];
    const seedLow = settings.seed % 2 ** 32, seedHigh = Math.floor(settings.seed / 2 ** 32);
    if (!this.umap) {
      this.handle = module._layout_pca_begin(this.table, rows, cols, numbers, 2, seedLow, seedHigh);
    } else {
      let start = 0;
      try {
        if (spec.init) {
          start = module._layout_floats(rows * 2);
          if (!start) throw new RangeError(`${spec.caller}: out of memory for a copy of the starting layout`);
          module.HEAPF32.set(spec.init, start >> 2);
        }
        this.handle = module._layout_umap_begin(this.table, rows, cols, numbers, settings.neighbours, settings.minDist,
          settings.epochs, seedLow, seedHigh, start);
      } finally {
        if (start) module._free(start);  // the layout keeps its own copy
      }
    }
    if (!this.handle) throw new RangeError(`${spec.caller}: ${lastError(module)}`);
  }

  /** The next piece of work (`budget`: edges, for UMAP's descent); false once done. */
  step(budget) {
    const { module } = this;
    const more = this.umap ? module._layout_umap_step(this.handle, budget) : module._layout_pca_step(this.handle);
    if (!more && (this.umap ? module._layout_umap_failed(this.handle) : module._layout_pca_failed(this.handle))) {
      throw new RangeError(`${this.spec.caller}: ${lastError(module)}`);
    }
    // The table's room goes back as soon as no stage reads it again.
    if (this.table && this.umap && !module._layout_umap_table_needed(this.handle)) this.#freeTable();
    return more;
  }

  /**
   * The next round of tasks for several threads (layout-threads.js): their
   * number, or 0 when the work under way has none (then step()).
   */
  beginTasks(budget) {
    return this.umap ? this.module._layout_umap_begin_tasks(this.handle, budget) : this.module._layout_pca_begin_tasks(this.handle, budget);
  }

  /** Ends a round of tasks; false once done (as step()). */
  finishTasks() {
    const { module } = this;
    const more = this.umap ? module._layout_umap_finish_tasks(this.handle) : module._layout_pca_finish_tasks(this.handle);
    if (!more && (this.umap ? module._layout_umap_failed(this.handle) : module._layout_pca_failed(this.handle))) {
      throw new RangeError(`${this.spec.caller}: ${lastError(module)}`);
    }
    if (this.table && this.umap && !module._layout_umap_table_needed(this.handle)) this.#freeTable();
    return more;
  }

  /**
   * One piece of work on every thread of `pool` (a ThreadPool), or on this
   * one alone without a pool: a round of tasks (of pool.roundWork
   * multiply-adds) where there is one, else a step (at most `edges` edges
   * of UMAP's descent). False once done.
   */
  advance(edges, pool) {
    if (pool) {
      const tasks = this.beginTasks(pool.roundWork);
      if (tasks > 0) {
        pool.round(this.umap ? 'umap' : 'pca', this.handle, tasks);
        return this.finishTasks();
      }
    }
    return this.step(edges);
  }

  /** Whether the work under way is the descent, whose steps are counted in edges. */
  get optimising() {
    return this.umap && this.module._layout_umap_stage(this.handle) === UMAP_STAGES.indexOf('optimise');
  }

  /** { stage, progress }: the stage under way and the share of the work done (0 to 1, rising). */
  progress() {
    const { module } = this;
    if (!this.umap) return { stage: 'pca', progress: module._layout_pca_progress(this.handle) };
    return { stage: UMAP_STAGES[module._layout_umap_stage(this.handle)], progress: module._layout_umap_progress(this.handle) };
  }

  /** The finished map: { points (rows × 2, a copy), epochs } for UMAP, { points, varianceShare, solver, passes } for PCA. */
  result() {
    const { module, spec } = this;
    const pointer = this.umap ? module._layout_umap_coords(this.handle) : module._layout_pca_coords(this.handle);
    const points = new Float32Array(spec.rows * 2);
    points.set(module.HEAPF32.subarray(pointer >> 2, (pointer >> 2) + spec.rows * 2));
    if (this.umap) return { points, epochs: module._layout_umap_epochs(this.handle) };
    return {
      points,
      varianceShare: [0, 1].map((i) => module._layout_pca_share(this.handle, i)),
      solver: module._layout_pca_method(this.handle) ? 'krylov' : 'covariance',
      passes: module._layout_pca_passes(this.handle),
    };
  }

  #freeTable() {
    this.module._free(this.table);
    this.table = 0;
  }

  free() {
    if (this.handle) (this.umap ? this.module._layout_umap_free : this.module._layout_pca_free)(this.handle);
    this.handle = 0;
    if (this.table) this.#freeTable();
  }
}

/** The bytes of a table's numbers (a Matrix's data: a Float32Array, or a Uint16Array of 16-bit bits), as they are. */
export function tableBytes(data) {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
