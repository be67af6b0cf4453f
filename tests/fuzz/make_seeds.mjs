// Writes the fuzzers' seed corpora (tests/fuzz/corpus/<target>/): small
// valid inputs and near-misses, so the fuzzers start deep inside the
// parsers. The files are committed; rerun after changing the formats:
//   node tests/fuzz/make_seeds.mjs
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { byteToUnicode, makeTokenizerJson, rawFile, writeSafetensors } from '../js/helpers/fixtures.js';
import { CONFIG_MARKER, concat, modelsInput } from './inputs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), 'corpus');
const utf8 = new TextEncoder();

function write(target, name, content) {
  const dir = join(root, target);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), typeof content === 'string' ? utf8.encode(content) : content);
}

// ---- safetensors ----------------------------------------------------------------
rmSync(root, { recursive: true, force: true });
const f32 = (n, scale = 1) => Float32Array.from({ length: n }, (_, i) => (i % 7 - 3) * scale);
const tiny = (prefix = 'transformer.', wteDtype = 'F32', wpeDtype = 'F32') => {
  const half = (n) => new Uint8Array(Array.from({ length: 2 * n }, (_, i) => (i % 2 ? 0x3c : i & 0xff)));
  return writeSafetensors([
    { name: `${prefix}wte.weight`, dtype: wteDtype, shape: [6, 4], data: wteDtype === 'F32' ? f32(24) : half(24) },
    { name: `${prefix}wpe.weight`, dtype: wpeDtype, shape: [3, 4], data: wpeDtype === 'F32' ? f32(12, -0.5) : half(12) },
    { name: `${prefix}h.0.ln_1.weight`, shape: [4], data: f32(4) },
  ], { format: 'pt' });
};
const config = { model_type: 'gpt2', vocab_size: 6, n_embd: 4, n_positions: 3, n_layer: 1, n_head: 2 };
write('safetensors', 'tiny_f32', tiny());
write('safetensors', 'tiny_f16_bf16', tiny('', 'F16', 'BF16'));
write('safetensors', 'bare_names', tiny(''));
write('safetensors', 'with_config', concat(tiny(), CONFIG_MARKER, JSON.stringify(config)));
write('safetensors', 'config_contradicts', concat(tiny(), CONFIG_MARKER, JSON.stringify({ ...config, n_embd: 8 })));
write('safetensors', 'config_n_ctx_untied', concat(tiny(), CONFIG_MARKER, '{"n_ctx":3,"tie_word_embeddings":false}'));
write('safetensors', 'special_values', writeSafetensors([
  { name: 'wte.weight', shape: [4, 2], data: Float32Array.of(0, 0, NaN, 1, Infinity, -Infinity, 1e-45, -0) },
  { name: 'wpe.weight', shape: [2, 2], data: Float32Array.of(0, 0, 3.4e38, -3.4e38) },
]));
// The other families' names: a rotary model (no position table) and OPT's offset position table.
const family = (token, position, positionRows, block) => writeSafetensors([
  { name: token, shape: [6, 4], data: f32(24) },
  ...(position ? [{ name: position, shape: [positionRows, 4], data: f32(positionRows * 4, -0.5) }] : []),
  { name: block, shape: [4], data: f32(4) },
], { format: 'pt' });
write('safetensors', 'llama_rotary', concat(family('model.embed_tokens.weight', null, 0, 'model.layers.0.input_layernorm.weight'),
  CONFIG_MARKER, JSON.stringify({ model_type: 'llama', vocab_size: 6, hidden_size: 4, max_position_embeddings: 8192, num_hidden_layers: 1 })));
write('safetensors', 'gpt_neox_rotary', family('gpt_neox.embed_in.weight', null, 0, 'gpt_neox.layers.0.attention.dense.weight'));
write('safetensors', 'opt_offset', concat(family('model.decoder.embed_tokens.weight', 'model.decoder.embed_positions.weight', 5, 'model.decoder.layers.0.fc1.weight'),
  CONFIG_MARKER, JSON.stringify({ model_type: 'opt', vocab_size: 6, hidden_size: 4, word_embed_proj_dim: 4, max_position_embeddings: 3 })));
write('safetensors', 'truncated_data', tiny().subarray(0, tiny().length - 5));
write('safetensors', 'truncated_header', tiny().subarray(0, 40));
write('safetensors', 'truncated_length', tiny().subarray(0, 5));
write('safetensors', 'header_not_json', rawFile('{"wte.weight": {dtype'));
write('safetensors', 'header_not_object', rawFile('[1, 2, 3]'));
const table = (dtype, shape, offsets) => ({ dtype, shape, data_offsets: offsets });
write('safetensors', 'overlapping', rawFile({ 'wte.weight': table('F32', [2, 3], [0, 24]), 'wpe.weight': table('F32', [1, 3], [12, 24]) }, new Uint8Array(36)));
write('safetensors', 'offsets_past_end', rawFile({ 'wte.weight': table('F32', [2, 3], [0, 24]), 'wpe.weight': table('F32', [1, 3], [24, 36]) }, new Uint8Array(30)));
write('safetensors', 'shape_mismatch', rawFile({ 'wte.weight': table('F32', [2, 4], [0, 24]), 'wpe.weight': table('F32', [1, 3], [24, 36]) }, new Uint8Array(36)));
write('safetensors', 'dtype_i32', rawFile({ 'wte.weight': table('I32', [2, 3], [0, 24]), 'wpe.weight': table('F32', [1, 3], [24, 36]) }, new Uint8Array(36)));
write('safetensors', 'no_wpe', rawFile({ 'wte.weight': table('F32', [2, 3], [0, 24]) }, new Uint8Array(24)));
write('safetensors', 'widths_differ', rawFile({ 'wte.weight': table('F32', [2, 3], [0, 24]), 'wpe.weight': table('F32', [1, 2], [24, 32]) }, new Uint8Array(32)));
write('safetensors', 'huge_shape', rawFile({ 'wte.weight': table('F32', [4294967296, 4294967296], [0, 24]), 'wpe.weight': table('F32', [1, 3], [24, 36]) }, new Uint8Array(36)));
write('safetensors', 'attn_bias', writeSafetensors([
  { name: 'wte.weight', shape: [2, 2], data: f32(4) },
  { name: 'wpe.weight', shape: [2, 2], data: f32(4) },
  { name: 'h.0.attn.bias', shape: [1, 1, 2, 2], data: f32(4) },
  { name: 'lm_head.weight', shape: [2, 2], data: f32(4) },
]));

// ---- tokenizer_json ---------------------------------------------------------------
const full = JSON.parse(makeTokenizerJson([' the', 'Lily', ' girl']));
write('tokenizer_json', 'gpt2_style', JSON.stringify(full));
const small = (model = {}, extra = {}) => JSON.stringify({
  version: '1.0', truncation: null, padding: null, normalizer: null,
  added_tokens: [{ id: 4, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false, normalized: true, special: true }],
  pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
  post_processor: null, decoder: { type: 'ByteLevel' },
  model: { type: 'BPE', dropout: null, unk_token: null, fuse_unk: false, byte_fallback: false, vocab: { a: 0, b: 1, ab: 2, 'Ġ': 3 }, merges: ['a b'], ...model },
  ...extra,
});
write('tokenizer_json', 'small', small());
write('tokenizer_json', 'merges_as_pairs', small({ merges: [['a', 'b']] }));
write('tokenizer_json', 'unk', small({ unk_token: 'ab', fuse_unk: true }));
write('tokenizer_json', 'ignore_merges', small({ ignore_merges: true }));
write('tokenizer_json', 'prefix_space_no_regex', small({}, { pre_tokenizer: { type: 'ByteLevel', add_prefix_space: true, use_regex: false } }));
write('tokenizer_json', 'added_flags', small({}, { added_tokens: [
  { id: 4, content: '<|endoftext|>', lstrip: true, rstrip: true, normalized: false, special: true },
  { id: 5, content: 'ab', single_word: true, normalized: true },
] }));
write('tokenizer_json', 'merge_unknown_token', small({ merges: ['a c'] }));
write('tokenizer_json', 'merge_result_missing', small({ merges: ['b a'] }));
write('tokenizer_json', 'added_id_wrong', small({}, { added_tokens: [{ id: 9, content: 'x' }] }));
write('tokenizer_json', 'no_model', JSON.stringify({ pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false } }));
write('tokenizer_json', 'not_object', '["BPE"]');
write('tokenizer_json', 'sparse_ids', small({ vocab: { a: 0, b: 2147483645, ab: 7 } }, { added_tokens: [] }));
const u = byteToUnicode();
write('tokenizer_json', 'every_byte_no_added', JSON.stringify({
  ...JSON.parse(small()), added_tokens: [],
  model: { type: 'BPE', vocab: Object.fromEntries(u.map((ch, i) => [ch, i])), merges: [] },
}));
// Llama 2's and BERT's kinds: a vocabulary spelled as text, byte_fallback,
// the normalizers, pre-tokenizers and decoders they use.
const textVocab = { '<unk>': 0, a: 1, b: 2, ab: 3, '▁': 4, '▁a': 5, '<0x41>': 6, '<0xC3>': 7, '<0xA9>': 8, '##b': 9 };
write('tokenizer_json', 'llama2_kind', JSON.stringify({
  version: '1.0', added_tokens: [{ id: 0, content: '<unk>', special: true, normalized: false }],
  normalizer: { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: '▁' }, { type: 'Replace', pattern: { String: ' ' }, content: '▁' }] },
  pre_tokenizer: null, post_processor: { type: 'TemplateProcessing', single: [], pair: [], special_tokens: {} },
  decoder: { type: 'Sequence', decoders: [{ type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'ByteFallback' }, { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }] },
  model: { type: 'BPE', unk_token: '<unk>', fuse_unk: true, byte_fallback: true, vocab: textVocab, merges: ['a b', '▁ a'] },
}));
write('tokenizer_json', 'metaspace_kind', JSON.stringify({
  version: '1.0', added_tokens: [],
  normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Lowercase' }, { type: 'Strip', strip_left: true, strip_right: true }] },
  pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'Digits', individual_digits: true }, { type: 'Punctuation', behavior: 'Contiguous' }, { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: true }] },
  decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first' },
  model: { type: 'BPE', unk_token: '<unk>', continuing_subword_prefix: '##', vocab: textVocab, merges: ['a ##b'] },
}));
write('tokenizer_json', 'word_piece_kind', JSON.stringify({
  version: '1.0', added_tokens: [], normalizer: { type: 'NFD' }, pre_tokenizer: { type: 'BertPreTokenizer' },
  decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
  model: { type: 'WordPiece', unk_token: '<unk>', continuing_subword_prefix: '##', max_input_chars_per_word: 5, vocab: textVocab },
}));

// ---- tokenizer_encode: first byte = options (bit 7: exotic tokenizer; bits 0-5: limit) ----
const texts = [
  [0x05, 'Lily saw the girl. It\'s 123 in the garden.\n\n'],
  [0x03, ''],
  [0x3f, '<|endoftext|>Lily<|endoftext|> the'],
  [0x02, 'aaaaaaaaaaaaaaaaaaaaaaa'],
  [0x08, '\u{1F642} 漢字 café \u0000\u0007\u007f\u0085 \t\r\n   x'],
  [0x81, ' [MASK] été ab  <|endoftext|>  x[MASK]y été'],
  [0x84, 'abab\u0000\u007f ÿ the  '],
  [0xbf, '\n\n<|endoftext|>'],
];
texts.forEach(([control, text], i) => write('tokenizer_encode', `text_${i}`, concat(Uint8Array.of(control), text)));
write('tokenizer_encode', 'invalid_utf8', Uint8Array.of(0x04, 0x61, 0xff, 0xfe, 0x80, 0xc3, 0x20, 0xf0, 0x9f, 0x99, 0xed, 0xa0, 0x80));
write('tokenizer_encode', 'invalid_utf8_exotic', Uint8Array.of(0x84, 0xe2, 0x82, 0x20, 0xc0, 0xaf, 0x00, 0x41));

// ---- tokenizer_models (inputs.mjs's modelsInput) ------------------------------------
const bytes = Array.from({ length: 256 }, (_, b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
write('tokenizer_models', 'unigram', modelsInput(0x08, 0, ['a', 'b', 'ab', 'abc', 'c', 'cd', 'abcd', '▁', '▁a'], 'abcdacdxx'));
write('tokenizer_models', 'unigram_byte_fallback', modelsInput(0x0a, 0, ['a', 'é', ...bytes.slice(0, 200)], 'aé\u0001xa'));
write('tokenizer_models', 'unigram_no_unknown', modelsInput(0x00, 0, ['a', 'aa', 'aaa'], 'aaaaaaa'));
write('tokenizer_models', 'unigram_split', modelsInput(0x0c, 0, ['the', 'th', 'e', ' '], 'the  then'));
write('tokenizer_models', 'word_piece', modelsInput(0x0b, 25, ['un', '##aff', '##able', 'a', '##a', 'é', '##é'], 'unaffable'));
write('tokenizer_models', 'word_piece_no_prefix', modelsInput(0x09, 2, ['ab', 'a', 'b', 'ba'], 'abab'));
write('tokenizer_models', 'word_piece_split', modelsInput(0x0f, 255, ['x', '##x', '##xx', 'y'], 'xxx yx xxxxy'));
write('tokenizer_models', 'long_tokens', modelsInput(0x08, 0, ['a', 'a'.repeat(300), 'a'.repeat(299) + 'b'], 'a'.repeat(700)));

// ---- json ---------------------------------------------------------------------------
const docs = {
  object: '{"a": [1, -2.5e+3, true, false, null], "b": {"c": "d"}}',
  strings: '["\\u00e9\\ud83d\\ude00\\n\\t\\"\\\\\\/", "caf\u00e9", ""]',
  numbers: '[0, -0, 1e400, 18446744073709551615, 18446744073709551616, -9223372036854775808, 0.5e-10]',
  nested: '[[[[[[[[[[[[[[[[{"x":[[[[]]]]}]]]]]]]]]]]]]]]]',
  lone_surrogate: '"\\ud800"',
  duplicate_key: '{"a": 1, "a": 2}',
  trailing: '{"a": 1} x',
  control_in_string: '"a\u0001b"',
  empty: '',
  whitespace: ' \t\r\n{}\n ',
};
for (const [name, text] of Object.entries(docs)) write('json', name, text);
write('json', 'invalid_utf8', Uint8Array.of(0x22, 0xc3, 0x28, 0x22));
console.log(`seed corpora written under ${root}`);
