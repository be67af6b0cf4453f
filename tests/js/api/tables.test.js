// The token and position tables as users reach them: model.wte and
// model.wpe against the file's numbers, views of WebAssembly memory and
// copies, rowView, Matrix and model.vectorTimesWte; and each of them given
// wrong arguments.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';

import { rowView, Matrix, Model } from '../../../web/index.js';
import { fixture, vocabSize, width, context, model, loadTheModel, testWrongArguments } from '../helpers/shared-model.js';

before(loadTheModel);
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

describe('wrong arguments', () => {
  testWrongArguments([
    ['rowView past the last position', () => rowView(model.wpe, context), RangeError, new RegExp(`rowView: row ${context} does not exist; valid rows are 0 to ${context - 1}`)],
    ['rowView with a string index', () => rowView(model.wte, '2'), TypeError, /rowView: the row index must be a number, got the string "2"/],
    ['Matrix.at past the last column', () => model.wte.at(0, width), RangeError, new RegExp(`column ${width} does not exist; valid columns are 0 to ${width - 1}`)],
    ['Matrix.at with NaN', () => model.wte.at(NaN, 0), RangeError, /row NaN does not exist/],
    ['vectorTimesWte of a vector of the wrong length', () => model.vectorTimesWte(new Float32Array(vocabSize - 1)), RangeError, new RegExp(`vectorTimesWte: the vector needs ${vocabSize} numbers, one per row of wte, got ${vocabSize - 1}`)],
    ['vectorTimesWte of a vector with NaN', () => model.vectorTimesWte(Array.from({ length: vocabSize }, (_, i) => (i === 2 ? NaN : 0))), RangeError, /vectorTimesWte: vector\[2\] is NaN; the vector must hold finite numbers/],
    ['vectorTimesWte of a vector with a string', () => model.vectorTimesWte(Array.from({ length: vocabSize }, (_, i) => (i ? 0 : '1'))), TypeError, /vector\[0\] is the string "1", not a number/],
    ['vectorTimesWte of a number beyond float32', () => model.vectorTimesWte(Array.from({ length: vocabSize }, (_, i) => (i ? 0 : 1e39))), RangeError, /1e\+39/],
    ['vectorTimesWte of null', () => model.vectorTimesWte(null), TypeError, /vectorTimesWte: the vector must be an array or typed array of numbers, got null/],
    ['a Matrix whose data does not fit its shape', () => new Matrix(new Float32Array(5), 2, 3), RangeError, /Matrix: 2 × 3 needs 6 numbers, data has 5/],
    ['a Matrix with negative rows', () => new Matrix(new Float32Array(0), -1, 0), RangeError, /rows and cols must be non-negative integers/],
  ]);
});
