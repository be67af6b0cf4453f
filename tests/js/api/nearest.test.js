// model.nearest(q, k) for small k and for k close to the vocabulary size
// must give the same ids and the same scores, bit for bit, in the
// WebAssembly build: the ranking is top_k of one scan, whatever k is. And it
// never lists a row of the token table that has no token.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, rowView } from '../../../web/index.js';
import { makeModel, makeTokenizerJson, writeSafetensors, seededRandom } from '../helpers/fixtures.js';

const utf8 = new TextEncoder();
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

describe('a token table with rows that have no token', () => {
  test('nearest never lists a padded row (nanoGPT and llm.c pad GPT-2 to 50,304)', async () => {
    const fixture = makeModel({ extraRows: 40 });
    const model = await loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
    try {
      const tokens = model.vocabulary().length;
      assert.equal(model.vocabSize, tokens + 40);
      for (const query of [3, tokens + 5, rowView(model.wte, tokens + 39)]) {
        const found = model.nearest(query, model.vocabSize);
        assert.ok(found.length >= tokens - 1, `${found.length} results`);
        for (const { id, text } of found) {
          assert.ok(id < tokens, `padded row ${id} listed`);
          assert.equal(text, model.tokenText(id));
          assert.notEqual(model.decode([id]), undefined);
        }
      }
      assert.equal(model.nearest(3, 5).length, 5);
    } finally {
      model.dispose();
    }
  });

  test('nor an id that the tokenizer leaves unused (a gap in its numbering)', async () => {
    const fixture = makeModel({ extraRows: 8 });
    // Move the special token 6 ids up: ids in between have no token.
    const json = JSON.parse(fixture.tokenizerJson);
    const special = json.added_tokens[0];
    delete json.model.vocab[special.content];
    special.id += 6;
    json.model.vocab[special.content] = special.id;
    const model = await loadModel({ weights: fixture.weights, tokenizer: utf8.encode(JSON.stringify(json)) });
    try {
      const unused = new Set(model.vocabulary().flatMap((text, id) => (text === '' ? [id] : [])));
      assert.equal(unused.size, 6);
      for (const k of [1, 10, model.vocabSize]) {
        const found = model.nearest(2, k);
        assert.equal(found.length, Math.min(k, model.vocabulary().length - unused.size - 1));
        for (const { id } of found) assert.ok(!unused.has(id), `unused id ${id} listed`);
      }
    } finally {
      model.dispose();
    }
  });
});
