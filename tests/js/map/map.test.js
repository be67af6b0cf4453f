// model.map() (PCA and the UMAP-method layout in web/dist/layout.wasm) and
// nearest()'s exclude option, on the default model and small tables.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadModel, Matrix, mapDetails, alignMap } from '../../../web/index.js';
import { setMapThreads } from '../../../web/src/map/instance.js';
import { neighboursKept } from '../helpers/map-measures.js';
import { bundleWorker, workerFile } from '../../../tools/page/bundle.mjs';

const nativeTool = fileURLToPath(new URL('../../../build/native/map-layout', import.meta.url));
let model;

before(async () => { model = await loadModel(); });
after(() => model.dispose());

/** The first `rows` rows of the default wte, as a table of its own. */
function firstRows(rows) {
  return new Matrix(model.wte.data.slice(0, rows * model.width), rows, model.width, { name: `first ${rows} rows` });
}

/** PCA in double precision: covariance, then orthogonal iteration for the top two axes. */
function referencePca(table) {
  const { rows, cols, data } = table;
  const mean = new Float64Array(cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) mean[c] += data[r * cols + c] / rows;
  const cov = new Float64Array(cols * cols);
  const centred = new Float64Array(cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) centred[c] = data[r * cols + c] - mean[c];
    for (let i = 0; i < cols; i++) {
      const x = centred[i];
      for (let j = 0; j < cols; j++) cov[i * cols + j] += x * centred[j];
    }
  }
  for (let k = 0; k < cov.length; k++) cov[k] /= rows - 1;
  let total = 0;
  for (let i = 0; i < cols; i++) total += cov[i * cols + i];
  let basis = [Float64Array.from({ length: cols }, (_, k) => Math.cos(k + 1)), Float64Array.from({ length: cols }, (_, k) => Math.sin(3 * k + 2))];
  for (let iteration = 0; iteration < 3000; iteration++) {
    basis = basis.map((v) => {
      const out = new Float64Array(cols);
      for (let i = 0; i < cols; i++) { let s = 0; for (let j = 0; j < cols; j++) s += cov[i * cols + j] * v[j]; out[i] = s; }
      return out;
    });
    // Gram-Schmidt keeps the second vector off the first.
    const norm = (v) => Math.hypot(...v);
    const n0 = norm(basis[0]); basis[0] = basis[0].map((x) => x / n0);
    const d = basis[0].reduce((s, x, k) => s + x * basis[1][k], 0);
    basis[1] = basis[1].map((x, k) => x - d * basis[0][k]);
    const n1 = norm(basis[1]); basis[1] = basis[1].map((x) => x / n1);
  }
  const shares = basis.map((v) => {
    let s = 0;
    for (let i = 0; i < cols; i++) for (let j = 0; j < cols; j++) s += v[i] * cov[i * cols + j] * v[j];
    return s / total;
  });
  for (const v of basis) {  // the largest coordinate positive
    let largest = 0;
    for (let k = 1; k < cols; k++) if (Math.abs(v[k]) > Math.abs(v[largest])) largest = k;
    if (v[largest] < 0) for (let k = 0; k < cols; k++) v[k] = -v[k];
  }
  const coords = new Float64Array(rows * 2);
  for (let r = 0; r < rows; r++) for (let a = 0; a < 2; a++) {
    let s = 0;
    for (let c = 0; c < cols; c++) s += (data[r * cols + c] - mean[c]) * basis[a][c];
    coords[r * 2 + a] = s;
  }
  return { shares, coords };
}

function nativeMap(table, args) {
  assert.ok(existsSync(nativeTool), `${nativeTool} is missing: run tools/build.sh native first`);
  const result = spawnSync(nativeTool, ['--rows', String(table.rows), '--cols', String(table.cols), ...args], {
    input: Buffer.from(table.data.buffer, table.data.byteOffset, table.data.byteLength),
    maxBuffer: 1 << 26,
  });
  assert.equal(result.status, 0, String(result.stderr));
  return result.stdout;
}

/** Each coordinate of a map scaled to [0, 10], as the layout scales its start. */
function boxedCopy(map) {
  const out = Float32Array.from(map.data);
  for (let c = 0; c < 2; c++) {
    let low = Infinity, high = -Infinity;
    for (let r = 0; r < map.rows; r++) { low = Math.min(low, out[2 * r + c]); high = Math.max(high, out[2 * r + c]); }
    for (let r = 0; r < map.rows; r++) out[2 * r + c] = (10 * (out[2 * r + c] - low)) / (high - low);
  }
  return new Matrix(out, map.rows, 2);
}

const bytes = (matrix) => Buffer.from(matrix.data.buffer, matrix.data.byteOffset, matrix.data.byteLength);

describe('model.map: PCA', () => {
  test('matches a double-precision reference on the default wte, with each axis\'s share of variance', async () => {
    const map = await model.map({ method: 'pca' });
    assert.ok(map instanceof Matrix);
    assert.equal(map.rows, model.vocabSize);
    assert.equal(map.cols, 2);
    assert.ok(map.data instanceof Float32Array);
    const details = mapDetails(map);
    assert.equal(details.method, 'pca');
    const reference = referencePca(model.wte);
    for (let a = 0; a < 2; a++) assert.ok(Math.abs(details.varianceShare[a] - reference.shares[a]) < 1e-5, `share ${a}`);
    // The measurement: the first component holds about 21% of the variance.
    assert.ok(details.varianceShare[0] > 0.2 && details.varianceShare[0] < 0.22);
    let worst = 0;
    for (let k = 0; k < map.data.length; k++) worst = Math.max(worst, Math.abs(map.data[k] - reference.coords[k]));
    assert.ok(worst < 1e-3, `largest difference ${worst}`);
  });

  test('is the native build\'s map bit for bit', async () => {
    const table = firstRows(400);
    assert.ok(bytes(await model.map({ method: 'pca', table })).equals(nativeMap(table, ['--method', 'pca'])));
  });

  test('of a wide table (the Krylov method), float32 and bfloat16, is the native build\'s bit for bit, on one thread and on several', async () => {
    // 203 columns: past the covariance method's 128, and a tail after the vector loops.
    const rows = 900, cols = 203;
    const wide = new Float32Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) wide[r * cols + c] = model.wte.data[(r % model.vocabSize) * model.width + (c % model.width)] * (1 + (c % 7) / 3) + 0.01 * Math.sin(r * cols + c);
    }
    const bf16 = new Uint16Array(rows * cols);
    const bits = new Uint32Array(wide.buffer);
    for (let k = 0; k < bits.length; k++) bf16[k] = (bits[k] + 0x7FFF + ((bits[k] >>> 16) & 1)) >>> 16;
    for (const [table, numbers] of [[new Matrix(wide, rows, cols), 'float32'], [new Matrix(bf16, rows, cols, { dtype: 'bfloat16' }), 'bfloat16']]) {
      const expected = nativeMap(table, ['--method', 'pca', '--numbers', numbers]);
      for (const threads of [1, undefined]) {
        setMapThreads(threads);
        const map = await model.map({ method: 'pca', table });
        assert.equal(mapDetails(map).solver, 'krylov');
        assert.ok(bytes(map).equals(expected), `${numbers}, ${threads ?? 'every'} thread(s)`);
      }
    }
  });
});

describe('model.map: UMAP', () => {
  test('the same seed gives the same map, bit for bit, natively and in WebAssembly; another seed another map', async () => {
    const table = firstRows(500);
    const options = { table, seed: 7, epochs: 60 };
    const first = await model.map(options);
    const second = await model.map(options);
    assert.equal(first.rows, 500);
    assert.ok(bytes(first).equals(bytes(second)));
    assert.ok(bytes(first).equals(nativeMap(table, ['--seed', '7', '--epochs', '60'])));
    const other = await model.map({ ...options, seed: 8 });
    assert.ok(!bytes(first).equals(bytes(other)));
    assert.deepEqual(mapDetails(first), { method: 'umap', neighbours: 15, minDist: 0.1, epochs: 60, seed: 7 });
    for (const x of first.data) assert.ok(Number.isFinite(x));
  });

  test('neighbours and minDist reach the layout', async () => {
    const table = firstRows(300);
    const base = await model.map({ table, epochs: 30 });
    const fewer = await model.map({ table, epochs: 30, neighbours: 5 });
    const spread = await model.map({ table, epochs: 30, minDist: 0.8 });
    assert.ok(!bytes(base).equals(bytes(fewer)));
    assert.ok(!bytes(base).equals(bytes(spread)));
    assert.ok(bytes(fewer).equals(nativeMap(table, ['--epochs', '30', '--neighbours', '5'])));
  });

  test('init: starts from a given layout, the same bits natively as in WebAssembly', async () => {
    const table = firstRows(400);
    // A start unlike the PCA's: a spiral, one point per row.
    const start = new Matrix(Float32Array.from({ length: 800 }, (_, k) => (k % 2 ? Math.sin : Math.cos)(Math.floor(k / 2) / 20) * (1 + Math.floor(k / 2) / 40)), 400, 2);
    const warm = await model.map({ table, epochs: 20, init: start });
    const cold = await model.map({ table, epochs: 20 });
    const folder = mkdtempSync(join(tmpdir(), 'map-init-'));
    try {
      const file = join(folder, 'start.f32');
      writeFileSync(file, bytes(start));
      assert.ok(bytes(warm).equals(nativeMap(table, ['--epochs', '20', '--init', file])));
    } finally {
      rmSync(folder, { recursive: true });
    }
    assert.ok(!bytes(warm).equals(bytes(cold)));
    // Started from the spiral, the first epoch's points are the spiral's, scaled into [0, 10].
    const first = await model.map({ table, epochs: 1, init: start, neighbours: 2 });
    const fromPca = await model.map({ table, epochs: 1, neighbours: 2 });
    const near = (map) => {
      let sum = 0;
      for (let r = 0; r < 400; r++) sum += Math.hypot(map.at(r, 0) - boxed.at(r, 0), map.at(r, 1) - boxed.at(r, 1));
      return sum / 400;
    };
    const boxed = boxedCopy(start);
    assert.ok(near(first) < 0.5 * near(fromPca), `one epoch from the spiral: ${near(first)} from it; from the PCA: ${near(fromPca)}`);
    await assert.rejects(model.map({ table, init: firstRows(400) }), { name: 'TypeError', message: /init must be a Matrix of rows × 2/ });
    await assert.rejects(model.map({ table, init: new Matrix(new Float32Array(20), 10, 2) }), { name: 'RangeError', message: /init has 10 rows but the table has 400/ });
    await assert.rejects(model.map({ table, method: 'pca', init: start }), { name: 'TypeError', message: /PCA takes none/ });
    const broken = start.data.slice();
    broken[7] = Infinity;
    await assert.rejects(model.map({ table, init: new Matrix(broken, 400, 2) }), { name: 'RangeError', message: /initial layout holds values that are not finite/ });
  });

  test('keeps ten times more 10-nearest neighbours of the default wte than PCA does', async () => {
    const umap = await model.map();
    const pca = await model.map({ method: 'pca' });
    const keptUmap = await neighboursKept(model.wte, umap, 10);
    const keptPca = await neighboursKept(model.wte, pca, 10);
    // Measured: UMAP 20.2%, PCA 1.8% (umap-js: 19.7%, see docs/benchmarks.md).
    assert.ok(keptUmap > 0.19, `UMAP kept ${keptUmap}`);
    assert.ok(keptUmap > 10 * keptPca, `UMAP ${keptUmap}, PCA ${keptPca}`);
  });

  test('works in slices: progress rises, the event loop runs between slices, and it ends with "done"', async () => {
    const progress = [];
    let turns = 0;
    const ticker = setInterval(() => { turns++; }, 0);
    try {
      await model.map({ table: firstRows(1500), epochs: 200, onProgress: (p) => progress.push(p) });
    } finally {
      clearInterval(ticker);
    }
    assert.ok(progress.length > 3, `${progress.length} progress calls`);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress >= progress[i - 1].progress);
    assert.deepEqual(progress.at(-1), { stage: 'done', progress: 1 });
    assert.ok(progress.some((p) => p.stage === 'neighbours') && progress.some((p) => p.stage === 'optimise'));
    assert.ok(turns > 0, 'timers ran while the map was computed');
  });

  test('an AbortSignal cancels it, before or during the work', async () => {
    const before = new AbortController();
    before.abort();
    await assert.rejects(model.map({ signal: before.signal }), { name: 'AbortError' });
    const during = new AbortController();
    let calls = 0;
    await assert.rejects(model.map({
      signal: during.signal,
      onProgress: () => { if (++calls === 2) during.abort(new Error('reader left')); },
    }), { message: 'reader left' });
    // The instance is still usable afterwards.
    const map = await model.map({ table: firstRows(100), epochs: 10 });
    assert.equal(map.rows, 100);
  });

  test('names what it cannot do', async () => {
    await assert.rejects(model.map({ method: 'tsne' }), { name: 'RangeError', message: /method must be 'umap' or 'pca'/ });
    await assert.rejects(model.map({ colour: 'red' }), { name: 'TypeError', message: /unknown option "colour"/ });
    await assert.rejects(model.map({ table: [[1, 2]] }), { name: 'TypeError', message: /table must be a Matrix/ });
    await assert.rejects(model.map({ neighbours: 1 }), { name: 'RangeError', message: /neighbours must be a whole number/ });
    await assert.rejects(model.map({ minDist: -1 }), { name: 'RangeError', message: /minDist/ });
    await assert.rejects(model.map({ table: firstRows(10), neighbours: 11 }), { name: 'RangeError', message: /at most the table's 10 rows/ });
    const data = firstRows(20).data.slice();
    data[5] = NaN;
    await assert.rejects(model.map({ table: new Matrix(data, 20, model.width) }), { name: 'RangeError', message: /not finite/ });
    await assert.rejects(model.map({ method: 'pca', table: new Matrix(data, 20, model.width) }), { message: /not finite/ });
  });
});

test('web/dist/map-worker.js, the Worker a browser lays UMAP out in, is what its sources build now (else: tools/build.sh page)', async () => {
  assert.equal(readFileSync(workerFile, 'utf8'), await bundleWorker({ write: false }));
});

describe('nearest: exclude', () => {
  test('leaves the given tokens out and still returns k, as the scan without them would', () => {
    const all = model.nearest('·girl', 12);
    const excluded = [all[0].id, all[3].text];
    const some = model.nearest('·girl', 10, { exclude: excluded });
    assert.equal(some.length, 10);
    assert.deepEqual(some, all.filter((n) => n.id !== all[0].id && n.id !== all[3].id).slice(0, 10));
    const king = model.wte.row(model.tokenId('·king'));
    const ids = ['·king', '·man', '·woman'].map((t) => model.tokenId(t));
    for (const n of model.nearest(king, 5, { exclude: ids })) assert.ok(!ids.includes(n.id));
  });

  test('names bad exclusions', () => {
    assert.throws(() => model.nearest('·girl', 5, { exclude: 3 }), { name: 'TypeError', message: /exclude must be an array/ });
    assert.throws(() => model.nearest('·girl', 5, { exclude: [-1] }), { name: 'RangeError' });
    assert.throws(() => model.nearest('·girl', 5, { without: [1] }), { name: 'TypeError', message: /unknown option "without"/ });
  });
});
