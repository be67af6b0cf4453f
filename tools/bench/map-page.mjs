#!/usr/bin/env node
// The vocabulary map in the reader's browser: the chapter page in headless
// Chromium, opened at <ew-vocabulary-map>, on a desktop profile (1280 × 900)
// and a phone profile (390 × 844, CPU slowed 4× by DevTools, as
// tools/bench/page.mjs does). For each load: from the element's request for
// the UMAP map to the map drawn on its canvas (the page's measure
// "embeddings:map:umap"), when that was after navigation, how long the
// layout module's .wasm took to arrive, and the longest task the main
// thread ran meanwhile (a PerformanceObserver for "longtask": any task of
// 50 ms or more). Medians over the runs, with the range. Before each load,
// the same map by model.map() in Node (the same WebAssembly, on this
// process's main thread): on a machine shared with other work the times
// move together, so "page ÷ Node" is the page's own cost.
// In the browser the map is laid out in a Worker: DevTools' CPU slowdown
// applies to the page's main thread, not to the Worker, so the phone
// profile slows what the page does around the map, not the layout itself.
//
// Then the training slider (opened at #training): from navigation to its
// first map, to the three maps it lays out unasked (the shown snapshot and
// the two before it), and, once the reader goes to step 0, to every
// snapshot's map; the longest task in that time.
//
//   node tools/bench/map-page.mjs [--runs N] [--markdown] [--model FOLDER] [--map | --slider]
//   (--model: serve FOLDER's model.safetensors, config.json, tokenizer.json,
//    training-curve.json and snapshots/ as the page's model;
//    --map, --slider: that part alone)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createChapterServer, listenOnLoopback } from '../serve.mjs';
import { loadModel } from '../../web/index.js';

const CHROMIUM = '/usr/bin/chromium';
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || (args.includes('--runs') ? 1 : 3);
const markdown = args.includes('--markdown');
const parts = { map: !args.includes('--slider'), slider: !args.includes('--map') };
const folder = args.includes('--model') ? args[args.indexOf('--model') + 1] : undefined;
const folderFiles = folder && {
  prefix: '/model/',
  get(path) {
    if (path.split('/').includes('..')) return undefined;
    try { return new Uint8Array(readFileSync(join(folder, path))); } catch { return undefined; }
  },
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b), half = Math.floor(s.length / 2);
  return s.length % 2 ? s[half] : (s[half - 1] + s[half]) / 2;
};
const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${Math.round(x)} ms`);
const spread = (xs) => (xs.length > 1 ? `${ms(median(xs))} (${ms(Math.min(...xs))}–${ms(Math.max(...xs))})` : ms(xs[0]));

/** Runs in the page: resolves with the map's measure once it is taken, and the long tasks until then. */
const waitForMap = `new Promise((resolve) => {
  const done = () => {
    const [measure] = performance.getEntriesByName('embeddings:map:umap', 'measure');
    if (!measure) return false;
    const wasm = performance.getEntriesByType('resource').find((r) => r.name.endsWith('/layout.wasm'));
    const tasks = window.__longTasks.filter((t) => t.startTime + t.duration > measure.startTime && t.startTime < measure.startTime + measure.duration);
    resolve({
      request: measure.startTime, duration: measure.duration,
      wasmArrived: wasm ? wasm.responseEnd - measure.startTime : undefined,
      longest: Math.max(0, ...tasks.map((t) => t.duration)), longTasks: tasks.length,
    });
    return true;
  };
  if (!done()) new PerformanceObserver((list, observer) => { if (done()) observer.disconnect(); }).observe({ type: 'measure' });
})`;

async function loadOnce(browser, origin, profile) {
  const context = await browser.newContext({ viewport: profile.viewport, deviceScaleFactor: 1 });
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries().map((t) => ({ startTime: t.startTime, duration: t.duration }))))
      .observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  if (profile.cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  await page.goto(`${origin}/web/page/#vocabulary-map`, { waitUntil: 'commit' });
  const answer = await cdp.send('Runtime.evaluate', { expression: waitForMap, awaitPromise: true, returnByValue: true, timeout: 120000 });
  await context.close();
  if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`);
  return answer.result.value;
}

/** Runs in the page: resolves once the slider has laid out `count` maps, with the time and the longest task until then. */
// The slider is looked for at every check: the first one runs as soon as
// the navigation commits, before the parser has reached it.
const waitForLearned = (count) => `new Promise((resolve) => {
  const check = () => {
    const slider = document.querySelector('#slider');
    if (Number(slider?.dataset.learned ?? 0) < ${count}) return setTimeout(check, 20);
    resolve({ at: performance.now(), longest: Math.max(0, ...window.__longTasks.map((t) => t.duration)) });
  };
  check();
})`;

async function sliderOnce(browser, origin) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries().map((t) => ({ startTime: t.startTime, duration: t.duration }))))
      .observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const evaluate = async (expression) => {
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (exceptionDetails) throw new Error(`the page failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  };
  await page.goto(`${origin}/web/page/#training`, { waitUntil: 'commit' });
  const first = await evaluate(waitForLearned(1));
  const three = await evaluate(waitForLearned(3));
  const total = await evaluate('document.querySelector("#slider").snapshots?.length');
  if (!(total > 0)) throw new Error('the slider has no snapshots after its first map');
  const home = await evaluate(`(() => { const range = document.querySelector('#slider input[type="range"]'); range.value = '0'; range.dispatchEvent(new Event('input')); return performance.now(); })()`);
  const all = await evaluate(waitForLearned(total));
  await context.close();
  return { first: first.at, three: three.at, home, all: all.at - home, total, longest: all.longest };
}

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const server = createChapterServer(folderFiles ? { files: folderFiles } : {});
const origin = await listenOnLoopback(server);
const profiles = [
  { name: 'desktop, 1280 × 900', viewport: { width: 1280, height: 900 }, cpuSlowdown: 1 },
  { name: 'phone, 390 × 844, CPU 4× slower', viewport: { width: 390, height: 844 }, cpuSlowdown: 4 },
];
const lines = markdown
  ? ['| profile | request → drawn map | the same map in Node just before | page ÷ Node | request after navigation | layout.wasm arrived after the request | longest task meanwhile |', '|---|---|---|---|---|---|---|']
  : [];
const model = await loadModel();
await model.map({ epochs: 5 });  // the layout module compiled, uncounted
const nodeMap = async () => { const start = performance.now(); await model.map(); return performance.now() - start; };
try {
  for (const profile of parts.map ? profiles : []) {
    const results = [];
    for (let run = 0; run < runs; run++) {
      const node = await nodeMap();
      results.push({ ...await loadOnce(browser, origin, profile), node });
      process.stderr.write(`  ${profile.name}: ${ms(results.at(-1).duration)} (Node ${ms(node)}), longest task ${ms(results.at(-1).longest)}\n`);
    }
    const cells = [spread(results.map((r) => r.duration)), spread(results.map((r) => r.node)),
      median(results.map((r) => r.duration / r.node)).toFixed(2), spread(results.map((r) => r.request)),
      spread(results.map((r) => r.wasmArrived ?? NaN)), `${ms(Math.max(...results.map((r) => r.longest)))} (the most over ${runs} loads)`];
    lines.push(markdown ? `| ${profile.name} | ${cells.join(' | ')} |`
      : `${profile.name}: request → drawn ${cells[0]}; Node ${cells[1]}; page ÷ Node ${cells[2]}; request at ${cells[3]}; layout.wasm after ${cells[4]}; longest task ${cells[5]}`);
  }
  const slider = [];
  for (let run = 0; run < (parts.slider ? runs : 0); run++) {
    slider.push(await sliderOnce(browser, origin));
    const last = slider.at(-1);
    process.stderr.write(`  slider: first map ${ms(last.first)}, three ${ms(last.three)}, all ${last.total} ${ms(last.all)} after going to step 0, longest task ${ms(last.longest)}\n`);
  }
  if (slider.length) {
    lines.push('', `The training slider (${slider[0].total} snapshots; desktop; from navigation, opened at #training):`, '');
    if (markdown) lines.push('| first map | three maps (all it lays out unasked) | every map, after going to step 0 | longest task |', '|---|---|---|---|');
    const sliderCells = [spread(slider.map((r) => r.first)), spread(slider.map((r) => r.three)), spread(slider.map((r) => r.all)),
      `${ms(Math.max(...slider.map((r) => r.longest)))} (the most over ${runs} loads)`];
    lines.push(markdown ? `| ${sliderCells.join(' | ')} |` : sliderCells.join('  ·  '));
  }
} finally {
  await browser.close();
  model.dispose();
  server.closeAllConnections?.();
  server.close();
}
console.log(`\nThe vocabulary map in Chromium (median of ${runs} loads, range in brackets):\n`);
console.log(lines.join('\n'));
