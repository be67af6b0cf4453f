// Tokenizer costs through the package, in the same run (compare as ratios):
// loading a big generated GPT-2-style tokenizer.json (time, and the memory
// its WebAssembly instance keeps), encoding stories, and cutting out added
// tokens (6,400 "<unusedN>" tokens as Gemma 3 has; 256 "<|...|>" tokens as
// Llama 3 has, refusing a mebibyte of "<" for a 1,024-token context).
//   node tools/bench-tokenizer.mjs [--megabytes 24]
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadModel } from '../web/index.js';
import { observeInstances } from '../web/src/runtime.js';
import { bigTokenizerJson, modelForTokenizer, tokenizerWithAddedTokens } from '../tests/js/helpers/big-tokenizer.js';

const megabytesAt = process.argv.indexOf('--megabytes');
const megabytes = megabytesAt >= 0 ? Number(process.argv[megabytesAt + 1]) : 24;
let tokenizerModule = null;
observeInstances((module, role) => { if (role === 'tokenizer') tokenizerModule = module; });
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function time(label, f, repeat = 1) {
  f();
  const start = performance.now();
  for (let i = 0; i < repeat; i++) f();
  const ms = (performance.now() - start) / repeat;
  console.log(`${label}: ${ms.toFixed(1)} ms`);
  return ms;
}

// Loading.
const json = bigTokenizerJson(megabytes * 2 ** 20);
const bytes = new TextEncoder().encode(json.text);
const start = performance.now();
const big = await loadModel(modelForTokenizer(bytes, json.ids));
console.log(`load ${mib(bytes.length)} tokenizer.json (${json.ids} ids): ${(performance.now() - start).toFixed(0)} ms, ` +
  `tokenizer instance memory ${mib(tokenizerModule.HEAPU8.length)}`);
big.dispose();

// Encoding stories with the default model.
const model = await loadModel();
// The test corpus's paragraphs, 200 times over (about half a mebibyte).
const stories = readFileSync(new URL('../tests/js/corpus/stories.txt', import.meta.url), 'utf8');
const paragraphs = Array(200).fill(stories.split('\n').filter((line) => line.trim())).flat();
time(`encode ${paragraphs.length} story paragraphs (${mib(200 * stories.length)})`, () => {
  for (const p of paragraphs) model.encode(p);
}, 5);
model.dispose();

// Added tokens.
for (const [label, contents, text, context] of [
  ['6,400 <unusedN> added tokens, encode 128 KiB of text', Array.from({ length: 6400 }, (_, i) => `<unused${i}>`),
    'Once upon a time <unused17> there was a <unused6399>girl. <unused<b>'.repeat(2200).slice(0, 128 * 1024), undefined],
  ['256 <|...|> added tokens, refuse 1 MiB of "<" for 1,024 tokens', Array.from({ length: 256 }, (_, i) => `<|reserved_special_token_${i}|>`),
    '<'.repeat(2 ** 20), 1024],
]) {
  const m = await loadModel(tokenizerWithAddedTokens(contents, context));
  time(label, () => {
    if (context === undefined) m.encode(text);
    else assert.throws(() => m.trace(text), RangeError);
  });
  m.dispose();
}

// Today's real files (the @lenml/tokenizer-* dev dependencies) beside the
// Rust library (the `tokenizers` package) in the same run: loading time and
// the tokenizer instance's memory against the file's size; then encoding
// the story paragraphs with GPT-4o's vocabulary (o200k_base) here, in Rust
// and in gpt-tokenizer, the fastest JavaScript BPE, after checking that all
// three give the same ids.
const { default: rust } = await import('tokenizers');
const gptTokenizer = await import('gpt-tokenizer/encoding/o200k_base');
const realFile = (name) => new URL(`../node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`, import.meta.url);
const realModels = {};
for (const name of ['llama3', 'gpt4o']) {
  const fileBytes = new Uint8Array(readFileSync(realFile(name)));
  const parsed = JSON.parse(new TextDecoder().decode(fileBytes));
  let ids = 0;
  for (const id of Object.values(parsed.model.vocab)) ids = Math.max(ids, id + 1);
  for (const token of parsed.added_tokens) ids = Math.max(ids, token.id + 1);
  const ours = performance.now();
  realModels[name] = await loadModel(modelForTokenizer(fileBytes, ids));
  const oursMs = performance.now() - ours;
  const memory = tokenizerModule.HEAPU8.length;
  const theirs = performance.now();
  const rustTokenizer = rust.Tokenizer.fromFile(realFile(name).pathname);
  const rustMs = performance.now() - theirs;
  realModels[`${name} rust`] = rustTokenizer;
  console.log(`load ${name} tokenizer.json (${mib(fileBytes.length)}): ${oursMs.toFixed(0)} ms here, ${rustMs.toFixed(0)} ms Rust ` +
    `(${(oursMs / rustMs).toFixed(2)}x); tokenizer instance memory ${mib(memory)} (${(memory / fileBytes.length).toFixed(2)}x the file)`);
}
const o200k = realModels.gpt4o;
const rustO200k = realModels['gpt4o rust'];
const sample = paragraphs.slice(0, 400);
const rustIds = (await rustO200k.encodeBatch(sample, { addSpecialTokens: false })).map((e) => Array.from(e.getIds()));
sample.forEach((p, i) => {
  assert.deepEqual(o200k.encode(p), rustIds[i], p);
  assert.deepEqual(gptTokenizer.encode(p), rustIds[i], p);
});
const here = time(`gpt4o: encode ${paragraphs.length} story paragraphs here`, () => {
  for (const p of paragraphs) o200k.encode(p);
}, 3);
const js = time(`gpt4o: encode the same with gpt-tokenizer`, () => {
  for (const p of paragraphs) gptTokenizer.encode(p);
}, 3);
// The Rust library's encode is asynchronous; its batch call is its fastest path.
const rustStart = performance.now();
for (let i = 0; i < 3; i++) await rustO200k.encodeBatch(paragraphs, { addSpecialTokens: false });
const rustEncodeMs = (performance.now() - rustStart) / 3;
console.log(`gpt4o: encode the same in Rust (encodeBatch): ${rustEncodeMs.toFixed(1)} ms`);
console.log(`gpt4o encode: ${(js / here).toFixed(2)}x gpt-tokenizer's speed, ${(rustEncodeMs / here).toFixed(2)}x Rust's`);
for (const name of ['llama3', 'gpt4o']) realModels[name].dispose();
