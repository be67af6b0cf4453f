// Float32's whole range, views that write into the tables, and the limits
// of cosineMatrix: the promises of kernels.h and index.d.ts, through the
// public API of the WebAssembly build.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, rowView, dot, cosine, cosineMatrix, Matrix } from '../../../web/index.js';
import { makeModel, seededRandom } from '../helpers/fixtures.js';
import * as ref from '../helpers/reference.js';

let model, fixture;
before(async () => {
  fixture = makeModel({ width: 32, context: 40, extraRows: 300, seed: 7 });
  model = await loadModel({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer });
});
after(() => model.dispose());

const close = (a, b, tolerance = 1e-6) => assert.ok(Math.abs(a - b) <= tolerance, `${a} vs ${b}`);

describe("float32's whole range", () => {
  test('huge and tiny vectors have the cosine of their direction', () => {
    assert.equal(cosine([1e20, 1], [1e20, 1]), 1);  // float32 squares overflow
    close(cosine([1e-25, 1e-25], [2e-25, 2e-25]), 1);  // float32 squares underflow
    close(cosine(Float32Array.of(3e38, -3e38), Float32Array.of(1e-30, -1e-30)), 1);
    close(cosine([1e-45, 0], [1e-45, 0]), 1);  // subnormal
    const random = seededRandom(3);
    const a = Float32Array.from({ length: 100 }, random), b = Float32Array.from({ length: 100 }, random);
    const expected = ref.cosine(a, b);
    for (const size of [1e-30, 1e-20, 1e20, 1e30]) {
      close(cosine(a.map((x) => x * size), b), expected, 1e-5);
      close(cosine(a.map((x) => x * size), b.map((x) => x / size)), expected, 1e-5);
    }
  });

  test('a number beyond float32 is a RangeError that names it', () => {
    assert.throws(() => cosine([1, 1e39], [1, 1]), { name: 'RangeError', message: /cosine: a\[1\] is 1e\+39, outside float32's range/ });
    assert.throws(() => dot([1, 1], Float64Array.of(1, -1e39)), { name: 'RangeError', message: /dot: b\[1\] is -1e\+39, outside float32's range/ });
    assert.throws(() => model.nearest(new Float64Array(model.width).fill(1e39)),
      { name: 'RangeError', message: /nearest: query\[0\] is 1e\+39, outside float32's range/ });
    // The largest float32 and numbers that round to it are in range.
    assert.equal(cosine([3.4028234663852886e38], [3.4028235e38]), 1);
  });

  test('a huge or tiny query ranks as its direction does; a zero query gives the first ids with score 0', () => {
    const direction = Float32Array.from(rowView(model.wte, 5));
    const expected = model.nearest(direction, 10);
    for (const size of [1e-25, 1e-38, 1e25, 1e38]) {
      const got = model.nearest(direction.map((x) => x * size), 10);
      assert.deepEqual(got.map((n) => n.id), expected.map((n) => n.id), String(size));
      for (let i = 0; i < 10; i++) close(got[i].score, expected[i].score, 1e-5);
    }
    const zero = model.nearest(new Float32Array(model.width), 4);
    assert.deepEqual(zero.map((n) => [n.id, n.score]), [[0, 0], [1, 0], [2, 0], [3, 0]]);
  });

  test('cosineMatrix of rows of every size has ones on its diagonal', () => {
    const sizes = [1e-44, 1e-30, 1e-20, 1, 1e20, 1e30, 3e38];
    const random = seededRandom(4);
    const data = new Float32Array(sizes.length * 8);
    sizes.forEach((size, r) => { for (let c = 0; c < 8; c++) data[r * 8 + c] = Math.max(-1, Math.min(1, random())) * size; });
    const map = cosineMatrix(new Matrix(data, sizes.length, 8));
    for (let i = 0; i < sizes.length; i++) close(map.at(i, i), 1, 1e-6);
  });
});

describe('views write into the tables, and every computation sees it', () => {
  test('copying one row into another, zeroing a third', () => {
    const girl = model.tokenId('·girl'), boy = model.tokenId('·boy'), lily = model.tokenId('Lily');
    const saved = [boy, lily].map((id) => Float32Array.from(rowView(model.wte, id)));
    try {
      assert.notEqual(model.nearest(girl, 1)[0].id, boy);
      rowView(model.wte, boy).set(rowView(model.wte, girl));
      assert.equal(cosine(rowView(model.wte, girl), rowView(model.wte, boy)), 1);
      const first = model.nearest(girl, 1)[0];
      assert.equal(first.id, boy);
      close(first.score, 1);
      close(cosineMatrix(model.wte).at(girl, boy), 1);
      const byLily = model.nearest(lily, model.vocabSize - 1);
      model.wte.data.fill(0, boy * model.width, (boy + 1) * model.width);  // through wte.data
      const after = model.nearest(lily, model.vocabSize - 1);
      assert.equal(after.find((n) => n.id === boy).score, 0);
      assert.notDeepEqual(after.map((n) => n.id), byLily.map((n) => n.id));
      assert.equal(cosineMatrix(model.wte).at(girl, boy), 0);
      assert.equal(model.nearest(model.wte.row(boy), 1)[0].score, 0);  // a zero query
    } finally {
      rowView(model.wte, boy).set(saved[0]);
      rowView(model.wte, lily).set(saved[1]);
    }
  });

  test('the position map sees a write into wpe', () => {
    const saved = Float32Array.from(rowView(model.wpe, 3));
    try {
      rowView(model.wpe, 3).set(rowView(model.wpe, 30));
      const map = model.cosineMatrix(model.wpe);
      close(map.at(3, 30), 1);
      assert.equal(map.at(3, 30), map.at(30, 3));
    } finally {
      rowView(model.wpe, 3).set(saved);
    }
    close(model.cosineMatrix(model.wpe).at(3, 30), ref.cosine(rowView(model.wpe, 3), rowView(model.wpe, 30)), 1e-6);
  });

  test("a row of the token map is nearest()'s scores, bit for bit", () => {
    const map = model.cosineMatrix(model.wte);
    for (const id of [0, 17, model.vocabSize - 1]) {
      for (const { id: other, score } of model.nearest(id, 20)) assert.ok(Object.is(map.at(id, other), score));
    }
  });
});

describe('cosineMatrix limits', () => {
  test('above them, a RangeError that says what to use instead', () => {
    assert.throws(() => cosineMatrix(new Matrix(new Float32Array(2049), 2049, 1)),
      { name: 'RangeError', message: /cosineMatrix: a map of 2049 × 2049 numbers is too large \(at most 2048 rows\); nearest\(\) or cosine\(\)/ });
    assert.throws(() => cosineMatrix(new Matrix(new Float32Array(1024 * 1025), 1024, 1025)),
      { name: 'RangeError', message: /the map of a 1024 × 1025 table takes 1074790400 multiply-adds, more than 1073741824 \(2\^30\)/ });
    // A few rows of very many numbers: within the work limit, but the copy would grow the shared instance for good.
    assert.throws(() => cosineMatrix(new Matrix(new Float32Array(2 * 2 ** 24), 2, 2 ** 24)),
      { name: 'RangeError', message: /a table of 33554432 numbers is too large to copy for its map \(at most 16777216, 64 MiB\)/ });
  });

  test('at them, a large map computed block by block matches pairwise cosine', () => {
    const rows = 2048, cols = 3, random = seededRandom(9);
    const table = new Matrix(Float32Array.from({ length: rows * cols }, random), rows, cols);
    const map = cosineMatrix(table);
    assert.equal(map.rows, rows);
    for (const [i, j] of [[0, 0], [0, 2047], [1000, 3], [2047, 1500], [511, 512]]) {
      close(map.at(i, j), ref.cosine(rowView(table, i), rowView(table, j)), 1e-6);
    }
  });
});
