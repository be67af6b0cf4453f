// The public API as users call it, against the pure-JS reference.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { Tokenizer } from '@huggingface/tokenizers';

import { loadModel, rowView, dot, cosine, cosineMatrix, Matrix, Model, backend } from '../../../web/index.js';
import { makeModel } from '../helpers/fixtures.js';
import * as ref from '../helpers/reference.js';

const fixture = makeModel();
let model;
let oracle;

before(async () => {
  model = await loadModel({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer });
  oracle = new Tokenizer(JSON.parse(fixture.tokenizerJson), {});
});
after(() => model.dispose());

describe('tables', () => {
  test('wte and wpe have the sizes of the files and the same numbers', () => {
    assert.ok(model instanceof Model);
    assert.equal(model.wte.rows, fixture.vocabSize);
    assert.equal(model.wte.cols, fixture.width);
    assert.equal(model.wpe.rows, fixture.context);
    assert.deepEqual(model.config, { vocabSize: fixture.vocabSize, width: fixture.width, context: fixture.context, layers: 1, heads: 1 });
    assert.deepEqual(Array.from(model.wte.data), Array.from(fixture.wte));
    assert.deepEqual(Array.from(model.wpe.data), Array.from(fixture.wpe));
    assert.equal(model.parameterCount, fixture.vocabSize * fixture.width + fixture.context * fixture.width + fixture.width);
    assert.deepEqual(model.metadata, { format: 'pt' });
  });

  test('data and rowView are views of WebAssembly memory, not copies', () => {
    const data = model.wte.data;
    assert.ok(data instanceof Float32Array);
    assert.notEqual(data.buffer, fixture.wte.buffer);
    const view = rowView(model.wte, 3);
    assert.equal(view.buffer, data.buffer);
    assert.equal(view.byteOffset, data.byteOffset + 3 * fixture.width * 4);
    assert.equal(view.length, fixture.width);
    assert.deepEqual(Array.from(model.wte.row(3)), Array.from(view));
    assert.notEqual(model.wte.row(3).buffer, data.buffer);
    assert.equal(model.wte.at(3, 2), fixture.wte[3 * fixture.width + 2]);
    assert.equal(model.wte.toArray().length, fixture.vocabSize);
    assert.equal([...model.wpe].length, fixture.context);
  });

  test('a table prints its shape, not its numbers', () => {
    assert.equal(String(model.wte), `Matrix ${fixture.vocabSize} × ${fixture.width} (wte)`);
    const printed = inspect(model.wte);
    assert.match(printed, new RegExp(`^Matrix ${fixture.vocabSize} × ${fixture.width} \\(wte\\)`));
    assert.ok(printed.length < 400, printed);
    assert.match(inspect(model), /^Model /);
  });

  test('rowView rejects bad indices with the valid range', () => {
    const last = fixture.vocabSize - 1;
    for (const bad of [-1, 1.5, fixture.vocabSize, NaN, Infinity, -0.5]) {
      assert.throws(() => rowView(model.wte, bad), (e) => e instanceof RangeError && e.message.includes(`0 to ${last}`), String(bad));
    }
    for (const bad of ['3', undefined, null, 3n, [3]]) {
      assert.throws(() => rowView(model.wte, bad), TypeError, String(bad));
    }
    assert.throws(() => rowView({ rows: 1, cols: 1, data: new Float32Array(1) }, 0), TypeError);
    assert.throws(() => rowView(undefined, 0), TypeError);
    assert.equal(rowView(model.wte, -0).length, fixture.width);  // -0 is row 0
  });

  test('Matrix can be built by users and checks its shape', () => {
    const m = new Matrix(new Float32Array(6), 2, 3);
    assert.equal(rowView(m, 1).length, 3);
    assert.throws(() => new Matrix(new Float32Array(5), 2, 3), RangeError);
    assert.throws(() => new Matrix([1, 2], 1, 2), TypeError);
  });
});

describe('dot and cosine', () => {
  test('the chapter\'s example gives exactly 1', () => {
    assert.equal(dot([1, 2, 3], [4, 0, -1]), 1);
    assert.equal(backend, 'wasm-simd128');
  });

  test('rows of the table match the reference', () => {
    for (let i = 0; i < fixture.vocabSize; i += 3) {
      for (let j = 0; j < fixture.vocabSize; j += 5) {
        const a = ref.row(fixture.wte, fixture.width, i), b = ref.row(fixture.wte, fixture.width, j);
        assert.ok(Math.abs(dot(rowView(model.wte, i), rowView(model.wte, j)) - ref.dot(a, b)) <= ref.dotTolerance(a, b));
        assert.ok(Math.abs(cosine(rowView(model.wte, i), rowView(model.wte, j)) - ref.cosine(a, b)) < 1e-6);
      }
    }
  });

  test('plain arrays, other typed arrays, copies and mixed inputs agree', () => {
    const a = rowView(model.wte, 4), b = rowView(model.wpe, 2);
    const expected = ref.cosine(a, b);
    for (const [x, y] of [[a, b], [Array.from(a), Array.from(b)], [Float64Array.from(a), b], [a.slice(), b], [Array.from(a), b.slice()]]) {
      assert.ok(Math.abs(cosine(x, y) - expected) < 1e-6);
      assert.ok(Math.abs(dot(x, y) - ref.dot(a, b)) <= ref.dotTolerance(a, b));
    }
    assert.equal(dot(new Int8Array([1, 2]), new Uint16Array([3, 4])), 11);
  });

  test('long vectors are processed in chunks without growing memory', () => {
    const n = 50_000;
    const a = Float32Array.from({ length: n }, (_, i) => Math.sin(i));
    const b = Float32Array.from({ length: n }, (_, i) => Math.cos(i * 0.5));
    const before = model.memoryUsage();
    assert.ok(Math.abs(dot(a, b) - ref.dot(a, b)) <= ref.dotTolerance(a, b));
    assert.ok(Math.abs(cosine(a, b) - ref.cosine(a, b)) < 1e-5);
    assert.deepEqual(model.memoryUsage(), before);
  });

  test('zero vectors, empty vectors and length mismatches', () => {
    assert.equal(cosine([0, 0, 0], [1, 2, 3]), 0);
    assert.equal(cosine([0, 0], [0, 0]), 0);
    assert.equal(cosine([], []), 0);
    assert.equal(dot([], []), 0);
    assert.ok(Number.isNaN(cosine([NaN, 1], [1, 1])));
    assert.throws(() => dot([1, 2], [1, 2, 3]), (e) => e instanceof RangeError && /different lengths \(2 and 3\)/.test(e.message));
    assert.throws(() => cosine(rowView(model.wte, 0), rowView(model.wte, 0).subarray(1)), RangeError);
    assert.throws(() => dot([1, 'a'], [1, 2]), (e) => e instanceof TypeError && e.message.includes('a[1]'));
    assert.throws(() => dot([1, 2]), TypeError);
    assert.throws(() => cosine('ab', 'cd'), TypeError);
    assert.throws(() => dot({ length: 2 }, [1, 2]), TypeError);
  });

  test('parallel vectors never score above 1', () => {
    const a = rowView(model.wte, 5);
    const c = cosine(a, a);
    assert.ok(c <= 1 && c > 0.99999);
    assert.ok(cosine(a, Array.from(a, (x) => -x)) >= -1);
  });
});

describe('tokens', () => {
  test('tokenId and tokenText use the chapter\'s display form', () => {
    const girl = model.tokenId('·girl');
    assert.equal(model.tokenId(' girl'), girl);
    assert.equal(model.tokenText(girl), '·girl');
    assert.notEqual(model.tokenId('·Lily'), model.tokenId('Lily'));
    assert.equal(model.tokenText(model.tokenId('Lily')), 'Lily');
    assert.equal(model.tokenText(fixture.vocabSize - 1), '<|endoftext|>');
    assert.deepEqual(model.encode(' girl'), oracle.encode(' girl').ids);
  });

  test('a text that is not one token gets an error listing its pieces', () => {
    assert.throws(() => model.tokenId('·girls'), (e) => e instanceof RangeError && e.message.includes('2 tokens: ·girl s'));
    assert.throws(() => model.tokenId(''), RangeError);
    assert.throws(() => model.tokenId(7), TypeError);
    assert.throws(() => model.tokenText(-1), RangeError);
    assert.throws(() => model.tokenText(fixture.vocabSize), RangeError);
    assert.throws(() => model.tokenText('1'), TypeError);
  });

  test('encode and decode agree with Hugging Face tokenizers', () => {
    for (const text of ['Lily saw Max', 'Max saw Lily', ' three 3', 'girlboy', '', '<|endoftext|>Lily', 'héllo 🙂']) {
      const ids = model.encode(text);
      assert.deepEqual(ids, oracle.encode(text).ids, text);
      assert.equal(model.decode(ids), text);
    }
    assert.deepEqual(model.tokenize('Lily saw').map((t) => t.text), ['Lily', '·saw']);
    assert.throws(() => model.decode([fixture.vocabSize]), RangeError);
    assert.throws(() => model.decode('abc'), TypeError);
  });
});

describe('trace', () => {
  test('rows are the token rows, position rows and their sums', () => {
    const text = 'Lily saw Max';
    const trace = model.trace(text);
    const ids = oracle.encode(text).ids;
    assert.equal(trace.text, text);
    assert.deepEqual(trace.tokens.map((t) => t.id), ids);
    assert.deepEqual(trace.tokens.map((t) => t.text), ['Lily', '·saw', '·Max']);
    const expected = ref.trace(fixture.wte, fixture.wpe, fixture.width, ids);
    assert.deepEqual(Array.from(trace.tokenEmbeddings.data), Array.from(expected.token));
    assert.deepEqual(Array.from(trace.positionEmbeddings.data), Array.from(expected.position));
    assert.deepEqual(Array.from(trace.embeddings.data), Array.from(expected.sum));
    assert.equal(String(trace.embeddings), `Matrix 3 × ${fixture.width}`);
    // Place i uses position row i - 1.
    assert.deepEqual(Array.from(rowView(trace.positionEmbeddings, 2)), Array.from(rowView(model.wpe, 2)));
  });

  test('the same words in another order: same token rows, different sums', () => {
    const a = model.trace('Lily saw Max'), b = model.trace('Max saw Lily');
    assert.deepEqual(Array.from(rowView(a.tokenEmbeddings, 1)), Array.from(rowView(b.tokenEmbeddings, 1)));
    assert.notDeepEqual(Array.from(rowView(a.embeddings, 0)), Array.from(rowView(b.embeddings, 2)));
  });

  test('empty text gives a 0 × d trace', () => {
    const trace = model.trace('');
    assert.equal(trace.tokens.length, 0);
    assert.equal(trace.embeddings.rows, 0);
    assert.equal(trace.embeddings.cols, fixture.width);
  });

  test('text longer than the context is an error unless truncated', () => {
    const long = ' girl'.repeat(fixture.context + 3);
    assert.throws(() => model.trace(long), (e) => e instanceof RangeError &&
      e.message.includes(`${fixture.context + 3} tokens long`) && e.message.includes(`at most ${fixture.context}`));
    const cut = model.trace(long, { truncate: true });
    assert.equal(cut.tokens.length, fixture.context);
    assert.equal(cut.truncated, 3);
    assert.equal(model.trace(' girl'.repeat(fixture.context)).tokens.length, fixture.context);
    assert.throws(() => model.trace(42), TypeError);
  });

  test('dot and cosine work on trace rows', () => {
    const trace = model.trace('Lily saw Max');
    const a = rowView(trace.embeddings, 0), b = rowView(model.wte, 2);
    assert.ok(Math.abs(cosine(a, b) - ref.cosine(a, b)) < 1e-6);
  });
});

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
    const { writeSafetensors } = await import('../helpers/fixtures.js');
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

describe('cosine maps', () => {
  test('the position map matches pairwise cosine', () => {
    const map = model.cosineMatrix(model.wpe);
    assert.equal(map.rows, fixture.context);
    assert.equal(map.cols, fixture.context);
    for (let i = 0; i < fixture.context; i++) {
      for (let j = 0; j < fixture.context; j++) {
        const expected = ref.cosine(ref.row(fixture.wpe, fixture.width, i), ref.row(fixture.wpe, fixture.width, j));
        assert.ok(Math.abs(map.at(i, j) - expected) < 1e-6);
      }
    }
    assert.deepEqual(Array.from(cosineMatrix(model.wpe).data), Array.from(map.data));
  });

  test('the token map and maps of other tables', () => {
    const map = cosineMatrix(model.wte);
    assert.equal(map.rows, fixture.vocabSize);
    const trace = model.trace('Lily saw Max');
    const traceMap = cosineMatrix(trace.embeddings);
    assert.equal(traceMap.rows, 3);
    assert.ok(Math.abs(traceMap.at(0, 2) - ref.cosine(rowView(trace.embeddings, 0), rowView(trace.embeddings, 2))) < 1e-6);
    assert.deepEqual(Array.from(model.cosineMatrix(trace.embeddings).data), Array.from(traceMap.data));
    assert.throws(() => cosineMatrix([1, 2]), TypeError);
  });
});
