#!/usr/bin/env node
// The chapter page as a reader's phone runs it: how long the main thread is
// held while the page loads and afterwards, how soon a key or a tap is
// painted, how soon "these numbers start out random" shows its map, and how
// soon the first model widget answers against the floor page. Headless
// Chromium on localhost, two profiles: a phone (375 × 812, touch, the CPU
// slowed 4× through the DevTools protocol's Emulation.setCPUThrottlingRate)
// and a desktop (1280 × 900, full speed). Each session, in a fresh context:
//
//   1. load: from navigation until the page has settled (the figures, every
//      widget but the training slider's, the formulas, the vocabulary map,
//      and then 2 s without a long task): the longest task (the Long Tasks
//      API: any task of 50 ms or more), their count and the blocking time
//      (each task's time past 50 ms, summed); and the first model widget's
//      time (its embeddings:ready mark), over the floor page's (a bare page
//      fetching the same bytes, compiling the .wasm and painting 512 rows,
//      tools/bench/page.mjs), loaded in the same round, whose own longest
//      task and blocking time are given beside (the browser's work for the
//      same bytes, which no page can go below);
//   2. keys: the trace's first text box tapped and 12 keys typed, 150 ms
//      apart, then the token search's box (Similar words): the slowest key
//      from its event to the next paint (the Event Timing API's duration,
//      the largest entry of each keyboard interaction);
//   3. taps: a trace strip, a word of the closest tokens' list, the token
//      table's cell: the slowest tap (its pointer events and click);
//   4. step 0: the training slider scrolled to and, once its first map is
//      drawn, its step-0 button tapped: the time to step 0's first picture
//      on the map (its PCA while the UMAP is laid out, or the UMAP) and to
//      its UMAP; then Play: the time until the slider moves to the next step.
//
// With --before DIR (a checkout of an earlier commit, built: its
// web/dist/page.js and the rest, see docs/benchmarks.md) its page is served
// from a server of its own beside this tree's, and the two load in turns,
// session by session, the first of them changing each round, so a slow spell
// of the shared machine hits both alike. The machine's load average
// (1 minute) is read at each figure and printed beside it. --attribute
// prints, for the phone's first session of each page, what ran in each long
// animation frame (the Long Animation Frames API's scripts: who called them
// and where, mapped through this tree's web/dist/page.js.map).
//
//   node tools/bench/phone.mjs [--runs N] [--before DIR] [--markdown] [--attribute] [--phone | --desktop] [--load-only]
//   (--load-only: the loads alone, their long tasks and the first model widget)
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

import { FLOOR_PATH, floorReady, startServer } from './floor-server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const runs = Number(option('--runs', 3));
const markdown = args.includes('--markdown');
const attribute = args.includes('--attribute');
// --load-only: the loads alone (their long tasks and the first model widget), no keys, taps or slider.
const loadOnly = args.includes('--load-only');
const before = option('--before', undefined);
if (before && !existsSync(`${before}/web/dist/page.js`)) throw new Error(`bench-phone: ${before} holds no built page (web/dist/page.js)`);

const PROFILES = [
  { key: 'phone', name: 'phone, 375 × 812, touch, CPU 4× slower', viewport: { width: 375, height: 812 }, touch: true, cpuSlowdown: 4 },
  { key: 'desktop', name: 'desktop, 1280 × 900', viewport: { width: 1280, height: 900 }, touch: false, cpuSlowdown: 1 },
].filter((p) => !(args.includes('--phone') && p.key !== 'phone') && !(args.includes('--desktop') && p.key !== 'desktop'));

/** Runs in the page before any of its scripts: records long tasks, long frames, events and the training map's pictures. */
function recorder() {
  const bench = (window.__bench = { longTasks: [], frames: [], events: [], pictures: [] });
  const keep = (type, list, map, options = {}) => {
    try {
      new PerformanceObserver((entries) => list.push(...entries.getEntries().map(map))).observe({ type, buffered: true, ...options });
    } catch {
      // An entry type this browser lacks: that figure stays empty.
    }
  };
  keep('longtask', bench.longTasks, (t) => ({ start: t.startTime, duration: t.duration }));
  keep('long-animation-frame', bench.frames, (f) => ({
    start: f.startTime, duration: f.duration, blocking: f.blockingDuration, render: f.renderStart ? f.startTime + f.duration - f.renderStart : 0,
    layout: f.styleAndLayoutStart ? f.startTime + f.duration - f.styleAndLayoutStart : 0,
    scripts: f.scripts.map((s) => ({
      invoker: s.invoker, type: s.invokerType, fn: s.sourceFunctionName, url: s.sourceURL, at: s.sourceCharPosition,
      duration: s.duration, forcedLayout: s.forcedStyleAndLayoutDuration,
    })),
  }));
  keep('event', bench.events, (e) => ({ name: e.name, start: e.startTime, duration: e.duration, interaction: e.interactionId }), { durationThreshold: 16 });
  // The training slider's map: each picture it shows (data-step, data-showing on its canvas), and when.
  const watch = () => {
    const canvas = document.querySelector('#slider canvas.ew-learn-canvas');
    if (!canvas) return false;
    const note = () => bench.pictures.push({ at: performance.now(), step: canvas.dataset.step, showing: canvas.dataset.showing });
    new MutationObserver(note).observe(canvas, { attributes: true, attributeFilter: ['data-step', 'data-showing'] });
    note();
    return true;
  };
  const poll = setInterval(() => { if (watch()) clearInterval(poll); }, 100);
}

/** Runs in the page: resolves once it has settled (everything but the slider shown, then `quiet` ms without a long task). */
function settled(quiet) {
  return new Promise((resolve) => {
    const bench = window.__bench;
    const check = () => {
      const root = document.documentElement?.dataset ?? {};
      const widgets = [...document.querySelectorAll('[data-state]')].filter((w) => !w.closest('ew-training-slider'));
      const map = document.querySelector('ew-vocabulary-map');
      const shown = (root.page === 'ready' || root.page === 'error') && (root.formulas === 'ready' || root.formulas === 'plain') &&
        widgets.length > 0 && widgets.every((w) => w.dataset.state === 'ready' || w.dataset.state === 'error') && (!map || map.dataset.method);
      const lastEnd = Math.max(0, ...bench.longTasks.map((t) => t.start + t.duration));
      if (shown && performance.now() - lastEnd >= quiet) resolve(performance.now() - quiet);
      else setTimeout(check, 100);
    };
    check();
  });
}

/** Long tasks as figures: the longest, how many, the blocking time. */
function taskFigures(tasks) {
  return {
    longest: Math.max(0, ...tasks.map((t) => t.duration)),
    count: tasks.length,
    blocking: tasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0),
  };
}

/** The slowest interaction among Event Timing entries of `names` after `since`: each interaction's largest entry. */
function slowestInteraction(events, names, since) {
  const byInteraction = new Map();
  for (const e of events) {
    if (e.start < since || !names.includes(e.name) || !e.interaction) continue;
    byInteraction.set(e.interaction, Math.max(byInteraction.get(e.interaction) ?? 0, e.duration));
  }
  const durations = [...byInteraction.values()];
  return { slowest: Math.max(0, ...durations), median: median(durations), count: durations.length, over100: durations.filter((d) => d > 100).length };
}

const KEYS = ['keydown', 'keypress', 'keyup'];
const TAPS = ['pointerdown', 'pointerup', 'click', 'touchstart', 'touchend', 'mousedown', 'mouseup'];

async function evaluate(cdp, expression, timeout = 120_000) {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true, timeout });
  if (exceptionDetails) throw new Error(`the page failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  return result.value;
}

/** Scrolls an element to the middle of the window and returns its box's centre. */
async function centreOf(page, selector) {
  return page.evaluate(async (sel) => {
    const element = document.querySelector(sel);
    if (!element) throw new Error(`no ${sel} on the page`);
    element.scrollIntoView({ block: 'center', behavior: 'instant' });
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const box = element.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }, selector);
}

async function tap(page, profile, selector) {
  const { x, y } = await centreOf(page, selector);
  if (profile.touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

/** Taps a box and types `text` into it, a key every `gap` ms, then waits for the page to be quiet. */
async function typeInto(page, profile, selector, text, gap) {
  await tap(page, profile, selector);
  await page.keyboard.press('End');
  for (const key of text) {
    await page.keyboard.type(key);
    await new Promise((resolve) => setTimeout(resolve, gap));
  }
}

const now = (cdp) => evaluate(cdp, 'performance.now()');

const contextFor = (browser, profile) => browser.newContext({
  viewport: profile.viewport, deviceScaleFactor: 1, ...(profile.touch ? { isMobile: true, hasTouch: true } : {}),
});

/**
 * One load of the floor page on a profile: when it painted its 512 rows, and
 * its own long tasks until then and a second after (the browser's work for
 * the same bytes, compile, parse and paint, against which the page's are read).
 */
async function floorLoad(browser, origin, profile) {
  const context = await contextFor(browser, profile);
  await context.addInitScript(recorder);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    if (profile.cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    await page.goto(`${origin}${FLOOR_PATH}`, { waitUntil: 'commit' });
    const ready = (await evaluate(cdp, `(${floorReady})()`)).marks.floor;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { longTasks } = await evaluate(cdp, 'window.__bench');
    return { ready, ...taskFigures(longTasks) };
  } finally {
    await context.close();
  }
}

/** One session of a page on a profile: load, keys, taps, step 0. */
async function session(browser, origin, profile, pagePath = '/web/page/') {
  const context = await contextFor(browser, profile);
  await context.addInitScript(recorder);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  if (profile.cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  const result = { load: {}, figures: {}, errors };
  const at = () => loadavg()[0];
  try {
    await page.goto(`${origin}${pagePath}`, { waitUntil: 'commit' });
    const settledAt = await evaluate(cdp, `(${settled})(2000)`);
    const bench = () => evaluate(cdp, 'window.__bench');
    let record = await bench();
    const loadTasks = record.longTasks.filter((t) => t.start < settledAt);
    // The first model widget: the first of the widgets' ready marks but the dot product's (it needs no model).
    const firstModelWidget = await evaluate(cdp, `Math.min(...performance.getEntriesByType('mark')
      .filter((m) => m.name.startsWith('embeddings:ready:') && m.name !== 'embeddings:ready:ew-dot-product').map((m) => m.startTime))`);
    result.figures.load = { ...taskFigures(loadTasks), settled: settledAt, firstModelWidget, load: at() };
    result.loadFrames = record.frames.filter((f) => f.start < settledAt && f.duration > 50);
    if (loadOnly) return result;

    // Keys: the trace's first box, then the token search.
    let since = await now(cdp);
    await typeInto(page, profile, '#trace textarea', ' and Tom ran', 150);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    record = await bench();
    result.figures.traceKeys = { ...slowestInteraction(record.events, KEYS, since), load: at() };
    since = await now(cdp);
    await page.evaluate(() => { const box = document.querySelector('#nearest input'); box.value = ''; });
    await typeInto(page, profile, '#nearest input', 'happy', 150);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    record = await bench();
    result.figures.searchKeys = { ...slowestInteraction(record.events, KEYS, since), load: at() };

    // Taps: a trace strip, a closest word, the token table.
    since = await now(cdp);
    for (const selector of ['#trace .ew-strip', '#nearest .ew-neighbours button, #nearest li button', '#table canvas']) {
      if (await page.$(selector)) await tap(page, profile, selector);
      await page.keyboard.press('Escape');
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    record = await bench();
    result.figures.taps = { ...slowestInteraction(record.events, TAPS, since), load: at() };

    // Step 0 of the training slider: its first map, then the step-0 button, then Play.
    await centreOf(page, '#slider');
    await evaluate(cdp, `new Promise((resolve) => { const check = () => {
      const canvas = document.querySelector('#slider canvas.ew-learn-canvas');
      if (canvas?.dataset.showing === 'layout') resolve(); else setTimeout(check, 50); }; check(); })`);
    const tappedAt = await now(cdp);
    await tap(page, profile, '#slider .ew-tick');
    const pictures = await evaluate(cdp, `new Promise((resolve) => { const check = () => {
      const list = window.__bench.pictures.filter((p) => p.at >= ${tappedAt} && p.step === '0');
      if (list.some((p) => p.showing === 'layout') || performance.now() - ${tappedAt} > 90000) resolve(list); else setTimeout(check, 50); }; check(); })`);
    const first = pictures.find((p) => p.showing === 'pca' || p.showing === 'layout');
    const umap = pictures.find((p) => p.showing === 'layout');
    result.figures.stepZero = { first: first ? first.at - tappedAt : Infinity, umap: umap ? umap.at - tappedAt : Infinity, load: at() };
    // Play, from step 0: the time until the slider shows step 1 (its range's value), Play still pressed.
    const play = page.locator('#slider .ew-slider-line > button');
    const playAt = await now(cdp);
    await (profile.touch ? play.tap() : play.click());
    const moved = await evaluate(cdp, `new Promise((resolve) => { const check = () => {
      const slider = document.querySelector('#slider'), range = slider.querySelector('input[type="range"]');
      const playing = slider.querySelector('.ew-slider-line > button').getAttribute('aria-pressed') === 'true';
      if ((range.value === '1' && playing) || performance.now() - ${playAt} > 60000) resolve(performance.now()); else setTimeout(check, 20); }; check(); })`);
    result.figures.play = { moved: moved - playAt, load: at() };
    record = await bench();
    result.figures.after = { ...taskFigures(record.longTasks.filter((t) => t.start >= settledAt)), load: at() };
    result.afterFrames = record.frames.filter((f) => f.start >= settledAt && f.duration > 50);
  } finally {
    await context.close();
  }
  return result;
}

// ---- What ran in a long frame: the bundle's positions through its source map -----------------------------
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The source map's mappings decoded: for each generated line, [column, source, line] segments. */
function decodeMap(map) {
  const lines = [];
  let source = 0, line = 0;
  for (const text of map.mappings.split(';')) {
    const segments = [];
    let column = 0;
    for (const segment of text.split(',')) {
      if (!segment) continue;
      const values = [];
      let value = 0, shift = 0;
      for (const ch of segment) {
        const digit = BASE64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) { shift += 5; continue; }
        values.push(value & 1 ? -(value >> 1) : value >> 1);
        value = 0; shift = 0;
      }
      column += values[0];
      if (values.length > 1) { source += values[1]; line += values[2]; segments.push([column, source, line]); }
    }
    lines.push(segments);
  }
  return lines;
}

function sourceLocator() {
  const path = `${root}web/dist/page.js.map`;
  if (!existsSync(path)) return () => undefined;
  const map = JSON.parse(readFileSync(path, 'utf8'));
  const lines = decodeMap(map);
  const code = readFileSync(`${root}web/dist/page.js`, 'utf8');
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') lineStarts.push(i + 1);
  return (position) => {
    let line = lineStarts.findLastIndex((start) => start <= position);
    const column = position - lineStarts[line];
    const segment = (lines[line] ?? []).findLast((s) => s[0] <= column);
    if (!segment) return undefined;
    line = segment[2];
    return `${map.sources[segment[1]].replace(/^(\.\.\/)+/, '')}:${line + 1}`;
  };
}

function printFrames(frames, pagePath) {
  const locate = sourceLocator();
  console.log(`\nLong animation frames while ${pagePath} (the phone's first session): duration, blocking, then its scripts`);
  for (const frame of frames) {
    console.log(`  ${Math.round(frame.start)} ms: ${Math.round(frame.duration)} ms (blocking ${Math.round(frame.blocking)}, style and layout ${Math.round(frame.layout)})`);
    for (const s of [...frame.scripts].sort((a, b) => b.duration - a.duration).slice(0, 5)) {
      const where = s.url?.endsWith('/web/dist/page.js') ? locate(s.at) : s.url?.replace(/^https?:\/\/[^/]+/, '');
      console.log(`      ${String(Math.round(s.duration)).padStart(4)} ms  ${s.type} ${s.invoker} ${s.fn || ''} ${where ?? ''}` +
        (s.forcedLayout > 1 ? ` (forced layout ${Math.round(s.forcedLayout)} ms)` : ''));
    }
  }
}

// ---- The run ---------------------------------------------------------------------------------------------
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return Infinity;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Each row: its label, the group of figures it reads (whose load average goes beside it), the figure, its unit.
const ROWS = [
  ['longest task while loading', 'load', (g) => g.longest, 'ms'],
  ['long tasks while loading', 'load', (g) => g.count, ''],
  ['blocking time while loading (past 50 ms each)', 'load', (g) => g.blocking, 'ms'],
  ['settled (everything shown, then 2 s without a long task)', 'load', (g) => g.settled, 'ms'],
  ['slowest key in the trace\'s box (event to next paint)', 'traceKeys', (g) => g.slowest, 'ms'],
  ['median key in the trace\'s box', 'traceKeys', (g) => g.median, 'ms'],
  ['trace keys over 100 ms', 'traceKeys', (g) => `${g.over100} of ${g.count}`, ''],
  ['slowest key in the token search', 'searchKeys', (g) => g.slowest, 'ms'],
  ['slowest tap (a strip, a word, a cell)', 'taps', (g) => g.slowest, 'ms'],
  ['step 0 tapped → its first picture on the map', 'stepZero', (g) => g.first, 'ms'],
  ['step 0 tapped → its UMAP', 'stepZero', (g) => g.umap, 'ms'],
  ['Play → the next step', 'play', (g) => g.moved, 'ms'],
  ['longest task after loading (keys, taps, the slider)', 'after', (g) => g.longest, 'ms'],
];

if (!existsSync(CHROMIUM)) {
  console.log(`bench-phone: skipped (no Chromium at ${CHROMIUM}).`);
  process.exit(0);
}
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
// The pages compared: the build before (its own tree, its own server) and this tree's.
const pages = [];
if (before) {
  const { createChapterServer: create } = await import(`${before}/tools/serve.mjs`);
  pages.push({ name: `before (${before})`, server: await startServer(undefined, { create }) });
}
pages.push({ name: 'this build', server: await startServer() });
// results[profile][page] = sessions; floors[profile] = the floor's times.
const results = PROFILES.map(() => pages.map(() => []));
const floors = PROFILES.map(() => []);
const framesShown = new Set();
try {
  for (const [p, profile] of PROFILES.entries()) {
    for (let run = 0; run < runs; run++) {
      floors[p].push(await floorLoad(browser, pages[pages.length - 1].server.origin, profile));
      for (let k = 0; k < pages.length; k++) {
        const j = (run + k) % pages.length;
        const one = await session(browser, pages[j].server.origin, profile);
        one.floor = floors[p].at(-1).ready;
        results[p][j].push(one);
        const f = one.figures;
        process.stderr.write(`  ${profile.key}, ${pages[j].name}: longest ${Math.round(f.load.longest)} ms, blocking ${Math.round(f.load.blocking)} ms, ` +
          `first model widget ${Math.round(f.load.firstModelWidget)} ms (floor ${Math.round(one.floor)}), ` +
          (loadOnly ? '' : `trace key ${Math.round(f.traceKeys.slowest)} ms, search key ${Math.round(f.searchKeys.slowest)} ms, tap ${Math.round(f.taps.slowest)} ms, ` +
          `step 0 ${Math.round(f.stepZero.first)} / ${Math.round(f.stepZero.umap)} ms, play ${Math.round(f.play.moved)} ms `) + `(load ${f.load.load.toFixed(1)})` +
          `${one.errors.length ? `; errors: ${one.errors.join('; ')}` : ''}\n`);
        if (attribute && profile.key === 'phone' && !framesShown.has(j)) {
          framesShown.add(j);
          printFrames(one.loadFrames, `${pages[j].name} loaded`);
          // --load-only uses nothing after the load: no frames to show for it.
          if (!loadOnly) printFrames(one.afterFrames, `${pages[j].name} was used (keys, taps, the slider)`);
        }
      }
    }
  }
} finally {
  await browser.close();
  for (const { server } of pages) await server.close();
}

const shown = (x, unit) => (Number.isFinite(x) ? `${Math.round(x)}${unit ? ` ${unit}` : ''}` : '–');
const cell = (sessions, [, group, figure, unit]) => {
  const values = sessions.map((s) => figure(s.figures[group]));
  const load = median(sessions.map((s) => s.figures[group].load)).toFixed(1);
  if (typeof values[0] === 'string') return `${values.join(', ')} [${load}]`;
  const range = values.length > 1 ? ` (${shown(Math.min(...values), unit)}–${shown(Math.max(...values), unit)})` : '';
  return `${shown(median(values), unit)}${range} [${load}]`;
};
// The first model widget over the floor: the medians' ratio, and the range of each session's over its round's floor.
const ratioCell = (sessions, p) => {
  const ratio = median(sessions.map((s) => s.figures.load.firstModelWidget)) / median(floorTimes(p));
  const pairs = sessions.map((s) => s.figures.load.firstModelWidget / s.floor);
  const load = median(sessions.map((s) => s.figures.load.load)).toFixed(1);
  return `${ratio.toFixed(2)}× (${Math.min(...pairs).toFixed(2)}–${Math.max(...pairs).toFixed(2)}) [${load}]`;
};
const floorTimes = (p) => floors[p].map((f) => f.ready);
const floorCell = (p, of) => {
  const values = floors[p].map(of);
  return `${shown(median(values), 'ms')} (${shown(Math.min(...values), 'ms')}–${shown(Math.max(...values), 'ms')})`;
};
const header = ['', ...PROFILES.flatMap((profile) => pages.map((page) => `${profile.name}: ${page.name}`))];
const body = [
  ...ROWS.filter(([, group]) => !loadOnly || group === 'load')
    .map((row) => [row[0], ...PROFILES.flatMap((_, p) => pages.map((__, j) => cell(results[p][j], row)))]),
  ['the floor page (same bytes, compile, parse, paint 512 rows)', ...PROFILES.flatMap((_, p) => pages.map(() => floorCell(p, (f) => f.ready)))],
  ['the floor page\'s longest task', ...PROFILES.flatMap((_, p) => pages.map(() => floorCell(p, (f) => f.longest)))],
  ['the floor page\'s blocking time', ...PROFILES.flatMap((_, p) => pages.map(() => floorCell(p, (f) => f.blocking)))],
  ['first model widget ready', ...PROFILES.flatMap((_, p) => pages.map((__, j) => cell(results[p][j], ['', 'load', (g) => g.firstModelWidget, 'ms'])))],
  ['first model widget ÷ floor (medians; each session\'s range)', ...PROFILES.flatMap((_, p) => pages.map((__, j) => ratioCell(results[p][j], p)))],
];
console.log(`\nThe chapter page on a phone and a desktop: median of ${runs} sessions per page (range), ` +
  `${pages.length > 1 ? 'the pages in turns, ' : ''}each round beside a load of the floor page; [the machine's load average, 1 minute, at that figure]\n`);
if (markdown) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  console.log([line(header), line(header.map((_, i) => (i ? '---:' : '---'))), ...body.map(line)].join('\n'));
} else {
  for (const row of body) console.log(`${row[0]}\n${row.slice(1).map((c, i) => `    ${header[i + 1]}: ${c}`).join('\n')}`);
}
// The issue's targets, for this build.
const last = pages.length - 1;
const verdict = (ok) => (ok ? 'met    ' : 'NOT met');
const lines = [];
for (const [p, profile] of PROFILES.entries()) {
  const s = results[p][last];
  const m = (f) => median(s.map((x) => f(x.figures)));
  if (profile.key === 'phone') {
    lines.push(`${verdict(m((f) => f.load.longest) <= 120)}  phone: longest load task ≤ 120 ms: ${shown(m((f) => f.load.longest), 'ms')}`,
      `${verdict(m((f) => f.load.blocking) <= 400)}  phone: blocking time ≤ 400 ms: ${shown(m((f) => f.load.blocking), 'ms')}`);
    if (!loadOnly) {
      lines.push(`${verdict(m((f) => f.traceKeys.slowest) <= 100)}  phone: every key in the trace painted ≤ 100 ms: slowest ${shown(m((f) => f.traceKeys.slowest), 'ms')}`,
        `${verdict(m((f) => f.stepZero.first) <= 1000)}  phone: step 0's map ≤ 1 s: ${shown(m((f) => f.stepZero.first), 'ms')}`);
    }
  }
  const ratio = m((f) => f.load.firstModelWidget) / median(floorTimes(p));
  lines.push(`${verdict(ratio <= 1.5)}  ${profile.key}: first model widget ≤ 1.5× the floor: ${ratio.toFixed(2)}×`);
}
console.log(`\nTargets (this build), medians:\n  ${lines.join('\n  ')}`);
const errors = results.flat(2).flatMap((s) => s.errors);
if (errors.length) console.log(`\nPage errors: ${[...new Set(errors)].join('; ')}`);
