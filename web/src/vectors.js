// dot and cosine, computed by the C++ kernels.
//
// A Float32Array that is a view of a model's WebAssembly memory (rowView of
// wte or wpe) is passed to the kernel as a pointer: no copy. Anything else
// (plain arrays, other typed arrays, rows of a trace) is copied into a
// scratch area of an instance, in chunks, so no call ever grows memory.
//
// Numbers are float32, the model's precision. A finite number beyond
// float32's range (a plain array's 1e39, say) is refused with a RangeError
// that names it, rather than turned into Infinity; norms and cosines are
// right over float32's whole range (cpp/include/embeddings/kernels/kernels.h).
import { Matrix, copyAsFloat32, describe } from './matrix.js';
import { now, yieldToEventLoop } from './event-loop.js';
import { checkSignal } from './sources/signals.js';
import { checkInstance, failInstance, guardOf, unguarded } from './instance-guard.js';

/** The largest float32, about 3.4e38. */
const FLOAT32_MAX = 3.4028234663852886e38;

// cosineMatrix's limits, so that one call never holds the page for long
// (about 35 ms at the limits on the machine of docs/benchmarks.md) and the
// instance that computes it never grows for good by more than the table.
/** Most rows: a map of 2048 × 2048 numbers is 16 MiB. */
export const MAX_MATRIX_ROWS = 2048;
/** Most multiply-adds (rows × rows × cols), 2^30. */
export const MAX_MATRIX_MULTIPLY_ADDS = 2 ** 30;
/** Most numbers in a table outside any model, which is copied into the shared instance (64 MiB). */
export const MAX_MATRIX_TABLE_NUMBERS = 2 ** 24;
/** cosineMatrixAsync's widest table: 2048 rows of 8192 numbers, 2^35 multiply-adds, in slices. */
export const MAX_ASYNC_MATRIX_COLS = 8192;
/** Milliseconds of work between two turns of the event loop. */
const SLICE_MS = 12;

/**
 * Throws a RangeError when a finite number is outside float32's range
 * (Math.fround would make it ±Infinity). NaN and ±Infinity pass: they are
 * float32 values.
 */
export function checkFloat32(x, name, caller) {
  if ((x > FLOAT32_MAX || x < -FLOAT32_MAX) && Number.isFinite(x) && !Number.isFinite(Math.fround(x))) {
    throw new RangeError(`${caller}: ${name} is ${x}, outside float32's range (at most ±${FLOAT32_MAX})`);
  }
}

/**
 * Where a vector can be computed on: one WebAssembly instance and its
 * scratch buffers, all allocated once.
 * @typedef {{ module: any, vectorA: number, vectorB: number, chunk: number,
 *   sums: number, checkAlive: () => void }} Host
 */

// buffer of an instance's memory -> { host, module, guard, dot, cosine }:
// the host and its two exported kernels, looked up once so a call on two
// views costs a few property reads and one direct WebAssembly call. The
// kernels are the functions themselves, without the instance's guard
// (instance-guard.js), whose checks dot and cosine make themselves: a
// guard's shared call site cost about 70 ns on a 250 ns call.
const hostsByBuffer = new WeakMap();
let defaultHost;
// The entry of the instance the last call on views went to.
let hotBuffer, hotEntry;

/** Registers an instance whose memory holds vectors the kernels may read in place. */
export function registerHost(host) {
  const { module } = host;
  // An export's first call puts it in the place of Emscripten's lazy stub:
  // a dot and a cosine of no numbers make it.
  module._embeddings_dot(0, 0, 0);
  module._embeddings_cosine(0, 0, 0);
  hostsByBuffer.set(module.HEAPU8.buffer, {
    host, module, guard: guardOf(module), dot: unguarded(module._embeddings_dot), cosine: unguarded(module._embeddings_cosine),
  });
}

/** Before a kernel of the entry's runs on views: what its guard would check. */
function checkEntry(entry) {
  entry.host.checkAlive();
  if (entry.guard.failure !== undefined) checkInstance(entry.module);
}

/**
 * Called when a host is disposed: drops the strong reference the fast path
 * keeps, so the instance's memory can go once no view holds it. (The weak
 * entry stays, so calls on old views still say the model was disposed.)
 */
export function releaseHost(host) {
  if (hotEntry?.host === host) hotBuffer = hotEntry = undefined;
}

export function setDefaultHost(host) {
  defaultHost = host;
  registerHost(host);
}

let defaultHostFailure;
/** Why the shared instance could not start (kernels.js): what dot() and cosine() on plain vectors then throw. */
export function setDefaultHostFailure(error) {
  defaultHostFailure = error;
}

/** The shared instance, or a clear error while it is starting or when it could not start. */
function sharedHost(caller) {
  if (defaultHost) return defaultHost;
  const failure = defaultHostFailure;
  throw new Error(`${caller}: the WebAssembly module ${failure ? `could not start: ${failure.message}` : 'is still starting: await ready (or loadModel()) first'}`,
    { cause: failure });
}

function hostOf(vector) {
  return vector instanceof Float32Array ? hostsByBuffer.get(vector.buffer)?.host : undefined;
}

/** The entry for two views of one instance's memory, or undefined. */
function viewsEntry(a, b) {
  if (!(a instanceof Float32Array) || !(b instanceof Float32Array) || a.length !== b.length) return undefined;
  const buffer = a.buffer;
  if (buffer !== b.buffer) return undefined;
  if (buffer === hotBuffer) return hotEntry;
  const entry = hostsByBuffer.get(buffer);
  if (entry !== undefined) {
    hotBuffer = buffer;
    hotEntry = entry;
  }
  return entry;
}

function checkVector(v, name, caller) {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x !== 'number') throw new TypeError(`${caller}: ${name}[${i}] is ${describe(x)}, not a number`);
      checkFloat32(x, `${name}[${i}]`, caller);
    }
    return;
  }
  if (ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof BigInt64Array) &&
      !(v instanceof BigUint64Array)) {
    // Only float64 holds numbers beyond float32's range (integers of 32 bits or less fit).
    if (v instanceof Float64Array) for (let i = 0; i < v.length; i++) checkFloat32(v[i], `${name}[${i}]`, caller);
    return;
  }
  throw new TypeError(`${caller}: ${name} must be an array or typed array of numbers, got ${describe(v)}`);
}

function checkPair(a, b, caller, argumentCount) {
  if (argumentCount < 2) {
    throw new TypeError(`${caller}(a, b) needs two vectors, got ${argumentCount}`);
  }
  checkVector(a, 'a', caller);
  checkVector(b, 'b', caller);
  if (a.length !== b.length) {
    throw new RangeError(`${caller}: the vectors have different lengths (${a.length} and ${b.length})`);
  }
}

// Runs `kernel(pointerA, pointerB, count)` over both vectors chunk by chunk
// on one host, copying whichever vector is not already in its memory.
function forEachChunk(host, a, b, kernel) {
  host.checkAlive();
  const heap = host.module.HEAPF32;
  const inA = a.buffer === heap.buffer, inB = b.buffer === heap.buffer;
  const n = a.length;
  let start = 0;
  do {
    const count = Math.min(host.chunk, n - start);
    let pa = host.vectorA, pb = host.vectorB;
    if (inA) pa = a.byteOffset + start * 4;
    else copyInto(heap, pa >>> 2, a, start, count);
    if (inB) pb = b.byteOffset + start * 4;
    else copyInto(heap, pb >>> 2, b, start, count);
    kernel(pa, pb, count);
    start += count;
  } while (start < n);
}

function copyInto(heap, index, v, start, count) {
  if (ArrayBuffer.isView(v)) {
    heap.set(v.subarray(start, start + count), index);
  } else {
    for (let i = 0; i < count; i++) heap[index + i] = v[start + i];
  }
}

/**
 * Dot product: multiply the numbers in matching places and add them up.
 * Computed in float32, the model's precision.
 * @returns {number}
 */
export function dot(a, b) {
  // The common case, two rows of one model: straight to the kernel, no copy.
  const entry = viewsEntry(a, b);
  if (entry !== undefined) {
    checkEntry(entry);
    // (A call site of its own, which sees this kernel only: see hostsByBuffer.)
    try {
      return entry.dot(a.byteOffset, b.byteOffset, a.length);
    } catch (error) {
      throw failInstance(entry.module, error);
    }
  }
  checkPair(a, b, 'dot', arguments.length);
  const host = hostOf(a);
  const target = host ?? hostOf(b) ?? sharedHost('dot');
  let sum = 0;
  forEachChunk(target, a, b, (pa, pb, count) => {
    sum += target.module._embeddings_dot(pa, pb, count);
  });
  return Math.fround(sum);
}

/**
 * Cosine similarity: dot(a, b) / (|a| |b|), from -1 to 1. A zero vector has
 * no direction; cosine then returns 0. Right over float32's whole range:
 * cosine([1e20, 1], [1e20, 1]) is 1.
 * @returns {number}
 */
export function cosine(a, b) {
  const entry = viewsEntry(a, b);
  if (entry !== undefined) {
    checkEntry(entry);
    try {
      return entry.cosine(a.byteOffset, b.byteOffset, a.length);
    } catch (error) {
      throw failInstance(entry.module, error);
    }
  }
  checkPair(a, b, 'cosine', arguments.length);
  const host = hostOf(a);
  const target = host ?? hostOf(b) ?? sharedHost('cosine');
  const sums = target.sums;
  target.module.HEAPF64.fill(0, sums >>> 3, (sums >>> 3) + 3);
  forEachChunk(target, a, b, (pa, pb, count) => {
    target.module._embeddings_accumulate_dot_and_norms(pa, pb, count, sums);
  });
  return target.module._embeddings_cosine_from_sums(sums);
}

/** Throws a RangeError when a rows × cols table's cosine map is beyond cosineMatrix's limits. */
export function checkMatrixSize(rows, cols) {
  if (rows > MAX_MATRIX_ROWS) {
    throw new RangeError(`cosineMatrix: a map of ${rows} × ${rows} numbers is too large (at most ${MAX_MATRIX_ROWS} ` +
      'rows); nearest() or cosine() give the rows you need');
  }
  if (rows * rows * cols > MAX_MATRIX_MULTIPLY_ADDS) {
    throw new RangeError(`cosineMatrix: the map of a ${rows} × ${cols} table takes ${rows * rows * cols} ` +
      `multiply-adds, more than ${MAX_MATRIX_MULTIPLY_ADDS} (2^30) in one call; await cosineMatrixAsync(table) computes it in slices`);
  }
}

/**
 * The cosine map of a table outside any model, computed on the shared
 * instance a block of rows at a time: the instance holds a copy of the
 * table and one block, never the whole map.
 */
export function cosineMatrixOf(table) {
  if (!(table instanceof Matrix)) {
    throw new TypeError(`cosineMatrix: expected a table such as model.wpe, got ${describe(table)}`);
  }
  const { rows, cols } = table;
  checkMatrixSize(rows, cols);
  if (rows * cols > MAX_MATRIX_TABLE_NUMBERS) {
    throw new RangeError(`cosineMatrix: a table of ${rows * cols} numbers is too large to copy for its map ` +
      `(at most ${MAX_MATRIX_TABLE_NUMBERS}, 64 MiB)`);
  }
  const module = sharedHost('cosineMatrix').module;
  // A map goes block by block (a model's block size), each copied out before the next.
  const blockNumbers = module.matrixBlockSize();
  const whole = rows * rows <= blockNumbers;
  const blockRows = whole ? rows : Math.max(1, Math.floor(blockNumbers / Math.max(1, rows)));
  // This instance hands out no views, so it may grow; pointers stay valid.
  const tablePointer = module._malloc(Math.max(1, rows * cols) * 4);
  const scratchPointer = module._malloc(Math.max(1, rows) * 4);
  const blockPointer = module._malloc(Math.max(1, blockRows * rows) * 4);
  try {
    if (!tablePointer || !scratchPointer || !blockPointer) throw new RangeError('cosineMatrix: out of memory');
    copyAsFloat32(table, module.HEAPF32, tablePointer >>> 2);
    const out = new Float32Array(rows * rows);
    if (whole) {
      // Each pair once, mirrored: exactly symmetric.
      module._embeddings_cosine_matrix(tablePointer, rows, cols, scratchPointer, blockPointer);
      out.set(module.HEAPF32.subarray(blockPointer >>> 2, (blockPointer >>> 2) + rows * rows));
    } else {
      for (let begin = 0; begin < rows; begin += blockRows) {
        const end = Math.min(rows, begin + blockRows);
        module._embeddings_cosine_matrix_rows(tablePointer, rows, cols, begin, end, scratchPointer, blockPointer);
        out.set(module.HEAPF32.subarray(blockPointer >>> 2, (blockPointer >>> 2) + (end - begin) * rows), begin * rows);
      }
    }
    return new Matrix(out, rows, rows, { name: `cosine map of ${table.name || 'a table'}` });
  } finally {
    module._free(tablePointer);
    module._free(scratchPointer);
    module._free(blockPointer);
  }
}

/** Throws a RangeError when a rows × cols table's cosine map is beyond cosineMatrixAsync's limits. */
export function checkAsyncMatrixSize(rows, cols) {
  if (rows > MAX_MATRIX_ROWS) {
    throw new RangeError(`cosineMatrixAsync: a map of ${rows} × ${rows} numbers is too large (at most ${MAX_MATRIX_ROWS} ` +
      'rows); nearest() or cosine() give the rows you need');
  }
  if (cols > MAX_ASYNC_MATRIX_COLS) {
    throw new RangeError(`cosineMatrixAsync: rows of ${cols} numbers are too wide (at most ${MAX_ASYNC_MATRIX_COLS})`);
  }
}

/**
 * A rows × rows cosine map in slices of rows: `computeRows(begin, end)`
 * gives rows begin … end − 1 of the map (a view, copied at once; at most
 * `largestCall` rows), calls kept to about SLICE_MS / 2 each, the event
 * loop given a turn about every SLICE_MS.
 * With `pairsOnce`, the map is made exactly symmetric from its upper
 * triangle: what the synchronous map of a table of at most 512 rows is
 * (each pair computed once), whose upper triangle is every row's own.
 */
export async function slicedCosineMatrix(rows, computeRows, { largestCall, pairsOnce, signal, onProgress = () => {} }) {
  const out = new Float32Array(rows * rows);
  let perCall = 1, sliceStart = now();
  for (let begin = 0; begin < rows;) {
    const end = Math.min(rows, begin + perCall, begin + largestCall);
    const before = now();
    out.set(computeRows(begin, end), begin * rows);
    const took = now() - before;
    // As many rows a call as fill about half a slice.
    perCall = Math.max(1, Math.min(rows, Math.round((end - begin) * (SLICE_MS / 2) / Math.max(took, 0.05))));
    begin = end;
    if (now() - sliceStart >= SLICE_MS && begin < rows) {
      onProgress({ stage: 'rows', progress: begin / rows });
      await yieldToEventLoop();
      checkSignal(signal);
      sliceStart = now();
    }
  }
  if (pairsOnce) {
    for (let i = 0; i < rows; i++) for (let j = 0; j < i; j++) out[i * rows + j] = out[j * rows + i];
  }
  onProgress({ stage: 'done', progress: 1 });
  return out;
}

/** cosineMatrixAsync's options: { signal, onProgress }. */
export function checkAsyncOptions(options) {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`cosineMatrixAsync: options must be an object such as { signal }, got ${describe(options)}`);
  }
  const unknown = Object.keys(options).filter((key) => key !== 'signal' && key !== 'onProgress');
  if (unknown.length) throw new TypeError(`cosineMatrixAsync: unknown option ${unknown.map((key) => JSON.stringify(key)).join(', ')}`);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new TypeError(`cosineMatrixAsync: onProgress must be a function, got ${describe(options.onProgress)}`);
  }
  if (options.signal !== undefined && !(typeof AbortSignal !== 'undefined' && options.signal instanceof AbortSignal)) {
    throw new TypeError(`cosineMatrixAsync: signal must be an AbortSignal, got ${describe(options.signal)}`);
  }
  return options;
}

/**
 * The cosine map of a table outside any model, as cosineMatrixOf gives it,
 * in slices: the table is copied into the shared instance, then a few rows
 * of the map at a time.
 */
export async function cosineMatrixAsyncOf(table, options = {}) {
  if (!(table instanceof Matrix)) {
    throw new TypeError(`cosineMatrixAsync: expected a table such as model.wpe, got ${describe(table)}`);
  }
  const { signal, onProgress } = checkAsyncOptions(options);
  const { rows, cols } = table;
  checkAsyncMatrixSize(rows, cols);
  checkSignal(signal);
  const module = defaultHost.module;
  const blockNumbers = module.matrixBlockSize();
  const tablePointer = module._malloc(Math.max(1, rows * cols) * 4);
  const scratchPointer = module._malloc(Math.max(1, rows) * 4);
  const blockRows = Math.max(1, Math.floor(blockNumbers / Math.max(1, rows)));
  const blockPointer = module._malloc(Math.max(1, blockRows * rows) * 4);
  try {
    if (!tablePointer || !scratchPointer || !blockPointer) throw new RangeError('cosineMatrixAsync: out of memory');
    copyAsFloat32(table, module.HEAPF32, tablePointer >>> 2);
    const computeRows = (begin, end) => {
      // The instance may grow between slices (it hands out no views): read its memory afresh.
      module._embeddings_cosine_matrix_rows(tablePointer, rows, cols, begin, end, scratchPointer, blockPointer);
      return module.HEAPF32.subarray(blockPointer >>> 2, (blockPointer >>> 2) + (end - begin) * rows);
    };
    const out = await slicedCosineMatrix(rows, computeRows, { largestCall: blockRows, pairsOnce: rows * rows <= blockNumbers, signal, onProgress });
    return new Matrix(out, rows, rows, { name: `cosine map of ${table.name || 'a table'}` });
  } finally {
    module._free(tablePointer);
    module._free(scratchPointer);
    module._free(blockPointer);
  }
}
