// The public API given wrong arguments: every failure is one clear error
// (TypeError for a wrong kind of value, RangeError for a value out of range,
// naming the argument and what is valid), and the model keeps working
// afterwards. api.test.js has the first cases; this file has the rest.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, rowView, dot, cosine, cosineMatrix, Matrix } from '../../web/index.js';
import { fixture, vocabSize, width, context, model, loadTheModel, stillWorks, expectThrows } from './helpers/shared-model.js';

before(loadTheModel);
after(() => model.dispose());

describe('wrong arguments', () => {
  const cases = () => [
    // [what, call, error type, message]
    ['rowView past the last position', () => rowView(model.wpe, context), RangeError, new RegExp(`rowView: row ${context} does not exist; valid rows are 0 to ${context - 1}`)],
    ['rowView with a string index', () => rowView(model.wte, '2'), TypeError, /rowView: the row index must be a number, got the string "2"/],
    ['Matrix.at past the last column', () => model.wte.at(0, width), RangeError, new RegExp(`column ${width} does not exist; valid columns are 0 to ${width - 1}`)],
    ['Matrix.at with NaN', () => model.wte.at(NaN, 0), RangeError, /row NaN does not exist/],
    ['dot of null', () => dot(null, [1]), TypeError, /dot: a must be an array or typed array of numbers, got null/],
    ['dot of BigInt64Arrays', () => dot(new BigInt64Array(2), new BigInt64Array(2)), TypeError, /a must be an array or typed array of numbers, got a BigInt64Array/],
    ['dot of an array-like object', () => dot({ length: 1, 0: 1 }, [1]), TypeError, /got an object \(Object\)/],
    ['dot with a string inside', () => dot([1, '2'], [1, 2]), TypeError, /dot: a\[1\] is the string "2", not a number/],
    ['cosine of different lengths', () => cosine(rowView(model.wte, 1), [1, 2, 3]), RangeError, new RegExp(`cosine: the vectors have different lengths \\(${width} and 3\\)`)],
    ['cosine with one argument', () => cosine([1, 2]), TypeError, /cosine\(a, b\) needs two vectors, got 1/],
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
    ['vectorTimesWte of a vector of the wrong length', () => model.vectorTimesWte(new Float32Array(vocabSize - 1)), RangeError, new RegExp(`vectorTimesWte: the vector needs ${vocabSize} numbers, one per row of wte, got ${vocabSize - 1}`)],
    ['vectorTimesWte of a vector with NaN', () => model.vectorTimesWte(Array.from({ length: vocabSize }, (_, i) => (i === 2 ? NaN : 0))), RangeError, /vectorTimesWte: vector\[2\] is NaN; the vector must hold finite numbers/],
    ['vectorTimesWte of a vector with a string', () => model.vectorTimesWte(Array.from({ length: vocabSize }, (_, i) => (i ? 0 : '1'))), TypeError, /vector\[0\] is the string "1", not a number/],
    ['vectorTimesWte of a number beyond float32', () => model.vectorTimesWte(Array.from({ length: vocabSize }, (_, i) => (i ? 0 : 1e39))), RangeError, /1e\+39/],
    ['vectorTimesWte of null', () => model.vectorTimesWte(null), TypeError, /vectorTimesWte: the vector must be an array or typed array of numbers, got null/],
    ['trace of null', () => model.trace(null), TypeError, /trace: expected a string, got null/],
    ['trace of a number', () => model.trace(42), TypeError, /trace: expected a string, got number 42/],
    ['trace with null options', () => model.trace('Lily', null), TypeError, /trace: options must be an object such as \{ truncate: true \}, got null/],
    ['trace with a string for truncate', () => model.trace('Lily', { truncate: 'yes' }), TypeError, /options\.truncate must be true or false, got the string "yes"/],
    ['encode of undefined', () => model.encode(undefined), TypeError, /encode: expected a string, got undefined/],
    ['encode of a String object', () => model.encode(new String('Lily')), TypeError, /encode: expected a string, got an object \(String\)/],
    ['tokenize of an array', () => model.tokenize(['Lily']), TypeError, /tokenize: expected a string/],
    ['decode of a fractional id', () => model.decode([1.5]), RangeError, new RegExp(`decode: ids\\[0\\] is 1\\.5, and token id 1\\.5 does not exist; valid token ids are 0 to ${vocabSize - 1}`)],
    ['decode of NaN', () => model.decode([0, NaN]), RangeError, /decode: ids\[1\] is NaN, and token id NaN does not exist/],
    // Issue 34: it said "got undefined undefined".
    ['decode of an array with a hole', () => model.decode([1, , 2]), TypeError, new RegExp(`^decode: ids\\[1\\] is an empty slot; each id must be a token id, a whole number from 0 to ${vocabSize - 1}$`)],
    ['decode of undefined in an array', () => model.decode([1, undefined]), TypeError, /^decode: ids\[1\] is undefined; each id/],
    ['decode of -1', () => model.decode([-1]), RangeError, /token id -1 does not exist/],
    ['decode of an id past the vocabulary', () => model.decode(Int32Array.of(vocabSize)), RangeError, new RegExp(`token id ${vocabSize} does not exist`)],
    ['decode of a string id', () => model.decode(['3']), TypeError, /decode: ids\[0\] is the string "3"; each id must be a token id/],
    ['decode of a string', () => model.decode('abc'), TypeError, /decode: expected an array of token ids, got the string "abc"/],
    ['tokenText of Infinity', () => model.tokenText(Infinity), RangeError, /tokenText: token id Infinity does not exist/],
    ['tokenId of null', () => model.tokenId(null), TypeError, /tokenId: expected a string, got null/],
    ['tokenId of a long text', () => model.tokenId('girl '.repeat(10000)), RangeError, /tokenId: a text of 50000 characters is not a single token \(the longest token has \d+ bytes\)/],
    ['cosineMatrix of an array', () => cosineMatrix([[1, 2], [3, 4]]), TypeError, /cosineMatrix: expected a table such as model\.wpe, got an array of length 2/],
    ['cosineMatrix of too many rows', () => cosineMatrix(new Matrix(new Float32Array(20000), 20000, 1)), RangeError, /a map of 20000 × 20000 numbers is too large \(at most 2048 rows\)/],
    ['a Matrix whose data does not fit its shape', () => new Matrix(new Float32Array(5), 2, 3), RangeError, /Matrix: 2 × 3 needs 6 numbers, data has 5/],
    ['a Matrix with negative rows', () => new Matrix(new Float32Array(0), -1, 0), RangeError, /rows and cols must be non-negative integers/],
  ];
  for (const [name, call, type, message] of cases()) {
    test(name, () => expectThrows(call, type, message));
  }

  test('NaN and infinities in dot and cosine give NaN, as documented, not an error', () => {
    assert.ok(Number.isNaN(dot([NaN, 1], [1, 1])));
    assert.ok(Number.isNaN(cosine([Infinity, 1], [1, 1])));
    assert.equal(dot([Infinity, 0], [1, 0]), Infinity);
    stillWorks();
  });

  test('loadModel with inputs of the wrong kind', async () => {
    for (const [files, message] of [
      [{ weights: fixture.weights, tokenizer: 42 }, /tokenizer must be a URL, a file path, an ArrayBuffer, a typed array, a Blob or a Response; got number 42/],
      [{ weights: fixture.weights, config: 'no such file' }, /^no such file: cannot open the file \(ENOENT\)$/],
      [{ weights: '' }, /weights: the file name is an empty string/],
      [{ weights: null }, /weights must be a URL, a file path, an ArrayBuffer, a typed array, a Blob or a Response; got null/],
      [[], /the weights file \(a \.safetensors\) is required/],
    ]) {
      await assert.rejects(loadModel(files), (error) => error instanceof Error && message.test(error.message));
      stillWorks();
    }
  });

  test('loadModel with a non-object argument', async () => {
    await assert.rejects(loadModel('model.safetensors'), TypeError);
    await assert.rejects(loadModel(null), TypeError);
  });
});
