#!/usr/bin/env node
// The chapter page in headless Chromium on localhost: time from navigation
// to the first interactive widget, what was fetched (the .wasm, the model's
// files, and how much of model.safetensors the range requests took), on a
// desktop profile, a phone profile (390 × 844, CPU slowed 4×) and the phone
// on an emulated network (9 Mbit/s down, 150 ms round trip).
//
//   node tools/bench/page.mjs [--runs N] [--markdown] [--profile] [--trace] [--desktop] [--no-network] [--page PATH ...]
//   (--desktop: the desktop profile only, for quick comparisons;
//    --no-network: the desktop and phone profiles, without the network one;
//    --page PATH: a page of the server's in place of /web/page/, such as an
//    older copy of index.html kept beside it; given more than once, the
//    pages load in turns, beside the same floor loads: before/after pairs;
//    --trace: then N more phone loads of each page, in turns, under a
//    Chromium trace: the main thread's busy time until the first model
//    widget, and what it went to.)
//   (npm run bench runs it after the kernel table.)
//
// Beside the page, in the same browser and run, interleaved load by load,
// the floor: a bare page that fetches the same bytes the model needs
// (embeddings.wasm, config.json, tokenizer.json, the safetensors header and
// the two tables by range requests), compiles the .wasm, parses the JSON
// and paints 512 rows of the token table on a canvas. Nothing can be ready
// sooner than that, so "first model widget ÷ floor" says how much of the
// page's time is its own.
//
// Each run is a fresh browser context (empty cache). Times are from
// navigation start (performance.timeOrigin), read from the page's own
// performance marks: "embeddings:ready:<widget>" when a widget first answers
// input. Medians over the runs, with the range. Serves model/ when it holds
// the default model; otherwise a generated model of the same shape (and says so).
//
// The tool waits for the page with one plain evaluation over the DevTools
// protocol (a promise the page resolves from a PerformanceObserver), not with
// Playwright's waitForFunction: that one first injects Playwright's helper
// script into the page, 10-20 ms of the page's main thread in the middle of
// its loading, and then runs its check every frame.
import { existsSync, statSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { FLOOR_PATH, FLOOR_ROWS, floorReady, generatedModel, startServer } from './floor-server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

const median = (xs) => {
  const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  if (!s.length) return undefined;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Runs in the page: resolves when the chapter's figures are filled and every
 * model widget on the page is ready or failed, the token table included (the
 * training slider and its nested widgets wait to be scrolled to, so they do
 * not count), then gives the marks and the navigation timing.
 */
function pageReady() {
  const state = () => {
    const marks = performance.getEntriesByType('mark').map((m) => m.name);
    const widgets = [...document.querySelectorAll('[data-state]')].filter((w) => !w.closest('ew-training-slider'));
    return marks.includes('embeddings:figures') && marks.includes('embeddings:ready:ew-embedding-table') &&
      widgets.every((w) => w.dataset.state === 'ready' || w.dataset.state === 'error');
  };
  const result = () => {
    // The first of each name: a model loaded later (the map's, a second load) marks its stages again.
    const marks = {};
    for (const m of performance.getEntriesByType('mark')) {
      if (m.name.startsWith('embeddings:')) marks[m.name.slice('embeddings:'.length)] ??= m.startTime;
    }
    const nav = performance.getEntriesByType('navigation')[0];
    const weights = performance.getEntriesByType('resource').filter((r) => r.name.endsWith('/model.safetensors'));
    return {
      marks, domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
      weightsAsked: Math.min(...weights.map((r) => r.startTime)), tablesArrived: Math.max(...weights.map((r) => r.responseEnd)),
    };
  };
  return new Promise((resolve) => {
    if (state()) return resolve(result());
    // Every widget marks when it is ready; the page marks its figures.
    const observer = new PerformanceObserver(() => {
      if (!state()) return;
      observer.disconnect();
      resolve(result());
    });
    observer.observe({ type: 'mark' });
  });
}

/** Waits for pageReady() (or another such function) in the page with one Runtime.evaluate, and returns its result. */
async function waitForPage(cdp, timeout = 60_000, ready = pageReady) {
  let timer;
  const expired = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('the page did not get ready in time')), timeout); });
  try {
    const { result, exceptionDetails } = await Promise.race([
      cdp.send('Runtime.evaluate', { expression: `(${ready})()`, awaitPromise: true, returnByValue: true }),
      expired,
    ]);
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One desktop load under the V8 sampling profiler: self time by script
 * (and "WebAssembly", "browser" for V8's own (program) time, "GC"), from
 * navigation until the first model widget is ready.
 */
async function profileLoad(browser, server, pagePath) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await page.goto(`${server.origin}${pagePath}`, { waitUntil: 'commit' });
  const { marks } = await waitForPage(cdp);
  const { profile } = await cdp.send('Profiler.stop');
  await context.close();
  const selfTime = new Map();
  profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFile = new Map(), byFunction = new Map();
  for (const node of profile.nodes) {
    const { functionName, url } = node.callFrame;
    const time = selfTime.get(node.id) ?? 0;
    if (functionName === '(idle)' || !time) continue;
    const file = url.endsWith('.wasm') || functionName.startsWith('wasm-function') ? 'WebAssembly'
      : functionName === '(program)' ? 'browser (parsing, style, layout, compiling)'
      : functionName === '(garbage collector)' ? 'garbage collector'
      : url ? url.replace(server.origin, '') : '(native)';
    byFile.set(file, (byFile.get(file) ?? 0) + time);
    const fn = `${functionName || '(anonymous)'} ${file.split('/').pop()}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + time);
  }
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${(v / 1000).toFixed(1).padStart(7)} ms  ${k}`);
  return [`\nWhere the main thread's time went (one desktop load, sampled from navigation until every model widget was ready, ` +
    `${Math.round(Math.max(...Object.values(marks)))} ms), by script:`, ...top(byFile, 12),
    'by function:', ...top(byFunction, 12)].join('\n');
}

// The trace events that say what the renderer's main thread did (nested
// inside its tasks; a task can hold several).
const TRACED_WORK = {
  layout: ['Layout'],
  style: ['UpdateLayoutTree', 'ParseAuthorStyleSheet'],
  'script (modules, calls, microtasks)': ['v8.evaluateModule', 'EvaluateScript', 'FunctionCall', 'RunMicrotasks'],
  'HTML parsing': ['ParseHTML'],
  paint: ['PrePaint', 'Paint', 'Layerize'],
};

/**
 * `runs` phone loads of each page, in turns, each under a Chromium trace:
 * medians of the first model widget and of the main thread's busy time
 * until then (its tasks' durations), and of the work inside, by kind.
 */
async function traceLoads(browser, server, pagePaths, runs) {
  const results = pagePaths.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [j, pagePath] of pagePaths.entries()) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const events = [];
      cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,v8.execute,blink.user_timing', transferMode: 'ReportEvents' });
      await page.goto(`${server.origin}${pagePath}`, { waitUntil: 'commit' });
      const { marks } = await waitForPage(cdp);
      await cdp.send('Tracing.end');
      await complete;
      await context.close();
      const firstName = Object.entries(marks).filter(([name]) => name.startsWith('ready:') && name !== 'ready:ew-dot-product')
        .sort((a, b) => a[1] - b[1])[0][0];
      const ready = events.find((e) => e.name === `embeddings:${firstName}`);
      const start = events.find((e) => e.name === 'navigationStart' && e.pid === ready.pid);
      const main = events.find((e) => e.name === 'thread_name' && e.pid === ready.pid && e.args?.name === 'CrRendererMain');
      const before = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.ts <= ready.ts && (!start || e.ts >= start.ts));
      // The outermost events of the kind only: a function call's microtasks are not counted twice.
      // `dur` is wall time; `tdur` the thread's CPU time, which neither the
      // DevTools throttling (it suspends the thread) nor other processes on
      // the machine stretch: the steadier count of the work itself.
      const total = (names, field = 'dur') => {
        let sum = 0, end = -Infinity;
        for (const e of before.filter((x) => names.includes(x.name)).sort((x, y) => x.ts - y.ts)) {
          if (e.ts < end) continue;
          sum += e[field] ?? 0;
          end = e.ts + (e.dur ?? 0);
        }
        return sum / 1000;
      };
      results[j].push({
        firstModelWidget: marks[firstName],
        busy: total(['ThreadControllerImpl::RunTask', 'RunTask']),
        cpu: total(['ThreadControllerImpl::RunTask', 'RunTask'], 'tdur'),
        ...Object.fromEntries(Object.entries(TRACED_WORK).map(([kind, names]) => [kind, total(names, 'tdur')])),
      });
    }
  }
  const ms = (list, key) => `${Math.round(median(list.map((r) => r[key])))} ms`;
  const lines = [`\nTraced phone loads (390 × 844, CPU 4× slower), median of ${runs} per page, in turns: until the first model widget, ` +
    'the main thread\'s busy time (its tasks, wall time) and CPU time (unthrottled), and that CPU time by kind'];
  for (const [j, pagePath] of pagePaths.entries()) {
    const list = results[j];
    lines.push(`  ${pagePath}: first model widget ${ms(list, 'firstModelWidget')}, main thread busy ${ms(list, 'busy')}, CPU ${ms(list, 'cpu')}; ` +
      Object.keys(TRACED_WORK).map((kind) => `${kind} ${ms(list, kind)}`).join(', '));
  }
  return lines.join('\n');
}

/** One cold load of the chapter page (or, with `floor`, of the floor page) on a profile. */
async function loadPage(browser, server, profile, { floor = false, pagePath = '/web/page/' } = {}) {
  const context = await browser.newContext({ viewport: profile.viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  if (profile.cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  if (profile.network) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
  }
  server.sent.length = 0;
  await page.goto(`${server.origin}${floor ? FLOOR_PATH : pagePath}`, { waitUntil: 'commit' });
  // The figures and every model widget on the page ready (the training slider loads when scrolled to).
  const timing = await waitForPage(cdp, 120_000, floor ? floorReady : pageReady);
  await context.close();
  // The server logs an answer once it has sent it: let the last ones of this load land before counting.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { timing, sent: server.sent.slice(), errors };
}

// The steps of the first model widget's load, from the package's marks
// (mark in web/src/runtime.js) and the widgets' (web/widgets/parts/model-widget.js):
// where the page's time goes between the bundle's start and the widget.
const LOAD_STAGES = [
  ['model-requested', 'the bundle starts and asks for the model'],
  ['load:instance-tables', 'the tables\' instance up'],
  ['load:instance-kernels', 'the kernels\' instance up (the widgets are defined after it)'],
  ['load:header-read', 'the weights\' header read'],
  ['load:tables-copied', 'the tables copied in'],
  ['load:instance-tokenizer', 'the tokenizer\'s instance up'],
  ['load:tokenizer-loaded', 'the tokenizer loaded'],
  ['showing:ew-embedding-table', 'the token table\'s show() starts'],
];

function summarize(runs) {
  const readyTimes = (run) => Object.entries(run.timing.marks).filter(([name]) => name.startsWith('ready:'));
  const firstReady = (run) => Math.min(...readyTimes(run).map(([, t]) => t));
  const modelReady = (run) => readyTimes(run).filter(([n]) => n !== 'ready:ew-dot-product').map(([, t]) => t);
  const bytes = (run, test) => run.sent.filter((s) => test(s.path)).reduce((sum, s) => sum + s.bytes, 0);
  const pick = (f) => median(runs.map(f));
  // Times: the median and the range over the runs.
  const time = (f) => {
    const values = runs.map(f).filter((x) => Number.isFinite(x));
    return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
  };
  return {
    firstWidget: time(firstReady),
    firstModelWidget: time((r) => Math.min(...modelReady(r))),
    table: time((r) => r.timing.marks['ready:ew-embedding-table']),
    stages: Object.fromEntries(LOAD_STAGES.map(([name]) => [name, time((r) => r.timing.marks[name])])),
    everyModelWidget: time((r) => Math.max(...modelReady(r))),
    figures: time((r) => r.timing.marks.figures),
    domContentLoaded: time((r) => r.timing.domContentLoaded),
    weightsAsked: time((r) => r.timing.weightsAsked),
    tablesArrived: time((r) => r.timing.tablesArrived),
    load: time((r) => r.timing.load),
    bytes: {
      total: pick((r) => bytes(r, () => true)),
      wasm: pick((r) => bytes(r, (p) => p.endsWith('.wasm'))),
      pageJs: pick((r) => bytes(r, (p) => p.endsWith('.js') && !p.includes('/katex/'))),
      katexJs: pick((r) => bytes(r, (p) => p.endsWith('.js') && p.includes('/katex/'))),
      css: pick((r) => bytes(r, (p) => p.endsWith('.css'))),
      fonts: pick((r) => bytes(r, (p) => /\.(woff2?|ttf)$/.test(p))),
      weights: pick((r) => bytes(r, (p) => p === '/model/model.safetensors')),
      weightRequests: pick((r) => r.sent.filter((s) => s.path === '/model/model.safetensors').length),
      config: pick((r) => bytes(r, (p) => p === '/model/config.json')),
      tokenizer: pick((r) => bytes(r, (p) => p === '/model/tokenizer.json')),
      snapshots: pick((r) => bytes(r, (p) => p.startsWith('/model/snapshots/'))),
    },
    errors: runs.flatMap((r) => r.errors),
  };
}

/** The floor's loads, and how the page's first model widget compares with them, load by load in pairs. */
function summarizeFloor(floors, pages) {
  const times = floors.map((r) => r.timing.marks.floor);
  const firstModel = (run) => Math.min(...Object.entries(run.timing.marks)
    .filter(([name]) => name.startsWith('ready:') && name !== 'ready:ew-dot-product').map(([, t]) => t));
  const ratios = pages.map((run, i) => firstModel(run) / times[i]);
  return {
    floor: { median: median(times), min: Math.min(...times), max: Math.max(...times) },
    floorBytes: median(floors.map((r) => r.sent.reduce((sum, s) => sum + s.bytes, 0))),
    floorWeightsAsked: median(floors.map((r) => r.timing.weightsAsked)),
    floorTablesArrived: median(floors.map((r) => r.timing.tablesArrived)),
    ratio: median(pages.map(firstModel)) / median(times),
    pairRatios: { min: Math.min(...ratios), max: Math.max(...ratios) },
    errors: floors.flatMap((r) => r.errors),
  };
}

/**
 * Each profile's loads: for each round the floor, then each page (in turns,
 * the first of them changing each round), so a slow spell of the machine
 * hits all alike. One list of results per page, one entry per profile.
 */
async function measureProfiles(browser, server, profiles, pagePaths, runs) {
  const pageResults = pagePaths.map(() => []);
  for (const profile of profiles) {
    for (const pagePath of pagePaths) await loadPage(browser, server, profile, { pagePath });  // warms the server's file cache, not the browser's
    const lists = pagePaths.map(() => []), floors = [];
    for (let i = 0; i < runs; i++) {
      floors.push(await loadPage(browser, server, profile, { floor: true }));
      for (let k = 0; k < pagePaths.length; k++) {
        const j = (i + k) % pagePaths.length;
        lists[j].push(await loadPage(browser, server, profile, { pagePath: pagePaths[j] }));
      }
    }
    lists.forEach((list, j) => {
      const page = summarize(list), floor = summarizeFloor(floors, list);
      pageResults[j].push({ profile, ...page, ...floor, errors: [...page.errors, ...floor.errors] });
    });
  }
  return pageResults;
}

const ms = (x) => (x === undefined || !Number.isFinite(x) ? '–' : `${Math.round(x)} ms`);
const span = (t) => (t.median === undefined ? '–' : `${ms(t.median)} (${Math.round(t.min)}–${Math.round(t.max)})`);
const kb = (x) => (x === undefined ? '–' : `${(x / 1000).toFixed(1)} kB`);

/** The table's rows: a label and the cell of one profile's results. */
function resultRows(weightsSize) {
  return [
    [`floor: same bytes, compile, parse, paint ${FLOOR_ROWS} rows`, (r) => span(r.floor)],
    ['first model widget ÷ floor (medians; pairs\' range)', (r) => `${r.ratio.toFixed(2)}× (${r.pairRatios.min.toFixed(2)}–${r.pairRatios.max.toFixed(2)})`],
    ['first widget ready (dot product, needs no model)', (r) => span(r.firstWidget)],
    ['first model widget ready', (r) => span(r.firstModelWidget)],
    ['embedding table ready (top of the page)', (r) => span(r.table)],
    ...LOAD_STAGES.map(([name, label]) => [`  ${label}`, (r) => span(r.stages[name])]),
    ['every figure in the text filled', (r) => span(r.figures)],
    ['every model widget ready (those off screen build after first paint)', (r) => span(r.everyModelWidget)],
    ['the weights\' first request sent (the floor\'s)', (r) => `${span(r.weightsAsked)} [${ms(r.floorWeightsAsked)}]`],
    ['the tables\' last byte in (the floor\'s)', (r) => `${span(r.tablesArrived)} [${ms(r.floorTablesArrived)}]`],
    ['DOMContentLoaded', (r) => span(r.domContentLoaded)],
    ['load event', (r) => span(r.load)],
    ['bytes fetched, all', (r) => kb(r.bytes.total)],
    ['  the floor\'s', (r) => kb(r.floorBytes)],
    ['  embeddings.wasm (and layout.wasm, the map\'s)', (r) => kb(r.bytes.wasm)],
    ['  JavaScript: the first script, the page, widgets, package and Emscripten\'s glue', (r) => kb(r.bytes.pageJs)],
    ['  JavaScript: KaTeX (after the widgets, when idle)', (r) => kb(r.bytes.katexJs)],
    ['  CSS / fonts', (r) => `${kb(r.bytes.css)} / ${kb(r.bytes.fonts)}`],
    ['  model.safetensors (range requests)', (r) => `${kb(r.bytes.weights)} of ${kb(weightsSize)} in ${r.bytes.weightRequests} requests`],
    ['  config.json / tokenizer.json', (r) => `${kb(r.bytes.config)} / ${kb(r.bytes.tokenizer)}`],
    ['  training snapshots (load when scrolled to)', (r) => kb(r.bytes.snapshots)],
  ];
}


/** One page's table: a column per profile. */
function printPage(pagePath, results, rows, { haveModel, runs, wasmSize, wasmGzip, markdown }) {
  const header = ['page', ...results.map((r) => r.profile.name)];
  const body = rows.map(([label, f]) => [label, ...results.map(f)]);
  console.log(`\nPage ${pagePath}: ${haveModel ? 'default model (model/)' : 'generated model of the default shape (model/ is empty)'}; ` +
    `Chromium headless on localhost (the network profile throttled by DevTools); median of ${runs} cold loads (range in brackets), ` +
    'each beside a load of the floor page. ' +
    `embeddings.wasm: ${wasmSize} bytes (${wasmGzip} gzipped).\n`);
  if (markdown) {
    const line = (cells) => `| ${cells.join(' | ')} |`;
    const indent = (cells) => [cells[0].replace(/^ +/, (m) => '&nbsp;'.repeat(2 * m.length)), ...cells.slice(1)];
    console.log([line(header), line(header.map((_, i) => (i ? '---:' : '---'))), ...body.map((r) => line(indent(r)))].join('\n'));
  } else {
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
    const pad = (cells) => cells.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
    console.log([pad(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(pad)].join('\n'));
  }
  const errors = results.flatMap((r) => r.errors);
  if (errors.length) console.log(`\nPage errors: ${[...new Set(errors)].join('; ')}`);
}

export async function runPageBench({ runs = 5, markdown = false, profile: wantProfile = false, trace = false, desktopOnly = false, network = true, pagePaths = ['/web/page/'] } = {}) {
  if (!existsSync(CHROMIUM)) {
    console.log(`\nPage: skipped (no Chromium at ${CHROMIUM}).`);
    return undefined;
  }
  const haveModel = existsSync(`${root}model/model.safetensors`) && existsSync(`${root}model/tokenizer.json`);
  const files = haveModel ? undefined : await generatedModel();
  const weightsSize = haveModel ? statSync(`${root}model/model.safetensors`).size : files.get('model.safetensors').length;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run'],
  });
  const server = await startServer(files);
  const profiles = [
    { name: 'desktop, 1280 × 900', viewport: { width: 1280, height: 900 }, cpuSlowdown: 1 },
    { name: 'phone, 390 × 844, CPU 4× slower', viewport: { width: 390, height: 844 }, cpuSlowdown: 4 },
    // DevTools' throughputs are in bytes per second; the latency is added to each request's round trip.
    {
      name: 'phone on a network, 9 Mbit/s down, 150 ms',
      viewport: { width: 390, height: 844 },
      cpuSlowdown: 4,
      network: { latency: 150, downloadThroughput: 9e6 / 8, uploadThroughput: 2e6 / 8 },
    },
  ].slice(0, desktopOnly ? 1 : network ? 3 : 2);
  let pageResults, profileText, traceText;
  try {
    pageResults = await measureProfiles(browser, server, profiles, pagePaths, runs);
    if (wantProfile) profileText = await profileLoad(browser, server, pagePaths[0]);
    if (trace) traceText = await traceLoads(browser, server, pagePaths, runs);
  } finally {
    await server.close();
    await browser.close();
  }

  const wasmPath = `${root}web/dist/embeddings.wasm`;
  const wasmSize = statSync(wasmPath).size, wasmGzip = gzipSync(readFileSync(wasmPath), { level: 9 }).length;
  const rows = resultRows(weightsSize);
  const about = { haveModel, runs, wasmSize, wasmGzip, markdown };
  for (const [j, results] of pageResults.entries()) printPage(pagePaths[j], results, rows, about);
  if (profileText) console.log(profileText);
  if (traceText) console.log(traceText);
  // The targets are the last page's (with --page before --page after: the page after).
  const results = pageResults[pageResults.length - 1];
  const desktop = results[0];
  const withinFloor = results.slice(0, 2).map((r) => `\n  ${r.ratio <= 1.5 ? 'met    ' : 'NOT met'}  first model widget ≤ 1.5× the floor (${r.profile.name}): ${r.ratio.toFixed(2)}×`).join('');
  console.log(`\nTargets (${pagePaths[pagePaths.length - 1]}):\n  ${desktop.firstModelWidget.median <= 500 ? 'met    ' : 'NOT met'}  first model widget ≤ 500 ms (desktop): ${span(desktop.firstModelWidget)}` +
    withinFloor +
    `\n  ${wasmSize <= 150_000 ? 'met    ' : 'NOT met'}  .wasm ≤ 150 kB: ${wasmSize} bytes`);
  return { results, wasmSize, wasmGzip, weightsSize, haveModel };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  const pagePaths = args.flatMap((arg, i) => (arg === '--page' ? [args[i + 1]] : []));
  await runPageBench({
    runs: at >= 0 ? Number(args[at + 1]) : 5,
    markdown: args.includes('--markdown'),
    profile: args.includes('--profile'),
    trace: args.includes('--trace'),
    desktopOnly: args.includes('--desktop'),
    network: !args.includes('--no-network'),
    ...(pagePaths.length ? { pagePaths } : {}),
  });
}
