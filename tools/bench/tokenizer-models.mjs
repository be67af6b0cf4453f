// Issue 25's speed targets, beside the Rust library (the `tokenizers`
// package) in the same run, in turns, --rounds times (default 5), medians:
// loading Llama 3's and Gemma 3's tokenizer.json (the @lenml/tokenizer-*
// dev dependencies; the first load here, which compiles
// embeddings-full.wasm, is left out), and encoding 2,000 distinct
// TinyStories paragraphs with a Unigram model the Rust library trains
// here on the first 150 KB of the corpus (with Metaspace, punctuation and
// digits apart, unk_id 0), after checking that both give the same ids.
//   node tools/bench/tokenizer-models.mjs [--rounds 5] [--stories FILE]
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import rust from 'tokenizers';

import { loadModel } from '../../web/index.js';
import { modelForTokenizer } from '../../tests/js/helpers/big-tokenizer.js';

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const rounds = Number(option('--rounds', 5));
const storiesFile = option('--stories', new URL('../../../shared/data/tinystories/tinystories.txt', import.meta.url).pathname);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rowsOf = (json) => {
  const { vocab } = json.model;
  let rows = Array.isArray(vocab) ? vocab.length : Object.values(vocab).reduce((most, id) => Math.max(most, id + 1), 0);
  for (const token of json.added_tokens) rows = Math.max(rows, token.id + 1);
  return rows;
};
const report = (label, ours, theirs, unit = 'ms') => console.log(`${label}: ${median(ours).toFixed(1)} ${unit} here, ` +
  `${median(theirs).toFixed(1)} ${unit} Rust (medians of ${ours.length}): ${(median(ours) / median(theirs)).toFixed(2)}x Rust's time`);

for (const name of ['llama3', 'gemma3']) {
  const file = new URL(`../../node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`, import.meta.url).pathname;
  const rows = rowsOf(JSON.parse(readFileSync(file, 'utf8')));
  (await loadModel(modelForTokenizer(file, rows))).dispose();  // compiles the full module
  const ours = [], theirs = [];
  for (let round = 0; round < rounds; round++) {
    let start = performance.now();
    (await loadModel(modelForTokenizer(file, rows))).dispose();
    ours.push(performance.now() - start);
    start = performance.now();
    rust.Tokenizer.fromFile(file);
    theirs.push(performance.now() - start);
  }
  report(`load ${name}'s tokenizer.json`, ours, theirs);
}

// A Unigram tokenizer.json trained by the Rust library, with "<unk>" as unk_id 0.
const folder = mkdtempSync(join(tmpdir(), 'bench-unigram-'));
const text = readFileSync(storiesFile, 'utf8');
writeFileSync(join(folder, 'corpus.txt'), text.slice(0, 150_000).replaceAll('<|endoftext|>', '\n'));
const preTokenizer = () => rust.sequencePreTokenizer([rust.punctuationPreTokenizer(), rust.digitsPreTokenizer(true), rust.metaspacePreTokenizer()]);
const trainer = new rust.Tokenizer(rust.Unigram.empty());
trainer.setPreTokenizer(preTokenizer());
trainer.train([join(folder, 'corpus.txt')]);
trainer.save(join(folder, 'trained.json'));
const trained = JSON.parse(readFileSync(join(folder, 'trained.json'), 'utf8'));
const unigram = new rust.Tokenizer(rust.Unigram.init([['<unk>', 0], ...trained.model.vocab], { unkId: 0 }));
unigram.setPreTokenizer(preTokenizer());
unigram.setDecoder(rust.metaspaceDecoder());
unigram.save(join(folder, 'unigram.json'));
const json = readFileSync(join(folder, 'unigram.json'), 'utf8');
rmSync(folder, { recursive: true, force: true });
const model = await loadModel(modelForTokenizer(new TextEncoder().encode(json), rowsOf(JSON.parse(json))));
const theirsTokenizer = rust.Tokenizer.fromString(json);
const paragraphs = [...new Set(text.slice(150_000, 10_000_000).split('\n').filter((line) => line.trim() && !line.includes('<|')))];
const ours = [], theirs = [];
for (let round = 0; round < rounds; round++) {
  const batch = paragraphs.slice(round * 2000, (round + 1) * 2000);
  let start = performance.now();
  const ids = batch.map((paragraph) => model.encode(paragraph));
  ours.push(performance.now() - start);
  start = performance.now();
  const encodings = await theirsTokenizer.encodeBatch(batch, { addSpecialTokens: false });
  theirs.push(performance.now() - start);
  encodings.forEach((encoding, i) => assert.deepEqual(ids[i], Array.from(encoding.getIds()), batch[i]));
}
report(`encode 2,000 distinct TinyStories paragraphs, Unigram (${JSON.parse(json).model.vocab.length} pieces)`, ours, theirs);
model.dispose();
