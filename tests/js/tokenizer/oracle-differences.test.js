// Where the JavaScript oracles read text differently from Hugging Face's
// Rust library, which the C++ tokenizer follows (U+0085, U+FEFF, letters new
// in Unicode 17.0, added tokens' normalized and single_word flags): pinned
// here, and kept out of tokenizer.test.js's comparisons. And lone
// surrogates, which every implementation reads as U+FFFD.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from '@huggingface/tokenizers';

import { makeTokenizerJson } from '../helpers/fixtures.js';
import { BOM, NEL, UNICODE_17_LETTERS, randomIllFormed, randomText, uniformRandom } from '../helpers/text.js';
import {
  EOT, assertAgree, compare, gptTokenizerEncode, hfEncode, idCount, loadDefaultTokenizer, loadGpt2Tokenizer,
  loadWithTokenizer,
} from '../helpers/tokenizer-oracles.js';

const utf8 = new TextEncoder();

let defaultModel, defaultHf, defaultHfWs;
let gpt2Model, gpt2Hf, gpt2HfWs, tiktoken;

before(async () => {
  ({ model: defaultModel, hf: defaultHf, hfWs: defaultHfWs } = await loadDefaultTokenizer());
  ({ model: gpt2Model, hf: gpt2Hf, hfWs: gpt2HfWs, tiktoken } = await loadGpt2Tokenizer());
});

after(() => {
  defaultModel?.dispose();
  gpt2Model?.dispose();
});

// ---- Where the JS oracles are not the Rust library ---------------------------

describe('inputs where the JavaScript oracles differ from Hugging Face\'s Rust library', () => {
  // U+0085 is White_Space for Oniguruma (so for tokenizers and the package),
  // but not \s for JavaScript. " \u0085x": the Rust regex splits the
  // whitespace run " \u0085" before "x" into " " and "\u0085"; JavaScript
  // reads U+0085 as an "other" character and keeps " \u0085" as one piece.
  test('U+0085 NEXT LINE is whitespace, as in the Rust library', () => {
    assert.deepEqual(gpt2Model.encode(` ${NEL}x`), [220, 126, 227, 87]);  // " ", C2, 85, "x"
    assert.deepEqual(gpt2Hf.encode(` ${NEL}x`).ids, [1587, 227, 87]);  // " \xC2", 85, "x": JavaScript's \s
    assert.deepEqual(tiktoken.encode(` ${NEL}x`), [1587, 227, 87]);
    assert.deepEqual(gpt2HfWs.encode(` ${NEL}x`).ids, [220, 126, 227, 87]);
    // "\u0085!" is one "other" run for JavaScript, whitespace then "!" for Rust.
    assert.deepEqual(gpt2Model.encode(`${NEL}!`), [126, 227, 0]);
    assert.deepEqual(gpt2Model.encode(`a${NEL}${NEL}b`), [...gpt2Model.encode('a'), 126, 227, 126, 227, ...gpt2Model.encode('b')]);
  });

  // U+FEFF is not White_Space, so for Rust it is an "other" character that
  // takes the space before it (" \uFEFF" is one piece); JavaScript's \s
  // includes it, so there the space and U+FEFF are a whitespace run.
  test('U+FEFF BYTE ORDER MARK is not whitespace, as in the Rust library', () => {
    const text = ` ${BOM}y`;
    const rust = gpt2Model.encode(text);
    assert.deepEqual(rust, [...gpt2Model.encode(` ${BOM}`), ...gpt2Model.encode('y')]);
    assert.deepEqual(rust, [27332, 119, 123, 88]);  // " \xEF", BB, BF, "y"
    assert.deepEqual(gpt2Hf.encode(text).ids, [220, 171, 119, 123, 88]);  // " ", EF, BB, BF, "y"
    assert.deepEqual(gpt2HfWs.encode(text).ids, rust);
    assert.deepEqual(gpt2Model.encode(`${BOM}Hello`), [171, 119, 123, 15496]);
  });

  test('random strings with U+0085 and U+FEFF agree with @huggingface/tokenizers given the White_Space pattern', (t) => {
    const random = uniformRandom(85);
    const marks = [NEL, BOM, ' ', '\n', `${NEL}${NEL}`, ` ${BOM}`, `${BOM} `];
    const texts = Array.from({ length: 600 }, () => {
      let s = '';
      for (let i = 0; i < 4; i++) s += randomText(random, 3) + marks[Math.floor(random() * marks.length)];
      return s;
    });
    assertAgree(t, 'default, U+0085/U+FEFF', compare(defaultModel, { hf: hfEncode(defaultHfWs) }, texts));
    assertAgree(t, 'GPT-2, U+0085/U+FEFF', compare(gpt2Model, { hf: hfEncode(gpt2HfWs) }, texts));
    assert.ok(texts.some((s) => gpt2Hf.encode(s).ids.join() !== gpt2Model.encode(s).join()), 'the plain oracle should differ somewhere');
  });

  // The package's letter and number tables come from Node's Unicode 17.0
  // (tools/gen/unicode-tables.mjs), which is also what the JS oracles use.
  // tokenizers 0.22 uses Unicode 16.0, where these characters are unassigned,
  // so "other": there "x\u{323B0}" is two pieces, here one letter run. This
  // is a known, documented difference (docs/tokenizer.md); the test pins it so
  // that it changes only on purpose.
  test('letters new in Unicode 17.0 are letters here (tokenizers 0.22 reads them as other characters)', () => {
    const json = JSON.parse(makeTokenizerJson(['x\u{323B0}', '\u{323B0}!', ' \u{10940}\u{10941}']));
    return loadWithTokenizer(utf8.encode(JSON.stringify(json)), idCount(json)).then((model) => {
      try {
        const id = (s) => model.tokenId(s);
        for (const ch of UNICODE_17_LETTERS) assert.ok(/^\p{L}$/u.test(ch), ch);
        // One letter run here; Rust: "x", "\u{323B0}".
        assert.deepEqual(model.encode('x\u{323B0}'), [id('x\u{323B0}')]);
        assert.notDeepEqual(model.encode('x\u{323B0}'), [...model.encode('x'), ...model.encode('\u{323B0}')]);
        // A letter, then "!" here; Rust: one "other" run "\u{323B0}!", a single token.
        assert.deepEqual(model.encode('\u{323B0}!'), [id('\u{323B0}'), id('!')]);
        assert.deepEqual(model.encode(' \u{10940}\u{10941}'), [id(' \u{10940}\u{10941}')]);
        // The JS oracle shares Node's Unicode data, so it agrees with the package here.
        const hf = new Tokenizer(json, {});
        for (const s of ['x\u{323B0}', '\u{323B0}!', ' \u{10940}\u{10941}', `a ${UNICODE_17_LETTERS.join('')}.`]) {
          assert.deepEqual(model.encode(s), hf.encode(s).ids, s);
        }
      } finally {
        model.dispose();
      }
    });
  });

  // Rust matches added tokens with "normalized": false first and those with
  // true in the gaps left (AddedVocabulary::extract_and_normalize); the JS
  // port puts every added token in one pass when there is no normalizer.
  test('added tokens with normalized false are matched before those with true, as in the Rust library', async () => {
    const json = JSON.parse(makeTokenizerJson(['ab']));
    const n = Object.keys(json.model.vocab).length;
    json.added_tokens.push({ id: n, content: 'xyz', single_word: false, lstrip: false, rstrip: false, normalized: true, special: false });
    json.added_tokens.push({ id: n + 1, content: 'yz!', single_word: false, lstrip: false, rstrip: false, normalized: false, special: false });
    const model = await loadWithTokenizer(utf8.encode(JSON.stringify(json)), idCount(json));
    try {
      // Rust: "yz!" (normalized false) first, then "x" is left; leftmost-first would take "xyz".
      assert.deepEqual(model.encode('xyz!'), [model.tokenId('x'), n + 1]);
      assert.deepEqual(new Tokenizer(json, {}).encode('xyz!').ids, [n, model.tokenId('!')]);  // the JS port
      assert.deepEqual(model.encode('xyz'), [n]);
    } finally {
      model.dispose();
    }
  });

  // single_word: the match must not touch a word character (Rust regex \w) on
  // either side. The JS port ignores the flag.
  test('single_word added tokens stand alone, as in the Rust library', async () => {
    const json = JSON.parse(makeTokenizerJson([]));
    const n = Object.keys(json.model.vocab).length;
    json.added_tokens.push({ id: n, content: 'cat', single_word: true, lstrip: false, rstrip: false, normalized: false, special: false });
    const model = await loadWithTokenizer(utf8.encode(JSON.stringify(json)), idCount(json));
    try {
      const bytes = (s) => Array.from(utf8.encode(s));  // ids 0-255 are the bytes here
      assert.deepEqual(model.encode('a cat.'), [...bytes('a '), n, ...bytes('.')]);
      assert.deepEqual(model.encode('cat'), [n]);
      assert.deepEqual(model.encode('cats'), bytes('cats'));
      assert.deepEqual(model.encode('bobcat'), bytes('bobcat'));
      assert.deepEqual(model.encode('écat'), bytes('écat'));  // é is a word character
      assert.deepEqual(model.encode('😀cat'), [...bytes('😀'), n]);
      assert.deepEqual(new Tokenizer(json, {}).encode('cats').ids, [n, ...bytes('s')]);  // the JS port
    } finally {
      model.dispose();
    }
  });
});

// ---- Lone surrogates ---------------------------------------------------------------

// A JS string may hold unpaired surrogates. The package encodes text with
// TextEncoder, which writes U+FFFD for each; @huggingface/tokenizers,
// js-tiktoken and gpt-tokenizer cut the string with a /u regular expression
// (a lone surrogate is a code point of its own, neither letter, number nor
// space, exactly like U+FFFD) and then TextEncoder the pieces. So all four
// see U+FFFD, and the ids are those of s.toWellFormed().
describe('lone surrogates are read as U+FFFD by every implementation', () => {
  const samples = ['\uD800x', 'x\uDC00', '\uD83D', '\uDE00\uD83D', 'a\uD83D b', 'it\uD800\'s', `\uD83D${EOT}\uDE00`,
    '\uD800\uD800\uD800', ' \uDFFF ', '😀\uDE00', '\uD83D😀', '12\uDBFF34', '\uD800\n\n'];

  test('hand-picked strings', () => {
    for (const s of samples) {
      const fixed = s.toWellFormed();
      const ids = gpt2Model.encode(s);
      assert.deepEqual(ids, gpt2Model.encode(fixed), JSON.stringify(s));
      assert.deepEqual(gpt2Hf.encode(s).ids, ids, `hf ${JSON.stringify(s)}`);
      assert.deepEqual(tiktoken.encode(s, 'all'), ids, `js-tiktoken ${JSON.stringify(s)}`);
      assert.deepEqual(gptTokenizerEncode(s), ids, `gpt-tokenizer ${JSON.stringify(s)}`);
      assert.deepEqual(defaultModel.encode(s), defaultHf.encode(s).ids, `default ${JSON.stringify(s)}`);
      // So decode(encode(s)) is s with U+FFFD for each lone surrogate.
      assert.equal(gpt2Model.decode(ids), fixed);
    }
    assert.deepEqual(gpt2Model.encode('\uD800'), [4210]);  // "\uFFFD" = EF BF BD is one GPT-2 token
  });

  test('random ill-formed strings', (t) => {
    const random = uniformRandom(0xd800);
    const texts = Array.from({ length: 400 }, () => randomIllFormed(random));
    assert.ok(texts.filter((s) => !s.isWellFormed()).length > 300);
    assertAgree(t, 'GPT-2, lone surrogates', compare(gpt2Model, {
      hf: hfEncode(gpt2Hf), 'js-tiktoken': (s) => tiktoken.encode(s, 'all'), 'gpt-tokenizer': gptTokenizerEncode,
      'toWellFormed': (s) => gpt2Model.encode(s.toWellFormed()),
    }, texts));
    assertAgree(t, 'default, lone surrogates', compare(defaultModel, { hf: hfEncode(defaultHf) }, texts));
  });
});
