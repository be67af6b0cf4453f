// Every Code line of the chapter, run against the default model through the
// package, and compared with the chapter's own JavaScript and a plain
// reference that reads the safetensors file without the module.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { loadModel, rowView, dot, cosine, defaultModelFiles } from '../../web/index.js';
import * as ref from './helpers/reference.js';

// The chapter's Code parts, exactly as written.
const chapterDot = (a, b) => a.reduce((sum, x, k) => sum + x * b[k], 0);
const chapterCosine = (a, b) => chapterDot(a, b) / Math.sqrt(chapterDot(a, a) * chapterDot(b, b));

let model, wte, wpe, width;

before(async () => {
  model = await loadModel();
  const bytes = new Uint8Array(await readFile(defaultModelFiles.weights));
  const tensors = ref.readSafetensorsF32(bytes, ['transformer.wte.weight', 'transformer.wpe.weight']);
  wte = tensors['transformer.wte.weight'];
  wpe = tensors['transformer.wpe.weight'];
  width = wte.shape[1];
});
after(() => model?.dispose());

test('the default model has the chapter\'s shape', () => {
  assert.deepEqual([model.wte.rows, model.wte.cols, model.wpe.rows], [4096, 128, 128]);
  assert.deepEqual(wte.shape, [4096, 128]);
  assert.equal(model.wte.rows * model.wte.cols, 524_288);
});

test('const lily = rowView(model.wte, id); // 128 numbers', () => {
  const id = model.tokenId('Lily');
  const lily = rowView(model.wte, id);
  assert.equal(lily.length, 128);
  assert.deepEqual(Array.from(lily), Array.from(ref.row(wte.data, width, id)));
});

test('cosine(rowView(model.wte, ·girl), rowView(model.wte, ·boy)) agrees with the chapter\'s code', () => {
  const a = rowView(model.wte, model.tokenId('·girl'));
  const b = rowView(model.wte, model.tokenId('·boy'));
  assert.ok(Math.abs(cosine(a, b) - chapterCosine(a, b)) < 1e-6);
  assert.ok(Math.abs(dot(a, b) - chapterDot(a, b)) <= ref.dotTolerance(a, b));
});

test('dot([1, 2, 3], [4, 0, -1]); // 1', () => {
  assert.equal(dot([1, 2, 3], [4, 0, -1]), 1);
  assert.equal(chapterDot([1, 2, 3], [4, 0, -1]), 1);
});

test('trace.tokenEmbeddings; // one row per token, 6 × 128 — and positionEmbeddings, embeddings', () => {
  const text = 'Lily saw Max in the park';
  const trace = model.trace(text);
  const ids = trace.tokens.map((t) => t.id);
  assert.equal(model.decode(ids), text);
  const n = ids.length;
  assert.equal(n, 6);
  for (const table of [trace.tokenEmbeddings, trace.positionEmbeddings, trace.embeddings]) {
    assert.deepEqual([table.rows, table.cols], [n, 128]);
  }
  const expected = ref.trace(wte.data, wpe.data, width, ids);
  assert.deepEqual(Array.from(trace.tokenEmbeddings.data), Array.from(expected.token));
  assert.deepEqual(Array.from(trace.positionEmbeddings.data), Array.from(expected.position));
  assert.deepEqual(Array.from(trace.embeddings.data), Array.from(expected.sum));
  // Places count from 1, rows from 0: place i uses row i - 1.
  assert.deepEqual(Array.from(rowView(trace.positionEmbeddings, 1)), Array.from(rowView(model.wpe, 1)));
});

test('nearest over the whole vocabulary matches a brute-force ranking', () => {
  const id = model.tokenId('·girl');
  const got = model.nearest(id, 10);
  const expected = ref.nearest(wte.data, width, ref.row(wte.data, width, id), 10, id);
  assert.deepEqual(got.map((r) => r.id), expected.map((r) => r.id));
  got.forEach((r, i) => assert.ok(Math.abs(r.score - expected[i].score) < 1e-5));
});
