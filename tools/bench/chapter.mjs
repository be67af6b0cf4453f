#!/usr/bin/env node
// npm run bench: the chapter's computations timed side by side, in one
// process and one run, on the same inputs:
//   (a) the chapter's JavaScript exactly as written (Array.reduce dot and cosine),
//   (b) the fastest plain JavaScript typed-array loops we could write,
//   (c) the WebAssembly module through its public API,
// and, from the same command, the native C++ suite (build/native/embeddings_bench)
// for the same cases. Then the page figures (tools/bench/page.mjs) unless
// --no-page. Timings are medians of many short samples, a, b and c taking
// turns, each after a warm-up (V8 optimises WebAssembly and JavaScript only
// after some calls, and never a running call). Ratios are of medians from
// this one run.
//
//   node tools/bench/chapter.mjs [--quick] [--no-native] [--no-map] [--no-page] [--json FILE] [--markdown]
//
// The vocabulary map's figures (tools/bench/map.mjs) come after the table, unless --no-map.
import { readFile, writeFile, access } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

import { loadModel, rowView, dot, cosine, backend, defaultModelFiles } from '../../web/index.js';
import { makeModel, makeTokenizerJson } from '../../tests/js/helpers/fixtures.js';
import * as runtime from '../../web/src/runtime.js';
import { fastCosine, fastCosineMatrix, fastDot, fastNearest, inverseNorms } from './plain-js.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = flag('--quick');
const SAMPLES = quick ? 21 : 101;
const MIN_SAMPLES = quick ? 5 : 11;
const SAMPLE_MS = 2;
const CASE_MS = quick ? 1500 : 8000;
const WARMUP_MS = quick ? 150 : 400;

// ---- The chapter's JavaScript, exactly as written -------------------------------
const chapterDot = (a, b) => a.reduce((sum, x, k) => sum + x * b[k], 0);
const chapterCosine = (a, b) => chapterDot(a, b) / Math.sqrt(chapterDot(a, a) * chapterDot(b, b));

// ---- The fastest plain JavaScript we could write: plain-js.mjs -----------------

// ---- Inputs -------------------------------------------------------------------

async function exists(url) {
  try {
    await access(url);
    return true;
  } catch {
    return false;
  }
}

async function openModel() {
  if (await exists(defaultModelFiles.weights) && await exists(defaultModelFiles.tokenizer)) {
    return { model: await loadModel(), label: 'default model (model/)' };
  }
  // Same shapes as the default model while model/ is empty.
  const words = [' girl', ' boy', 'Lily', ' Lily', ' saw', ' Max', 'Max', ' three', ' 3', ' the', ' park', ' and'];
  const base = Object.keys(JSON.parse(makeTokenizerJson(words)).model.vocab).length;
  const m = makeModel({ words, width: 128, context: 128, extraRows: 4096 - base, seed: 7 });
  const model = await loadModel({ weights: m.weights, config: m.config, tokenizer: m.tokenizer });
  return { model, label: 'random model of the default shape (model/ is empty)' };
}

/** cpp/bench/trace_text.txt repeated until it has `tokens` tokens, cut after them (as cpp/bench does). */
async function traceText(model, tokens) {
  const base = (await readFile(new URL('../../cpp/bench/trace_text.txt', import.meta.url), 'utf8')).replace(/[\n ]+$/, '');
  let text = base;
  let ids = model.encode(text);
  while (ids.length < tokens) {
    text += ` ${base}`;
    ids = model.encode(text);
  }
  return model.decode(ids.slice(0, tokens));
}

function pickPair(model) {
  try {
    return [model.tokenId('·girl'), model.tokenId('·boy')];
  } catch {
    return [477, 497];
  }
}

// ---- Timing -------------------------------------------------------------------

let sink = 0;
const now = () => performance.now();

function warm(fn) {
  const start = now();
  let calls = 0;
  while ((now() - start < WARMUP_MS || calls < 10) && now() - start < 5 * WARMUP_MS) {
    sink += fn();
    calls++;
  }
  return (now() - start) / calls;
}

function sample(fn, n) {
  const start = now();
  for (let i = 0; i < n; i++) sink += fn();
  return (now() - start) / n;
}

const median = (xs) => {
  const s = xs.slice().sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Times the variants of one case: many short samples (about SAMPLE_MS each,
 * so few are interrupted by other work on the machine), the variants taking
 * turns, until each has SAMPLES samples or the case's time is up (at least
 * MIN_SAMPLES). Returns the median time per call of each, in ms.
 */
function compare(variants) {
  const names = Object.keys(variants).filter((k) => variants[k]);
  const sizes = {};
  for (const name of names) {
    const perCall = warm(variants[name]);
    sizes[name] = Math.max(1, Math.round(SAMPLE_MS / Math.max(perCall, 1e-6)));
  }
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  const start = now();
  for (let round = 0; round < SAMPLES; round++) {
    if (round >= MIN_SAMPLES && now() - start > CASE_MS) break;
    for (const name of names) samples[name].push(sample(variants[name], sizes[name]));
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}

// ---- Native ---------------------------------------------------------------------

const nativeBinary = `${root}build/native/embeddings_bench`;
const nativeNames = {
  dot: 'Dot128',
  cosine: 'Cosine128',
  cosineViews: 'Cosine128',
  nearest: 'Nearest4096',
  map: 'PositionMap',
  trace: 'Trace128',
};

async function runNative() {
  if (flag('--no-native') || !(await exists(nativeBinary))) return undefined;
  const filter = `^(${[...new Set(Object.values(nativeNames))].join('|')})$`;
  const { stdout } = await promisify(execFile)(nativeBinary, [
    `--benchmark_filter=${filter}`, '--benchmark_format=json', '--benchmark_repetitions=5',
    '--benchmark_report_aggregates_only=true', `--benchmark_min_time=${quick ? 0.05 : 0.2}`,
  ], { maxBuffer: 1 << 24 });
  const report = JSON.parse(stdout);
  const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };
  const out = { context: report.context };
  for (const b of report.benchmarks) {
    if (b.aggregate_name !== 'median') continue;
    out[b.run_name] = b.real_time * toMs[b.time_unit];
  }
  return out;
}

// ---- Output -------------------------------------------------------------------

function formatTime(ms) {
  if (ms === undefined) return '–';
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  if (ms >= 1e-3) return `${(ms * 1e3).toFixed(ms >= 0.1 ? 0 : ms >= 0.01 ? 1 : 2)} µs`;
  return `${(ms * 1e6).toFixed(0)} ns`;
}
const ratio = (x, y) => (x === undefined || y === undefined ? '–' : `${(x / y).toFixed(x / y >= 100 ? 0 : x / y >= 10 ? 1 : 2)}×`);
function formatRate(ms, items, unit) {
  if (ms === undefined) return '';
  const perSecond = items / (ms / 1e3);
  const scaled = perSecond >= 1e9 ? `${(perSecond / 1e9).toFixed(2)} G` : perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(1)} M` : `${(perSecond / 1e3).toFixed(1)} k`;
  return `${scaled}${unit}/s`;
}

function table(rows, markdown) {
  const header = ['case', '(a) chapter JS', '(b) fast JS', '(c) wasm API', 'native C++', 'a/c', 'b/c', 'c/native', 'rate (c)'];
  const body = rows.map((r) => [r.label, formatTime(r.a), formatTime(r.b), formatTime(r.c), formatTime(r.native),
    ratio(r.a, r.c), ratio(r.b, r.c), ratio(r.c, r.native), formatRate(r.c, r.items, r.unit)]);
  if (markdown) {
    const line = (cells) => `| ${cells.join(' | ')} |`;
    const indent = (cells) => [cells[0].replace(/^ +/, (m) => '&nbsp;'.repeat(2 * m.length)), ...cells.slice(1)];
    return [line(header), line(header.map((_, i) => (i === 0 ? '---' : '---:'))), ...body.map((r) => line(indent(r)))].join('\n');
  }
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const pad = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [pad(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(pad)].join('\n');
}

// ---- Main -----------------------------------------------------------------------

/** The inputs, built once: row views of the model's tables (a, c), plain copies with their inverse norms (b), preallocated outputs (b). */
function benchInputs(model, text) {
  const { vocabSize, width, context } = model;
  const [idA, idB] = pickPair(model);
  const wteRows = Array.from({ length: vocabSize }, (_, i) => rowView(model.wte, i));
  const wpeRows = Array.from({ length: context }, (_, i) => rowView(model.wpe, i));
  const wteFlat = Float32Array.from(model.wte.data);
  const wpeFlat = Float32Array.from(model.wpe.data);
  return {
    model, text, tokens: model.encode(text).length, vocabSize, width, context, idA, idB,
    wteRows, wpeRows, wteFlat, wpeFlat,
    wteInverse: inverseNorms(wteFlat, vocabSize, width),
    wpeInverse: inverseNorms(wpeFlat, context, width),
    va: wteRows[idA], vb: wteRows[idB],
    fa: wteFlat.subarray(idA * width, (idA + 1) * width), fb: wteFlat.subarray(idB * width, (idB + 1) * width),
    topIds: new Int32Array(10), topScores: new Float64Array(10),
    mapOut: new Float32Array(context * context),
    traceToken: new Float32Array(context * width), tracePosition: new Float32Array(context * width),
    traceSum: new Float32Array(context * width),
  };
}

/** The three ways agree before anything is timed. */
function checkAgreement(inputs) {
  const { model, va, vb, fa, fb, idA, wteFlat, wteInverse, wpeFlat, wpeInverse, vocabSize, width, context, topIds, topScores, mapOut } = inputs;
  const check = (what, x, y, tol) => {
    if (!(Math.abs(x - y) <= tol)) throw new Error(`bench: ${what} disagree: ${x} vs ${y}`);
  };
  check('cosines', chapterCosine(va, vb), cosine(va, vb), 1e-5);
  check('cosines', fastCosine(fa, fb), cosine(va, vb), 1e-5);
  const apiTop = model.nearest(idA, 10);
  fastNearest(wteFlat, wteInverse, vocabSize, width, idA, 10, topIds, topScores);
  for (let i = 0; i < 10; i++) check('nearest scores', topScores[i], apiTop[i].score, 1e-5);
  const apiMap = model.cosineMatrix(model.wpe).data;
  fastCosineMatrix(wpeFlat, wpeInverse, context, width, mapOut);
  for (let i = 0; i < apiMap.length; i += 97) check('map cells', mapOut[i], apiMap[i], 1e-5);
}

/** The timed cases: (a) the chapter's JavaScript, (b) a fast plain-JS loop, (c) the module's public API. */
function benchCases(inputs) {
  const { model, text, tokens, vocabSize, width, context, idA, idB, wteRows, wpeRows, wteFlat, wpeFlat } = inputs;
  const { wteInverse, wpeInverse, va, vb, fa, fb, topIds, topScores, mapOut, traceToken, tracePosition, traceSum } = inputs;
  return [
    {
      key: 'dot', label: 'dot of two rowViews (128)', items: 1, unit: ' dots',
      a: () => chapterDot(va, vb),
      b: () => fastDot(fa, fb),
      c: () => dot(va, vb),
    },
    {
      key: 'cosine', label: 'cosine of two rowViews (128)', items: 1, unit: ' cosines',
      a: () => chapterCosine(va, vb),
      b: () => fastCosine(fa, fb),
      c: () => cosine(va, vb),
    },
    {
      key: 'cosineViews', label: '  the same, rowView() in the call', items: 1, unit: ' cosines',
      a: () => chapterCosine(rowView(model.wte, idA), rowView(model.wte, idB)),
      b: () => fastCosine(rowView(model.wte, idA), rowView(model.wte, idB)),
      c: () => cosine(rowView(model.wte, idA), rowView(model.wte, idB)),
    },
    {
      key: 'nearest', label: `nearest, ${vocabSize} × ${width}, top 10`, items: vocabSize, unit: ' rows',
      a: () => {
        const q = wteRows[idA];
        const scored = wteRows.map((row, id) => ({ id, score: chapterCosine(q, row) })).filter((s) => s.id !== idA);
        scored.sort((x, y) => y.score - x.score || x.id - y.id);
        return scored.slice(0, 10)[0].score;
      },
      b: () => (fastNearest(wteFlat, wteInverse, vocabSize, width, idA, 10, topIds, topScores), topScores[0]),
      c: () => model.nearest(idA, 10)[0].score,
    },
    {
      key: 'map', label: `position map, ${context} × ${context}`, items: context * context, unit: ' cells',
      a: () => wpeRows.map((p) => wpeRows.map((q) => chapterCosine(p, q)))[1][2],
      b: () => fastCosineMatrix(wpeFlat, wpeInverse, context, width, mapOut)[130],
      c: () => model.cosineMatrix(model.wpe).data[130],
    },
    {
      key: 'trace', label: `trace of ${tokens} tokens`, items: tokens, unit: ' tokens',
      a: () => {
        const ids = model.encode(text);
        const tokenEmbeddings = ids.map((id) => Array.from(rowView(model.wte, id)));
        const positionEmbeddings = ids.map((_, i) => Array.from(rowView(model.wpe, i)));
        const embeddings = tokenEmbeddings.map((t, i) => t.map((x, k) => x + positionEmbeddings[i][k]));
        return embeddings[0][0];
      },
      b: () => {
        const ids = model.encode(text), n = ids.length;
        for (let i = 0; i < n; i++) {
          const t = ids[i] * width, o = i * width;
          for (let k = 0; k < width; k++) {
            const x = wteFlat[t + k], y = wpeFlat[o + k];
            traceToken[o + k] = x;
            tracePosition[o + k] = y;
            traceSum[o + k] = x + y;
          }
        }
        return traceSum[0];
      },
      c: () => model.trace(text).embeddings.data[0],
    },
    {
      key: 'tokenize', label: '  of which tokenizing (model.encode)', items: tokens, unit: ' tokens',
      c: () => model.encode(text).length,
    },
  ];
}

/** What one call into the module costs, apart from any work: an Embind method (built without eval, as the page's CSP requires) and a plain export. */
function callOverhead(tablesModule) {
  if (!tablesModule) return undefined;
  const handle = new tablesModule.ModelSession();
  const overhead = compare({
    embind: () => handle.vocabSize(),
    plain: () => tablesModule._embeddings_dot(0, 0, 0),
  });
  handle.delete();
  return overhead;
}

/** The table, the call overhead and the targets, met or not. */
function report({ label, results, native, overhead, markdown }) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`\nModel: ${label}; backend ${backend}; Node ${process.version}; ${cpu} (${os.cpus().length} threads)`);
  console.log(`Medians of up to ${SAMPLES} samples of about ${SAMPLE_MS} ms (or one call), the variants taking turns; (a) chapter JS, (b) fast JS, (c) WebAssembly through the public API.` +
    (native ? ` Native: ${nativeBinary.slice(root.length)} (${native.context?.model ?? ''}), median of 5 repetitions, run before and after the JavaScript (mean of the two).` : ' Native: not run.'));
  console.log();
  console.log(table(results, markdown));

  if (overhead) {
    console.log(`\nCall overhead: an Embind method call ${formatTime(overhead.embind)}, a plain exported function ` +
      `${formatTime(overhead.plain)} (both doing nothing).`);
  }

  const targets = [
    ['nearest: (c) ≥ 200× faster than (a)', results.find((r) => r.key === 'nearest'), (r) => r.a / r.c >= 200, (r) => `${(r.a / r.c).toFixed(0)}×`],
    ['nearest: (c) ≥ 10× faster than (b)', results.find((r) => r.key === 'nearest'), (r) => r.b / r.c >= 10, (r) => `${(r.b / r.c).toFixed(1)}×`],
    ['nearest: (c) within 2× of native', results.find((r) => r.key === 'nearest'), (r) => r.native !== undefined && r.c / r.native <= 2, (r) => (r.native === undefined ? 'no native figure' : `${(r.c / r.native).toFixed(2)}×`)],
    ['cosine: (c) no slower than 1.5× (b)', results.find((r) => r.key === 'cosine'), (r) => r.c / r.b <= 1.5, (r) => `c/b = ${(r.c / r.b).toFixed(2)}`],
    ['map: (c) ≥ 10× faster than (b)', results.find((r) => r.key === 'map'), (r) => r.b / r.c >= 10, (r) => `${(r.b / r.c).toFixed(1)}×`],
  ];
  console.log('\nTargets:');
  for (const [name, r, ok, show] of targets) console.log(`  ${ok(r) ? 'met    ' : 'NOT met'}  ${name}: ${show(r)}`);
  return cpu;
}

async function main() {
  // The tables instance, for the call-overhead figures (not part of the API).
  let tablesModule;
  runtime.observeInstances?.((module, role) => {
    if (role === 'tables') tablesModule ??= module;
  });
  const { model, label } = await openModel();
  const inputs = benchInputs(model, await traceText(model, model.context));
  checkAgreement(inputs);

  const nativeBefore = await runNative();
  const results = [];
  for (const c of benchCases(inputs)) {
    const times = compare({ a: c.a, b: c.b, c: c.c });
    results.push({ ...c, ...times });
    process.stderr.write(`  ${c.label}: done\n`);
  }
  const overhead = callOverhead(tablesModule);
  const nativeAfter = await runNative();
  // The machine's speed drifts over minutes; the native figures are the mean
  // of the runs just before and just after the JavaScript measurements.
  const native = nativeBefore && nativeAfter && Object.fromEntries(Object.entries(nativeAfter).map(([key, value]) =>
    [key, typeof value === 'number' ? (value + nativeBefore[key]) / 2 : value]));
  for (const r of results) r.native = native?.[nativeNames[r.key]];

  const markdown = flag('--markdown');
  const cpu = report({ label, results, native, overhead, markdown });
  const jsonPath = option('--json');
  if (jsonPath) {
    await writeFile(jsonPath, JSON.stringify({ label, backend, node: process.version, cpu, samples: SAMPLES, native, nativeBefore, nativeAfter, overhead, results: results.map(({ a, b, c, ...r }) => ({ ...r, a, b, c, native: r.native })) }, (k, v) => (typeof v === 'function' ? undefined : v), 2));
  }
  model.dispose();
  if (sink === 0.123456789) console.log(sink);  // keeps every result alive

  if (!flag('--no-map')) {
    const { runMapBench } = await import('./map.mjs');
    await runMapBench({ markdown });
  }

  if (!flag('--no-page')) {
    const { runPageBench } = await import('./page.mjs').catch(() => ({}));
    if (runPageBench) await runPageBench({ markdown });
  }
}

await main();
