// What the browser tests share: the chapter server (in-process, port 0),
// Debian's Chromium driven by playwright-core, the model the page loads,
// and a record of what went wrong in the page (console errors, uncaught
// errors, Content-Security-Policy violations).
//
// The page loads the default model (model/). Set EMBEDDINGS_PAGE_MODEL=dev to
// serve a small generated model in its place (helpers/dev-model.js), e.g.
// before the default model has been trained, or to a folder to serve that
// folder's model.safetensors, config.json, tokenizer.json and snapshots/.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createChapterServer, listenOnLoopback } from '../../../tools/serve.mjs';
import { loadModel } from '../../../web/index.js';
import { makeDevModel } from './dev-model.js';

export const root = fileURLToPath(new URL('../../../', import.meta.url));
export const resultsDir = `${root}test-results`;
const wanted = process.env.EMBEDDINGS_PAGE_MODEL ?? '';
export const modelMode = wanted === 'dev' ? 'dev' : wanted && wanted !== 'default' ? 'folder' : 'default';
const devFiles = modelMode === 'dev' ? makeDevModel() : modelMode === 'folder' ? folderFiles(wanted) : undefined;

/** A folder's model files, read when asked for, behind the same Map-like get() as the dev model. */
function folderFiles(folder) {
  return {
    get(path) {
      if (path.split('/').includes('..')) return undefined;
      try {
        return new Uint8Array(readFileSync(join(folder, path)));
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Starts the chapter server on a free port and records what it sends, one
 * { method, path, status, bytes } per answer. With the dev model, /model/
 * is answered from memory, with the same headers and range requests as
 * files on disk.
 */
export async function startServer() {
  const requests = [];
  const server = createChapterServer({
    onRequest: (entry) => requests.push(entry),
    ...(devFiles ? { files: { prefix: '/model/', get: (path) => devFiles.get(path) } } : {}),
  });
  return {
    origin: await listenOnLoopback(server),
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

/** One of the page's model files (path relative to model/), as bytes: the dev model's, a folder's or the default model's. */
export function pageModelFile(path) {
  if (devFiles) return devFiles.get(path);
  return new Uint8Array(readFileSync(join(root, 'model', path)));
}

/** Debian's Chromium, headless. */
export function launch() {
  if (!existsSync('/usr/bin/chromium')) {
    throw new Error('The browser tests need Debian\'s chromium at /usr/bin/chromium (tools/setup.sh test installs it)');
  }
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run'],
  });
}

/** The default model's files must exist unless the dev model stands in. */
export function checkModel() {
  if (modelMode === 'default' && !existsSync(`${root}model/model.safetensors`)) {
    throw new Error('model/model.safetensors is missing: train the default model, or run with EMBEDDINGS_PAGE_MODEL=dev');
  }
}

/** The model the page shows, loaded through the Node API from the same files. */
export async function nodeModel() {
  if (devFiles) {
    return loadModel({ weights: devFiles.get('model.safetensors'), config: devFiles.get('config.json'), tokenizer: devFiles.get('tokenizer.json') });
  }
  return loadModel({
    weights: `${root}model/model.safetensors`,
    config: `${root}model/config.json`,
    tokenizer: `${root}model/tokenizer.json`,
  });
}

/** A snapshot's tables through the Node API. */
export async function nodeSnapshot(file) {
  if (devFiles) {
    return loadModel({ weights: devFiles.get(`snapshots/${file}`), config: devFiles.get('config.json') });
  }
  return loadModel({ weights: `${root}model/snapshots/${file}`, config: `${root}model/config.json` });
}

/** The snapshots' index the page reads. */
export async function snapshotIndex() {
  if (devFiles) return JSON.parse(new TextDecoder().decode(devFiles.get('snapshots/index.json')));
  const { readFile } = await import('node:fs/promises');
  return JSON.parse(await readFile(`${root}model/snapshots/index.json`, 'utf8'));
}

/**
 * A new page at `width` × `height` that records console errors, uncaught
 * errors and CSP violations in `problems`, and every console message in
 * `messages` ({ type, text }). `touch` emulates a phone: a touch screen and
 * a mobile viewport.
 */
export async function openPage(browser, { width = 1280, height = 900, touch = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, ...(touch ? { isMobile: true, hasTouch: true } : {}) });
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__violations.push(`${event.violatedDirective}: ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  const page = await context.newPage();
  const problems = [];
  const messages = [];
  page.on('console', (message) => {
    messages.push({ type: message.type(), text: message.text() });
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.messages = messages;
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.problems = problems;
  page.violations = () => page.evaluate(() => window.__violations);
  return page;
}

/** Waits until every widget on the page is ready (or one has failed). */
export async function waitForWidgets(page, selector = '[data-state]') {
  await page.waitForFunction((sel) => {
    const widgets = [...document.querySelectorAll(sel)];
    return widgets.length > 0 && widgets.every((w) => w.dataset.state === 'ready' || w.dataset.state === 'error');
  }, selector);
  return page.evaluate((sel) => [...document.querySelectorAll(sel)]
    .filter((w) => w.dataset.state === 'error')
    .map((w) => `${w.localName}#${w.id}: ${w.querySelector('.ew-status')?.textContent}`), selector);
}

/**
 * Resolves once the page's main thread has gone idle twice (two idle
 * callbacks in a row: the tasks queued by the first ran too): the positive
 * signal a "nothing more happened" assertion waits for, instead of a sleep.
 * Rejects, saying so, if that has not happened within `timeout` ms: a page
 * that never goes idle fails its test rather than holding the whole run.
 */
export function pageIdle(page, timeout = 30000) {
  let timer;
  const late = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`pageIdle: the page was not idle twice within ${timeout} ms`)), timeout);
  });
  const idle = page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(resolve))));
  return Promise.race([idle, late]).finally(() => clearTimeout(timer));
}

/** Resolves after `count` frames of the page were drawn (animation frames, not time). */
export function frames(page, count = 2) {
  return page.evaluate(async (n) => {
    for (let frame = 0; frame < n; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
  }, count);
}

/**
 * Starts listening for the end of the page's next scroll (scrollend, which
 * waits for a fling too); the returned function resolves true once it came,
 * or false after `limitMs` without one (the swipe scrolled nothing).
 */
export async function nextScrollEnd(page, limitMs = 5000) {
  await page.evaluate((limit) => {
    window.__scrollEnded = new Promise((resolve) => {
      document.addEventListener('scrollend', () => resolve(true), { once: true });
      setTimeout(() => resolve(false), limit);
    });
  }, limitMs);
  return () => page.evaluate(() => window.__scrollEnded);
}

/**
 * Checks a PNG: its pixel size (read from its header) and that it is not
 * blank (decoded in a page of its own, more than a few distinct colours).
 * Returns { width, height, colours }.
 */
export async function checkPng(browser, path) {
  const bytes = readFileSync(path);
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, i) => bytes[i] === b)) throw new Error('not a PNG file');
  const width = bytes.readUInt32BE(16), height = bytes.readUInt32BE(20);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const colours = await page.evaluate(async (base64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      // A sample of rows across the whole picture, scaled to at most 400 px wide.
      const scale = Math.min(1, 400 / image.width);
      const canvas = new OffscreenCanvas(Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)));
      const context2d = canvas.getContext('2d');
      context2d.drawImage(image, 0, 0, canvas.width, canvas.height);
      const { data } = context2d.getImageData(0, 0, canvas.width, canvas.height);
      const seen = new Set();
      for (let i = 0; i < data.length; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return seen.size;
    }, bytes.toString('base64'));
    return { width, height, colours };
  } finally {
    await context.close();
  }
}

/** A screenshot into test-results/ (gitignored). */
export async function screenshot(page, name, options = {}) {
  await mkdir(resultsDir, { recursive: true });
  const path = `${resultsDir}/${name}.png`;
  const target = options.locator ?? page;
  const { locator, ...rest } = options;
  await target.screenshot({ path, ...rest });
  return path;
}

/**
 * The usual suite around a server, Chromium and the Node model: starts them
 * before the suite's tests and closes them after; the returned object's
 * server, browser and model are set once started.
 */
export function chapterSuite({ before, after }) {
  const suite = {};
  before(async () => {
    checkModel();
    suite.model = await nodeModel();
    suite.server = await startServer();
    suite.browser = await launch();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
    suite.model?.dispose();
  });
  return suite;
}
