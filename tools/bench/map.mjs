// The vocabulary map's figures, for `npm run bench` (or alone:
// node tools/bench/map.mjs [--markdown]), side by side in one run:
//   - PCA of the default 4,096 × 128 wte in WebAssembly (median of 11 runs);
//   - UMAP of it by model.map() and by umap-js (the npm package a web author
//     would reach for; the same n_neighbors 15, min_dist 0.1, cosine
//     distance; each with its own default epochs: umap-js 400 here, model.map
//     100), taking turns: ours (seed 1), umap-js, ours (seed 2), ours (seed 3),
//     umap-js again; with the share of each token's 10 nearest cosine
//     neighbours (in 128 dimensions) kept among its 10 nearest on each map
//     (each run's, then their mean), and how tightly the colour words gather;
//   - what a map of a generated 50,257 × 768 table (GPT-2's shape) costs:
//     its PCA (the Krylov method) and its UMAP (NN-descent's neighbours),
//     measured (tools/bench/scale.mjs has today's real shapes in full).
// umap-js is not a dependency of the package: it is used when installed
// (node_modules/umap-js) or when UMAP_JS names its lib/umap-js.js.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadModel, Matrix, mapDetails as mapDetailsOf } from '../../web/index.js';
import { neighboursKept } from '../../tests/js/helpers/map-measures.js';
import { groupIds } from '../../web/widgets/parts/vocabulary-groups.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const now = () => performance.now();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b), half = Math.floor(s.length / 2);
  return s.length % 2 ? s[half] : (s[half - 1] + s[half]) / 2;
};
const seconds = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

function loadUmapJs() {
  const require = createRequire(import.meta.url);
  const candidates = [process.env.UMAP_JS, `${root}node_modules/umap-js`].filter(Boolean);
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    globalThis.window ??= globalThis;  // its browser bundle's wrapper reads `window`
    return { UMAP: require(path).UMAP, path };
  }
  return undefined;
}

/** Mean distance between the colour words on a map, over the mean distance between random tokens. */
function colourSpread(map, colours) {
  const distance = (i, j) => Math.hypot(map.at(i, 0) - map.at(j, 0), map.at(i, 1) - map.at(j, 1));
  let within = 0, pairs = 0;
  for (let a = 0; a < colours.length; a++) for (let b = a + 1; b < colours.length; b++) { within += distance(colours[a], colours[b]); pairs++; }
  let state = 12345, random = 0;
  const next = () => { state = (state * 1103515245 + 12345) % 2 ** 31; return state % map.rows; };
  for (let k = 0; k < 20000; k++) random += distance(next(), next());
  return (within / pairs) / (random / 20000);
}

/** A generated table: clusters of rows around random centres, from a seeded xorshift. */
function generatedTable(rows, cols) {
  let s = 0x9e3779b9;
  const uniform = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 2 ** 32 - 0.5; };
  const centres = Array.from({ length: 64 }, () => Float32Array.from({ length: cols }, uniform));
  const data = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const centre = centres[r % 64];
    for (let c = 0; c < cols; c++) data[r * cols + c] = centre[c] + 0.5 * uniform();
  }
  return new Matrix(data, rows, cols, { name: `generated ${rows} × ${cols}` });
}

/** PCA of the default model's table, warm: the median of 11 and the map. */
async function timePca(model) {
  await model.map({ method: 'pca' });
  const times = [];
  let map;
  for (let i = 0; i < 11; i++) {
    const start = now();
    map = await model.map({ method: 'pca' });
    times.push(now() - start);
  }
  return { ms: median(times), map };
}

/** umap-js on the table's rows with cosine distance: its time, epochs, map and the 10-NN it keeps. */
async function umapJsRun(umapJs, model, rows) {
  const cosineDistance = (a, b) => {
    let ab = 0, aa = 0, bb = 0;
    for (let k = 0; k < a.length; k++) { ab += a[k] * b[k]; aa += a[k] * a[k]; bb += b[k] * b[k]; }
    return 1 - ab / Math.sqrt(aa * bb);
  };
  const start = now();
  const layout = new umapJs.UMAP({ nComponents: 2, nNeighbors: 15, minDist: 0.1, distanceFn: cosineDistance });
  const points = layout.fit(rows);
  const ms = now() - start;
  const flat = new Float32Array(points.length * 2);
  points.forEach(([x, y], i) => { flat[2 * i] = x; flat[2 * i + 1] = y; });
  const map = new Matrix(flat, points.length, 2);
  const run = { ms, epochs: layout.getNEpochs(), map, kept: await neighboursKept(model.wte, map, 10) };
  process.stderr.write(`  map: umap-js ${seconds(ms)}, kept ${(100 * run.kept).toFixed(2)}%\n`);
  return run;
}

/** UMAP by model.map and by umap-js, in turns (ours, umap-js, ours, ours, umap-js). */
async function umapRuns(model) {
  const umapJs = loadUmapJs();
  const ours = { ms: [], kept: [], map: undefined };
  const runOurs = async (seed) => {
    const start = now();
    ours.map = await model.map({ method: 'umap', neighbours: 15, minDist: 0.1, seed });
    ours.ms.push(now() - start);
    ours.kept.push(await neighboursKept(model.wte, ours.map, 10));
    process.stderr.write(`  map: model.map umap (seed ${seed}) ${seconds(ours.ms.at(-1))}, kept ${(100 * ours.kept.at(-1)).toFixed(2)}%\n`);
  };
  // A warm-up on a small table: the layout module compiles and the engine warms up, uncounted.
  await model.map({ table: new Matrix(model.wte.data.slice(0, 500 * model.width), 500, model.width), epochs: 20 });
  await runOurs(1);
  const theirs = [];
  const rows = umapJs && Array.from({ length: model.vocabSize }, (_, i) => Array.from(model.wte.rowView(i)));
  if (umapJs) theirs.push(await umapJsRun(umapJs, model, rows));
  await runOurs(2);
  await runOurs(3);
  if (umapJs) theirs.push(await umapJsRun(umapJs, model, rows));
  return { ours, theirs };
}

/** PCA and UMAP of a generated table of GPT-2's shape: their times. */
async function timeGpt2Shape(model) {
  const big = generatedTable(50257, 768);
  let start = now();
  await model.map({ method: 'pca', table: big });
  const pca = now() - start;
  start = now();
  await model.map({ table: big });
  return { pca, umap: now() - start };
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const percents = (xs) => xs.map((x) => (100 * x).toFixed(1)).join(', ');
const percent = (x, digits = 1) => `${(100 * x).toFixed(digits)}%`;

function printTargets(pca, ourMedian, theirs, kept) {
  console.log('\nTargets:');
  const status = (ok) => (ok ? 'met    ' : 'NOT met');
  console.log(`  ${status(pca.ms < 20)}  PCA under 20 ms in WebAssembly: ${seconds(pca.ms)}`);
  if (!theirs.length) {
    console.log('  (umap-js is not installed: set UMAP_JS to its lib/umap-js.js to compare)');
    return;
  }
  const theirMedian = median(theirs.map((t) => t.ms));
  console.log(`  ${status(theirMedian / ourMedian >= 10)}  UMAP ≥ 10× faster than umap-js: ${(theirMedian / ourMedian).toFixed(1)}×`);
  console.log(`  ${status(kept.ours >= kept.theirs)}  UMAP keeps at least as many 10-NN as umap-js: ${percent(kept.ours, 2)} vs ${percent(kept.theirs, 2)}`);
}

export async function runMapBench({ markdown = false } = {}) {
  const model = await loadModel();
  const colours = groupIds(model.vocabulary()).colours;
  const lines = [];
  const row = (...cells) => lines.push(markdown ? `| ${cells.join(' | ')} |` : cells.join('  ·  '));
  const pca = await timePca(model);
  const { ours, theirs } = await umapRuns(model);
  const kept = {
    ours: mean(ours.kept),
    pca: await neighboursKept(model.wte, pca.map, 10),
    theirs: theirs.length && mean(theirs.map((t) => t.kept)),
  };
  const spread = { ours: colourSpread(ours.map, colours), pca: colourSpread(pca.map, colours), theirs: theirs.length && colourSpread(theirs[0].map, colours) };
  const gpt2 = await timeGpt2Shape(model);

  const ourMedian = median(ours.ms);
  if (markdown) lines.push('| case | time | 10-NN kept | colour words\' spread |', '|---|---|---|---|');
  row('PCA, 4,096 × 128, WebAssembly (median of 11)', seconds(pca.ms), percent(kept.pca), percent(spread.pca));
  row(`UMAP by model.map (${mapDetailsOf(ours.map).epochs} epochs, seeds 1-3: median time, mean kept)`, seconds(ourMedian),
    `${percent(kept.ours)} (${percents(ours.kept)})`, percent(spread.ours, 2));
  if (theirs.length) {
    row(`UMAP by umap-js (${theirs[0].epochs} epochs, ${theirs.length} runs: median time, mean kept)`, seconds(median(theirs.map((t) => t.ms))),
      `${percent(kept.theirs)} (${percents(theirs.map((t) => t.kept))})`, percent(spread.theirs, 2));
  }
  row('PCA, generated 50,257 × 768 (the Krylov method)', seconds(gpt2.pca), '', '');
  row('UMAP, generated 50,257 × 768 (NN-descent)', seconds(gpt2.umap), '', '');
  console.log('\nThe vocabulary map (the 10-NN kept: share of each token\'s 10 nearest cosine neighbours in 128-d ' +
    'kept among its 10 nearest on the map; spread: mean distance between the colour words over that between random tokens):\n');
  console.log(lines.join('\n'));
  printTargets(pca, ourMedian, theirs, kept);
  model.dispose();
}

if (import.meta.url === `file://${process.argv[1]}`) await runMapBench({ markdown: process.argv.includes('--markdown') });
