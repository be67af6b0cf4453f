// What model.map() is asked: its table and options checked, each refusal
// naming the option and what it must be, and the job they make, as the
// layout module is told it (layout-run.js LayoutJob's spec).
import { Matrix, describe, float32Numbers } from '../matrix.js';

const OPTIONS = ['method', 'table', 'seed', 'neighbours', 'minDist', 'epochs', 'init', 'onProgress', 'signal'];

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
 * The settings of a map of `table` with `options` (Model.map in
 * index.d.ts): { method, seed, epochs, neighbours, minDist, init,
 * onProgress, signal }, every default filled in. A TypeError or RangeError
 * prefixed by `caller` for a table or an option that cannot make one.
 */
export function mapSettings(table, options, caller) {
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
  return settings;
}

/** What the layout module is told about a job (layout-run.js LayoutJob). */
export function jobSpec(table, settings) {
  return {
    method: settings.method, rows: table.rows, cols: table.cols, dtype: table.dtype, caller: 'map',
    // A start's numbers as float32, whatever its format (a 16-bit Matrix's bits widened).
    init: settings.init ? Float32Array.from(float32Numbers(settings.init)) : undefined,
    settings: { neighbours: settings.neighbours, minDist: settings.minDist, epochs: settings.epochs, seed: settings.seed },
  };
}
