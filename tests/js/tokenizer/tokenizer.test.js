// The package's C++ tokenizer, through the public JS API, against
// independent implementations of the same tokenizer.json:
// - @huggingface/tokenizers (the JS port of Hugging Face tokenizers) for the
//   default model's tokenizer, GPT-2's and a hand-made one with
//   add_prefix_space and added tokens;
// - js-tiktoken and gpt-tokenizer, which carry GPT-2's own vocabulary;
// - Hugging Face's Rust library itself (the `tokenizers` package, a native
//   binding), for each of the three.
// Then round trips, of text and of every vocabulary entry, and the tokens'
// display form. The C++ code follows Hugging Face's Rust library. Where the
// JS oracles are known to read text differently from it (U+0085, U+FEFF,
// letters new in Unicode 17.0, some added-token options), those inputs are
// kept out of the oracle comparisons and pinned in
// oracle-differences.test.js instead. Added tokens by the thousand and with
// every flag are in added-tokens.test.js, the memory a tokenizer.json takes
// in bounds.test.js.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';

import { makeTokenizerJson } from '../helpers/fixtures.js';
import { GPT2_EOT } from '../helpers/gpt2.js';
import {
  BOM, NEL, TRICKY, UNICODE_17_LETTERS, byteLevelBytes, displayForm, longTexts, oracleSafe, randomCodePoints,
  randomText, storyTexts, uniformRandom, utf8Text,
} from '../helpers/text.js';
import {
  EOT, HAND_WORDS, assertAgree, compare, gptTokenizerEncode, hfDecode, hfEncode, idCount, loadDefaultTokenizer,
  loadGpt2Tokenizer, loadWithTokenizer, rustEncoder,
} from '../helpers/tokenizer-oracles.js';

const utf8 = new TextEncoder();

// ---- Set-up -------------------------------------------------------------------

let defaultJson, defaultModel, defaultHf;
let gpt2Json, gpt2Model, gpt2Hf, tiktoken;
let handJson, handModel, handHf;
let gpt2BuildMs = 0;

before(async () => {
  ({ json: defaultJson, model: defaultModel, hf: defaultHf } = await loadDefaultTokenizer());
  ({ json: gpt2Json, model: gpt2Model, hf: gpt2Hf, tiktoken, buildMs: gpt2BuildMs } = await loadGpt2Tokenizer());

  handJson = handMadeJson();
  handModel = await loadWithTokenizer(utf8.encode(JSON.stringify(handJson)), idCount(handJson));
  handHf = new Tokenizer(handJson, {});
});

after(() => {
  defaultModel?.dispose();
  gpt2Model?.dispose();
  handModel?.dispose();
});

// A small tokenizer with add_prefix_space and added tokens that strip
// whitespace, are not in the vocabulary, contain a space, or overlap.
// (single_word, and overlapping tokens with different "normalized" flags,
// are pinned in oracle-differences.test.js: @huggingface/tokenizers
// implements neither as the Rust library does. Here no normalized: false
// token can overlap a normalized: true one.)
const HAND_ADDED = [
  { content: '[MASK]', lstrip: true, rstrip: false, normalized: false, special: true },
  { content: '[SEP]', lstrip: false, rstrip: true, normalized: false, special: true },
  { content: '<pad>', lstrip: true, rstrip: true, normalized: false, special: true },
  { content: 'big dog', lstrip: false, rstrip: false, normalized: true, special: false },
  { content: '<|end', lstrip: false, rstrip: false, normalized: true, special: false },
];
function handMadeJson() {
  const json = JSON.parse(makeTokenizerJson(HAND_WORDS));
  json.pre_tokenizer.add_prefix_space = true;
  let id = Object.keys(json.model.vocab).length;
  for (const token of HAND_ADDED) json.added_tokens.push({ id: id++, single_word: false, ...token });
  return json;
}

// ---- Comparison ---------------------------------------------------------------

/**
 * encode() of each text, in a few calls: the texts joined by <|endoftext|>,
 * which every implementation cuts out before anything else, so each text is
 * encoded on its own exactly as in a call of its own (no text here contains
 * the special token, and it overlaps no text's ends: it has no period).
 */
function encodeEach(encode, texts, eotId, chunk = 4000) {
  const out = [];
  for (let i = 0; i < texts.length; i += chunk) {
    let current = [];
    for (const id of encode(texts.slice(i, i + chunk).join(EOT))) {
      if (id === eotId) { out.push(current); current = []; } else current.push(id);
    }
    out.push(current);
  }
  assert.equal(out.length, texts.length);
  return out;
}

const CORPUS = [...storyTexts(), ...TRICKY, ...longTexts()];
const randomTexts = (seed, count, maxParts) => {
  const random = uniformRandom(seed);
  return Array.from({ length: count }, () => randomText(random, maxParts));
};
const RANDOM = randomTexts(20240601, 2000, 12);
const RANDOM_LONG = randomTexts(7, 40, 400);

test('the test inputs are what the comparisons assume', () => {
  assert.ok(CORPUS.every(oracleSafe) && RANDOM.every(oracleSafe) && RANDOM_LONG.every(oracleSafe));
  assert.ok([...CORPUS, ...RANDOM, ...RANDOM_LONG].every((s) => s.isWellFormed()));
  assert.ok(RANDOM.some((s) => s.includes(EOT)) && RANDOM.some((s) => /\p{Extended_Pictographic}/u.test(s)));
  assert.ok(!oracleSafe(`a${NEL}`) && !oracleSafe(BOM) && !oracleSafe(UNICODE_17_LETTERS[0]));
});

// The pre-tokenizer's letter, number, whitespace and word tables are
// generated from this Node.js's Unicode data; a stale committed file would
// make the C++ tokenizer and the JS oracles read characters differently.
test('cpp/src/text/unicode/unicode_tables.inc is what tools/gen/unicode-tables.mjs makes', () => {
  const script = fileURLToPath(new URL('../../../tools/gen/unicode-tables.mjs', import.meta.url));
  const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stderr, /unicode_tables\.inc is up to date/);
});

// UnicodeScripts' table is the Rust library's data (Unicode 9.0.0's scripts).
test('cpp/src/text/pre_tokenizers/unicode_scripts_table.inc is what tools/gen/rust-scripts.mjs makes', () => {
  const script = fileURLToPath(new URL('../../../tools/gen/rust-scripts.mjs', import.meta.url));
  const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stderr, /unicode_scripts_table\.inc is up to date/);
});

// ---- 1. Default model's tokenizer ------------------------------------------------

describe('the default tokenizer (model/tokenizer.json), @huggingface/tokenizers and the Rust library', () => {
  test('loads with the ids the file has', () => {
    assert.equal(defaultModel.vocabSize, idCount(defaultJson));
    assert.equal(defaultModel.tokenId(EOT), defaultJson.model.vocab[EOT]);
  });

  test('the corpus, awkward strings and long runs encode to the same ids', async (t) => {
    const rust = await rustEncoder(defaultJson, CORPUS);
    assertAgree(t, 'default, corpus', compare(defaultModel, { hf: hfEncode(defaultHf), rust }, CORPUS));
  });

  test('seeded random strings encode to the same ids', async (t) => {
    const texts = [...RANDOM, ...RANDOM_LONG];
    assertAgree(t, 'default, random', compare(defaultModel, { hf: hfEncode(defaultHf), rust: await rustEncoder(defaultJson, texts) }, texts));
  });

  test('decode gives the same text, also for random ids that split UTF-8 characters', () => {
    const random = uniformRandom(99);
    const decodeHf = hfDecode(defaultHf);
    for (const text of [...CORPUS, ...RANDOM.slice(0, 300)]) {
      const ids = defaultModel.encode(text);
      assert.equal(defaultModel.decode(ids), decodeHf(ids), text);
    }
    for (let i = 0; i < 1000; i++) {
      const ids = Array.from({ length: 1 + Math.floor(random() * 8) }, () => Math.floor(random() * defaultModel.vocabSize));
      assert.equal(defaultModel.decode(ids), decodeHf(ids), JSON.stringify(ids));
    }
  });

  test('pinned ids', () => {
    // Bytes are ids 0-255 (id = byte value) and <|endoftext|> is the last id;
    // the rest are this file's merges (4,096 entries trained on TinyStories),
    // in merge order but for the chapter's three tokens, which have the
    // chapter's ids ("Lily" 665, " girl" 477, " boy" 497), each swapped with
    // the token that had it ("gether", " loved", " care": tools/training/renumber.py).
    assert.equal(defaultModel.vocabSize, 4096);
    const pinned = [
      ['Once upon a time, there was a little girl named Lily.', [415, 430, 258, 389, 44, 393, 280, 258, 383, 477, 437, 399, 46]],
      [' girl', [477]],
      [' boy', [497]],
      ['girl', [103, 441]],
      [' Lily', [399]],
      ['Lily', [665]],
      ['together', [1992, 445]],
      [' care', [635]],
      [' loved', [499]],
      ['Hello world', [1364, 1267]],
      ['She said, "Let\'s play!"\n', [1270, 324, 44, 322, 909, 381, 345, 423, 10]],
      ['12345', [49, 50, 51, 52, 53]],
      ['A', [65]], [' ', [32]], ['\n', [10]],
      [EOT, [4095]],
      [`The end.${EOT}Once`, [387, 821, 46, 4095, 415]],
    ];
    for (const [text, ids] of pinned) {
      assert.deepEqual(defaultModel.encode(text), ids, text);
      assert.deepEqual(defaultHf.encode(text).ids, ids, `oracle: ${text}`);
    }
  });
});

// ---- 1b. GPT-2 -------------------------------------------------------------------

describe('GPT-2: the package, @huggingface/tokenizers, js-tiktoken, gpt-tokenizer and the Rust library', () => {
  const gpt2Oracles = async (texts) => ({
    hf: hfEncode(gpt2Hf),
    'js-tiktoken': (s) => tiktoken.encode(s, 'all'),
    'gpt-tokenizer': gptTokenizerEncode,
    rust: await rustEncoder(gpt2Json, texts),
  });

  test('the tokenizer.json built from js-tiktoken\'s ranks has GPT-2\'s shape', (t) => {
    t.diagnostic(`merges recovered from the ranks in ${Math.round(gpt2BuildMs)} ms`);
    assert.equal(Object.keys(gpt2Json.model.vocab).length, 50257);
    assert.equal(gpt2Json.model.merges.length, 50000);
    // The first and last lines of GPT-2's merges.txt; its last token is "Ġgazed".
    assert.deepEqual(gpt2Json.model.merges.slice(0, 5), ['Ġ t', 'Ġ a', 'h e', 'i n', 'r e']);
    assert.equal(gpt2Json.model.merges.at(-1), 'Ġg azed');
    assert.equal(gpt2Json.model.vocab['Ġgazed'], 50255);
    assert.equal(gpt2Model.vocabSize, 50257);
  });

  test('the corpus, awkward strings and long runs encode to the same ids', async (t) => {
    assertAgree(t, 'GPT-2, corpus', compare(gpt2Model, await gpt2Oracles(CORPUS), CORPUS));
  });

  test('seeded random strings encode to the same ids', async (t) => {
    const texts = [...RANDOM, ...RANDOM_LONG];
    assertAgree(t, 'GPT-2, random', compare(gpt2Model, await gpt2Oracles(texts), texts));
  });

  test('decode gives the same text as @huggingface/tokenizers and js-tiktoken', () => {
    const random = uniformRandom(5);
    const decodeHf = hfDecode(gpt2Hf);
    for (let i = 0; i < 1000; i++) {
      const ids = Array.from({ length: 1 + Math.floor(random() * 8) }, () => Math.floor(random() * 50257));
      const text = gpt2Model.decode(ids);
      assert.equal(text, decodeHf(ids), JSON.stringify(ids));
      assert.equal(text, tiktoken.decode(ids), JSON.stringify(ids));
    }
  });

  test('pinned ids', () => {
    const pinned = [
      ['Hello world', [15496, 995]],
      ['Hello, world!', [15496, 11, 995, 0]],
      [' SolidGoldMagikarp', [43453]],
      ["It's", [1026, 338]],
      ['The quick brown fox', [464, 2068, 7586, 21831]],
      [EOT, [GPT2_EOT]],
      ['a b', [64, 275]],
      ['   x', [220, 220, 2124]],
    ];
    for (const [text, ids] of pinned) {
      assert.deepEqual(gpt2Model.encode(text), ids, text);
      assert.deepEqual(tiktoken.encode(text, 'all'), ids, `js-tiktoken: ${text}`);
    }
  });
});

// ---- 1c. Hand-made tokenizer -----------------------------------------------------

describe('a hand-made tokenizer with add_prefix_space and added tokens', () => {
  const withAdded = (seed, count) => {
    const random = uniformRandom(seed);
    const contents = [...HAND_ADDED.map((t) => t.content), EOT];
    const pads = ['', ' ', '  ', '\n', ' \t '];
    return Array.from({ length: count }, () => {
      let s = '';
      const n = 1 + Math.floor(random() * 5);
      for (let i = 0; i < n; i++) {
        s += randomText(random, 3);
        if (random() < 0.7) {
          s += pads[Math.floor(random() * pads.length)] + contents[Math.floor(random() * contents.length)] +
            pads[Math.floor(random() * pads.length)];
        }
      }
      return s;
    });
  };

  test('added token ids are the ones Hugging Face assigns', () => {
    const vocabSize = Object.keys(handJson.model.vocab).length;
    HAND_ADDED.forEach((token, i) => assert.equal(handModel.tokenId(token.content), vocabSize + i, token.content));
    assert.deepEqual(handModel.encode('[MASK]'), [vocabSize]);
  });

  test('the corpus, random strings and strings full of added tokens encode to the same ids', async (t) => {
    const texts = [...CORPUS, ...RANDOM.slice(0, 500), ...withAdded(3, 800),
      ' [MASK] ', 'a  [MASK]  b', 'x[SEP]   y', '\n<pad>\n', 'the big dog', 'a big dogs', '<|end<|endoftext|>', '<|endoftext'];
    assertAgree(t, 'hand-made', compare(handModel, { hf: hfEncode(handHf), rust: await rustEncoder(handJson, texts) }, texts));
  });

  test('decode keeps the prefix space and the added tokens', () => {
    const decodeHf = hfDecode(handHf);
    for (const text of withAdded(4, 200)) {
      const ids = handModel.encode(text);
      assert.equal(handModel.decode(ids), decodeHf(ids), text);
    }
    assert.equal(handModel.decode(handModel.encode('Lily saw')), ' Lily saw');
  });
});
// ---- 3. Round trips ----------------------------------------------------------------

describe('round trips', () => {
  test('decode(encode(s)) === s for the corpus and random text', (t) => {
    const random = uniformRandom(31337);
    // Any code points, U+0085, U+FEFF and Unicode 17.0 letters included: no oracle is involved.
    const anyText = Array.from({ length: 500 }, () => randomCodePoints(random, 1 + Math.floor(random() * 40)));
    const texts = [...CORPUS, ...RANDOM, ...RANDOM_LONG, ...anyText, NEL, BOM, UNICODE_17_LETTERS.join(' ')];
    for (const s of texts) assert.equal(defaultModel.decode(defaultModel.encode(s)), s, JSON.stringify(s));
    // Fewer for GPT-2: every encode() and decode() call asks malloc for its
    // free total (mallinfo, in bindings/embind.cpp), which walks the whole heap,
    // and GPT-2's tokenizer fills it with small blocks: about 1 ms a call.
    const some = texts.filter((_, i) => i % 3 === 0);
    for (const s of some) assert.equal(gpt2Model.decode(gpt2Model.encode(s)), s, JSON.stringify(s));
    t.diagnostic(`${texts.length} strings with the default tokenizer, ${some.length} with GPT-2's`);
  });

  /**
   * Every id of a tokenizer: the display form is the one docs/tokenizer.md
   * describes, tokenId() reads it back, and the token's own text (when its
   * bytes are whole UTF-8) encodes to that token alone unless BPE never
   * produces it alone. Returns the counts.
   */
  function vocabularyRoundTrip(model, json, oracle) {
    const vocabulary = model.vocabulary();
    assert.equal(vocabulary.length, model.vocabSize);
    const byId = new Map();
    for (const [token, id] of Object.entries(json.model.vocab)) byId.set(id, token);
    const special = new Set(json.added_tokens.map((t) => t.content));
    const texts = [], textIds = [];
    let notText = 0;
    for (let id = 0; id < model.vocabSize; id++) {
      const token = byId.get(id);
      const bytes = special.has(token) ? utf8.encode(token) : byteLevelBytes(token);
      const shown = special.has(token) ? token : displayForm(bytes);
      assert.equal(vocabulary[id], shown, `display form of ${id}`);
      assert.equal(model.tokenText(id), shown);
      assert.equal(model.tokenId(shown), id, `tokenId(${JSON.stringify(shown)})`);
      const raw = utf8Text(bytes);
      if (raw === null) notText++;
      else if (special.has(token)) assert.deepEqual(model.encode(raw), [id]);
      else { texts.push(raw); textIds.push(id); }
    }
    const eot = model.tokenId(EOT);
    const ours = encodeEach((s) => model.encode(s), texts, eot);
    const theirs = encodeEach((s) => oracle.encode(s).ids, texts, eot);
    let unreachable = 0, oracleUnreachable = 0;
    const examples = [];
    texts.forEach((raw, i) => {
      const id = textIds[i];
      assert.deepEqual(ours[i], theirs[i], `encode(${JSON.stringify(raw)})`);
      if (ours[i].length !== 1 || ours[i][0] !== id) {
        unreachable++;
        if (examples.length < 3) examples.push(`${model.tokenText(id)} -> ${ours[i].map((x) => model.tokenText(x)).join(' ')}`);
      }
      if (theirs[i].length !== 1 || theirs[i][0] !== id) oracleUnreachable++;
    });
    assert.equal(unreachable, oracleUnreachable);
    return { tokens: model.vocabSize, notText, texts: texts.length, unreachable, examples };
  }

  const report = (r) => `${r.tokens} tokens: ${r.notText} are not whole UTF-8 characters (no JS string has them alone); ` +
    `of the ${r.texts} others (special tokens aside), ${r.unreachable} are never produced alone, the same count as ` +
    `@huggingface/tokenizers${r.examples.length ? ` (e.g. ${r.examples.join('; ')})` : ''}`;

  test('every entry of the default vocabulary', (t) => {
    const r = vocabularyRoundTrip(defaultModel, defaultJson, defaultHf);
    t.diagnostic(report(r));
    assert.equal(r.tokens, 4096);
  });

  test('every entry of GPT-2\'s vocabulary', (t) => {
    const r = vocabularyRoundTrip(gpt2Model, gpt2Json, gpt2Hf);
    t.diagnostic(report(r));
    assert.equal(r.tokens, 50257);
  });
});

// ---- 5. Display form -----------------------------------------------------------

describe('display form', () => {
  test('"·Lily" and "Lily" are different tokens; "·" shows a leading space', () => {
    const spaced = defaultModel.tokenId('·Lily'), bare = defaultModel.tokenId('Lily');
    assert.notEqual(spaced, bare);
    assert.equal(defaultModel.tokenId(' Lily'), spaced);
    assert.equal(defaultModel.tokenText(spaced), '·Lily');
    assert.equal(defaultModel.tokenText(bare), 'Lily');
    assert.deepEqual(defaultModel.encode(' Lily'), [spaced]);
    assert.deepEqual(defaultModel.tokenize('Lily saw Lily').map((x) => x.text), ['Lily', '·saw', '·Lily']);
  });

  test('tokenId accepts "·girl" and " girl"', () => {
    const girl = defaultModel.tokenId('·girl');
    assert.equal(defaultModel.tokenId(' girl'), girl);
    assert.deepEqual(defaultModel.encode(' girl'), [girl]);
    assert.equal(defaultModel.tokenText(girl), '·girl');
    assert.equal(gpt2Model.tokenId('·girl'), gpt2Model.tokenId(' girl'));
    assert.equal(gpt2Model.tokenId(' girl'), 2576);
  });

  test('newlines, tabs, control bytes, partial characters and the marks themselves', () => {
    assert.equal(defaultModel.tokenText(10), '↵');
    assert.equal(defaultModel.tokenText(9), '⇥');
    assert.equal(defaultModel.tokenText(32), '·');
    assert.equal(defaultModel.tokenText(0), '<0x00>');
    assert.equal(defaultModel.tokenText(0xf0), '<0xF0>');
    assert.equal(defaultModel.tokenId('<0xF0>'), 0xf0);
    assert.equal(defaultModel.tokenText(4095), EOT);
    // GPT-2 has tokens for "·" itself (C2 B7) and for two bytes of an emoji.
    const dot = gpt2Model.encode('·');
    assert.equal(dot.length, 1);
    assert.equal(gpt2Model.tokenText(dot[0]), '<0xC2><0xB7>');
    assert.equal(gpt2Model.tokenId('<0xC2><0xB7>'), dot[0]);
    assert.equal(gpt2Model.tokenId('·'), gpt2Model.tokenId(' '));  // "·" is read as a display form first
    const emoji = gpt2Model.tokenize('😀');
    assert.deepEqual(emoji.map((x) => x.text), ['<0xF0><0x9F><0x98>', '<0x80>']);
  });
});
