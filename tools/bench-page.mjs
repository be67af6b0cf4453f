#!/usr/bin/env node
// The chapter page in headless Chromium on localhost: time from navigation
// to the first interactive widget, what was fetched (the .wasm, the model's
// files, and how much of model.safetensors the range requests took), on a
// desktop profile and on a phone profile (390 × 844, CPU slowed 4×).
//
//   node tools/bench-page.mjs [--runs N] [--markdown] [--profile] [--desktop]
//   (--desktop: the desktop profile only, for quick comparisons.)
//   (npm run bench runs it after the kernel table.)
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

import { createChapterServer } from './serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

const median = (xs) => {
  const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  if (!s.length) return undefined;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A generated model of the default shape, for when model/ is empty (same files the page asks for). */
async function generatedModel() {
  const { makeDevModel } = await import('../tests/browser/helpers/dev-model.js');
  const probe = makeDevModel({ extraRows: 0 });
  const base = JSON.parse(new TextDecoder().decode(probe.get('config.json'))).vocab_size;
  return makeDevModel({ extraRows: 4096 - base });
}

/**
 * The chapter server on a free port, recording what it sends per path; a
 * generated model's files, when given, are answered from memory under /model/.
 */
async function startServer(files) {
  const sent = [];
  const server = createChapterServer({
    onRequest: (entry) => sent.push(entry),
    ...(files ? { files: { prefix: '/model/', get: (path) => files.get(path) } } : {}),
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    sent,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

/**
 * Runs in the page: resolves when the chapter's figures are filled and every
 * model widget on the page is ready or failed, the token table included (the
 * training slider and its nested widgets wait to be scrolled to, so they do
 * not count), then gives the marks and the navigation timing.
 */
function pageReady() {
  const state = () => {
    const marks = performance.getEntriesByType('mark').map((m) => m.name);
    const widgets = [...document.querySelectorAll('[data-state]')].filter((w) => !w.closest('training-slider'));
    return marks.includes('embeddings:figures') && marks.includes('embeddings:ready:embedding-table') &&
      widgets.every((w) => w.dataset.state === 'ready' || w.dataset.state === 'error');
  };
  const result = () => {
    const marks = Object.fromEntries(performance.getEntriesByType('mark')
      .filter((m) => m.name.startsWith('embeddings:'))
      .map((m) => [m.name.slice('embeddings:'.length), m.startTime]));
    const nav = performance.getEntriesByType('navigation')[0];
    return { marks, domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
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

/** Waits for pageReady() in the page with one Runtime.evaluate, and returns its result. */
async function waitForPage(cdp, timeout = 60_000) {
  let timer;
  const expired = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('the page did not get ready in time')), timeout); });
  try {
    const { result, exceptionDetails } = await Promise.race([
      cdp.send('Runtime.evaluate', { expression: `(${pageReady})()`, awaitPromise: true, returnByValue: true }),
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
async function profileLoad(browser, server) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await page.goto(`${server.origin}/web/page/`, { waitUntil: 'commit' });
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

async function loadPage(browser, server, profile) {
  const context = await browser.newContext({ viewport: profile.viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  if (profile.cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  server.sent.length = 0;
  await page.goto(`${server.origin}/web/page/`, { waitUntil: 'commit' });
  // The figures and every model widget on the page ready (the training slider loads when scrolled to).
  const timing = await waitForPage(cdp);
  await context.close();
  return { timing, sent: server.sent.slice(), errors };
}

function summarize(runs) {
  const readyTimes = (run) => Object.entries(run.timing.marks).filter(([name]) => name.startsWith('ready:'));
  const firstReady = (run) => Math.min(...readyTimes(run).map(([, t]) => t));
  const modelReady = (run) => readyTimes(run).filter(([n]) => n !== 'ready:dot-product').map(([, t]) => t);
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
    table: time((r) => r.timing.marks['ready:embedding-table']),
    everyModelWidget: time((r) => Math.max(...modelReady(r))),
    figures: time((r) => r.timing.marks.figures),
    domContentLoaded: time((r) => r.timing.domContentLoaded),
    load: time((r) => r.timing.load),
    bytes: {
      total: pick((r) => bytes(r, () => true)),
      wasm: pick((r) => bytes(r, (p) => p.endsWith('.wasm'))),
      moduleJs: pick((r) => bytes(r, (p) => p.endsWith('/dist/embeddings.js'))),
      otherJs: pick((r) => bytes(r, (p) => p.endsWith('.js') && !p.endsWith('/dist/embeddings.js'))),
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

export async function runPageBench({ runs = 5, markdown = false, profile: wantProfile = false, desktopOnly = false } = {}) {
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
  ].slice(0, desktopOnly ? 1 : 2);
  const results = [];
  let profileText;
  try {
    for (const profile of profiles) {
      await loadPage(browser, server, profile);  // warms the server's file cache, not the browser's
      const list = [];
      for (let i = 0; i < runs; i++) list.push(await loadPage(browser, server, profile));
      results.push({ profile, ...summarize(list) });
    }
    if (wantProfile) profileText = await profileLoad(browser, server);
  } finally {
    await server.close();
    await browser.close();
  }

  const wasmPath = `${root}web/dist/embeddings.wasm`;
  const wasmSize = statSync(wasmPath).size, wasmGzip = gzipSync(readFileSync(wasmPath), { level: 9 }).length;
  const ms = (x) => (x === undefined || !Number.isFinite(x) ? '–' : `${Math.round(x)} ms`);
  const span = (t) => (t.median === undefined ? '–' : `${ms(t.median)} (${Math.round(t.min)}–${Math.round(t.max)})`);
  const kb = (x) => (x === undefined ? '–' : `${(x / 1000).toFixed(1)} kB`);
  const rows = [
    ['first widget ready (dot product, needs no model)', (r) => span(r.firstWidget)],
    ['first model widget ready', (r) => span(r.firstModelWidget)],
    ['embedding table ready (top of the page)', (r) => span(r.table)],
    ['every figure in the text filled', (r) => span(r.figures)],
    ['every model widget ready (those off screen build after first paint)', (r) => span(r.everyModelWidget)],
    ['DOMContentLoaded', (r) => span(r.domContentLoaded)],
    ['load event', (r) => span(r.load)],
    ['bytes fetched, all', (r) => kb(r.bytes.total)],
    ['  embeddings.wasm', (r) => kb(r.bytes.wasm)],
    ['  embeddings.js (Emscripten glue)', (r) => kb(r.bytes.moduleJs)],
    ['  other JavaScript (package, page, widgets, KaTeX)', (r) => kb(r.bytes.otherJs)],
    ['  CSS / fonts', (r) => `${kb(r.bytes.css)} / ${kb(r.bytes.fonts)}`],
    ['  model.safetensors (range requests)', (r) => `${kb(r.bytes.weights)} of ${kb(weightsSize)} in ${r.bytes.weightRequests} requests`],
    ['  config.json / tokenizer.json', (r) => `${kb(r.bytes.config)} / ${kb(r.bytes.tokenizer)}`],
    ['  training snapshots (load when scrolled to)', (r) => kb(r.bytes.snapshots)],
  ];
  const header = ['page', ...results.map((r) => r.profile.name)];
  const body = rows.map(([label, f]) => [label, ...results.map(f)]);
  console.log(`\nPage: ${haveModel ? 'default model (model/)' : 'generated model of the default shape (model/ is empty)'}; ` +
    `Chromium headless on localhost, no network throttling; median of ${runs} cold loads (range in brackets). ` +
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
  if (profileText) console.log(profileText);
  const desktop = results[0];
  console.log(`\nTargets:\n  ${desktop.firstModelWidget.median <= 500 ? 'met    ' : 'NOT met'}  first model widget ≤ 500 ms (desktop): ${span(desktop.firstModelWidget)}` +
    `\n  ${wasmSize <= 150_000 ? 'met    ' : 'NOT met'}  .wasm ≤ 150 kB: ${wasmSize} bytes`);
  return { results, wasmSize, wasmGzip, weightsSize, haveModel };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  await runPageBench({
    runs: at >= 0 ? Number(args[at + 1]) : 5,
    markdown: args.includes('--markdown'),
    profile: args.includes('--profile'),
    desktopOnly: args.includes('--desktop'),
  });
}
