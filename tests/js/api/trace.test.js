// model.trace against the pure-JS reference: token rows, position rows and
// their sums, the order of words, empty and too long texts; and given wrong
// arguments.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { rowView, cosine } from '../../../web/index.js';
import * as ref from '../helpers/reference.js';
import { fixture, model, loadTheModel, fixtureOracle, testWrongArguments } from '../helpers/shared-model.js';

before(loadTheModel);
after(() => model.dispose());

const oracle = fixtureOracle();

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

describe('wrong arguments', () => {
  testWrongArguments([
    ['trace of null', () => model.trace(null), TypeError, /trace: expected a string, got null/],
    ['trace of a number', () => model.trace(42), TypeError, /trace: expected a string, got number 42/],
    ['trace with null options', () => model.trace('Lily', null), TypeError, /trace: options must be an object such as \{ truncate: true \}, got null/],
    ['trace with a string for truncate', () => model.trace('Lily', { truncate: 'yes' }), TypeError, /options\.truncate must be true or false, got the string "yes"/],
  ]);
});
