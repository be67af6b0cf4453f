// The model's tokens as users ask for them: tokenId and tokenText in the
// chapter's display form, encode and decode against Hugging Face tokenizers;
// each given wrong arguments, and decode given an array whose ids change
// when read again.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { fixture, vocabSize, model, loadTheModel, fixtureOracle, stillWorks, testWrongArguments } from '../helpers/shared-model.js';

before(loadTheModel);
after(() => model.dispose());

const oracle = fixtureOracle();

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

describe('wrong arguments', () => {
  testWrongArguments([
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
  ]);
});

test('decode reads each id once: what is checked is what is decoded, and an error says "decode:" once', () => {
  const ids = model.encode('Lily saw Max');
  let reads = 0;
  // The second read of place 1 would be an id past the vocabulary.
  const fickle = new Proxy(ids, {
    get(target, key, receiver) {
      if (key === '1') return reads++ === 0 ? target[1] : 1e9;
      return Reflect.get(target, key, receiver);
    },
  });
  assert.equal(model.decode(fickle), 'Lily saw Max');
  assert.equal(reads, 1);
  const bad = new Proxy(ids, { get: (target, key, receiver) => (key === '2' ? -1 : Reflect.get(target, key, receiver)) });
  assert.throws(() => model.decode(bad), (error) => {
    assert.equal(error.constructor, RangeError);
    assert.match(error.message, /^decode: ids\[2\] is -1, and token id -1 does not exist; valid token ids are 0 to \d+$/);
    assert.ok(!error.message.includes('decode: decode:'), error.message);
    return true;
  });
  stillWorks();
});
