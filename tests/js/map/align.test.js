// alignMap(): orthogonal Procrustes with scaling, so that the training
// slider's maps of successive snapshots travel instead of jumping. Checked
// on points moved by a known similarity (rotation or reflection, scale,
// shift), for optimality (no nearby similarity does better), and on two
// UMAP maps of the default model made with different seeds.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, Matrix, mapDetails, alignMap } from '../../../web/index.js';
import { uniformRandom as generator } from '../helpers/text.js';

function randomPoints(rows, seed) {
  const random = generator(seed);
  return new Matrix(Float32Array.from({ length: rows * 2 }, () => random() * 10 - 5), rows, 2);
}

/** The points moved by x ↦ scale·R·x + shift, R a rotation by `angle` (then a flip of the second axis when `flip`). */
function moved(points, { angle, scale, shift, flip }) {
  const out = new Float32Array(points.data.length);
  const c = Math.cos(angle), s = Math.sin(angle);
  for (let r = 0; r < points.rows; r++) {
    const x = points.data[2 * r], y = points.data[2 * r + 1];
    const u = c * x - s * y, v = s * x + c * y;
    out[2 * r] = scale * u + shift[0];
    out[2 * r + 1] = scale * (flip ? -v : v) + shift[1];
  }
  return new Matrix(out, points.rows, 2);
}

function squaredDistance(a, b) {
  let sum = 0;
  for (let k = 0; k < a.data.length; k++) sum += (a.data[k] - b.data[k]) ** 2;
  return sum;
}

describe('alignMap', () => {
  test('undoes a known rotation, scale and shift, and a reflection too', () => {
    const reference = randomPoints(200, 7);
    for (const transform of [
      { angle: 1.1, scale: 3.5, shift: [40, -12], flip: false },
      { angle: -2.4, scale: 0.2, shift: [-3, 8], flip: true },
    ]) {
      const map = moved(reference, transform);
      const aligned = alignMap(map, reference);
      assert.equal(aligned.rows, 200);
      assert.equal(aligned.cols, 2);
      for (let k = 0; k < reference.data.length; k++) {
        assert.ok(Math.abs(aligned.data[k] - reference.data[k]) < 1e-4, `flip ${transform.flip}: value ${k}: ${aligned.data[k]} for ${reference.data[k]}`);
      }
    }
  });

  test('no nearby similarity brings a noisy copy closer', () => {
    const reference = randomPoints(300, 11);
    const random = generator(12);
    const noisy = moved(reference, { angle: 0.7, scale: 2, shift: [5, 5], flip: true });
    for (let k = 0; k < noisy.data.length; k++) noisy.data[k] += random() * 2 - 1;
    const aligned = alignMap(noisy, reference);
    const best = squaredDistance(aligned, reference);
    const unaligned = squaredDistance(noisy, reference);
    assert.ok(best < unaligned / 10, `aligned ${best}, unaligned ${unaligned}`);
    for (const nudge of [
      { angle: 0.01, scale: 1, shift: [0, 0] }, { angle: -0.01, scale: 1, shift: [0, 0] },
      { angle: 0, scale: 1.01, shift: [0, 0] }, { angle: 0, scale: 0.99, shift: [0, 0] },
      { angle: 0, scale: 1, shift: [0.05, 0] }, { angle: 0, scale: 1, shift: [0, -0.05] },
    ]) {
      // A small similarity more, on top of the best one: never closer.
      const worse = squaredDistance(moved(aligned, nudge), reference);
      assert.ok(worse > best, `nudge ${JSON.stringify(nudge)}: ${worse} ≤ ${best}`);
    }
  });

  test('keeps every distance ratio, so every neighbourhood', () => {
    const map = randomPoints(50, 3);
    const aligned = alignMap(map, randomPoints(50, 4));
    const d = (m, i, j) => Math.hypot(m.data[2 * i] - m.data[2 * j], m.data[2 * i + 1] - m.data[2 * j + 1]);
    const ratio = d(aligned, 0, 1) / d(map, 0, 1);
    for (const [i, j] of [[2, 3], [4, 40], [10, 49], [7, 8]]) {
      assert.ok(Math.abs(d(aligned, i, j) / d(map, i, j) - ratio) < 1e-4 * ratio);
    }
  });

  test('names what is wrong with its input', () => {
    const points = randomPoints(10, 1);
    assert.throws(() => alignMap(points, randomPoints(11, 1)), { name: 'RangeError', message: /map has 10 rows but reference has 11/ });
    assert.throws(() => alignMap(new Matrix(new Float32Array(30), 10, 3), points), { name: 'TypeError', message: /map must be a Matrix of rows × 2/ });
    assert.throws(() => alignMap(points, [1, 2]), { name: 'TypeError', message: /reference must be a Matrix of rows × 2/ });
    assert.throws(() => alignMap(new Matrix(new Float32Array(20).fill(3), 10, 2), points), { name: 'RangeError', message: /every point of the map is in one place/ });
    // Issue 34: onto a reference whose points coincide, every point went to one place, with no error.
    assert.throws(() => alignMap(points, new Matrix(new Float32Array(20).fill(-2), 10, 2)), { name: 'RangeError', message: /^alignMap: every point of the reference is in one place \(or not finite\): there is nothing to align the map onto$/ });
    // Unrelated (a cross-covariance of zero): the best fit would be the same collapse.
    const line = new Matrix(Float32Array.of(1, 0, -1, 0, 0, 0), 3, 2), across = new Matrix(Float32Array.of(0, 1, 0, 1, 0, -2), 3, 2);
    assert.throws(() => alignMap(line, across), { name: 'RangeError', message: /the map and the reference are unrelated/ });
  });
});

describe('alignMap on UMAP maps of the default model', () => {
  let model;
  before(async () => { model = await loadModel(); });
  after(() => model.dispose());

  test('two seeds\' maps, one turned, mirrored, scaled and moved, aligned, are far closer than before, with the same neighbourhoods and details', async () => {
    const [first, unturned] = await Promise.all([model.map({ seed: 1 }), model.map({ seed: 2 })]);
    // Both start from the table's PCA, so they come out in much the same
    // orientation; moved, the second is a map as another layout could draw it.
    const second = moved(unturned, { angle: 2, scale: 3, shift: [25, -40], flip: true });
    const aligned = alignMap(second, first);
    const before = squaredDistance(second, first), after = squaredDistance(aligned, first);
    assert.ok(after < before / 2, `aligned ${after}, unaligned ${before}`);
    // No similarity brings it closer than the best one: not even none at all (the map as it came).
    assert.ok(after <= squaredDistance(unturned, first) * (1 + 1e-6), `aligned ${after}, as it came ${squaredDistance(unturned, first)}`);
    assert.deepEqual(mapDetails(alignMap(unturned, first)), mapDetails(unturned));
    // The aligned map is the second map, moved: its aligned copy onto itself is itself.
    const again = alignMap(aligned, second);
    for (let k = 0; k < again.data.length; k += 97) assert.ok(Math.abs(again.data[k] - second.data[k]) < 1e-3);
  });
});
