// The model of makeModel()'s default fixture, loaded once per test file, and
// the check that a call left it working: the tests of wrong arguments,
// awkward text, disposal and memory each misuse the API, then ask it again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Tokenizer } from '@huggingface/tokenizers';

import { loadModel, rowView, dot, cosine } from '../../../web/index.js';
import { makeModel } from './fixtures.js';

export const fixture = makeModel();
export const { vocabSize, width, context } = fixture;

/** `fixture`'s tokenizer in @huggingface/tokenizers: the oracle of its ids and text. */
export const fixtureOracle = () => new Tokenizer(JSON.parse(fixture.tokenizerJson), {});

/** The model of `fixture`, once loadTheModel() has run (a live binding). */
export let model;

/** Loads `model`; a test file calls it in before() and disposes the model in after(). */
export async function loadTheModel() {
  model = await loadModel({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer });
}

/** A normal call of each kind, with known answers: the model still works. */
export function stillWorks(m = model) {
  assert.deepEqual(Array.from(rowView(m.wte, 4)), Array.from(fixture.wte.subarray(4 * width, 5 * width)));
  assert.deepEqual(m.trace('Lily saw Max').tokens.map((t) => t.text), ['Lily', '·saw', '·Max']);
  assert.equal(m.nearest(3, 2).length, 2);
  assert.ok(Math.abs(cosine(rowView(m.wte, 2), Array.from(rowView(m.wte, 2))) - 1) < 1e-6);
  assert.equal(dot([1, 2, 3], [4, 0, -1]), 1);
}

/** `call` throws exactly a `type` whose message matches `message`, and the model still works. */
export function expectThrows(call, type, message) {
  assert.throws(call, (error) => {
    assert.equal(error.constructor, type, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, message);
    return true;
  });
  stillWorks();
}

/**
 * One test for each [what, call, error type, message] case: the call throws
 * exactly that error (TypeError for a wrong kind of value, RangeError for a
 * value out of range, naming the argument and what is valid), and the model
 * still works after it.
 */
export function testWrongArguments(cases) {
  for (const [name, call, type, message] of cases) test(name, () => expectThrows(call, type, message));
}
