// Added tokens in the package's C++ tokenizer: thousands of them, many the
// prefixes of others (as Gemma 3 and Llama 3 carry them), against
// @huggingface/tokenizers and Hugging Face's Rust library; and lstrip,
// rstrip, single_word and normalized in every combination, against the Rust
// library.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from '@huggingface/tokenizers';

import { makeTokenizerJson } from '../helpers/fixtures.js';
import { randomText, uniformRandom } from '../helpers/text.js';
import {
  HAND_WORDS, assertAgree, compare, hfDecode, hfEncode, idCount, loadWithTokenizer, rustEncoder,
} from '../helpers/tokenizer-oracles.js';

const utf8 = new TextEncoder();

// ---- Thousands of added tokens -------------------------------------------------

// Real models carry thousands of added tokens (Gemma 3: 6,400 "<unusedN>";
// Llama 3: 256 "<|reserved_special_token_N|>"), many of them prefixes of
// others ("<unused6>", "<unused64>", "<unused640>"), so the search must take
// the longest match at the leftmost place, whatever the number of tokens.
describe('thousands of added tokens and @huggingface/tokenizers', () => {
  const unused = Array.from({ length: 6400 }, (_, i) => `<unused${i}>`);
  const reserved = Array.from({ length: 256 }, (_, i) => `<|reserved_special_token_${i}|>`);
  // Strip flags on some, so their whitespace handling is compared too.
  const flags = (i) => ({ lstrip: i % 7 === 1, rstrip: i % 11 === 2 });
  let json, model, hf;
  before(async () => {
    json = JSON.parse(makeTokenizerJson(HAND_WORDS));
    let id = Object.keys(json.model.vocab).length;
    [...unused, ...reserved].forEach((content, i) => {
      json.added_tokens.push({ id: id++, content, single_word: false, ...flags(i), normalized: false, special: true });
    });
    model = await loadWithTokenizer(utf8.encode(JSON.stringify(json)), idCount(json));
    hf = new Tokenizer(json, {});
  });
  after(() => model?.dispose());

  /** Random text with added tokens, their prefixes and near misses between the words. */
  const texts = (seed, count) => {
    const random = uniformRandom(seed);
    const pick = (list) => list[Math.floor(random() * list.length)];
    const parts = () => {
      const token = random() < 0.8 ? pick(unused) : pick(reserved);
      switch (Math.floor(random() * 6)) {
        case 0: return token.slice(0, -1);                  // no closing mark: not a token
        case 1: return token.slice(0, 1 + Math.floor(random() * (token.length - 1)));
        case 2: return `${token}${token}`;
        case 3: return `${pick(['', ' ', '  ', '\n', '\t '])}${token}${pick(['', ' ', '  ', '\n'])}`;
        default: return token;
      }
    };
    return Array.from({ length: count }, () => {
      let text = '';
      const n = 1 + Math.floor(random() * 8);
      for (let i = 0; i < n; i++) text += randomText(random, 2) + parts();
      return text;
    });
  };

  test('the vocabulary has every added token with the id Hugging Face gives it', () => {
    const first = Object.keys(json.model.vocab).length;
    assert.equal(model.tokenId('<unused0>'), first);
    assert.equal(model.tokenId('<unused6399>'), first + 6399);
    assert.equal(model.tokenId('<|reserved_special_token_255|>'), first + 6400 + 255);
  });

  test('random text full of added tokens and their prefixes encodes to the same ids', async (t) => {
    const cases = [...texts(11, 1500), '<unused64>', '<unused640>', '<unused6400>', '<<unused1>>', '<unused1<unused2>',
      '<|reserved_special_token_0|', '<|<|reserved_special_token_17|>|>', 'a <unused8>  b', '<'.repeat(1000),
      `${'<unused'.repeat(300)}9>`];
    assertAgree(t, 'added tokens', compare(model, { hf: hfEncode(hf), rust: await rustEncoder(json, cases) }, cases));
  });

  test('decode gives the tokens back', () => {
    for (const text of texts(12, 200)) assert.equal(model.decode(model.encode(text)), hfDecode(hf)(hf.encode(text).ids), text);
  });
});

// ---- Every added-token flag, against the Rust library -----------------------------

// lstrip, rstrip, single_word and normalized in every combination, over
// text that puts whitespace, word characters (letters, digits, "_", "é") and
// other added tokens right beside the tokens; the reference is Hugging
// Face's Rust library itself.
describe('added tokens with every flag and Hugging Face\'s Rust tokenizers', () => {
  // Content i gets flag set i: bit 0 lstrip, 1 rstrip, 2 single_word, 3 normalized.
  const contents = ['[MASK]', '<pad>', 'cat', 'big dog', '日本', '<unused1>', '<unused12>', 'xyz', 'yz!', '_x',
    '\u00e9t\u00e9', '<s>', 'Ω', 'the end', '##', '<|x|>'];
  let json, model;
  before(async () => {
    json = JSON.parse(makeTokenizerJson(HAND_WORDS));
    json.pre_tokenizer.add_prefix_space = true;
    let id = Object.keys(json.model.vocab).length;
    contents.forEach((content, f) => {
      json.added_tokens.push({
        id: id++, content, lstrip: (f & 1) !== 0, rstrip: (f & 2) !== 0, single_word: (f & 4) !== 0,
        normalized: (f & 8) !== 0, special: (f & 1) === 0,
      });
    });
    model = await loadWithTokenizer(utf8.encode(JSON.stringify(json)), idCount(json));
  });
  after(() => model?.dispose());

  test('the flags cover every combination', () => {
    const sets = new Set(json.added_tokens.slice(1).map((t) => `${t.lstrip}${t.rstrip}${t.single_word}${t.normalized}`));
    assert.equal(sets.size, 16);
  });

  test('random text beside the tokens encodes to the same ids', async (t) => {
    const random = uniformRandom(29);
    const pick = (list) => list[Math.floor(random() * list.length)];
    const beside = ['', ' ', '   ', '\n', '\t', 'a', 'é', '_', '7', '.', '😀', ' x ', '\u3000'];
    const texts = Array.from({ length: 3000 }, () => {
      let text = '';
      const n = 1 + Math.floor(random() * 6);
      for (let i = 0; i < n; i++) text += pick(beside) + pick(contents) + pick(beside) + (random() < 0.3 ? randomText(random, 2) : '');
      return text;
    });
    texts.push('cat', 'cats', 'a cat.', 'bobcat', '_cat_', ' [MASK] ', '  <pad>  <pad>  ', 'xyz!', 'big  dog', '日本語');
    assertAgree(t, 'added-token flags', compare(model, { rust: await rustEncoder(json, texts) }, texts));
  });
});
