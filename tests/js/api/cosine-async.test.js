// cosineMatrixAsync: cosineMatrix's map in slices, for tables of up to
// 2048 rows of up to 8192 numbers (cosineMatrix takes at most 2^30
// multiply-adds in one call): the same bits where both take the table,
// the event loop turning between slices, an AbortSignal, and its limits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, Matrix, cosineMatrix, cosineMatrixAsync } from '../../../web/index.js';

let model;
before(async () => { model = await loadModel(); });
after(() => model.dispose());

const rowsOf = (rows, cols) => new Matrix(Float32Array.from({ length: rows * cols }, (_, k) => Math.sin(k * 0.731) + ((k * 7) % 13) / 13 - 0.5), rows, cols);
const same = (a, b) => Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength));

test('gives cosineMatrix\'s map to the bit: each pair once (at most 512 rows) and row by row, in place and copied', async () => {
  assert.ok(same(await model.cosineMatrixAsync(model.wpe), model.cosineMatrix(model.wpe)));
  for (const table of [rowsOf(300, 96), rowsOf(700, 64)]) {
    assert.ok(same(await cosineMatrixAsync(table), cosineMatrix(table)), `${table.rows} rows`);
    assert.ok(same(await model.cosineMatrixAsync(table), model.cosineMatrix(table)), `${table.rows} rows through the model`);
  }
  const map = await cosineMatrixAsync(rowsOf(300, 96));
  for (let i = 0; i < 300; i += 37) for (let j = 0; j < 300; j += 41) assert.equal(map.at(i, j), map.at(j, i));
});

test('takes what cosineMatrix refuses in one call, in slices with turns of the event loop between them', async () => {
  const table = rowsOf(2048, 600);  // 2.5e9 multiply-adds
  assert.throws(() => cosineMatrix(table), { name: 'RangeError', message: /more than 1073741824 \(2\^30\) in one call; await cosineMatrixAsync/ });
  let turns = 0, reports = 0;
  const ticker = setInterval(() => { turns++; }, 0);
  let map;
  try {
    map = await cosineMatrixAsync(table, { onProgress: () => { reports++; } });
  } finally {
    clearInterval(ticker);
  }
  assert.ok(turns > 0 && reports > 1, `${turns} turns, ${reports} reports`);
  // Each row is its row of the map of any table holding both rows (the rows' scores do not depend on the others).
  const pair = new Matrix(new Float32Array([...table.row(5), ...table.row(2000)]), 2, 600);
  assert.equal(map.at(5, 2000), cosineMatrix(pair).at(0, 1));
});

test('an AbortSignal stops it between slices; tables past its limits are refused by name', async () => {
  const controller = new AbortController();
  // The widest table it takes (zeros: made at once), stopped after its first slice.
  await assert.rejects(cosineMatrixAsync(new Matrix(new Float32Array(2048 * 8192), 2048, 8192), {
    signal: controller.signal,
    onProgress: () => controller.abort(new Error('reader left')),
  }), { message: 'reader left' });
  await assert.rejects(cosineMatrixAsync(rowsOf(2049, 4)), { name: 'RangeError', message: /at most 2048 rows/ });
  await assert.rejects(cosineMatrixAsync(rowsOf(4, 8193)), { name: 'RangeError', message: /at most 8192/ });
  await assert.rejects(cosineMatrixAsync(rowsOf(4, 4), { every: 2 }), { name: 'TypeError', message: /unknown option "every"/ });
  await assert.rejects(model.cosineMatrixAsync(model.wte), { name: 'RangeError', message: /at most 2048 rows/ });
});
