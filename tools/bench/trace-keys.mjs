#!/usr/bin/env node
// The trace widget's work at each key, on the chapter page in headless
// Chromium, on the phone profile (375 × 812, touch, the CPU slowed 4×):
// the first text box's sentence typed one character at a time (the
// widget's `text`, which traces at once), each followed by a layout, as
// the frame after a key has it. With --baseline DIR (a checkout built
// before, its web/dist built), that page too, served from there, in turns,
// every other round first; the fastest of --rounds rounds (default 15) for
// each, as ms per key, and their ratio.
//   node tools/bench/trace-keys.mjs [--rounds 15] [--baseline DIR]
import { fileURLToPath } from 'node:url';
import { launch } from '../../tests/browser/helpers/browser.js';

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const rounds = Number(option('--rounds', 15));
const trees = { here: fileURLToPath(new URL('../../', import.meta.url)) };
if (option('--baseline', null)) trees.baseline = option('--baseline', null);
const SENTENCE = 'One day Lily saw Max and they played with a red ball in the park. 😀';

const browser = await launch();
const pages = {};
const servers = [];
for (const [name, root] of Object.entries(trees)) {
  const { createChapterServer, listenOnLoopback } = await import(`${root.replace(/\/$/, '')}/tools/serve.mjs`);
  const server = createChapterServer();
  servers.push(server);
  const origin = await listenOnLoopback(server);
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`${origin}/web/page/`);
  await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
  await page.locator('#trace').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('#trace').dataset.state === 'ready');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  pages[name] = page;
}

// Milliseconds a key takes: the sentence typed into the first box, character by character.
const keys = (page) => page.evaluate((sentence) => {
  const trace = document.querySelector('#trace');
  const characters = Array.from(sentence);
  let script = 0, layout = 0;
  for (let i = 1; i <= characters.length; i++) {
    const start = performance.now();
    trace.text = characters.slice(0, i).join('');
    const traced = performance.now();
    void trace.offsetHeight;
    script += traced - start;
    layout += performance.now() - traced;
  }
  return { all: (script + layout) / characters.length, script: script / characters.length, layout: layout / characters.length };
}, SENTENCE);

const times = Object.fromEntries(Object.keys(pages).map((name) => [name, []]));
const names = Object.keys(pages);
await Promise.all(names.map((name) => keys(pages[name])));  // Warm up.
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 ? [...names].reverse() : names) times[name].push(await keys(pages[name]));
}
const best = (name) => times[name].reduce((a, b) => (b.all < a.all ? b : a));
const fastest = Object.fromEntries(names.map((name) => [name, best(name).all]));
for (const name of names) {
  const { all, script, layout } = best(name);
  console.log(`${name}: ${all.toFixed(2)} ms a key (the trace ${script.toFixed(2)}, the layout after it ${layout.toFixed(2)}; fastest of ${rounds} rounds)`);
}
if (fastest.baseline) console.log(`here / baseline = ${(fastest.here / fastest.baseline).toFixed(3)}`);
await browser.close();
for (const server of servers) server.close();
