#!/usr/bin/env node
// Before and after a change, in one process and in turns: the module of
// two checkouts (each built: web/dist/), the default model loaded in each,
// and the chapter's calls timed round by round, the order swapped every
// round, so that the machine's drift (large on a shared VM) falls on both.
// Prints each side's median and the median of the per-round ratios
// (after / before: 1.00 is no change).
//
//   node tools/bench/ab.mjs BEFORE_CHECKOUT [AFTER_CHECKOUT] [--rounds N] [--markdown]
//
// AFTER_CHECKOUT defaults to this one. Make BEFORE_CHECKOUT with, say,
// `git worktree add ../before main` and `tools/build.sh wasm` there.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const rounds = Number(option('--rounds', 21));
const markdown = args.includes('--markdown');
const roots = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds');
if (roots.length < 1) {
  console.error('usage: node tools/bench/ab.mjs BEFORE_CHECKOUT [AFTER_CHECKOUT] [--rounds N] [--markdown]');
  process.exit(2);
}
const packageOf = (root) => import(pathToFileURL(resolve(root, 'web/index.js')).href);
const before = await packageOf(roots[0]);
const after = await packageOf(roots[1] ?? new URL('../..', import.meta.url).pathname);
const models = [await before.loadModel(), await after.loadModel()];

const text = 'Once upon a time, there was a little girl named Lily. She loved to play outside in the park with her friends. One day, she saw a big red ball under a tree and ran to get it.';
// [name, calls per sample, the call on one side]
const cases = [
  ['rowView of wte', 20000, (p, m) => () => p.rowView(m.wte, 477)],
  ['cosine of two rowViews', 20000, (p, m) => () => p.cosine(p.rowView(m.wte, 477), p.rowView(m.wte, 497))],
  ['dot of two rowViews', 20000, (p, m) => () => p.dot(p.rowView(m.wte, 477), p.rowView(m.wte, 497))],
  ['nearest, top 10', 200, (p, m) => () => m.nearest(477, 10)],
  ['trace of a sentence', 500, (p, m) => () => m.trace(text)],
  ['position map (cosineMatrix of wpe)', 200, (p, m) => () => m.cosineMatrix(m.wpe)],
];

const perCall = (call, calls) => {
  const start = performance.now();
  for (let i = 0; i < calls; i++) call();
  return (performance.now() - start) / calls;
};
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const show = (ms) => (ms < 0.001 ? `${(ms * 1e6).toFixed(0)} ns` : `${(ms * 1000).toFixed(1)} µs`);

const lines = [];
for (const [name, calls, make] of cases) {
  const sides = [make(before, models[0]), make(after, models[1])];
  sides.forEach((call) => perCall(call, calls));  // warm up
  const times = [[], []], ratios = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [1, 0] : [0, 1];
    const t = [];
    for (const side of order) t[side] = perCall(sides[side], calls);
    times[0].push(t[0]);
    times[1].push(t[1]);
    ratios.push(t[1] / t[0]);
  }
  lines.push([name, show(median(times[0])), show(median(times[1])), median(ratios).toFixed(3)]);
}
if (markdown) {
  console.log('| case | before | after | after / before |\n| --- | ---: | ---: | ---: |');
  for (const line of lines) console.log(`| ${line.join(' | ')} |`);
} else {
  for (const [name, a, b, ratio] of lines) console.log(`${name}: before ${a}, after ${b}, ratio ${ratio}`);
}
models.forEach((model) => model.dispose());
