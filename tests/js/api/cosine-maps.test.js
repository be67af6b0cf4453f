// model.cosineMatrix and cosineMatrix against pairwise cosine: the position
// map, the token map and maps of other tables; and given wrong arguments.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { rowView, cosineMatrix, Matrix } from '../../../web/index.js';
import * as ref from '../helpers/reference.js';
import { fixture, model, loadTheModel, testWrongArguments } from '../helpers/shared-model.js';

before(loadTheModel);
after(() => model.dispose());

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

describe('wrong arguments', () => {
  testWrongArguments([
    ['cosineMatrix of an array', () => cosineMatrix([[1, 2], [3, 4]]), TypeError, /cosineMatrix: expected a table such as model\.wpe, got an array of length 2/],
    ['cosineMatrix of too many rows', () => cosineMatrix(new Matrix(new Float32Array(20000), 20000, 1)), RangeError, /a map of 20000 × 20000 numbers is too large \(at most 2048 rows\)/],
  ]);
});
