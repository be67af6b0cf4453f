// dot and cosine as users call them, against the pure-JS reference: rows
// of the tables, plain and typed arrays, long vectors, zero and empty ones;
// and given wrong arguments.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { rowView, dot, cosine, backend } from '../../../web/index.js';
import * as ref from '../helpers/reference.js';
import { fixture, width, model, loadTheModel, stillWorks, testWrongArguments } from '../helpers/shared-model.js';

before(loadTheModel);
after(() => model.dispose());

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

describe('wrong arguments', () => {
  testWrongArguments([
    ['dot of null', () => dot(null, [1]), TypeError, /dot: a must be an array or typed array of numbers, got null/],
    ['dot of BigInt64Arrays', () => dot(new BigInt64Array(2), new BigInt64Array(2)), TypeError, /a must be an array or typed array of numbers, got a BigInt64Array/],
    ['dot of an array-like object', () => dot({ length: 1, 0: 1 }, [1]), TypeError, /got an object \(Object\)/],
    ['dot with a string inside', () => dot([1, '2'], [1, 2]), TypeError, /dot: a\[1\] is the string "2", not a number/],
    ['cosine of different lengths', () => cosine(rowView(model.wte, 1), [1, 2, 3]), RangeError, new RegExp(`cosine: the vectors have different lengths \\(${width} and 3\\)`)],
    ['cosine with one argument', () => cosine([1, 2]), TypeError, /cosine\(a, b\) needs two vectors, got 1/],
  ]);

  test('NaN and infinities in dot and cosine give NaN, as documented, not an error', () => {
    assert.ok(Number.isNaN(dot([NaN, 1], [1, 1])));
    assert.ok(Number.isNaN(cosine([Infinity, 1], [1, 1])));
    assert.equal(dot([Infinity, 0], [1, 0]), Infinity);
    stillWorks();
  });
});
