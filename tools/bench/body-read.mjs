#!/usr/bin/env node
// What reading a large response costs a page's main thread: the model's
// token table (a 2 MiB range of model/model.safetensors) fetched in a bare
// page on the phone profile (375 × 812, touch, CPU 4× slower through the
// DevTools protocol), read five ways:
//
//   arrayBuffer   response.arrayBuffer(), as the loader read every body before
//   reader        a stream reader copying each chunk into one buffer
//   reader-yield  the same, giving the event loop a turn every 256 KiB
//   blob          response.blob() and then its bytes (responseBody in
//                 web/src/sources/http.js, for a body of 64 KiB or more)
//   worker        fetched and read in a Worker, the bytes transferred
//
// For each: the time from the request to the bytes in hand, and the main
// thread's long tasks meanwhile (the Long Tasks API: 50 ms or more), their
// longest and their blocking time (each one's time past 50 ms, summed).
// The ways take turns, round by round, each in a fresh context, so a slow
// spell of the machine hits them alike; medians and ranges are printed.
//
//   node tools/bench/body-read.mjs [--runs N] [--rate R]
import { fileURLToPath } from 'node:url';

import { startServer } from './floor-server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const runs = option('--runs', 5);
const rate = option('--rate', 4);
const WAYS = ['arrayBuffer', 'reader', 'reader-yield', 'blob', 'worker'];

const { chromium } = await import(`${root}node_modules/playwright-core/index.mjs`);

/** Runs in the page: reads the range one way; resolves with its time and the long tasks meanwhile. */
async function readOnce({ way, range }) {
  const tasks = [];
  new PerformanceObserver((list) => tasks.push(...list.getEntries().map((entry) => entry.duration))).observe({ type: 'longtask' });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const url = new URL('/model/model.safetensors', location.href).href;
  const headers = { Range: `bytes=${range[0]}-${range[1]}` };
  const started = performance.now();
  let bytes;
  if (way === 'worker') {
    const source = `onmessage = async () => { const body = await (await fetch(${JSON.stringify(url)}, { headers: ${JSON.stringify(headers)} })).arrayBuffer(); postMessage(body, [body]); };`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    bytes = await new Promise((resolve) => { worker.onmessage = ({ data }) => resolve(data.byteLength); worker.postMessage(0); });
  } else {
    const response = await fetch(url, { headers });
    if (way === 'arrayBuffer') bytes = (await response.arrayBuffer()).byteLength;
    else if (way === 'blob') bytes = (await (await response.blob()).arrayBuffer()).byteLength;
    else {
      const out = new Uint8Array(Number(response.headers.get('content-length')));
      const reader = response.body.getReader();
      let at = 0, sinceTurn = 0;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        out.set(chunk.value, at);
        at += chunk.value.length;
        sinceTurn += chunk.value.length;
        if (way === 'reader-yield' && sinceTurn >= 256 * 1024) {
          sinceTurn = 0;
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
      }
      bytes = at;
    }
  }
  const ms = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { bytes, ms, tasks };
}

/** The token table's range in the shipped model, from its header. */
async function tableRange() {
  const { readFileSync } = await import('node:fs');
  const file = readFileSync(`${root}model/model.safetensors`);
  const headerLength = Number(file.readBigUInt64LE(0));
  const header = JSON.parse(file.subarray(8, 8 + headerLength).toString('utf8'));
  const [begin, end] = header['transformer.wte.weight'].data_offsets;
  return [8 + headerLength + begin, 8 + headerLength + end - 1];
}

const range = await tableRange();
const server = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu',
  '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
const results = new Map(WAYS.map((way) => [way, []]));
try {
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < WAYS.length; k++) {
      const way = WAYS[(k + round) % WAYS.length];
      const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      // A bare page of the server's origin: nothing else runs on its main thread.
      await page.route(`${server.origin}/bare.html`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>bare</title><p>bare</p>' }));
      await page.goto(`${server.origin}/bare.html`);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const result = await page.evaluate(readOnce, { way, range });
      if (result.bytes !== range[1] - range[0] + 1) throw new Error(`${way}: read ${result.bytes} bytes of ${range[1] - range[0] + 1}`);
      results.get(way).push(result);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const figure = (values) => `${Math.round(median(values))} ms (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
console.log(`A ${((range[1] - range[0] + 1) / 2 ** 20).toFixed(1)} MiB range read in a bare page, CPU ${rate}× slower, 375 × 812 touch; median of ${runs} (range)\n`);
console.log('| way | bytes in hand | long tasks | longest | blocking time |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [way, list] of results) {
  const longest = list.map((r) => Math.max(0, ...r.tasks));
  const blocking = list.map((r) => r.tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0));
  console.log(`| ${way} | ${figure(list.map((r) => r.ms))} | ${list.map((r) => r.tasks.length).join(', ')} | ${figure(longest)} | ${figure(blocking)} |`);
}
