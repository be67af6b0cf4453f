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

import { loadModel, Matrix } from '../../web/index.js';
import { neighboursKept, mapDetails as mapDetailsOf } from '../../web/src/map.js';
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

export async function runMapBench({ markdown = false } = {}) {
  const model = await loadModel();
  const colours = groupIds(model.vocabulary()).colours;
  const lines = [];
  const row = (...cells) => lines.push(markdown ? `| ${cells.join(' | ')} |` : cells.join('  ·  '));

  // PCA, warm.
  await model.map({ method: 'pca' });
  const pcaTimes = [];
  let pca;
  for (let i = 0; i < 11; i++) {
    const start = now();
    pca = await model.map({ method: 'pca' });
    pcaTimes.push(now() - start);
  }

  // UMAP: ours, umap-js, ours, ours, umap-js.
  const umapJs = loadUmapJs();
  const ours = [], oursKept = [];
  let umap;
  const runOurs = async (seed) => {
    const start = now();
    umap = await model.map({ method: 'umap', neighbours: 15, minDist: 0.1, seed });
    ours.push(now() - start);
    oursKept.push(await neighboursKept(model.wte, umap, 10));
    process.stderr.write(`  map: model.map umap (seed ${seed}) ${seconds(ours.at(-1))}, kept ${(100 * oursKept.at(-1)).toFixed(2)}%\n`);
  };
  // A warm-up on a small table: the layout module compiles and the engine warms up, uncounted.
  await model.map({ table: new Matrix(model.wte.data.slice(0, 500 * model.width), 500, model.width), epochs: 20 });
  await runOurs(1);
  const theirs = [];
  const rows = umapJs && Array.from({ length: model.vocabSize }, (_, i) => Array.from(model.wte.rowView(i)));
  const runTheirs = async () => {
    if (!umapJs) return;
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
    theirs.push({ ms, epochs: layout.getNEpochs(), map, kept: await neighboursKept(model.wte, map, 10) });
    process.stderr.write(`  map: umap-js ${seconds(ms)}, kept ${(100 * theirs.at(-1).kept).toFixed(2)}%\n`);
  };
  await runTheirs();
  await runOurs(2);
  await runOurs(3);
  await runTheirs();
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const percents = (xs) => xs.map((x) => (100 * x).toFixed(1)).join(', ');

  const kept = {
    ours: mean(oursKept),
    pca: await neighboursKept(model.wte, pca, 10),
    theirs: theirs.length && mean(theirs.map((t) => t.kept)),
  };
  const spread = { ours: colourSpread(umap, colours), pca: colourSpread(pca, colours), theirs: theirs.length && colourSpread(theirs[0].map, colours) };

  // GPT-2's shape.
  const big = generatedTable(50257, 768);
  let start = now();
  await model.map({ method: 'pca', table: big });
  const bigPca = now() - start;
  start = now();
  await model.map({ table: big });
  const bigUmap = now() - start;

  const ourMedian = median(ours), theirMedian = theirs.length && median(theirs.map((t) => t.ms));
  if (markdown) lines.push('| case | time | 10-NN kept | colour words\' spread |', '|---|---|---|---|');
  row('PCA, 4,096 × 128, WebAssembly (median of 11)', seconds(median(pcaTimes)), `${(100 * kept.pca).toFixed(1)}%`, `${(100 * spread.pca).toFixed(1)}%`);
  row(`UMAP by model.map (${mapDetailsOf(umap).epochs} epochs, seeds 1-3: median time, mean kept)`, seconds(ourMedian),
    `${(100 * kept.ours).toFixed(1)}% (${percents(oursKept)})`, `${(100 * spread.ours).toFixed(2)}%`);
  if (theirs.length) {
    row(`UMAP by umap-js (${theirs[0].epochs} epochs, ${theirs.length} runs: median time, mean kept)`, seconds(theirMedian),
      `${(100 * kept.theirs).toFixed(1)}% (${percents(theirs.map((t) => t.kept))})`, `${(100 * spread.theirs).toFixed(2)}%`);
  }
  row('PCA, generated 50,257 × 768 (the Krylov method)', seconds(bigPca), '', '');
  row('UMAP, generated 50,257 × 768 (NN-descent)', seconds(bigUmap), '', '');
  console.log('\nThe vocabulary map (the 10-NN kept: share of each token\'s 10 nearest cosine neighbours in 128-d ' +
    'kept among its 10 nearest on the map; spread: mean distance between the colour words over that between random tokens):\n');
  console.log(lines.join('\n'));
  console.log('\nTargets:');
  const status = (ok) => (ok ? 'met    ' : 'NOT met');
  console.log(`  ${status(median(pcaTimes) < 20)}  PCA under 20 ms in WebAssembly: ${seconds(median(pcaTimes))}`);
  if (theirs.length) {
    console.log(`  ${status(theirMedian / ourMedian >= 10)}  UMAP ≥ 10× faster than umap-js: ${(theirMedian / ourMedian).toFixed(1)}×`);
    console.log(`  ${status(kept.ours >= kept.theirs)}  UMAP keeps at least as many 10-NN as umap-js: ${(100 * kept.ours).toFixed(2)}% vs ${(100 * kept.theirs).toFixed(2)}%`);
  } else {
    console.log('  (umap-js is not installed: set UMAP_JS to its lib/umap-js.js to compare)');
  }
  model.dispose();
}

if (import.meta.url === `file://${process.argv[1]}`) await runMapBench({ markdown: process.argv.includes('--markdown') });
