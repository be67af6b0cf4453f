#!/usr/bin/env node
// Puts every code point (between two letters) through the normalizers and
// pre-tokenizers whose tables come from Unicode data, in Hugging Face's Rust
// library and in this package, and writes the code points where they differ
// to tests/js/helpers/unicode-versions.js (which the tests pin). They differ
// where the Rust crates' Unicode data are older than Node's: characters
// given a decomposition or the category Punctuation by later versions.
//
//   node tools/gen/unicode-versions.mjs      # about 4 minutes on 2 cores
//
// Needs the built WebAssembly modules (tools/build.sh wasm).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import rustTokenizers from 'tokenizers';

import { loadModel } from '../../web/index.js';
import { modelForTokenizer } from '../../tests/js/helpers/big-tokenizer.js';
import { byteToUnicode } from '../../tests/js/helpers/fixtures.js';

const utf8 = new TextEncoder();
const outputPath = fileURLToPath(new URL('../../tests/js/helpers/unicode-versions.js', import.meta.url));

// Byte tokens, no merges: the ids are the normalized text's bytes, and a
// pre-tokenizer that removes what it cuts at shows what it cut.
function byteTokenizer(normalizer, preTokenizer) {
  const vocab = {};
  byteToUnicode().forEach((ch, i) => { vocab[ch] = i; });
  const stages = [...(preTokenizer ? [preTokenizer] : []), { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false }];
  return {
    version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer,
    pre_tokenizer: { type: 'Sequence', pretokenizers: stages }, post_processor: null, decoder: null,
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, vocab, merges: [] },
  };
}

const components = {
  NFD: [{ type: 'NFD' }], NFC: [{ type: 'NFC' }], NFKD: [{ type: 'NFKD' }], NFKC: [{ type: 'NFKC' }], Lowercase: [{ type: 'Lowercase' }],
  Punctuation: [null, { type: 'Punctuation', behavior: 'Removed' }], WhitespaceSplit: [null, { type: 'WhitespaceSplit' }],
  Whitespace: [null, { type: 'Whitespace' }], Digits: [null, { type: 'Split', pattern: { Regex: '\\p{N}' }, behavior: 'Removed', invert: false }],
};
const codes = [];
for (let code = 0x80; code <= 0x10ffff; ++code) if (code < 0xd800 || code > 0xdfff) codes.push(code);
const differing = {};
for (const [name, [normalizer, preTokenizer]] of Object.entries(components)) {
  const json = JSON.stringify(byteTokenizer(normalizer, preTokenizer));
  const model = await loadModel(modelForTokenizer(utf8.encode(json), 256));
  const rust = rustTokenizers.Tokenizer.fromString(json);
  differing[name] = [];
  for (let i = 0; i < codes.length; i += 20000) {
    const batch = codes.slice(i, i + 20000).map((code) => `a${String.fromCodePoint(code)}a`);
    const encodings = await rust.encodeBatch(batch, { addSpecialTokens: false });
    encodings.forEach((encoding, j) => {
      if (Array.from(encoding.getIds()).join() !== model.encode(batch[j]).join()) differing[name].push(codes[i + j]);
    });
  }
  model.dispose();
  console.error(`${name}: ${differing[name].length} code points differ`);
}

const hex = (code) => `0x${code.toString(16).toUpperCase()}`;
function ranges(list) {
  const out = [];
  for (const code of list) {
    const last = out[out.length - 1];
    if (last && last[1] === code - 1) last[1] = code;
    else out.push([code, code]);
  }
  const lines = [];
  let line = ' ';
  for (const [a, b] of out) {
    const item = ` [${hex(a)}, ${hex(b)}],`;
    if (line.length + item.length > 118) { lines.push(line); line = ' '; }
    line += item;
  }
  return [...lines, line].join('\n');
}
let text = '// GENERATED FILE, DO NOT EDIT. Regenerate with: node tools/gen/unicode-versions.mjs\n';
text += `// Code points where Hugging Face's Rust library (the tokenizers package) and this package,\n`;
text += `// whose tables are Node's Unicode ${process.versions.unicode}, differ, by component. The Rust crates'\n`;
text += '// Unicode data are older: these characters got their decomposition or the\n';
text += '// category Punctuation in later versions (docs/tokenizer.md). Every other\n';
text += '// code point gives the same ids.\n';
for (const [name, list] of Object.entries(differing)) {
  text += `\n/** ${name}: ${list.length} code points. */\nexport const ${name.toUpperCase()}_NEWER = [\n${list.length ? ranges(list) + '\n' : ''}];\n`;
}
text += `
/** Whether \`text\` has none of the code points above. */
export function olderUnicodeSafe(text) {
  const all = [${Object.keys(differing).map((name) => `...${name.toUpperCase()}_NEWER`).join(', ')}];
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (all.some(([a, b]) => code >= a && code <= b)) return false;
  }
  return true;
}
`;
writeFileSync(outputPath, text);
console.error(`wrote ${outputPath}`);
