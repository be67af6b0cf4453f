// model.map(): a two-dimensional map of a table's rows, by PCA or by the
// UMAP method, computed in the layout module (web/dist/layout.wasm, see
// bindings/layout.cpp). That module is loaded only when a map is first
// asked for, so the chapter's main module stays small.
//
// In a browser every map is computed in a Worker of its own (map-worker.js,
// built into web/dist/map-worker.js, a file that imports nothing; one for
// the page, sent the compiled module), whole: the page's main thread only
// sends the table, in its own numbers (a 16-bit table stays 16-bit), a
// chunk per task, and receives the points; an AbortSignal ends the Worker
// (another takes the jobs left). Where there is no Worker (Node) or it
// cannot start, the work goes in slices: each call into WebAssembly is
// kept to about SLICE_MS, and the event loop gets a turn between slices, so
// a page that computes a map never freezes (no task much over 50 ms) and an
// AbortSignal can stop it between two slices. Both run the same
// WebAssembly, so they give the same bits.
import { Matrix, copyAsFloat32, describe, float32Numbers } from '../matrix.js';
import { checkSignal } from '../sources/index.js';
import { now, yieldToEventLoop } from '../event-loop.js';
import { compileWasm, observed } from '../runtime.js';
import { locatedFile, packageFile } from '../files.js';
import { LARGEST_KEPT_INSTANCE, LayoutJob, instanceFailed, instantiateLayout, tableBytes } from './layout-run.js';
import { ThreadPool, helperCount, sharedMemoryAllowed } from './layout-threads.js';

/** Milliseconds of work between two turns of the event loop. */
const SLICE_MS = 12;
/** Bytes of a table copied per task (to the Worker, or into the instance between slices). */
const CHUNK_BYTES = 8 * 1048576;
/** Chunks sent to the Worker and not yet copied in by it: what the page holds beside its table. */
const CHUNKS_IN_FLIGHT = 3;
const OPTIONS = ['method', 'table', 'seed', 'neighbours', 'minDist', 'epochs', 'init', 'onProgress', 'signal'];
const details = new WeakMap();

let compiled = {}, instance, instanceMade, mapWorker, workerFailed = false, jobCount = 0, threadsWanted;

/**
 * layout.wasm, or layout-threads.wasm (the same module with shared memory,
 * where several threads may share a map: layout-threads.js), compiled once
 * for this page or process (and sent to the Worker).
 */
function compiledLayout(threaded = false) {
  const key = threaded ? 'threads' : 'single';
  compiled[key] ??= compileWasm(threaded
    ? packageFile('web/dist/layout-threads.wasm', () => new URL('../../dist/layout-threads.wasm', import.meta.url))
    : packageFile('web/dist/layout.wasm', () => new URL('../../dist/layout.wasm', import.meta.url)));
  compiled[key].catch(() => { compiled[key] = undefined; });
  return compiled[key];
}

/**
 * For tests and benchmarks: how many threads a map computed on this thread
 * (in Node) uses: 1 for one, undefined (the default) for one per core.
 */
export function setMapThreads(count) {
  threadsWanted = count;
  if (instance) instance.then(({ pool }) => pool?.close(), () => {});
  instance = undefined;
}

/** How many cores this machine has, as far as this context can tell. */
async function cores() {
  if (typeof navigator === 'object' && navigator.hardwareConcurrency) return navigator.hardwareConcurrency;
  if (typeof process !== 'object') return 1;
  return (await import('#platform')).coreCount();
}

/** A helper thread in Node, ready: a worker thread that runs serveAsHelper (layout-helper.js). */
async function startNodeHelper(message) {
  return (await import('#platform')).startLayoutHelper(message);
}

/**
 * The one layout instance of this thread (layouts run one slice at a time):
 * { module, pool }, pool the helper threads where shared memory is allowed
 * and there are other cores (Node; a page's own thread never waits for
 * others, so there it has none).
 */
function layoutInstance() {
  // A new one once it has failed (it refuses every call then: instance-guard.js).
  if (instanceMade && instanceFailed(instanceMade)) {
    // Its helpers go too (closing frees nothing: the instance refuses every call).
    instance?.then(({ pool }) => { try { pool?.close(); } catch { /* refused */ } }, () => {});
    instance = instanceMade = undefined;
  }
  instance ??= (async () => {
    const helpers = typeof document === 'undefined' && sharedMemoryAllowed() && threadsWanted !== 1
      ? (threadsWanted ? threadsWanted - 1 : helperCount(await cores())) : 0;
    // The module's JavaScript too is fetched only now: a page without a map never loads either.
    const [wasm, { default: create }] = await Promise.all([compiledLayout(helpers > 0),
      // The threaded glue through #platform: only Node's main thread runs it here, so a
      // bundle for browsers never meets it (their Worker carries its own copy).
      helpers > 0 ? import('#platform').then((platform) => platform.threadedLayoutGlue()) : import('../../dist/layout.js')]);
    const module = await instantiateLayout(create, wasm);
    instanceMade = module;
    observed(module, 'layout');
    const pool = helpers > 0 ? await ThreadPool.create(module, wasm, helpers, startNodeHelper) : null;
    return { module, pool };
  })();
  instance.catch(() => { instance = undefined; });
  return instance;
}

const layoutModule = async () => (await layoutInstance()).module;

/** After a job: an instance a large table made large is dropped, so that its memory goes back. */
async function releaseLargeInstance(module) {
  if (module.HEAPU8.byteLength <= LARGEST_KEPT_INSTANCE || !instance) return;
  const current = await instance;
  if (current.module !== module) return;
  instance = undefined;
  current.pool?.close();
}

const useWorker = () => !workerFailed && typeof Worker === 'function' && typeof document !== 'undefined';

/** Says on the console why maps leave the Worker for this thread. */
function warnMainThread(started, reason) {
  console.warn(`[embeddings] model.map: the map's Worker ${started ? 'failed' : 'could not start'} (${reason}); maps go on the main thread, in slices`);
}

/** Lays out a job that was meant for the Worker on this thread. */
function inSlices(job) {
  mapInSlices(job.table, job.settings, job.caller).then((result) => job.settle(result), (error) => job.settle(undefined, error));
}

/**
 * The page's map Worker: { worker, jobs (id → job), ready }, started with
 * the compiled module; undefined when no Worker can be made here.
 */
function workerState() {
  if (mapWorker) return mapWorker;
  const threaded = sharedMemoryAllowed() && helperCount(typeof navigator === 'object' ? navigator.hardwareConcurrency : 1) > 0;
  const promise = compiledLayout(threaded).catch((error) => {
    if (!threaded) throw error;
    return compiledLayout(false);  // no threaded module where it was looked for: one thread
  }).then((wasm) => {
    let worker;
    try {
      // The Worker's file is built from map-worker.js and the layout
      // module's glue (tools/page/bundle.mjs) into one that imports nothing,
      // named in the form bundlers (Vite, webpack) recognise, bundle and
      // rewrite: a literal URL beside import.meta.url, inside new Worker().
      const located = locatedFile('web/dist/map-worker.js');
      worker = located ? new Worker(located, { type: 'module' })
        : new Worker(new URL('../../dist/map-worker.js', import.meta.url), { type: 'module' });
    } catch (error) {
      // A policy that forbids Workers here (some browsers say so at once).
      workerFailed = true;
      if (mapWorker === promise) mapWorker = undefined;
      warnMainThread(false, error.message);
      return undefined;
    }
    const state = { worker, jobs: new Map(), ready: false, promise };
    worker.onmessage = ({ data }) => {
      if (data.ready) { state.ready = true; return; }
      const job = state.jobs.get(data.id);
      if (!job) return;
      if (data.received !== undefined) { job.received(); return; }
      if (data.progress) { job.settings.onProgress(data.progress); return; }
      state.jobs.delete(data.id);
      job.settle(data.error ? undefined : data.result, data.error && new (data.name === 'RangeError' ? RangeError : Error)(data.error.replace(/^map:/, `${job.caller}:`)));
    };
    worker.onerror = (event) => {
      // A Worker that cannot start (its file missing, a policy that forbids
      // it) or that failed: its jobs, and the maps after them if it never
      // started, go in slices on this thread.
      event.preventDefault?.();
      if (!state.ready) workerFailed = true;
      warnMainThread(state.ready, event.message || 'its script did not load, or this page may not start Workers');
      dropWorker(state);
      for (const job of state.jobs.values()) inSlices(job);
      state.jobs.clear();
    };
    worker.postMessage({ wasm, threads: WebAssembly.Module.exports(wasm).some((e) => e.name === 'emscripten_tls_init'),
      cores: typeof navigator === 'object' ? navigator.hardwareConcurrency : 1 });
    return state;
  });
  promise.catch(() => { if (mapWorker === promise) mapWorker = undefined; });
  mapWorker = promise;
  return promise;
}

/** Ends a Worker; the next job starts another. */
function dropWorker(state) {
  state.worker.terminate();
  if (mapWorker === state.promise) mapWorker = undefined;
}

/** What the layout module is told about a job (layout-run.js LayoutJob). */
function jobSpec(table, settings, caller) {
  return {
    method: settings.method, rows: table.rows, cols: table.cols, dtype: table.dtype, caller: 'map',
    // A start's numbers as float32, whatever its format (a 16-bit Matrix's bits widened).
    init: settings.init ? Float32Array.from(float32Numbers(settings.init)) : undefined,
    settings: { neighbours: settings.neighbours, minDist: settings.minDist, epochs: settings.epochs, seed: settings.seed },
  };
}

async function post(job) {
  const state = await workerState();
  if (job.settled) return;
  if (!state) {
    inSlices(job);
    return;
  }
  state.jobs.set(job.id, job);
  job.state = state;
  const spec = jobSpec(job.table, job.settings, job.caller);
  state.worker.postMessage({ id: job.id, spec }, spec.init ? [spec.init.buffer] : []);
  // The table's bytes, a chunk per task, a few in flight: the page never
  // holds a second copy of a large table, and no task copies much.
  let inFlight = 0, wake = null;
  job.received = () => { inFlight -= 1; wake?.(); };
  const total = job.table.data.byteLength;
  for (let offset = 0; offset < total; offset += CHUNK_BYTES) {
    while (inFlight >= CHUNKS_IN_FLIGHT) await new Promise((resolve) => { wake = resolve; });
    if (job.settled || job.state !== state) return;
    const chunk = tableBytes(job.table.data).slice(offset, offset + CHUNK_BYTES);
    inFlight += 1;
    state.worker.postMessage({ id: job.id, offset, chunk }, [chunk.buffer]);
    await yieldToEventLoop();
  }
  if (!job.settled && job.state === state) state.worker.postMessage({ id: job.id, go: true });
}

/** A map computed in the Worker: LayoutJob's result. Aborting ends the Worker; its other jobs go to a new one. */
function mapInWorker(table, settings, caller) {
  return new Promise((resolve, reject) => {
    const job = { id: ++jobCount, table, settings, caller, received: () => {} };
    const onAbort = () => {
      const { state } = job;
      job.settle(undefined, settings.signal.reason);
      if (!state) return;  // not posted yet: post() sees it settled
      state.jobs.delete(job.id);
      dropWorker(state);
      for (const other of state.jobs.values()) {
        other.state = undefined;
        post(other).catch((error) => other.settle(undefined, error));
      }
      state.jobs.clear();
    };
    job.settle = (result, error) => {
      if (job.settled) return;
      job.settled = true;
      settings.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error); else resolve(result);
    };
    settings.signal?.addEventListener('abort', onAbort, { once: true });
    post(job).catch((error) => job.settle(undefined, error));
  });
}

function checkOptions(options, caller) {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${caller}: options must be an object such as { method: 'umap' }, got ${describe(options)}`);
  }
  const unknown = Object.keys(options).filter((key) => !OPTIONS.includes(key));
  if (unknown.length) throw new TypeError(`${caller}: unknown option ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  const method = options.method ?? 'umap';
  if (method !== 'umap' && method !== 'pca') {
    throw new RangeError(`${caller}: method must be 'umap' or 'pca', got ${describe(method)}`);
  }
  const whole = (name, value, low, high) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < low || value > high) {
      throw new RangeError(`${caller}: ${name} must be a whole number from ${low} to ${high}, got ${describe(value)}`);
    }
    return value;
  };
  const seed = whole('seed', options.seed ?? 1, 0, Number.MAX_SAFE_INTEGER);
  const epochs = whole('epochs', options.epochs ?? 0, 0, 100000);
  const neighbours = whole('neighbours', options.neighbours ?? 15, 2, 200);
  const minDist = options.minDist ?? 0.1;
  if (typeof minDist !== 'number' || !(minDist >= 0 && minDist <= 1)) {
    throw new RangeError(`${caller}: minDist must be a number from 0 to 1, got ${describe(minDist)}`);
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new TypeError(`${caller}: onProgress must be a function, got ${describe(options.onProgress)}`);
  }
  const { signal, init } = options;
  if (signal !== undefined && !(typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal)) {
    throw new TypeError(`${caller}: signal must be an AbortSignal, got ${describe(signal)}`);
  }
  if (init !== undefined) {
    if (method !== 'umap') throw new TypeError(`${caller}: init is a starting layout for UMAP; PCA takes none`);
    if (!(init instanceof Matrix) || init.cols !== 2) throw new TypeError(`${caller}: init must be a Matrix of rows × 2 (a map), got ${describe(init)}`);
  }
  return { method, seed, epochs, neighbours, minDist, init, onProgress: options.onProgress ?? (() => {}), signal };
}

/**
 * What a map is: { method, varianceShare, solver, passes } for PCA (each
 * axis's share of the variance; 'covariance' or 'krylov', and the Krylov
 * method's passes), { method, neighbours, minDist, epochs, seed } for UMAP;
 * undefined for a Matrix that model.map() did not make.
 */
export function mapDetails(map) {
  return details.get(map);
}

/**
 * The map of `table`'s rows: a Matrix of rows × 2 (float32). See
 * Model.map in index.d.ts for the options.
 */
export async function mapRows(table, options, caller = 'map') {
  if (!(table instanceof Matrix)) throw new TypeError(`${caller}: table must be a Matrix, got ${describe(table)}`);
  const settings = checkOptions(options, caller);
  const { rows, cols } = table;
  if (rows < 3) throw new RangeError(`${caller}: a map needs a table of at least 3 rows, ${table.name || 'this one'} has ${rows}`);
  if (settings.method === 'pca' && cols < 2) {
    throw new RangeError(`${caller}: PCA maps a table onto its 2 main directions, so it needs at least 2 columns; ` +
      `${table.name || 'this table'} has ${cols} (UMAP, method 'umap', maps a single column too)`);
  }
  if (settings.method === 'umap' && settings.neighbours > rows) {
    throw new RangeError(`${caller}: neighbours (${settings.neighbours}) must be at most the table's ${rows} rows`);
  }
  if (settings.init && settings.init.rows !== rows) {
    throw new RangeError(`${caller}: init has ${settings.init.rows} rows but the table has ${rows}: one point per row`);
  }
  checkSignal(settings.signal);
  const name = table.name || `${rows} × ${cols} table`;
  const result = await (useWorker() ? mapInWorker(table, settings, caller) : mapInSlices(table, settings, caller));
  const map = new Matrix(result.points, rows, 2, { name: `${settings.method.toUpperCase()} of ${name}` });
  details.set(map, Object.freeze(settings.method === 'pca'
    ? { method: 'pca', varianceShare: Object.freeze(result.varianceShare), solver: result.solver, passes: result.passes }
    : { method: 'umap', neighbours: settings.neighbours, minDist: settings.minDist, epochs: result.epochs, seed: settings.seed }));
  settings.onProgress({ stage: 'done', progress: 1 });
  return map;
}

/** A map computed on this thread, in slices between turns of the event loop: LayoutJob's result. */
async function mapInSlices(table, settings, caller) {
  const { module, pool } = await layoutInstance();
  checkSignal(settings.signal);
  const spec = { ...jobSpec(table, settings, caller), caller };
  const job = new LayoutJob(module, spec);
  try {
    // The table's bytes first, a chunk per slice.
    const total = table.data.byteLength;
    for (let offset = 0; offset < total; offset += CHUNK_BYTES) {
      job.write(offset, tableBytes(table.data).subarray(offset, offset + CHUNK_BYTES));
      if (offset + CHUNK_BYTES < total) {
        await yieldToEventLoop();
        checkSignal(settings.signal);
      }
    }
    job.start();
    // Edges sampled per call in the descent, tuned as it goes to about
    // SLICE_MS / 2 a call; it at most doubles from one call to the next, as
    // a call that ends an epoch may have had only a few edges left.
    let budget = 4096;
    let sliceStart = now();
    for (;;) {
      const optimising = job.optimising;
      const before = now();
      const more = job.advance(budget, pool);
      const took = now() - before;
      if (optimising) budget = Math.max(256, Math.min(1 << 22, Math.round(budget * Math.min(2, (SLICE_MS / 2) / Math.max(took, 0.05)))));
      if (!more) break;
      if (now() - sliceStart >= SLICE_MS) {
        settings.onProgress(job.progress());
        await yieldToEventLoop();
        checkSignal(settings.signal);
        sliceStart = now();
      }
    }
    return job.result();
  } finally {
    job.free();
    releaseLargeInstance(module);
  }
}

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

/**
 * `map` moved onto `reference` (both rows × 2, the same rows) by the
 * similarity that brings it closest in least squares: one rotation or
 * reflection, one uniform scale and one shift (orthogonal Procrustes with
 * scaling). A map's orientation, side and size are arbitrary (UMAP's and
 * PCA's alike), so two maps of nearby tables can look unrelated until one
 * is aligned to the other; alignment changes no distance ratio, so every
 * neighbourhood stays as it was. Computed in double; returns a new Matrix.
 */
export function alignMap(map, reference, caller = 'alignMap') {
  for (const [name, m] of [['map', map], ['reference', reference]]) {
    if (!(m instanceof Matrix) || m.cols !== 2) throw new TypeError(`${caller}: ${name} must be a Matrix of rows × 2, got ${describe(m)}`);
  }
  const { rows } = map;
  if (reference.rows !== rows) throw new RangeError(`${caller}: map has ${rows} rows but reference has ${reference.rows}`);
  if (rows < 2) throw new RangeError(`${caller}: alignment needs at least 2 points, got ${rows}`);
  // A 16-bit map's numbers, not its bits; every one of them finite.
  const x = float32Numbers(map), y = float32Numbers(reference);
  for (const [name, values] of [['map', x], ['reference', y]]) {
    const bad = values.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) {
      throw new RangeError(`${caller}: ${name} holds a value that is not a finite number (${values[bad]} at row ${bad >> 1}, column ${bad & 1})`);
    }
  }
  let mx0 = 0, mx1 = 0, my0 = 0, my1 = 0;
  for (let r = 0; r < rows; r++) {
    mx0 += x[2 * r]; mx1 += x[2 * r + 1]; my0 += y[2 * r]; my1 += y[2 * r + 1];
  }
  mx0 /= rows; mx1 /= rows; my0 /= rows; my1 /= rows;
  // h[j][k] = Σ x_j y_k over the centred points, and the spread of each.
  let h00 = 0, h01 = 0, h10 = 0, h11 = 0, spread = 0, referenceSpread = 0;
  for (let r = 0; r < rows; r++) {
    const a0 = x[2 * r] - mx0, a1 = x[2 * r + 1] - mx1, b0 = y[2 * r] - my0, b1 = y[2 * r + 1] - my1;
    h00 += a0 * b0; h01 += a0 * b1; h10 += a1 * b0; h11 += a1 * b1;
    spread += a0 * a0 + a1 * a1;
    referenceSpread += b0 * b0 + b1 * b1;
  }
  if (!(spread > 0) || !Number.isFinite(spread)) throw new RangeError(`${caller}: every point of the map is in one place (or not finite): nothing to align`);
  // Onto a reference without spread (or unrelated to the map) the best fit
  // is every point in one place: refused, as PCA refuses a table without spread.
  if (!(referenceSpread > 0) || !Number.isFinite(referenceSpread)) {
    throw new RangeError(`${caller}: every point of the reference is in one place (or not finite): there is nothing to align the map onto`);
  }
  // The best rotation [[c, −s], [s, c]] reaches trace(R·H) = |(h00 + h11, h01 − h10)|,
  // the best reflection [[c, s], [s, −c]] reaches |(h00 − h11, h01 + h10)|: take the larger.
  const rotation = Math.hypot(h00 + h11, h01 - h10), reflection = Math.hypot(h00 - h11, h01 + h10);
  let r00, r01, r10, r11, reach;
  if (rotation >= reflection) {
    const angle = Math.atan2(h01 - h10, h00 + h11);
    const c = Math.cos(angle), s = Math.sin(angle);
    [r00, r01, r10, r11, reach] = [c, -s, s, c, rotation];
  } else {
    const angle = Math.atan2(h01 + h10, h00 - h11);
    const c = Math.cos(angle), s = Math.sin(angle);
    [r00, r01, r10, r11, reach] = [c, s, s, -c, reflection];
  }
  if (!(reach > 0)) {
    throw new RangeError(`${caller}: the map and the reference are unrelated (their cross-covariance is zero): aligned, every point would be in one place`);
  }
  const scale = reach / spread;
  const out = new Float32Array(rows * 2);
  for (let r = 0; r < rows; r++) {
    const a0 = x[2 * r] - mx0, a1 = x[2 * r + 1] - mx1;
    out[2 * r] = my0 + scale * (r00 * a0 + r01 * a1);
    out[2 * r + 1] = my1 + scale * (r10 * a0 + r11 * a1);
  }
  const aligned = new Matrix(out, rows, 2, { name: `${map.name || 'map'}, aligned` });
  if (details.has(map)) details.set(aligned, details.get(map));
  return aligned;
}
