// Writes the regression inputs the fuzz targets replay
// (tests/fuzz/regressions/<target>/): the inputs that once broke the
// package or were found to be mishandled by hand (an empty weights file,
// float32's extremes, padded token tables, a 1 MiB-class tensor name or
// metadata, configs and JSON nested 20,000 deep, numbers past a double,
// thousands of added tokens, a text that starts with a byte order mark,
// bidirectional overrides), kept small. Each file's name says what it holds.
// FuzzReplay.Regressions (tests/cpp/fuzz_replay_test.cc) replays them in
// every native and sanitizer build, and tools/fuzz.sh before each run; an
// input a fuzzer crashes on is copied here, next to these, once fixed. The
// files are committed; rerun after changing the formats:
//   node tests/fuzz/make_regressions.mjs
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeTokenizerJson, writeSafetensors } from '../js/helpers/fixtures.js';
import { CONFIG_MARKER, concat, modelsInput } from './inputs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), 'regressions');
const utf8 = new TextEncoder();

// Inputs a fuzzer found are kept by hand, under their own names; only the
// files this script makes ("made-…") are removed and written again.
for (const target of existsSync(root) ? readdirSync(root) : []) {
  for (const file of readdirSync(join(root, target))) if (file.startsWith('made-')) rmSync(join(root, target, file));
}
const generated = [];
function write(target, name, content) {
  const dir = join(root, target);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `made-${name}`), typeof content === 'string' ? utf8.encode(content) : content);
  generated.push(`${target}/made-${name}`);
}

const nested = (depth, open = '[', close = ']', inner = '0') => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
const deepObject = (depth) => `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`;

// ---- safetensors ----------------------------------------------------------------
const vocab = 6, width = 4, context = 3;
const small = (wte, { names = {}, metadata = { format: 'pt' }, rows = vocab } = {}) => writeSafetensors([
  { name: names.wte ?? 'transformer.wte.weight', shape: [rows, width], data: wte ?? Float32Array.from({ length: rows * width }, (_, i) => i % 5 - 2) },
  { name: names.wpe ?? 'transformer.wpe.weight', shape: [context, width], data: Float32Array.from({ length: context * width }, (_, i) => (i % 3) * 0.5) },
  ...(names.extra ? [{ name: names.extra, shape: [1], data: new Float32Array(1) }] : []),
], metadata);
const config = (extra = {}, body = '') => {
  const json = JSON.stringify({ model_type: 'gpt2', vocab_size: vocab, n_embd: width, n_positions: context, ...extra });
  return body ? `${json.slice(0, -1)},${body}}` : json;
};

write('safetensors', 'empty-file', new Uint8Array(0));
write('safetensors', 'length-only', new Uint8Array(8));
// float32's extremes: sums of squares that overflow and underflow, values
// past float32 given as float64 would be, denormals, infinities, NaN, -0.
write('safetensors', 'float32-extremes', small(Float32Array.from([
  1e20, 1, 1e20, 1, 1e-25, 1e-25, 1e-25, 1e-25, 3.4e38, -3.4e38, 3.4e38, -3.4e38,
  1e-45, -1e-45, 1e-40, 0, Infinity, -Infinity, 1, 0, NaN, -0, 0, 1,
])));
write('safetensors', 'all-zero-token-table', small(new Float32Array(vocab * width)));
// A token table padded past the tokenizer (nanoGPT and llm.c pad GPT-2 to 50,304).
write('safetensors', 'padded-token-table', concat(small(undefined, { rows: 16 }), CONFIG_MARKER, config({ vocab_size: 16 })));
// A very long tensor name with control and bidirectional-override characters.
write('safetensors', 'long-tensor-name-with-controls', small(undefined, {
  names: { extra: `\u202e\u0000\u001b[31m${'n'.repeat(60000)}\u2066` },
}));
write('safetensors', 'long-table-name', small(undefined, { names: { wte: `${'x'.repeat(30000)}.wte.weight` } }));
write('safetensors', 'metadata-64-kib', small(undefined, { metadata: { format: 'pt', notes: 'm'.repeat(64 * 1024) } }));
write('safetensors', 'metadata-many-keys', small(undefined, {
  metadata: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`key${i}`, `value${i}`])),
}));
write('safetensors', 'config-nested-20000-deep', concat(small(), CONFIG_MARKER, config({}, `"deep":${nested(20000)}`)));
write('safetensors', 'config-object-nested-20000-deep', concat(small(), CONFIG_MARKER, config({}, `"deep":${deepObject(20000)}`)));
write('safetensors', 'config-numbers-past-double', concat(small(), CONFIG_MARKER,
  config({}, '"n_layer":123456789012345678901234567890,"n_head":1e400,"layer_norm_epsilon":5e-400')));
write('safetensors', 'config-sizes-past-double', concat(small(), CONFIG_MARKER,
  `{"model_type":"gpt2","vocab_size":6.0000000000000000001,"n_embd":4e0,"n_positions":123456789012345678901234567890}`));
write('safetensors', 'config-big-unknown-array', concat(small(), CONFIG_MARKER, config({}, `"unknown":[${'0,'.repeat(20000)}0]`)));
write('safetensors', 'config-not-an-object', concat(small(), CONFIG_MARKER, '[{"n_embd":4}]'));

// ---- tokenizer_json ---------------------------------------------------------------
const words = [' girl', ' boy', 'Lily', ' Lily', ' saw'];
const withAdded = (contents, flags = {}) => {
  const json = JSON.parse(makeTokenizerJson(words));
  let id = Math.max(...Object.values(json.model.vocab)) + 1;
  for (const content of contents) {
    json.added_tokens.push({ id: id++, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true, ...flags });
  }
  return JSON.stringify(json);
};
// Many added tokens sharing a first byte (Llama 3's <|…|>, Gemma 3's <unusedN>).
write('tokenizer_json', 'added-tokens-256-reserved', withAdded(Array.from({ length: 256 }, (_, i) => `<|reserved_special_token_${i}|>`)));
write('tokenizer_json', 'added-tokens-1000-unused', withAdded(Array.from({ length: 1000 }, (_, i) => `<unused${i}>`)));
write('tokenizer_json', 'added-tokens-lstrip-rstrip', withAdded(['<mask>', '<sep>'], { lstrip: true, rstrip: true }));
write('tokenizer_json', 'added-tokens-bom-and-bidi', withAdded(['\uFEFF', '\u202e', '\u0000', '<\u202e>']));
write('tokenizer_json', 'nested-20000-deep', `${makeTokenizerJson(words).slice(0, -1)},"extra":${nested(20000)}}`);
write('tokenizer_json', 'truncated', makeTokenizerJson(words).slice(0, 1000));

// ---- tokenizer_encode: one control byte (0x80: the exotic tokenizer; low 6 bits: the limit), then the text.
const text = (control, body) => concat(new Uint8Array([control]), body);
// A text that starts with a byte order mark and is longer than 16 bytes.
write('tokenizer_encode', 'bom-then-text-plain', text(0x00, '\uFEFFLily saw Max and the girl'));
write('tokenizer_encode', 'bom-then-text-exotic', text(0x85, '\uFEFFLily saw Max and the girl'));
write('tokenizer_encode', 'bom-only', text(0x01, '\uFEFF'));
write('tokenizer_encode', 'less-than-64-kib', text(0xbf, '<'.repeat(65536)));
write('tokenizer_encode', 'special-token-prefixes', text(0x3f, '<|endoftext|<|endoftex<|endoftext|>'.repeat(500)));
write('tokenizer_encode', 'bidi-and-controls', text(0x80, '\u202eevil\u202c \u2066x\u2069 \u0000\u001b[2J\u0007\u200f'));
write('tokenizer_encode', 'ill-formed-utf8', text(0x00, new Uint8Array([0xed, 0xa0, 0x80, 0xc0, 0xaf, 0xff, 0xf4, 0x90, 0x80, 0x80, 0x41])));

// ---- tokenizer_models (inputs.mjs's modelsInput) --------------------------------------
// Issue 34: long tokens (a trie node a byte took 30-80 times the file), a
// 3,000-letter WordPiece word (cubic), and Unigram walks that read on through
// a long token from every character (stopped by name past what the text allows).

write('tokenizer_models', 'long-distinct-tokens', modelsInput(0x08, 0, Array.from({ length: 40 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${'xyz'[i % 3].repeat(500 + i)}`), 'ax'.repeat(300)));
write('tokenizer_models', 'word-piece-3000-letters', modelsInput(0x0b, 255, ['a', '##a', '##aa', 'b', '##b'], 'ab'.repeat(1500)));
write('tokenizer_models', 'unigram-5000-letter-token', modelsInput(0x08, 0, ['a', 'b', 'a'.repeat(5000)], 'a'.repeat(20000)));
write('tokenizer_models', 'word-piece-prefix-first', modelsInput(0x0b, 10, ['##', '##a', 'a', '####'], '##a####'));

// ---- json -------------------------------------------------------------------------
write('json', 'arrays-nested-20000-deep', nested(20000));
write('json', 'objects-nested-20000-deep', deepObject(20000));
write('json', 'nested-64-deep', nested(64));
write('json', 'nested-65-deep', nested(65));
write('json', 'numbers-past-double', '[123456789012345678901234567890,1e400,-1e400,5e-400,-0,9007199254740993,0.1e-99999]');
write('json', 'big-array', `[${'0,'.repeat(20000)}0]`);
write('json', 'escapes-bidi-controls-surrogates', '["\\u202e\\u0000\\ud800\\udc00\\ud800","\\uFEFF",' +
  '"\u202e raw","\\u0041"]');
write('json', 'bom-before-document', '\uFEFF{"a":1}');

console.log(`wrote ${generated.length} regression inputs under ${root}`);
