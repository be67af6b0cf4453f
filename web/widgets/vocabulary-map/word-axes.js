// A map of the token table along directions the reader names with words,
// as the Embedding Projector's custom projections do: across is the
// direction from one word's row to another's (·man → ·woman, ·walk →
// ·walked), and each token's place across is its row's projection on that
// direction (its dot product with the unit vector along it). Up is either
// a second such direction, made at right angles to the first, or the
// direction in which the tokens vary most at right angles to the first:
// the first principal component of the table once the across direction is
// taken out of every row, computed by model.map's PCA.
import { Matrix, rowView } from '../../index.js';

/** A row as float64 numbers (16-bit tables' rows are widened by rowView). */
function row64(table, id) {
  return Float64Array.from(rowView(table, id));
}

function unit(vector, what) {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  if (!(norm > 1e-12)) throw new RangeError(what);
  return vector.map((x) => x / norm);
}

/** Each row's dot product with a unit vector, and the variance of those projections. */
function project(table, direction) {
  const { rows, cols } = table;
  const out = new Float64Array(rows);
  let mean = 0;
  for (let i = 0; i < rows; i++) {
    const row = rowView(table, i);
    let sum = 0;
    for (let k = 0; k < cols; k++) sum += row[k] * direction[k];
    out[i] = sum;
    mean += sum;
  }
  mean /= rows;
  let variance = 0;
  for (const x of out) variance += (x - mean) ** 2;
  return { values: out, variance: variance / rows };
}

/** The table's total variance: the mean squared distance of its rows from their mean row. */
function totalVariance(table) {
  const { rows, cols } = table;
  const mean = new Float64Array(cols), square = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    const row = rowView(table, i);
    for (let k = 0; k < cols; k++) { mean[k] += row[k]; square[k] += row[k] * row[k]; }
  }
  let total = 0;
  for (let k = 0; k < cols; k++) total += square[k] / rows - (mean[k] / rows) ** 2;
  return total;
}

/**
 * The map of a model's token table along words' directions.
 * @param {import('../../index.js').Model} model
 * @param {{ from: number, to: number, upFrom?: number, upTo?: number }} axes token ids:
 *   across from `from` to `to`; up from `upFrom` to `upTo`, or (without them)
 *   the most varied direction at right angles to across.
 * @returns {Promise<{ map: Matrix, across: number[], up: number[] | null, acrossShare: number, upShare: number, upKind: 'words' | 'pca' }>}
 *   map: vocabSize × 2 (x across, y up); across, up: the unit directions
 *   (up is null for the PCA, whose direction model.map does not give);
 *   acrossShare, upShare: each axis's share of the table's variance.
 */
export async function axisMap(model, { from, to, upFrom, upTo }) {
  const table = model.wte;
  const { rows, cols } = table;
  const a = row64(table, from), b = row64(table, to);
  const across = unit(b.map((x, k) => x - a[k]), 'The two words have the same row, so there is no direction from one to the other.');
  const x = project(table, across);
  const total = totalVariance(table);
  let y, up = null, upKind, upVariance;
  if (upFrom !== undefined && upTo !== undefined) {
    const c = row64(table, upFrom), d = row64(table, upTo);
    const raw = d.map((v, k) => v - c[k]);
    // Gram–Schmidt: only the part of the second direction at right angles to the first.
    let along = 0;
    for (let k = 0; k < cols; k++) along += raw[k] * across[k];
    up = unit(raw.map((v, k) => v - along * across[k]), 'The up words point the same way as the across words (or have the same row), so they give no second direction.');
    ({ values: y, variance: upVariance } = project(table, up));
    upKind = 'words';
  } else {
    // Every row with its part along `across` taken out; their first principal component is up.
    const flat = new Float32Array(rows * cols);
    for (let i = 0; i < rows; i++) {
      const row = rowView(table, i);
      for (let k = 0; k < cols; k++) flat[i * cols + k] = row[k] - x.values[i] * across[k];
    }
    const pca = await model.map({ method: 'pca', table: new Matrix(flat, rows, cols, { name: 'wte without the across direction' }) });
    y = Float64Array.from({ length: rows }, (_, i) => pca.at(i, 0));
    let mean = 0;
    for (const v of y) mean += v;
    mean /= rows;
    upVariance = 0;
    for (const v of y) upVariance += (v - mean) ** 2;
    upVariance /= rows;
    upKind = 'pca';
  }
  const data = new Float32Array(rows * 2);
  for (let i = 0; i < rows; i++) { data[2 * i] = x.values[i]; data[2 * i + 1] = y[i]; }
  return {
    map: new Matrix(data, rows, 2, { name: 'axes' }),
    across: Array.from(across),
    up: up && Array.from(up),
    acrossShare: x.variance / total,
    upShare: upVariance / total,
    upKind,
  };
}
