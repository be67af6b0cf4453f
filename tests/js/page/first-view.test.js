// What the first view of the token table computes by a cheaper path than
// before, checked against the path it replaced: the colour limit found by
// selection equals the one found by sorting the sample (default model,
// random and edge data, 16-bit tables), and a typed word resolved by
// looking each form up in the module equals what the vocabulary's index
// gives (every token of the default model, numbers, odd inputs, added
// tokens, GPT-2's vocabulary).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, Matrix } from '../../../web/index.js';
import { robustLimit, selectRank, tableLimit } from '../../../web/widgets/parts/color.js';
import { modelWordForms, tokenLabel, tokenTextOf, vocabularyOf, wordForms } from '../../../web/widgets/parts/word-forms.js';
import { findTokenId, tableRobustLimit, tokenizerSize } from '../../../web/src/model/for-widgets.js';
import { makeTokenizerJson, seededRandom, writeSafetensors } from '../helpers/fixtures.js';
import { sortedColourLimit as sortedLimit } from '../helpers/reference.js';
import { modelForTokenizer, tokenizerWithAddedTokens } from '../helpers/big-tokenizer.js';
import { gpt2TokenizerJson } from '../helpers/gpt2.js';

describe('the colour limit (robustLimit) by selection', () => {
  let model;
  before(async () => { model = await loadModel(); });
  after(() => model?.dispose());

  test('equals the sorted sample’s on the default model’s tables', () => {
    assert.equal(robustLimit(model.wte.data), sortedLimit(model.wte.data));
    assert.equal(robustLimit(model.wpe.data), sortedLimit(model.wpe.data));
    assert.ok(robustLimit(model.wte.data) > 0 && robustLimit(model.wte.data) !== 1);
  });

  test('equals it on random data of many sizes and shapes', () => {
    const random = seededRandom(21);
    for (const n of [1, 2, 3, 7, 199, 200, 201, 1000, 19999, 20000, 20001, 40000, 123457, 524288]) {
      const normal = Float32Array.from({ length: n }, () => (random() - 0.5) * 4 * random());
      assert.equal(robustLimit(normal), sortedLimit(normal), `n = ${n}`);
      // Few distinct values: runs of equal numbers around the percentile.
      const coarse = Float32Array.from({ length: n }, () => Math.round((random() - 0.5) * 6) / 2);
      assert.equal(robustLimit(coarse), sortedLimit(coarse), `coarse, n = ${n}`);
      // Sorted, reversed and constant tables (the pivot's worst cases for a naive selection).
      const sorted = Float32Array.from(normal).sort();
      assert.equal(robustLimit(sorted), sortedLimit(sorted), `sorted, n = ${n}`);
      assert.equal(robustLimit(sorted.reverse()), sortedLimit(sorted), `reversed, n = ${n}`);
      assert.equal(robustLimit(new Float32Array(n).fill(-0.25)), 0.25);
    }
  });

  test('equals it on edge data: empty, zeros, signed zeros, infinities, NaN', () => {
    const cases = {
      empty: new Float32Array(0),
      zeros: new Float32Array(5000),
      'negative zeros': new Float32Array(5000).fill(-0),
      'one large number': Float32Array.from({ length: 1000 }, (_, i) => (i === 500 ? 1e30 : i / 1000)),
      infinities: Float32Array.from({ length: 3000 }, (_, i) => (i % 50 === 0 ? (i % 100 ? Infinity : -Infinity) : Math.sin(i))),
      'a few NaN': Float32Array.from({ length: 3000 }, (_, i) => (i % 400 === 0 ? NaN : Math.cos(i))),
      'NaN at the percentile': Float32Array.from({ length: 3000 }, (_, i) => (i % 100 === 0 ? NaN : Math.cos(i))),
      'all NaN': new Float32Array(100).fill(NaN),
      'plain array': Array.from({ length: 500 }, (_, i) => Math.tan(i)),
    };
    for (const [name, data] of Object.entries(cases)) {
      assert.ok(Object.is(robustLimit(data), sortedLimit(data)), `${name}: ${robustLimit(data)} vs ${sortedLimit(data)}`);
    }
  });

  test('equals it on 16-bit tables (float16 and bfloat16 bits)', () => {
    const random = seededRandom(5);
    for (const dtype of ['float16', 'bfloat16']) {
      for (const n of [10, 5000, 20000, 65536, 300001]) {
        // Every bit pattern is possible, NaNs and infinities included.
        const bits = Uint16Array.from({ length: n }, () => Math.floor(random() * 65536));
        assert.ok(Object.is(robustLimit(bits, dtype), sortedLimit(bits, dtype)), `${dtype}, n = ${n}, all patterns`);
        // Numbers near 1 in size, as a trained table's.
        const f32 = Float32Array.from({ length: n }, () => (random() - 0.5) * 0.2);
        const near = dtype === 'bfloat16' ? Uint16Array.from(new Uint32Array(f32.buffer), (u) => u >>> 16)
          : Uint16Array.from(f32, (x) => halfBitsOf(x));
        assert.equal(robustLimit(near, dtype), sortedLimit(near, dtype), `${dtype}, n = ${n}`);
      }
    }
  });

  test('the module reads the same limit of a loaded model\'s own tables (robust_limit), which tableLimit takes', async () => {
    assert.equal(tableRobustLimit(model), robustLimit(model.wte.data));
    assert.equal(tableRobustLimit(model, 'wpe'), robustLimit(model.wpe.data));
    assert.equal(tableLimit(model), robustLimit(model.wte.data));
    // A model of another kind (an author's own object): none read, tableLimit computes it.
    const own = { wte: new Matrix(Float32Array.from({ length: 40 }, (_, i) => i - 20), 10, 4) };
    assert.equal(tableRobustLimit(own), undefined);
    assert.equal(tableLimit(own), robustLimit(own.wte.data));
    // 16-bit tables of every bit pattern (NaNs and infinities among them), of
    // sizes with a sampling step of 1 and of 2, and a float32 one beside.
    const random = seededRandom(17);
    const tokenizer = new TextEncoder().encode(makeTokenizerJson([' a', ' b']));
    for (const [dtype, rows] of [['F16', 700], ['BF16', 700], ['F16', 1700], ['BF16', 1700], ['F32', 1700]]) {
      const numbers = dtype === 'F32' ? Float32Array.from({ length: rows * 24 }, () => (random() - 0.5) * random())
        : Uint16Array.from({ length: rows * 24 }, () => Math.floor(random() * 65536));
      const loaded = await loadModel({
        weights: writeSafetensors([
          { name: 'wte.weight', dtype, shape: [rows, 24], data: new Uint8Array(numbers.buffer) },
          { name: 'wpe.weight', dtype, shape: [8, 24], data: new Uint8Array(numbers.buffer, 0, 8 * 24 * numbers.BYTES_PER_ELEMENT) },
        ]),
        tokenizer,
      });
      try {
        for (const name of ['wte', 'wpe']) {
          const table = loaded[name];
          assert.ok(Object.is(tableRobustLimit(loaded, name), robustLimit(table.data, table.dtype)), `${dtype}, ${name}, ${table.rows} rows`);
        }
      } finally {
        loaded.dispose();
      }
    }
  });

  test('selectRank finds each rank of the sorted values', () => {
    const random = seededRandom(9);
    for (const n of [1, 2, 5, 64, 1001]) {
      const values = Float64Array.from({ length: n }, () => Math.floor(random() * 20));
      const sorted = Float64Array.from(values).sort();
      for (let rank = 0; rank < n; rank += Math.max(1, Math.floor(n / 37))) {
        assert.equal(selectRank(Float64Array.from(values), n, rank), sorted[rank], `n = ${n}, rank = ${rank}`);
      }
    }
  });
});

/** A float32's half bits, rounded to nearest even (normal range only: enough for numbers near 0.1). */
function halfBitsOf(x) {
  const f32 = new Float32Array([x]), u = new Uint32Array(f32.buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  const exponent = ((u >>> 23) & 0xff) - 127 + 15;
  if (exponent <= 0) return sign;
  const mantissa = u & 0x7fffff;
  let half = sign | (exponent << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half += 1;
  return half;
}

/** What a reader may type: every token as shown, its lower and spaced forms, numbers and odd texts. */
function typedTexts(words) {
  const texts = new Set(['', ' ', '·', '··', ' ·', 'Lily', 'lily', 'LILY', ' Lily', '·Lily', 'girl', 'Girl', '·girl ', 'zzqx',
    '0', '7', '#7', ' 12 ', '665', '4095', '4096', '#99999', '12a', '<0x41>', 'the', 'The', ' the', '\t', 'a b', '.', ',', '!']);
  for (const word of words) {
    texts.add(word);
    texts.add(word.replace(/^·/, ''));
    texts.add(word.replace(/^·/, ' '));
    texts.add(word.toLowerCase());
    texts.add(`${word} `);
  }
  return [...texts];
}

/**
 * modelWordForms on a model whose vocabulary the widgets never read, against
 * wordForms over the vocabulary. Returns how many texts needed the
 * vocabulary after all (model.vocabulary() calls).
 */
function checkSameForms(fresh, texts, options = {}) {
  const words = fresh.vocabulary();  // the API's copy: the widgets' cache stays empty
  const rows = options.rows ?? words.length;
  let reads = 0;
  const read = fresh.vocabulary;
  fresh.vocabulary = function vocabulary() {
    reads += 1;
    return read.call(this);
  };
  try {
    for (const text of texts) {
      const expected = wordForms(words, text, { rowIds: options.rowIds, rows });
      assert.deepEqual(modelWordForms(fresh, text, options), expected, JSON.stringify(text));
    }
  } finally {
    delete fresh.vocabulary;
  }
  return reads;
}

describe('a typed word looked up in the module (modelWordForms) before the vocabulary is read', () => {
  let fresh;
  before(async () => { fresh = await loadModel(); });
  after(() => fresh?.dispose());

  test('gives wordForms’ answers for every token of the default model and odd inputs, with and without row ids', () => {
    const texts = typedTexts(fresh.vocabulary());
    // Words as readers type them: every answer comes from the module's lookups, the vocabulary is never read.
    const words = texts.filter((text) => !/<0x/i.test(text));
    assert.ok(words.length > 4096 * 2);
    assert.equal(checkSameForms(fresh, words), 0);
    assert.equal(checkSameForms(fresh, words, { rowIds: true, rows: fresh.wte.rows }), 0);
    // A byte's token typed in lower case ("<0xff>") leads the module to "<0xFF>": the vocabulary settles it, once.
    assert.equal(checkSameForms(fresh, texts, { rowIds: true, rows: fresh.wte.rows }), 1);
    // Rows past the tokenizer's last id (a padded table): a row id with no text.
    assert.equal(checkSameForms(fresh, ['4096', '4100', '#4099', '4101'], { rowIds: true, rows: fresh.wte.rows + 5 }), 0);
  });

  test('finds the start token through the module, then through the index once the vocabulary is read, the same', async () => {
    const model = await loadModel();
    try {
      const before = modelWordForms(model, 'Lily', { rowIds: true, rows: model.wte.rows });
      assert.deepEqual(before.map((f) => [f.text, f.form]), [['Lily', 'bare'], ['·Lily', 'spaced']]);
      assert.equal(before[0].id, model.tokenId('Lily'));
      assert.equal(tokenLabel(model, before[0].id), 'Lily');
      assert.equal(tokenTextOf(model, before[1].id), '·Lily');
      vocabularyOf(model);  // what the search box does when a reader comes to it
      assert.deepEqual(modelWordForms(model, 'Lily', { rowIds: true, rows: model.wte.rows }), before);
      assert.equal(tokenLabel(model, 5000), '(row 5000, no token)');
    } finally {
      model.dispose();
    }
  });

  test('tokenLabel and tokenTextOf read a row as the vocabulary has it', async () => {
    const model = await loadModel();
    try {
      const words = model.vocabulary();
      for (let id = 0; id < words.length; id += 7) assert.equal(tokenLabel(model, id), words[id]);
      assert.equal(tokenizerSize(model), words.length);
      assert.equal(tokenTextOf(model, words.length), '');
      assert.equal(tokenLabel(model, words.length), `(row ${words.length}, no token)`);
    } finally {
      model.dispose();
    }
  });

  test('findTokenId is tokenId, with −1 where tokenId throws', () => {
    for (const text of ['Lily', '·girl', ' girl', 'zzqx', '', 'x'.repeat(5000), '·'.repeat(40)]) {
      let expected;
      try {
        expected = fresh.tokenId(text);
      } catch {
        expected = -1;
      }
      assert.equal(findTokenId(fresh, text), expected, JSON.stringify(text));
    }
  });

  test('gives wordForms’ answers with added tokens and with GPT-2’s vocabulary', async () => {
    const added = await loadModel(tokenizerWithAddedTokens(['<pad>', '·girl', ' boy!', 'Lily', '<0x41>']));
    try {
      // "<0x41>", an added token, leads the module to "A": the vocabulary settles it, once.
      assert.equal(checkSameForms(added, typedTexts(added.vocabulary()), { rowIds: true }), 1);
    } finally {
      added.dispose();
    }
    const gpt2 = await loadModel(modelForTokenizer(new TextEncoder().encode(JSON.stringify(gpt2TokenizerJson())), 50257));
    try {
      const words = gpt2.vocabulary();
      // Every 5th token and its variants: the whole vocabulary would take the CI's cores a while.
      const texts = typedTexts(words.filter((_, id) => id % 5 === 0));
      assert.equal(checkSameForms(gpt2, texts.filter((text) => !/<0x/i.test(text))), 0);
      assert.ok(checkSameForms(gpt2, texts) <= 1);
    } finally {
      gpt2.dispose();
    }
  });
});
