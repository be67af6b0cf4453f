// dot and cosine, computed by the C++ kernels.
//
// A Float32Array that is a view of a model's WebAssembly memory (rowView of
// wte or wpe) is passed to the kernel as a pointer: no copy. Anything else
// (plain arrays, other typed arrays, rows of a trace) is copied into a
// scratch area of an instance, in chunks, so no call ever grows memory.
import { Matrix, describe } from './matrix.js';

/**
 * Where a vector can be computed on: one WebAssembly instance and its
 * scratch buffers, all allocated once.
 * @typedef {{ module: any, vectorA: number, vectorB: number, chunk: number,
 *   sums: number, checkAlive: () => void }} Host
 */

// buffer of an instance's memory -> { host, dot, cosine }: the host and its
// two exported kernels, looked up once so a call on two views costs a few
// property reads and one direct WebAssembly call.
const hostsByBuffer = new WeakMap();
let defaultHost;
// The entry of the instance the last call on views went to.
let hotBuffer, hotEntry;

/** Registers an instance whose memory holds vectors the kernels may read in place. */
export function registerHost(host) {
  const { module } = host;
  hostsByBuffer.set(module.HEAPU8.buffer, { host, dot: module._embeddings_dot, cosine: module._embeddings_cosine });
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
      if (typeof v[i] !== 'number') {
        throw new TypeError(`${caller}: ${name}[${i}] is ${describe(v[i])}, not a number`);
      }
    }
    return;
  }
  if (ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof BigInt64Array) &&
      !(v instanceof BigUint64Array)) {
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
    entry.host.checkAlive();
    return entry.dot(a.byteOffset, b.byteOffset, a.length);
  }
  checkPair(a, b, 'dot', arguments.length);
  const host = hostOf(a);
  const target = host ?? hostOf(b) ?? defaultHost;
  let sum = 0;
  forEachChunk(target, a, b, (pa, pb, count) => {
    sum += target.module._embeddings_dot(pa, pb, count);
  });
  return Math.fround(sum);
}

/**
 * Cosine similarity: dot(a, b) / (|a| |b|), from -1 to 1. A zero vector has
 * no direction; cosine then returns 0.
 * @returns {number}
 */
export function cosine(a, b) {
  const entry = viewsEntry(a, b);
  if (entry !== undefined) {
    entry.host.checkAlive();
    return entry.cosine(a.byteOffset, b.byteOffset, a.length);
  }
  checkPair(a, b, 'cosine', arguments.length);
  const host = hostOf(a);
  const target = host ?? hostOf(b) ?? defaultHost;
  const sums = target.sums;
  target.module.HEAPF64.fill(0, sums >>> 3, (sums >>> 3) + 3);
  forEachChunk(target, a, b, (pa, pb, count) => {
    target.module._embeddings_accumulate_dot_and_norms(pa, pb, count, sums);
  });
  return target.module._embeddings_cosine_from_sums(sums);
}

export function checkMapSize(rows) {
  if (rows > 2 ** 14) {
    throw new RangeError(`cosineMatrix: a map of ${rows} × ${rows} numbers is too large (at most ${2 ** 14} rows)`);
  }
}

/** The cosine map of a table outside any model, computed on the shared instance. */
export function cosineMatrixOf(table) {
  if (!(table instanceof Matrix)) {
    throw new TypeError(`cosineMatrix: expected a table such as model.wpe, got ${describe(table)}`);
  }
  const { rows, cols } = table;
  checkMapSize(rows);
  const module = defaultHost.module;
  // This instance hands out no views, so it may grow; pointers stay valid.
  const tablePointer = module._malloc(Math.max(1, rows * cols) * 4);
  const normsPointer = module._malloc(Math.max(1, rows) * 4);
  const outPointer = module._malloc(Math.max(1, rows * rows) * 4);
  try {
    if (!tablePointer || !normsPointer || !outPointer) throw new RangeError('cosineMatrix: out of memory');
    module.HEAPF32.set(table.data, tablePointer >>> 2);
    module._embeddings_cosine_map(tablePointer, rows, cols, normsPointer, outPointer);
    const out = new Float32Array(rows * rows);
    out.set(module.HEAPF32.subarray(outPointer >>> 2, (outPointer >>> 2) + rows * rows));
    return new Matrix(out, rows, rows, { name: `cosine map of ${table.name || 'a table'}` });
  } finally {
    module._free(tablePointer);
    module._free(normsPointer);
    module._free(outPointer);
  }
}
