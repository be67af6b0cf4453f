// Tables of numbers: model.wte, model.wpe, a trace's rows, a cosine map.

import { markItself, proxySafe, unproxied } from './proxies.js';

const inspect = Symbol.for('nodejs.util.inspect.custom');

// The numbers of each Matrix, kept off the object (rather than in private
// fields) so that a console's preview of a table shows its shape and name,
// not `#data: undefined`.
const numbersOf = new WeakMap();

/** The first numbers of a table as a console line writes them: "0.012, -0.034, …". */
function firstNumbers(data, count, dtype) {
  const first = data.subarray(0, Math.min(count, data.length));
  const shown = Array.from(dtype === 'float32' ? first : widen(first, dtype), (x) => String(Number(x.toPrecision(3))));
  return `${shown.join(', ')}${data.length > count ? ', …' : ''}`;
}

/** The number formats a Matrix holds: float32, or 16 bits (IEEE half, bfloat16) kept as their bits. */
export const DTYPES = Object.freeze(['float32', 'float16', 'bfloat16']);

/**
 * A row-major table of numbers, rows × cols: float32 (`dtype` 'float32'),
 * or IEEE half ('float16') or bfloat16 ('bfloat16') numbers kept in their
 * 16 bits, as today's models ship their tables.
 *
 * `data` is the numbers themselves, with no copy: a Float32Array for a
 * float32 table, a Uint16Array of the numbers' bits for a 16-bit one. For
 * model.wte and model.wpe it is a view of the model's WebAssembly memory,
 * valid for the life of the model; for traces and cosine maps it is an
 * ordinary Float32Array that the Matrix owns. `row(i)` and `toArray()` make
 * copies; rowView(table, i) is a view of a float32 table's row and a float32
 * copy of a 16-bit table's (widened exactly: every 16-bit number is a float32).
 */
export class Matrix {
  /**
   * @param {Float32Array | Uint16Array | (() => Float32Array | Uint16Array)} data
   *   the numbers (a 16-bit table's as their bits), or (for views of
   *   WebAssembly memory) a function that returns a current view.
   */
  constructor(data, rows, cols, { name = '', dtype = 'float32' } = {}) {
    if (!Number.isInteger(rows) || rows < 0 || !Number.isInteger(cols) || cols < 0) {
      throw new RangeError(`Matrix: rows and cols must be non-negative integers, got ${rows} and ${cols}`);
    }
    if (!DTYPES.includes(dtype)) {
      throw new TypeError(`Matrix: dtype must be one of ${DTYPES.map((d) => `'${d}'`).join(', ')}, got ${describe(dtype)}`);
    }
    if (typeof data === 'function') {
      numbersOf.set(this, { source: data });
    } else {
      const Bits = dtype === 'float32' ? Float32Array : Uint16Array;
      if (!(data instanceof Bits)) {
        throw new TypeError(dtype === 'float32' ? 'Matrix: data must be a Float32Array'
          : `Matrix: the data of a ${dtype} table must be a Uint16Array of the numbers' bits`);
      }
      if (data.length !== rows * cols) {
        throw new RangeError(`Matrix: ${rows} × ${cols} needs ${rows * cols} numbers, data has ${data.length}`);
      }
      numbersOf.set(this, { data });
    }
    /** Number of rows. */
    this.rows = rows;
    /** Numbers in each row. */
    this.cols = cols;
    /** What the table is, e.g. "wte" (may be empty). */
    this.name = name;
    /** How the numbers are stored: 'float32', or 'float16' or 'bfloat16' (data holds their bits). */
    this.dtype = dtype;
    // Not enumerable, so it stays out of Object.keys and JSON; DevTools' preview shows it.
    Object.defineProperty(this, 'preview', {
      value: `${rows} × ${cols}${name ? ` ${name}` : ''}${dtype === 'float32' ? '' : ` (${dtype})`}: ` +
        (rows && cols ? `[${firstNumbers(this.data, 4, dtype)}]` : 'no numbers'),
    });
    markItself(this);
    Object.freeze(this);
  }

  /** All rows × cols numbers, row after row; no copy (a 16-bit table's bits, as a Uint16Array). */
  get data() {
    const numbers = numbersOf.get(this);
    return numbers.source ? numbers.source() : numbers.data;
  }

  /** Row i, like rowView(this, i): a view of a float32 table, a float32 copy of a 16-bit one. */
  rowView(i) {
    return rowView(this, i);
  }

  /** Row i as a new Float32Array (a copy). */
  row(i) {
    const view = rowView(this, i);
    return this.dtype === 'float32' ? view.slice() : view;
  }

  /** The number at row r, column c. */
  at(r, c) {
    const row = rowView(this, r);
    checkIndex(c, this.cols, 'column', 'Matrix.at');
    return row[c];
  }

  /** The whole table as plain arrays of numbers (a copy). */
  toArray() {
    const out = [];
    for (let i = 0; i < this.rows; i++) out.push(Array.from(rowView(this, i)));
    return out;
  }

  /** Iterates over the rows as views. */
  *[Symbol.iterator]() {
    for (let i = 0; i < this.rows; i++) yield rowView(this, i);
  }

  toString() {
    return `Matrix ${this.rows} × ${this.cols}${this.dtype === 'float32' ? '' : ` ${this.dtype}`}${this.name ? ` (${this.name})` : ''}`;
  }

  get [Symbol.toStringTag]() {
    return `${this.rows} × ${this.cols}`;
  }

  // Node's console prints this instead of half a million numbers.
  [inspect](depth, options, nodeInspect) {
    const head = options.stylize ? options.stylize(this.toString(), 'special') : this.toString();
    if (depth < 0 || this.rows === 0 || this.cols === 0) return head;
    const shown = Math.min(this.rows, 3);
    const lines = [];
    for (let i = 0; i < shown; i++) {
      const row = rowView(this, i);
      const numbers = Array.from(row.subarray(0, 5), (x) => x.toFixed(3)).join(', ');
      lines.push(`  ${i}: [${numbers}${this.cols > 5 ? ', …' : ''}]`);
    }
    if (this.rows > shown) lines.push(`  … ${this.rows - shown} more ${this.rows - shown === 1 ? 'row' : 'rows'}`);
    return `${head}\n${lines.join('\n')}`;
  }
}

// Its methods and getters work on a Matrix kept in a Proxy (Vue's reactive(), say).
proxySafe(Matrix);

export function checkIndex(i, size, what, caller) {
  if (typeof i !== 'number') {
    throw new TypeError(`${caller}: the ${what} index must be a number, got ${describe(i)}`);
  }
  if (!Number.isInteger(i) || i < 0 || i >= size) {
    const range = size === 0 ? 'there are none' : `valid ${what}s are 0 to ${size - 1}`;
    throw new RangeError(`${caller}: ${what} ${String(i)} does not exist; ${range}`);
  }
}

// A page that loads the package twice (by its name and by a path, say) has
// two Matrix classes, and one copy's tables are no tables to the other's
// functions: each copy marks its objects, so the message can say so.
const copyMark = Symbol.for('embeddings-and-position: copy');
const thisCopy = {};

/** Marks a class's objects as this copy's, for describe(). */
export function markCopy(constructor) {
  constructor.prototype[copyMark] = thisCopy;
}
markCopy(Matrix);

export function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (value?.[copyMark] && value[copyMark] !== thisCopy) {
    return `a ${value.constructor.name} of another copy of the package (it is loaded twice: import it by its name everywhere)`;
  }
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return `${typeof value} ${String(value)}`;
}

/**
 * Row i of a table as a Float32Array. For a float32 table it is a view of
 * the table's numbers: no copy, so writing into it writes into the table.
 * A view of a model's table keeps that model's WebAssembly memory alive,
 * even after dispose(); `.slice()` it (or use Matrix.row) to keep only the
 * numbers. For a 16-bit table ('float16', 'bfloat16') it is a new
 * Float32Array, the row widened exactly: a copy, so writing into it leaves
 * the table as it was (write the bits through `table.data` instead).
 */
export function rowView(table, i) {
  if (!(table instanceof Matrix)) {
    throw new TypeError(`rowView: the first argument must be a table such as model.wte, got ${describe(table)}`);
  }
  checkIndex(i, table.rows, 'row', 'rowView');
  const cols = table.cols;
  if (table.dtype !== 'float32') return widen(table.data.subarray(i * cols, (i + 1) * cols), table.dtype);
  return table.data.subarray(i * cols, (i + 1) * cols);
}

/** All of a table's numbers as a Float32Array: a float32 table's own data (no copy), a 16-bit one's widened (a copy). */
export function float32Numbers(table) {
  return table.dtype === 'float32' ? table.data : widen(table.data, table.dtype);
}

// Numbers widened at a time by copyAsFloat32: a 16-bit table is never copied whole into a JS array.
const WIDEN_BLOCK = 1 << 16;

/**
 * Copies all of a table's numbers, as float32, into `heap` (a Float32Array,
 * such as an instance's HEAPF32) from `index` on: a 16-bit table's widened
 * exactly, a block at a time.
 */
export function copyAsFloat32(table, heap, index) {
  const { data } = table;
  if (table.dtype === 'float32') {
    heap.set(data, index);
    return;
  }
  for (let start = 0; start < data.length; start += WIDEN_BLOCK) {
    heap.set(widen(data.subarray(start, start + WIDEN_BLOCK), table.dtype), index + start);
  }
}

// Scratch for the bits of one half's magnitude read as a float32.
const halfScratch = new Float32Array(1);
const halfScratchBits = new Uint32Array(halfScratch.buffer);

/**
 * 16-bit numbers, given by their bits, as a new Float32Array, exactly, as
 * the kernels widen them (cpp/src/kernels/widen.h): a bfloat16 is a
 * float32's top half; a half's exponent and mantissa shifted into float32's
 * places and multiplied by 2^112 (exact), its sign put back; infinities and
 * NaNs (exponent 31) keep their sign and payload.
 */
export function widen(bits, dtype) {
  const out = new Float32Array(bits.length);
  const outBits = new Uint32Array(out.buffer);
  if (dtype === 'bfloat16') {
    for (let k = 0; k < bits.length; k++) outBits[k] = bits[k] << 16;
    return out;
  }
  for (let k = 0; k < bits.length; k++) {
    const half = bits[k];
    const magnitude = (half & 0x7fff) << 13;
    if ((half & 0x7c00) === 0x7c00) {
      outBits[k] = (magnitude | 0x7f800000 | (half & 0x8000) << 16) >>> 0;
    } else {
      halfScratchBits[0] = magnitude;
      const value = halfScratch[0] * 2 ** 112;
      out[k] = half & 0x8000 ? -value : value;
    }
  }
  return out;
}
