// The minimal page of docs/embedding.md at the root of a site folder, as an
// author would set it up (index.html, web/ and model/ side by side), served
// by tools/serve.mjs with --root's server: every widget gets ready under the
// Content-Security-Policy, and nothing outside the folder is reachable.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createChapterServer, listenOnLoopback } from '../../tools/serve.mjs';
import { checkModel, launch, modelMode, openPage, pageModelFile, root, waitForWidgets } from './helpers/browser.js';

let site, server, origin, browser;
const refused = [];

before(async () => {
  checkModel();
  site = await mkdtemp(join(tmpdir(), 'embeddings-site-'));
  const docs = await readFile(join(root, 'docs', 'embedding.md'), 'utf8');
  await writeFile(join(site, 'index.html'), /## A minimal page\s+```html\n([\s\S]*?)```/.exec(docs)[1]);
  await cp(join(root, 'web'), join(site, 'web'), { recursive: true });
  await mkdir(join(site, 'model'));
  for (const file of ['model.safetensors', 'config.json', 'tokenizer.json']) await writeFile(join(site, 'model', file), pageModelFile(file));
  server = createChapterServer({ root: site, onRequest: (entry) => { if (entry.status >= 400) refused.push(entry.path); } });
  origin = await listenOnLoopback(server);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  if (site) await rm(site, { recursive: true, force: true });
});

describe(`the docs' minimal page at a site root (${modelMode} model)`, () => {
  test('every widget gets ready, under the CSP, with no error', async () => {
    const page = await openPage(browser, { width: 375, height: 800 });
    try {
      await page.goto(`${origin}/`);
      assert.deepEqual(await waitForWidgets(page), []);
      const widgets = await page.evaluate(() => [...document.querySelectorAll('[data-state]')].map((w) => w.localName));
      assert.deepEqual(widgets.sort(), ['ew-dot-product', 'ew-nearest-words', 'ew-position-map']);
      // The browser asks for /favicon.ico by itself; the page has none. Nothing else may be missing.
      assert.deepEqual(refused.filter((path) => path !== '/favicon.ico'), []);
      assert.deepEqual(page.problems.filter((p) => !(refused.length && /Failed to load resource: .* 404/.test(p))), []);
      assert.deepEqual(await page.violations(), []);
    } finally {
      await page.context().close();
    }
  });

  test('the folder is all there is', async () => {
    for (const path of ['/..%2f..%2fetc%2fpasswd', '/../package.json', '/tools/serve.mjs', '/node_modules/katex/dist/katex.min.css']) {
      const response = await fetch(`${origin}${path}`);
      assert.ok(response.status >= 400, `${path}: ${response.status}`);
    }
  });
});
