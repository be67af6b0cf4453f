// Every Code line of the chapter, run against the default model through the
// package, and compared with the chapter's own JavaScript and a plain
// reference that reads the safetensors file without the module.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { loadModel, rowView, dot, cosine, defaultModelFiles } from '../../../web/index.js';
import * as ref from '../helpers/reference.js';

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

test('the chapter\'s ids are the shipped model\'s: 665 is "Lily", 477 and 497 are ·girl and ·boy', () => {
  assert.deepEqual([model.tokenText(665), model.tokenText(477), model.tokenText(497)], ['Lily', '·girl', '·boy']);
  // The lines as the chapter writes them.
  const lily = rowView(model.wte, 665);
  assert.deepEqual(Array.from(lily), Array.from(ref.row(wte.data, width, model.tokenId('Lily'))));
  const score = chapterCosine(rowView(model.wte, 477), rowView(model.wte, 497));
  assert.ok(Math.abs(score - cosine(rowView(model.wte, model.tokenId('·girl')), rowView(model.wte, model.tokenId('·boy')))) < 1e-6);
  assert.ok(score > 0.5, `·girl and ·boy score ${score}`);
});

test('the lookup is a one-hot vector times W_E: the kernels\' product is the row, number for number', () => {
  for (const id of [0, 665, model.vocabSize - 1]) {
    const oneHot = new Float32Array(model.vocabSize);
    oneHot[id] = 1;
    assert.deepEqual(Array.from(model.vectorTimesWte(oneHot)), Array.from(ref.row(wte.data, width, id)));
  }
  // Any vector: Σ_i x[i] · W_E[i], against a plain double-precision sum.
  const x = Array.from({ length: model.vocabSize }, (_, i) => Math.cos(i * 0.37) / 64);
  const got = model.vectorTimesWte(x);
  for (let j = 0; j < width; j++) {
    let sum = 0, magnitude = 0;
    for (let i = 0; i < model.vocabSize; i++) {
      const term = Math.fround(x[i]) * wte.data[i * width + j];
      sum += term;
      magnitude += Math.abs(term);
    }
    assert.ok(Math.abs(got[j] - sum) <= 4096 * 2 ** -23 * magnitude, `column ${j}: ${got[j]} vs ${sum}`);
  }
});

test('tokenId suggests the spelling that is one token: \'girl\' -> \'·girl\'', () => {
  assert.throws(() => model.tokenId('girl'), (error) => error instanceof RangeError &&
    /"girl" is not a single token; it is 2 tokens: g irl\. Did you mean '·girl' \(id 477\)\?/.test(error.message) &&
    /"·" is the space before a word/.test(error.message));
  assert.throws(() => model.tokenId('·lily'), /Did you mean '·Lily' \(id 399\) or 'Lily' \(id 665\)\?/);
  assert.throws(() => model.tokenId('xqzv'), (error) => !/Did you mean/.test(error.message));
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
