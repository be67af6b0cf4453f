// Each pipeline component outside the five real files, against Hugging
// Face's Rust library (the `tokenizers` package loads any tokenizer.json):
// tokenizer.json files made here, one per component and setting, whose
// vocabulary and merges make every piece boundary and every byte show in
// the ids; encoded with add_special_tokens false, and decoded (encode's ids
// and random id sequences, which reach the decoders' corners).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import rustTokenizers from 'tokenizers';

import { loadModel } from '../../../web/index.js';
import { modelForTokenizer } from '../helpers/big-tokenizer.js';
import { precompiledCharsmap } from '../helpers/charsmap.js';
import { encodePairs } from '../helpers/rust-pairs.js';
import { assertSameOffsets } from '../helpers/offsets.js';
import { byteToUnicode } from '../helpers/fixtures.js';
import { TRICKY, oracleSafe, randomCodePoints, randomText, uniformRandom } from '../helpers/text.js';
import * as newer from '../helpers/unicode-versions.js';

const utf8 = new TextEncoder();
const hex = (b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`;

// Characters the made-up texts are drawn from: letters in both cases, digits
// of three scripts, ASCII and other punctuation, symbols, spaces of several
// kinds, the metaspace, marks, compatibility characters (ligatures, full-width
// and circled forms) and letters whose lowercase is longer.
const ALPHABET = Array.from('aAbB1٣５ .!$_-«»\n\t\u00A0\u3000▁é\u0301ﬁ①ＡİΣ#');
// The pairs of these that are merges, so pieces of two or more show.
const PAIRED = Array.from('ab1 .▁#A');

function madeTexts(seed, count = 400) {
  const random = uniformRandom(seed);
  const texts = [...TRICKY.slice(0, 60), '', ' ', '▁', '  a  ', 'a▁▁b', '##a', 'ab</w>', '<0x41>'];
  for (let i = 0; i < count; ++i) {
    let text = '';
    const length = 1 + Math.floor(random() * 14);
    for (let j = 0; j < length; ++j) text += ALPHABET[Math.floor(random() * ALPHABET.length)];
    texts.push(text);
  }
  for (let i = 0; i < 100; ++i) texts.push(randomText(random, 4));
  for (let i = 0; i < 100; ++i) {
    const text = randomCodePoints(random, 1 + Math.floor(random() * 8));
    // (Characters whose Unicode data the Rust library lacks have a test of their own, below.)
    if (oracleSafe(text) && newer.olderUnicodeSafe(text)) texts.push(text);
  }
  return texts.filter((text) => text.isWellFormed());
}

// A vocabulary spelled as text (no ByteLevel stage): <unk>, the 256 byte
// tokens of byte_fallback, each character of ALPHABET (with the prefix and
// suffix forms when asked) and a merge for each pair of PAIRED.
function textTokenizer({ normalizer = null, preTokenizer = null, decoder = null, prefix = null, suffix = null, ignoreMerges = false, byteFallback = true } = {}) {
  const vocab = { '<unk>': 0 };
  const add = (token) => { if (!(token in vocab)) vocab[token] = Object.keys(vocab).length; };
  for (let b = 0; b < 256; ++b) add(hex(b));
  for (const c of ALPHABET) {
    add(c);
    if (prefix) add(prefix + c);
    if (suffix) add(c + suffix);
    if (prefix && suffix) add(prefix + c + suffix);
  }
  const merges = [];
  for (const left of PAIRED) {
    for (const right of PAIRED) {
      // tokenizers makes a merge's token of the left side and the right
      // side less the prefix's length, so with a prefix every right side has it.
      const rights = prefix ? [prefix + right] : [right];
      if (suffix) rights.push(rights[0] + suffix);
      for (const a of prefix ? [left, prefix + left] : [left]) {
        for (const b of rights) {
          add(a + (prefix ? b.slice(prefix.length) : b));
          merges.push([a, b]);
        }
      }
    }
  }
  add('ab1');  // Whole-piece token for ignore_merges.
  return {
    version: '1.0', truncation: null, padding: null, added_tokens: [{ id: 0, content: '<unk>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer, pre_tokenizer: preTokenizer, post_processor: null, decoder,
    model: { type: 'BPE', dropout: null, unk_token: '<unk>', continuing_subword_prefix: prefix, end_of_word_suffix: suffix, fuse_unk: true, byte_fallback: byteFallback, ignore_merges: ignoreMerges, vocab, merges },
  };
}

// A GPT-2-style vocabulary (ByteLevel, no merges): the ids are the text's
// bytes after the normalizer.
function byteTokenizer(normalizer) {
  const vocab = {};
  byteToUnicode().forEach((ch, i) => { vocab[ch] = i; });
  return {
    version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
    post_processor: null, decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, vocab, merges: [] },
  };
}

// Offsets are compared wherever the Rust library's are where its tokens
// are. With byte_fallback and a continuing_subword_prefix or
// end_of_word_suffix, it counts the affix's bytes into the "<0xNN>" tokens
// of a character it has no token for, and their offsets (and every one
// after them in the word) then point past the character, or past the text
// (docs/tokenizer.md#offsets); no real file combines them.
const BYTE_TOKEN = /^<0x[0-9A-F]{2}>$/;
function offsetsComparable(json, encoding) {
  const { byte_fallback: fallback, continuing_subword_prefix: prefix, end_of_word_suffix: suffix } = json.model;
  return !(fallback && (prefix || suffix) && encoding.getTokens().some((token) => BYTE_TOKEN.test(token)));
}

async function compare(json, texts, what, { randomIds = 0 } = {}) {
  const text = JSON.stringify(json);
  let rows = 0;
  for (const id of [...Object.values(json.model.vocab), ...json.added_tokens.map((t) => t.id)]) rows = Math.max(rows, id + 1);
  const model = await loadModel(modelForTokenizer(utf8.encode(text), rows));
  const rust = rustTokenizers.Tokenizer.fromString(text);
  try {
    const encodings = await rust.encodeBatch(texts, { addSpecialTokens: false });
    const ids = encodings.map((e) => Array.from(e.getIds()));
    const random = uniformRandom(rows + texts.length);
    for (let i = 0; i < randomIds; ++i) {
      ids.push(Array.from({ length: 1 + Math.floor(random() * 8) }, () => Math.floor(random() * rows)));
    }
    const decoded = await rust.decodeBatch(ids, false);
    texts.forEach((input, i) => {
      assert.deepEqual(model.encode(input), ids[i], `${what}: ids of ${JSON.stringify(input)}`);
      if (offsetsComparable(json, encodings[i])) assertSameOffsets(model, encodings[i], input, {}, `${what}: ${JSON.stringify(input)}`);
      else assert.deepEqual(model.encode(input, { offsets: true }).ids, ids[i], `${what}: ids of ${JSON.stringify(input)} with offsets`);
    });
    ids.forEach((sequence, i) => {
      assert.equal(model.decode(sequence), decoded[i], `${what}: decoding ${JSON.stringify(sequence)}`);
    });
  } finally {
    model.dispose();
  }
}

test('normalizers NFKC, NFKD, Lowercase, Strip, Prepend, Replace and Sequence give Rust\'s ids', async () => {
  const texts = madeTexts(1, 600);
  const normalizers = [
    { type: 'NFKC' }, { type: 'NFKD' }, { type: 'Lowercase' },
    { type: 'Strip', strip_left: true, strip_right: true }, { type: 'Strip', strip_left: true, strip_right: false },
    { type: 'Strip', strip_left: false, strip_right: true },
    { type: 'Prepend', prepend: '▁' }, { type: 'Prepend', prepend: '>>' },
    { type: 'Replace', pattern: { String: ' ' }, content: '▁' }, { type: 'Replace', pattern: { String: 'ab' }, content: '' },
    { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' }, { type: 'Replace', pattern: { Regex: '\\p{N}' }, content: '#' },
    { type: 'Sequence', normalizers: [{ type: 'NFKD' }, { type: 'Lowercase' }, { type: 'Strip', strip_left: true, strip_right: true }, { type: 'Prepend', prepend: '▁' }] },
    { type: 'Sequence', normalizers: [] },
  ];
  for (const normalizer of normalizers) await compare(byteTokenizer(normalizer), texts, JSON.stringify(normalizer));
  // NFKC and NFKD give String.prototype.normalize's text.
  for (const form of ['NFKC', 'NFKD']) {
    const json = byteTokenizer({ type: form });
    let rows = 0;
    for (const id of Object.values(json.model.vocab)) rows = Math.max(rows, id + 1);
    const model = await loadModel(modelForTokenizer(utf8.encode(JSON.stringify(json)), rows));
    for (const input of texts) assert.deepEqual(model.encode(input), Array.from(utf8.encode(input.normalize(form))), `${form} of ${JSON.stringify(input)}`);
    model.dispose();
  }
});

test('pre-tokenizers Metaspace, Whitespace, WhitespaceSplit, Digits, Punctuation and Sequence cut where Rust cuts', async () => {
  const texts = madeTexts(2);
  const behaviors = ['Removed', 'Isolated', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous'];
  const preTokenizers = [
    ...['always', 'first', 'never'].flatMap((scheme) => [true, false].map((split) => ({ type: 'Metaspace', replacement: '▁', prepend_scheme: scheme, split }))),
    { type: 'Metaspace', replacement: '#', prepend_scheme: 'always', split: true },
    { type: 'Whitespace' }, { type: 'WhitespaceSplit' }, { type: 'Digits', individual_digits: false }, { type: 'Digits', individual_digits: true },
    ...behaviors.map((behavior) => ({ type: 'Punctuation', behavior })),
    ...behaviors.flatMap((behavior) => [false, true].map((invert) => ({ type: 'Split', pattern: { String: '▁' }, behavior, invert }))),
    { type: 'Sequence', pretokenizers: [{ type: 'WhitespaceSplit' }, { type: 'Digits', individual_digits: true }, { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: true }] },
    { type: 'Sequence', pretokenizers: [{ type: 'Punctuation', behavior: 'Isolated' }, { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false }] },
  ];
  for (const preTokenizer of preTokenizers) {
    const json = textTokenizer({ preTokenizer, decoder: { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Fuse' }] } });
    await compare(json, texts, JSON.stringify(preTokenizer));
    // The same in front of added tokens, whose neighbours Metaspace's "first" tells apart.
    json.added_tokens.push({ id: Object.keys(json.model.vocab).length, content: '<x>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: false });
    await compare(json, texts.slice(0, 120).map((t, i) => (i % 2 ? `<x>${t}` : `${t}<x> ${t}`)), `${JSON.stringify(preTokenizer)} with an added token`);
  }
});

test('BPE: byte_fallback, unk_token, ignore_merges, continuing_subword_prefix and end_of_word_suffix as Rust has them', async () => {
  const texts = madeTexts(3);
  const settings = [
    { byteFallback: true }, { byteFallback: false }, { ignoreMerges: true },
    { prefix: '##' }, { suffix: '</w>' }, { prefix: '##', suffix: '</w>' }, { prefix: '##', byteFallback: false },
  ];
  for (const setting of settings) {
    const json = textTokenizer({ preTokenizer: { type: 'WhitespaceSplit' }, ...setting });
    await compare(json, texts, JSON.stringify(setting));
  }
});

test('decoders Metaspace, WordPiece, Strip, Replace, ByteFallback, Fuse and Sequence give Rust\'s text, for any ids', async () => {
  const texts = madeTexts(4, 200);
  const decoders = [
    ...['always', 'first', 'never'].map((scheme) => ({ type: 'Metaspace', replacement: '▁', prepend_scheme: scheme, split: true })),
    { type: 'WordPiece', prefix: '##', cleanup: true }, { type: 'WordPiece', prefix: '##', cleanup: false }, { type: 'WordPiece', prefix: '▁', cleanup: true },
    { type: 'Strip', content: ' ', start: 2, stop: 0 }, { type: 'Strip', content: 'a', start: 0, stop: 1 },
    { type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'Replace', pattern: { Regex: '[ab]+' }, content: '' },
    { type: 'ByteFallback' }, { type: 'Fuse' },
    { type: 'Sequence', decoders: [{ type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'ByteFallback' }, { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }] },
    { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true }] },
    null,
  ];
  for (const decoder of decoders) {
    const json = textTokenizer({ preTokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true }, decoder, prefix: '##' });
    await compare(json, texts, JSON.stringify(decoder), { randomIds: 600 });
  }
});

// BERT's model and pre-tokenizer, on a vocabulary of the characters, their
// "##" forms and some longer pieces, so the greedy longest match shows.
function wordPieceTokenizer({ preTokenizer, maxChars = 8, normalizer = null }) {
  const vocab = { '[UNK]': 0 };
  const add = (token) => { if (!(token in vocab)) vocab[token] = Object.keys(vocab).length; };
  for (const c of ALPHABET.filter((c) => c !== 'ﬁ')) { add(c); add(`##${c}`); }
  for (const word of ['ab', 'abA', 'a1', '##ab', '##b1', '##bA', 'AB', '##AB', '1١', '..', '##..']) add(word);
  return {
    version: '1.0', truncation: null, padding: null, added_tokens: [{ id: 0, content: '[UNK]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer, pre_tokenizer: preTokenizer,
    post_processor: { type: 'TemplateProcessing', single: [{ SpecialToken: { id: '[UNK]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }], pair: [{ Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }], special_tokens: { '[UNK]': { id: '[UNK]', ids: [0], tokens: ['[UNK]'] } } },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: maxChars, vocab },
  };
}

test('the WordPiece model (BERT\'s, with BertPreTokenizer and the WordPiece decoder) gives Rust\'s ids and text', async () => {
  const texts = madeTexts(5);
  for (const preTokenizer of [{ type: 'BertPreTokenizer' }, { type: 'Whitespace' }, { type: 'WhitespaceSplit' }]) {
    for (const maxChars of [3, 8, 100]) {
      await compare(wordPieceTokenizer({ preTokenizer, maxChars }), texts, `WordPiece ${preTokenizer.type} ${maxChars}`, { randomIds: 200 });
    }
  }
  await compare(wordPieceTokenizer({ preTokenizer: { type: 'BertPreTokenizer' }, normalizer: { type: 'Sequence', normalizers: [{ type: 'NFD' }, { type: 'Lowercase' }] } }), texts, 'WordPiece, NFD and Lowercase');
});

// The Rust crates' Unicode data are older than Node's, from which this
// package's tables are generated (tools/gen/unicode-tables.mjs): characters
// given a compatibility or canonical decomposition, or given or taken the
// category Punctuation, by later versions follow Unicode 17.0 here and the
// older data there. tools/gen/unicode-versions.mjs finds every such code point by
// putting all of them through both; this pins that list.
test('characters newer than the Rust library\'s Unicode data follow Unicode here, and only those differ', async () => {
  const codes = (ranges) => ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));
  const check = async (json, list, expected, what) => {
    const texts = codes(list).map((code) => `a${String.fromCodePoint(code)}a`);
    assert.ok(texts.length > 0, what);
    const text = JSON.stringify(json);
    const model = await loadModel(modelForTokenizer(utf8.encode(text), 256));
    const rust = rustTokenizers.Tokenizer.fromString(text);
    const encodings = await rust.encodeBatch(texts, { addSpecialTokens: false });
    texts.forEach((input, i) => {
      const ours = model.encode(input);
      assert.deepEqual(ours, Array.from(utf8.encode(expected(input))), `${what}: ${JSON.stringify(input)}`);
      assert.notDeepEqual(Array.from(encodings[i].getIds()), ours, `${what}: the Rust library should differ on ${JSON.stringify(input)}`);
    });
    model.dispose();
  };
  for (const form of ['NFD', 'NFKC', 'NFKD']) {
    await check(byteTokenizer({ type: form }), newer[`${form}_NEWER`], (input) => input.normalize(form), form);
  }
  const punctuation = byteTokenizer(null);
  punctuation.pre_tokenizer = { type: 'Sequence', pretokenizers: [{ type: 'Punctuation', behavior: 'Removed' }, punctuation.pre_tokenizer] };
  // (Some are no longer punctuation, as U+166D, a symbol since Unicode 12.)
  await check(punctuation, newer.PUNCTUATION_NEWER, (input) => input.replace(/\p{P}/gu, ''), 'Punctuation');
  // Everything else agrees on every code point.
  for (const name of ['NFC', 'LOWERCASE', 'WHITESPACE', 'WHITESPACESPLIT']) assert.deepEqual(newer[`${name}_NEWER`], [], name);
  // The digits differ only on the 13 numbers new in Unicode 17.0
  // (docs/tokenizer.md), which the Rust library does not know.
  assert.equal(codes(newer.DIGITS_NEWER).length, 13);
  for (const code of codes(newer.DIGITS_NEWER)) assert.match(String.fromCodePoint(code), /^\p{N}$/u, code.toString(16));
});

// ---- The components added since: each kind tokenizer.json names -------------------

test('normalizers Nmt, ByteLevel, Precompiled (SentencePiece\'s charsmap) and BertNormalizer give Rust\'s ids', async () => {
  const texts = [...madeTexts(6, 300), 'a\r\nb', 'e\u0301 é\u0301 Ａ\u0301 x', 'ﬁ①™ß\t\u3000\u200B\u2581\uFFFD', '\u0001\u007F\u008F', '中文 漢字かな한국어', 'Ça va? ÉTÉ\u0085\u00A0x'];
  // What SentencePiece's nmt_nfkc charsmap holds, in small: single characters,
  // a key that is a prefix of another, a decomposed sequence, CR (so CR LF,
  // one grapheme, becomes one space, as in the Rust library).
  const charsmap = precompiledCharsmap({
    'Ａ': 'A', 'ﬁ': 'fi', '①': '1', '™': 'TM', 'ß': 'ss', '\t': ' ', '\r': ' ', '\u3000': ' ',
    'é': 'e', 'e\u0301': 'é', 'ab': 'Z', 'a': 'á',
  });
  assert.match(charsmap, /=$/);
  const normalizers = [
    { type: 'Nmt' }, { type: 'ByteLevel' },
    { type: 'Precompiled', precompiled_charsmap: charsmap },
    // Without its padding, as the Rust library reads it too (issue 34).
    { type: 'Precompiled', precompiled_charsmap: charsmap.replace(/=+$/, '') },
    { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    { type: 'BertNormalizer', clean_text: false, handle_chinese_chars: false, strip_accents: true, lowercase: false },
    { type: 'Sequence', normalizers: [{ type: 'Nmt' }, { type: 'Precompiled', precompiled_charsmap: charsmap }, { type: 'Replace', pattern: { String: ' ' }, content: '▁' }] },
  ];
  for (const normalizer of normalizers) await compare(byteTokenizer(normalizer), texts, JSON.stringify(normalizer).slice(0, 80));
});

test('pre-tokenizers CharDelimiterSplit, FixedLength and UnicodeScripts cut where Rust cuts', async () => {
  const texts = madeTexts(7);
  const preTokenizers = [
    { type: 'CharDelimiterSplit', delimiter: ' ' }, { type: 'CharDelimiterSplit', delimiter: '▁' },
    { type: 'FixedLength', length: 1 }, { type: 'FixedLength', length: 3 }, { type: 'UnicodeScripts' },
    { type: 'Sequence', pretokenizers: [{ type: 'CharDelimiterSplit', delimiter: 'a' }, { type: 'FixedLength', length: 2 }] },
  ];
  for (const preTokenizer of preTokenizers) {
    await compare(textTokenizer({ preTokenizer, decoder: { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Fuse' }] } }), texts, JSON.stringify(preTokenizer));
  }
});

test('decoders BPEDecoder and CTC give Rust\'s text, for any ids', async () => {
  const texts = madeTexts(8, 150);
  const decoders = [
    { type: 'BPEDecoder', suffix: '</w>' }, { type: 'BPEDecoder', suffix: 'a' }, { type: 'BPEDecoder', suffix: '' },
    { type: 'CTC', pad_token: '<unk>', word_delimiter_token: '▁', cleanup: true },
    { type: 'CTC', pad_token: 'a', word_delimiter_token: ' ', cleanup: false },
    { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'CTC', pad_token: '<unk>', word_delimiter_token: '.', cleanup: true }] },
  ];
  for (const decoder of decoders) {
    const json = textTokenizer({ preTokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true }, decoder, suffix: '</w>' });
    await compare(json, texts, JSON.stringify(decoder), { randomIds: 400 });
  }
});

// With add_special_tokens, single texts and pairs; and decoding with and
// without the special tokens.
async function compareSpecial(json, texts, what) {
  const text = JSON.stringify(json);
  let rows = 0;
  for (const id of [...Object.values(json.model.vocab), ...json.added_tokens.map((t) => t.id)]) rows = Math.max(rows, id + 1);
  const model = await loadModel(modelForTokenizer(utf8.encode(text), rows));
  const rust = rustTokenizers.Tokenizer.fromString(text);
  const pairs = texts.slice(0, 60).map((t, i) => [t, texts[(i * 5 + 1) % texts.length]]);
  try {
    for (const addSpecialTokens of [false, true]) {
      const singles = await rust.encodeBatch(texts, { addSpecialTokens });
      texts.forEach((input, i) => {
        assert.deepEqual(model.encode(input, { addSpecialTokens }), Array.from(singles[i].getIds()), `${what}: ${JSON.stringify(input)} (${addSpecialTokens})`);
        assertSameOffsets(model, singles[i], input, { addSpecialTokens }, `${what}: ${JSON.stringify(input)} (${addSpecialTokens})`);
      });
      const both = await encodePairs(rust, pairs, { addSpecialTokens });
      pairs.forEach(([a, b], i) => {
        assert.deepEqual(model.encode(a, { pair: b, addSpecialTokens }), Array.from(both[i].getIds()), `${what}: the pair ${JSON.stringify([a, b])} (${addSpecialTokens})`);
        assertSameOffsets(model, both[i], a, { pair: b, addSpecialTokens }, `${what}: the pair ${JSON.stringify([a, b])} (${addSpecialTokens})`);
      });
      const ids = [...singles, ...both].map((e) => Array.from(e.getIds()));
      for (const skipSpecialTokens of [false, true]) {
        const decoded = await rust.decodeBatch(ids, skipSpecialTokens);
        ids.forEach((sequence, i) => assert.equal(model.decode(sequence, { skipSpecialTokens }), decoded[i], `${what}: decoding ${JSON.stringify(sequence)} (${skipSpecialTokens})`));
      }
    }
  } finally {
    model.dispose();
  }
}

test('post-processors TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel and Sequence add Rust\'s special tokens', async () => {
  const texts = madeTexts(9, 120);
  const base = textTokenizer({ preTokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true }, decoder: { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Fuse' }] } });
  const next = Object.keys(base.model.vocab).length;
  base.added_tokens.push(...['<s>', '</s>', '[CLS]', '[SEP]'].map((content, i) => ({ id: next + i, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })));
  const token = (id) => ({ SpecialToken: { id, type_id: 0 } });
  const sequence = (id, typeId = 0) => ({ Sequence: { id, type_id: typeId } });
  const special = { '<s>': { id: '<s>', ids: [next], tokens: ['<s>'] }, '</s>': { id: '</s>', ids: [next + 1, next], tokens: ['</s>', '<s>'] } };
  const processors = [
    { type: 'TemplateProcessing', single: [token('<s>'), sequence('A')], pair: [token('<s>'), sequence('A'), token('</s>'), sequence('B', 1), token('</s>')], special_tokens: special },
    { type: 'TemplateProcessing', single: [sequence('A'), token('</s>')], pair: [sequence('B'), token('<s>'), sequence('A')], special_tokens: special },
    { type: 'BertProcessing', sep: ['[SEP]', next + 3], cls: ['[CLS]', next + 2] },
    { type: 'RobertaProcessing', sep: ['</s>', next + 1], cls: ['<s>', next], trim_offsets: true, add_prefix_space: true },
    { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    { type: 'Sequence', processors: [{ type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: true }, { type: 'BertProcessing', sep: ['[SEP]', next + 3], cls: ['[CLS]', next + 2] }] },
  ];
  for (const processor of processors) await compareSpecial({ ...base, post_processor: processor }, texts, JSON.stringify(processor).slice(0, 80));
});

// Issue 25's four cases, and more: an added token with "normalized": true is
// matched in the normalized text, its own content normalized first. (NFKC's
// token is "ﬁ①", not "ﬁ", and Prepend's "a!", not "ab": those are in this
// vocabulary already, and an added token whose id differs from the
// vocabulary's is refused here.)
test('added tokens with normalized: true are matched in the normalized text, as Rust matches them', async () => {
  const texts = ['<X> a<X>b <x>', 'ﬁ① aﬁ① fi1 ﬁ', '<x> <b> x', 'a ab ab', 'a! a a! !▁', 'AB ab', ...madeTexts(10, 100)];
  const cases = [
    [{ type: 'Lowercase' }, ['<X>', 'AB']], [{ type: 'NFKC' }, ['ﬁ①']],
    [{ type: 'Replace', pattern: { String: 'x' }, content: 'b' }, ['<x>']],
    [{ type: 'Prepend', prepend: '▁' }, ['a!', '!▁']],
    [{ type: 'Sequence', normalizers: [{ type: 'NFKD' }, { type: 'Lowercase' }] }, ['É', 'ﬁ①', '<X>']],
  ];
  for (const [normalizer, contents] of cases) {
    const json = textTokenizer({ normalizer, preTokenizer: { type: 'WhitespaceSplit' }, decoder: { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Fuse' }] } });
    const next = Object.keys(json.model.vocab).length;
    contents.forEach((content, i) => json.added_tokens.push({ id: next + i, content, single_word: false, lstrip: false, rstrip: false, normalized: true, special: i === 0 }));
    await compareSpecial(json, texts, `added tokens ${contents.join(' ')} after ${JSON.stringify(normalizer)}`);
  }
});

// ---- Issue 34: Rust's ids in three more corners -------------------------------------

// Metaspace's "first" prepends only to a piece whose first character came
// from the text's first (the Rust library's offsets), so after a normalizer
// that takes that character out, with a Split after or not, no "▁".
test('Metaspace\'s prepend_scheme "first" after normalizers that take the first characters out, as Rust decides it', async () => {
  const leads = ['', '\u0001', '\u0002\u0003', '\u0301', '\u0301\u0302', ' ', '  ', '\t', 'x', 'xx', '\u200B', '\u00AD', '\uFFFD', 'é', 'X'];
  // (Marks only of U+0300 to U+036F: StripAccents' table in the Rust library is older than Unicode 17's.)
  const texts = madeTexts(11, 40).filter((text, i) => i % 6 === 0 && !/[^\u0300-\u036F\P{M}]/u.test(text))
    .flatMap((text, i) => [leads[i % leads.length] + text, leads[(i * 7 + 3) % leads.length] + leads[i % leads.length] + text]);
  const charsmap = precompiledCharsmap({ x: '', '\u200B': '', 'e\u0301': 'é', a: 'á' });
  const normalizers = [
    { type: 'Nmt' },
    { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: false },
    { type: 'Sequence', normalizers: [{ type: 'NFD' }, { type: 'StripAccents' }] },
    { type: 'Strip', strip_left: true, strip_right: false }, { type: 'Strip', strip_left: false, strip_right: true },
    { type: 'Replace', pattern: { String: 'x' }, content: '' }, { type: 'Replace', pattern: { Regex: '\\s+' }, content: '' },
    { type: 'Replace', pattern: { String: 'x' }, content: 'y' },
    { type: 'Precompiled', precompiled_charsmap: charsmap },
    { type: 'Sequence', normalizers: [{ type: 'Strip', strip_left: true, strip_right: true }, { type: 'Prepend', prepend: '>' }] },
    { type: 'Lowercase' },
  ];
  const metaspace = (split) => ({ type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split });
  for (const normalizer of normalizers) {
    for (const preTokenizer of [metaspace(false), { type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { String: ' ' }, behavior: 'Isolated', invert: false }, metaspace(true)] }]) {
      const json = textTokenizer({ normalizer, preTokenizer, decoder: { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Fuse' }] } });
      await compare(json, texts, `${JSON.stringify(normalizer).slice(0, 60)} then ${JSON.stringify(preTokenizer).slice(0, 60)}`);
    }
  }
  // Text a normalizer writes before the first character, from it, and cut
  // out as an added token: what follows that token came from the first
  // character too, so it is the start.
  const json = textTokenizer({ normalizer: { type: 'Replace', pattern: { String: 'q' }, content: '<x>q' }, preTokenizer: metaspace(true), decoder: { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Fuse' }] } });
  json.added_tokens.push({ id: Object.keys(json.model.vocab).length, content: '<x>', single_word: false, lstrip: false, rstrip: false, normalized: true, special: false });
  await compare(json, ['qa', 'aqa', 'q', 'qq a', ...texts.slice(0, 40).map((text) => `q${text}`)], 'Replace q with <x>q, <x> an added token, then Metaspace');
});

// UnicodeScripts with the Rust library's own table (Unicode 9.0.0's scripts,
// tools/gen/rust-scripts.mjs): every code point in order, and 200,000 of
// them shuffled, so that each one's script (or Any) shows against its
// neighbours' (every code point of both orders agreed when this was written). A
// Metaspace after it puts "▁" before each piece, so the ids show the cuts.
test('UnicodeScripts cuts every code point where Rust cuts it', async () => {
  const json = byteTokenizer(null);
  json.pre_tokenizer = { type: 'Sequence', pretokenizers: [{ type: 'UnicodeScripts' }, { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: false }, json.pre_tokenizer] };
  const text = JSON.stringify(json);
  const model = await loadModel(modelForTokenizer(utf8.encode(text), 256));
  const rust = rustTokenizers.Tokenizer.fromString(text);
  const codes = [];
  for (let code = 0; code <= 0x10ffff; ++code) if (code < 0xd800 || code > 0xdfff) codes.push(code);
  const shuffled = codes.slice();
  const random = uniformRandom(34);
  for (let i = shuffled.length - 1; i > 0; --i) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const texts = [];
  for (const order of [codes, shuffled.slice(0, 200000)]) {
    for (let i = 0; i < order.length; i += 8192) texts.push(String.fromCodePoint(...order.slice(i, i + 8192)));
  }
  texts.push('🫠', 'a🫠b', '한漢', 'どこで生れ。Yes', 'Apples are りんご 林檎');
  const encodings = await rust.encodeBatch(texts, { addSpecialTokens: false });
  texts.forEach((input, i) => {
    const ours = model.encode(input), theirs = encodings[i].getIds();
    assert.ok(ours.length === theirs.length && ours.every((id, j) => id === theirs[j]), `the ids of text ${i} (from U+${input.codePointAt(0).toString(16)})`);
  });
  assert.deepEqual(model.encode('🫠'), []);
  model.dispose();
});
