// model.nearest(q, k) for small k and for k close to the vocabulary size
// must give the same ids and the same scores, bit for bit, in the
// WebAssembly build: the ranking is top_k of one scan, whatever k is.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, rowView } from '../../web/index.js';
import { makeModel, makeTokenizerJson, writeSafetensors, seededRandom } from './helpers/fixtures.js';

const words = [' girl', ' boy', 'Lily'];
const base = Object.keys(JSON.parse(makeTokenizerJson(words)).model.vocab).length;

function sameAsFullScan(model, query, k, label) {
  const fast = model.nearest(query, k);
  const full = model.nearest(query, model.vocabSize - (typeof query === 'number' ? 1 : 0));
  assert.equal(fast.length, k, label);
  for (let i = 0; i < k; i++) {
    assert.equal(fast[i].id, full[i].id, `${label}: rank ${i}`);
    assert.ok(Object.is(fast[i].score, full[i].score), `${label}: rank ${i} score ${fast[i].score} vs ${full[i].score}`);
  }
}

test('a model of the chapter\'s shape: nearest for small k equals the full scan', async () => {
  const m = makeModel({ words, width: 128, context: 128, extraRows: 4096 - base, seed: 3 });
  const model = await loadModel({ weights: m.weights, config: m.config, tokenizer: m.tokenizer });
  try {
    for (const id of [0, 1, 477, 2048, 4095]) {
      for (const k of [1, 10, 50]) sameAsFullScan(model, id, k, `id ${id}, k ${k}`);
    }
    const random = seededRandom(5);
    sameAsFullScan(model, Float32Array.from({ length: 128 }, random), 10, 'a vector query');
    sameAsFullScan(model, rowView(model.wpe, 3), 10, 'a view of wpe');
  } finally {
    model.dispose();
  }
});

test('near-ties and duplicate rows: nearest for small k equals the full scan', async () => {
  const width = 64, rows = 2048, random = seededRandom(11);
  const direction = Float32Array.from({ length: width }, random);
  const wte = new Float32Array(rows * width);
  for (let r = 0; r < rows; r++) {
    const noise = r % 3 === 0 ? 1e-4 : 1e-2;
    for (let c = 0; c < width; c++) wte[r * width + c] = direction[c] + noise * random();
  }
  wte.copyWithin(5 * width, 9 * width, 10 * width);  // row 5 = row 9
  wte.fill(0, 7 * width, 8 * width);                  // a zero row
  const wpe = Float32Array.from({ length: 8 * width }, random);
  const weights = writeSafetensors([
    { name: 'wte.weight', shape: [rows, width], data: wte },
    { name: 'wpe.weight', shape: [8, width], data: wpe },
  ]);
  const model = await loadModel({ weights });
  try {
    for (const id of [0, 5, 9, 100, 2047]) {
      for (const k of [1, 10, 100]) sameAsFullScan(model, id, k, `id ${id}, k ${k}`);
    }
  } finally {
    model.dispose();
  }
});
