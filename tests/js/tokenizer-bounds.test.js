// Issue 23, items 1 and 2, in the WebAssembly module: a pre-tokenizer
// Sequence of 1,200 stages gives the Rust library's ids; a normalizer or a
// decoder that would make the text longer than memory holds is refused by
// name (a RangeError), having counted first, and the model works after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import rust from 'tokenizers';

import { loadModel } from '../../web/index.js';
import { modelForTokenizer } from './helpers/big-tokenizer.js';

const utf8 = new TextEncoder();
const VOCAB = { '<unk>': 0, a: 1, b: 2, c: 3, abc: 4, ' ': 5, 1: 6 };

function tokenizer({ normalizer = null, preTokenizer = null, decoder = null }) {
  return JSON.stringify({
    version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer, pre_tokenizer: preTokenizer, post_processor: null, decoder,
    model: { type: 'WordLevel', vocab: VOCAB, unk_token: '<unk>' },
  });
}

const load = (json) => loadModel(modelForTokenizer(utf8.encode(json), Object.keys(VOCAB).length, 8));
const replace = (from, to) => ({ type: 'Replace', pattern: { String: from }, content: to });

test('a pre-tokenizer Sequence of 1,200 stages is applied without recursion, as Rust applies it', async () => {
  const stages = Array.from({ length: 1200 }, (_, i) => (i % 2 ? { type: 'Split', pattern: { String: ' ' }, behavior: 'Isolated', invert: false } : { type: 'Digits', individual_digits: true }));
  const json = tokenizer({ preTokenizer: { type: 'Sequence', pretokenizers: stages } });
  const model = await load(json);
  const text = 'abc 1'.repeat(200);
  const theirs = await rust.Tokenizer.fromString(json).encode(text, null, { addSpecialTokens: false });
  const ours = model.encode(text);
  assert.equal(ours.length, 600);
  assert.deepEqual(ours, Array.from(theirs.getIds()));
  model.dispose();
});

test('text that would grow past memory is refused by name, and the model works after', async () => {
  // Each "a" becomes 100,000 "b": 40,000 of them would be 4 GB.
  const model = await load(tokenizer({ normalizer: replace('a', 'b'.repeat(100000)), decoder: replace('a', 'b'.repeat(100000)) }));
  assert.throws(() => model.encode('a'.repeat(40000)), (error) => error instanceof RangeError && /^encode: a stage would make the text .* MiB longer, more than the .* MiB there is memory for$/.test(error.message));
  assert.throws(() => model.decode(new Array(40000).fill(VOCAB.a)), (error) => error instanceof RangeError && /^decode: a decoder would make the text .* MiB longer/.test(error.message));
  assert.throws(() => model.trace('a'.repeat(40000)), RangeError);
  assert.deepEqual(model.encode('c'), [VOCAB.c]);
  assert.equal(model.decode([VOCAB.c, VOCAB.a]), `c${'b'.repeat(100000)}`);
  model.dispose();
  // 27 chained doublings of "a": 2^27 bytes from one, refused once past what memory holds.
  const doubling = await load(tokenizer({ normalizer: { type: 'Sequence', normalizers: Array.from({ length: 27 }, () => replace('a', 'aa')) } }));
  assert.throws(() => doubling.encode('a'), RangeError);
  assert.deepEqual(doubling.encode('c'), [VOCAB.c]);
  doubling.dispose();
});
