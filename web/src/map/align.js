// alignMap(): one map moved onto another of the same rows (orthogonal
// Procrustes with scaling), as the training slider aligns each snapshot's
// map to the next one's.
import { Matrix, describe, float32Numbers } from '../matrix.js';
import { mapDetails, recordDetails } from './details.js';

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
  const made = mapDetails(map);
  if (made) recordDetails(aligned, made);
  return aligned;
}
