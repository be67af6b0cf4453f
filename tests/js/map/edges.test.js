// Maps at float32's edges (issue: maps that are wrong without a word): a
// finite table with rows near 2e19 (whose squares overflow float32) or
// 1e-25 (whose squares underflow) gets finite PCA and UMAP coordinates, the
// map of its directions; 16-bit `init` and `alignMap` inputs are read as
// their numbers, not their bits; numbers that are not finite are refused
// by name, and so is a table of one column, which PCA cannot map (on the
// small shared test model, which keeps working after it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, Matrix, alignMap } from '../../../web/index.js';
import { model as fixtureModel, loadTheModel, stillWorks } from '../helpers/shared-model.js';

let model;
before(async () => { model = await loadModel(); });
after(() => model.dispose());
before(loadTheModel);
after(() => fixtureModel.dispose());

/** The first `rows` rows of the default wte, times 2^`exponent` (exact). */
function scaledRows(rows, exponent) {
  const data = model.wte.data.slice(0, rows * model.width);
  for (let k = 0; k < data.length; k++) data[k] *= 2 ** exponent;
  return new Matrix(data, rows, model.width);
}

/** A 16-bit Matrix of the numbers of `values` that bfloat16 holds exactly (their top halves). */
function bfloat16Of(values, rows, cols) {
  const bits = new Uint16Array(values.length);
  const wide = new Uint32Array(Float32Array.from(values).buffer);
  for (let k = 0; k < values.length; k++) bits[k] = wide[k] >>> 16;
  return new Matrix(bits, rows, cols, { dtype: 'bfloat16' });
}

test('a table of numbers near 2e19 or 1e-25 maps as the table of their directions does, every point finite', async () => {
  const plain = scaledRows(300, 0);
  for (const exponent of [64, -84]) {
    const edge = scaledRows(300, exponent);
    const pca = await model.map({ table: edge, method: 'pca' });
    const expected = await model.map({ table: plain, method: 'pca' });
    // The PCA's coordinates scale with the numbers, exactly.
    assert.deepEqual(Array.from(pca.data), Array.from(expected.data, (x) => Math.fround(x * 2 ** exponent)));
    const umap = await model.map({ table: edge, epochs: 20 });
    assert.ok(umap.data.every(Number.isFinite));
    // Cosines and the PCA start do not see the scale: the same UMAP map.
    assert.deepEqual(Array.from(umap.data), Array.from((await model.map({ table: plain, epochs: 20 })).data));
  }
  // One row alone near 2e19: its square overflows; the map stays finite and spread out.
  const oneRow = scaledRows(300, 0);
  for (let c = 0; c < model.width; c++) oneRow.data[17 * model.width + c] *= 2 ** 64;
  const map = await model.map({ table: oneRow, epochs: 20 });
  assert.ok(map.data.every(Number.isFinite));
  assert.ok(Math.max(...map.data) - Math.min(...map.data) > 1, 'the points are spread out');
});

test('a table whose PCA coordinates leave float32 is refused by name', async () => {
  const huge = new Matrix(Float32Array.from({ length: 30 * 4 }, (_, k) => (k % 3 ? 3e38 : -3e38)), 30, 4);
  await assert.rejects(model.map({ table: huge, method: 'pca' }), { name: 'RangeError', message: /beyond float32's range/ });
});

test('PCA of a table of one column is a RangeError that says why and what does work', async () => {
  const table = new Matrix(Float32Array.from({ length: 20 }, (_, i) => i % 7), 20, 1, { name: 'one column' });
  await assert.rejects(fixtureModel.map({ table, method: 'pca' }), (error) => {
    assert.equal(error.constructor, RangeError);
    assert.equal(error.message, "map: PCA maps a table onto its 2 main directions, so it needs at least 2 columns; " +
      "one column has 1 (UMAP, method 'umap', maps a single column too)");
    return true;
  });
  const line = await fixtureModel.map({ table, method: 'umap', neighbours: 5 });
  assert.equal(line.rows, 20);
  stillWorks();
});

test('a 16-bit init is read as its numbers, and one whose bits are NaN is refused', async () => {
  const table = scaledRows(200, 0);
  const start = Float32Array.from({ length: 400 }, (_, k) => Math.sin(k) * 3);
  const sixteen = bfloat16Of(start, 200, 2);
  const asFloat = new Matrix(Float32Array.from(sixteen.toArray().flat()), 200, 2);
  const a = await model.map({ table, epochs: 10, init: sixteen });
  const b = await model.map({ table, epochs: 10, init: asFloat });
  assert.deepEqual(Array.from(a.data), Array.from(b.data));
  const broken = new Uint16Array(sixteen.data);
  broken[9] = 0x7FC0;  // a NaN's bits
  await assert.rejects(model.map({ table, init: new Matrix(broken, 200, 2, { dtype: 'bfloat16' }) }),
    { name: 'RangeError', message: /initial layout holds values that are not finite/ });
});

test('alignMap reads 16-bit maps as their numbers and refuses a map or reference holding NaN by name', async () => {
  const points = Float32Array.from({ length: 100 }, (_, k) => Math.cos(k * 1.3) * 5);
  const reference = new Matrix(Float32Array.from(points, (x, k) => (k % 2 ? -x : x) + 2), 50, 2);
  const sixteen = bfloat16Of(points, 50, 2);
  const asFloat = new Matrix(Float32Array.from(sixteen.toArray().flat()), 50, 2);
  assert.deepEqual(Array.from(alignMap(sixteen, reference).data), Array.from(alignMap(asFloat, reference).data));
  assert.deepEqual(Array.from(alignMap(reference, sixteen).data), Array.from(alignMap(reference, asFloat).data));
  const holes = reference.data.slice();
  holes[13] = NaN;
  assert.throws(() => alignMap(asFloat, new Matrix(holes, 50, 2)), { name: 'RangeError', message: /reference holds a value that is not a finite number \(NaN at row 6, column 1\)/ });
  assert.throws(() => alignMap(new Matrix(holes, 50, 2), asFloat), { name: 'RangeError', message: /map holds a value that is not a finite number/ });
});
