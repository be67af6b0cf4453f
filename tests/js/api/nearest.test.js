// model.nearest as users call it: against a brute-force sort, token text
// and vectors as queries, ties, k; given wrong arguments; and for small k
// and for k close to the vocabulary size the same ids and the same scores,
// bit for bit, in the WebAssembly build: the ranking is top_k of one scan,
// whatever k is. It never lists a row of the token table that has no token.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, rowView } from '../../../web/index.js';
import { makeModel, makeTokenizerJson, writeSafetensors, seededRandom } from '../helpers/fixtures.js';
import * as ref from '../helpers/reference.js';
import { fixture, vocabSize, width, model, loadTheModel, testWrongArguments } from '../helpers/shared-model.js';

before(loadTheModel);
after(() => model.dispose());

describe('nearest', () => {
  test('matches a brute-force sort, excludes the query, breaks ties by id', () => {
    for (const id of [0, 7, fixture.vocabSize - 1]) {
      const got = model.nearest(id, 5);
      const expected = ref.nearest(fixture.wte, fixture.width, ref.row(fixture.wte, fixture.width, id), 5, id);
      assert.deepEqual(got.map((r) => r.id), expected.map((r) => r.id));
      got.forEach((r, i) => assert.ok(Math.abs(r.score - expected[i].score) < 1e-6));
      assert.ok(!got.some((r) => r.id === id));
      assert.equal(got[0].text, model.tokenText(got[0].id));
    }
  });

  test('accepts token text and vectors; a vector query excludes nothing', () => {
    assert.deepEqual(model.nearest('·girl', 3), model.nearest(model.tokenId('·girl'), 3));
    const v = Array.from(rowView(model.wte, 9));
    const got = model.nearest(v, 2);
    assert.equal(got[0].id, 9);
    assert.ok(Math.abs(got[0].score - 1) < 1e-6);
    assert.deepEqual(model.nearest(Float32Array.from(v), 2).map((r) => r.id), got.map((r) => r.id));
    assert.equal(model.nearest(rowView(model.wte, 9), 1)[0].id, 9);
  });

  test('ties between equal rows go to the smaller id', async () => {
    const tied = makeModel({ seed: 3 });
    const w = tied.width;
    tied.wte.copyWithin(10 * w, 4 * w, 5 * w);  // rows 4 and 10 equal
    tied.wte.copyWithin(6 * w, 4 * w, 5 * w);   // and row 6
    const weights = writeSafetensors([
      { name: 'wte.weight', shape: [tied.vocabSize, w], data: tied.wte },
      { name: 'wpe.weight', shape: [tied.context, w], data: tied.wpe },
    ]);
    const m = await loadModel({ weights, tokenizer: tied.tokenizer });
    assert.deepEqual(m.nearest(4, 2).map((r) => r.id), [6, 10]);
    assert.deepEqual(m.nearest(10, 2).map((r) => r.id), [4, 6]);
    m.dispose();
  });

  test('k is checked', () => {
    assert.equal(model.nearest(1).length, 10);
    assert.equal(model.nearest(1, fixture.vocabSize).length, fixture.vocabSize - 1);
    for (const k of [0, -1, 1.5, fixture.vocabSize + 1, NaN, Infinity]) {
      assert.throws(() => model.nearest(1, k), RangeError, String(k));
    }
    assert.throws(() => model.nearest(1, '3'), TypeError);
    assert.throws(() => model.nearest(fixture.vocabSize), RangeError);
    assert.throws(() => model.nearest([1, 2]), RangeError);
    assert.throws(() => model.nearest({}), TypeError);
    assert.throws(() => model.nearest('·notatoken'), RangeError);
  });
});

describe('wrong arguments', () => {
  testWrongArguments([
    ['nearest with k = 0', () => model.nearest(1, 0), RangeError, new RegExp(`nearest: k must be a whole number from 1 to ${vocabSize}, got 0`)],
    ['nearest with a negative k', () => model.nearest(1, -3), RangeError, /k must be a whole number from 1 to \d+, got -3/],
    ['nearest with k past the vocabulary', () => model.nearest(1, vocabSize + 1), RangeError, new RegExp(`from 1 to ${vocabSize}, got ${vocabSize + 1}`)],
    ['nearest with k = NaN', () => model.nearest(1, NaN), RangeError, /got NaN/],
    ['nearest with k = Infinity', () => model.nearest(1, Infinity), RangeError, /got Infinity/],
    ['nearest with a fractional k', () => model.nearest(1, 2.5), RangeError, /got 2\.5/],
    ['nearest with k as a string', () => model.nearest(1, '5'), TypeError, /nearest: k must be a number, got the string "5"/],
    ['nearest of token NaN', () => model.nearest(NaN), RangeError, new RegExp(`nearest: token id NaN does not exist; valid token ids are 0 to ${vocabSize - 1}`)],
    ['nearest of token -1', () => model.nearest(-1), RangeError, /token id -1 does not exist/],
    ['nearest of token Infinity', () => model.nearest(Infinity), RangeError, /token id Infinity does not exist/],
    ['nearest of a vector with NaN', () => model.nearest(Array.from({ length: width }, (_, i) => (i === 3 ? NaN : 1))), RangeError, /nearest: query\[3\] is NaN; a query vector must hold finite numbers/],
    ['nearest of a vector with Infinity', () => model.nearest(new Float64Array(width).fill(Infinity)), RangeError, /query\[0\] is Infinity/],
    ['nearest of a vector of the wrong length', () => model.nearest(new Float32Array(width + 1)), RangeError, new RegExp(`a query vector needs ${width} numbers, got ${width + 1}`)],
    ['nearest of a vector with a string', () => model.nearest(Array.from({ length: width }, (_, i) => (i ? 1 : 'x'))), TypeError, /query\[0\] is the string "x", not a number/],
    ['nearest of null', () => model.nearest(null), TypeError, /the query must be a token id, a token's text or a vector, got null/],
    ['nearest of a BigInt', () => model.nearest(3n), TypeError, /got bigint 3/],
    ['nearest of a DataView', () => model.nearest(new DataView(new ArrayBuffer(4 * width))), TypeError, /got a DataView/],
    // Issue 34: these named tokenId, which the caller did not call.
    ['nearest of text that is not a token', () => model.nearest('·zebra'), RangeError, /^nearest: the query "·zebra" is not a single token/],
    ['nearest of the empty text', () => model.nearest(''), RangeError, /^nearest: the query "" is not a single token$/],
    ['nearest excluding text that is not a token', () => model.nearest(5, 3, { exclude: [7, 'zzzqqq'] }), RangeError, /^nearest: exclude\[1\] "zzzqqq" is not a single token; it is \d+ tokens/],
  ]);
});

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
