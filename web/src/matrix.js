// Tables of numbers: model.wte, model.wpe, a trace's rows, a cosine map.

const inspect = Symbol.for('nodejs.util.inspect.custom');

// The numbers of each Matrix, kept off the object (rather than in private
// fields) so that a console's preview of a table shows its shape and name,
// not `#data: undefined`.
const numbersOf = new WeakMap();

/** The first numbers of a table as a console line writes them: "0.012, -0.034, …". */
function firstNumbers(data, count) {
  const shown = Array.from(data.subarray(0, Math.min(count, data.length)), (x) => String(Number(x.toPrecision(3))));
  return `${shown.join(', ')}${data.length > count ? ', …' : ''}`;
}

/**
 * A row-major table of float32 numbers, rows × cols.
 *
 * `data` is the numbers themselves, with no copy: for model.wte and model.wpe
 * it is a view of the model's WebAssembly memory, valid for the life of the
 * model; for traces and cosine maps it is an ordinary Float32Array that the
 * Matrix owns. `row(i)` and `toArray()` make copies.
 */
export class Matrix {
  /**
   * @param {Float32Array | (() => Float32Array)} data the numbers, or (for
   *   views of WebAssembly memory) a function that returns a current view.
   */
  constructor(data, rows, cols, { name = '' } = {}) {
    if (!Number.isInteger(rows) || rows < 0 || !Number.isInteger(cols) || cols < 0) {
      throw new RangeError(`Matrix: rows and cols must be non-negative integers, got ${rows} and ${cols}`);
    }
    if (typeof data === 'function') {
      numbersOf.set(this, { source: data });
    } else {
      if (!(data instanceof Float32Array)) throw new TypeError('Matrix: data must be a Float32Array');
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
    // Not enumerable, so it stays out of Object.keys and JSON; DevTools' preview shows it.
    Object.defineProperty(this, 'preview', {
      value: `${rows} × ${cols}${name ? ` ${name}` : ''}: ${rows && cols ? `[${firstNumbers(this.data, 4)}]` : 'no numbers'}`,
    });
    Object.freeze(this);
  }

  /** All rows × cols numbers, row after row; no copy. */
  get data() {
    const numbers = numbersOf.get(this);
    return numbers.source ? numbers.source() : numbers.data;
  }

  /** Row i as a view (no copy), like rowView(this, i). */
  rowView(i) {
    return rowView(this, i);
  }

  /** Row i as a new Float32Array (a copy). */
  row(i) {
    return rowView(this, i).slice();
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
    return `Matrix ${this.rows} × ${this.cols}${this.name ? ` (${this.name})` : ''}`;
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

export function checkIndex(i, size, what, caller) {
  if (typeof i !== 'number') {
    throw new TypeError(`${caller}: the ${what} index must be a number, got ${describe(i)}`);
  }
  if (!Number.isInteger(i) || i < 0 || i >= size) {
    const range = size === 0 ? 'there are none' : `valid ${what}s are 0 to ${size - 1}`;
    throw new RangeError(`${caller}: ${what} ${String(i)} does not exist; ${range}`);
  }
}

export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return `${typeof value} ${String(value)}`;
}

/**
 * Row i of a table as a Float32Array view of the table's numbers: no copy,
 * so writing into it writes into the table. A view of a model's table keeps
 * that model's WebAssembly memory alive, even after dispose(); `.slice()` it
 * (or use Matrix.row) to keep only the numbers.
 */
export function rowView(table, i) {
  if (!(table instanceof Matrix)) {
    throw new TypeError(`rowView: the first argument must be a table such as model.wte, got ${describe(table)}`);
  }
  checkIndex(i, table.rows, 'row', 'rowView');
  const cols = table.cols;
  return table.data.subarray(i * cols, (i + 1) * cols);
}
