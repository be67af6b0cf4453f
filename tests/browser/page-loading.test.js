// How the chapter page loads: one bundled script (web/dist/page.js) in place
// of the sources' module graph, every file it asks for found, and the
// widgets' stylesheet linked once from where the page links it. The figures
// themselves are checked against the Node API by page.test.js, which loads
// the same page and so the same bundle.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, openPage, waitForWidgets, checkModel } from './helpers/browser.js';

let server, browser, page;

before(async () => {
  checkModel();
  server = await startServer();
  browser = await launch();
  page = await openPage(browser);
  await page.goto(`${server.origin}/web/page/`);
  await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
  assert.deepEqual(await waitForWidgets(page, '#table, #nearest, #pairs, #dot-widget, #positions, #trace'), []);
  await page.waitForFunction(() => document.documentElement.dataset.formulas === 'ready');
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('the page runs from the bundle: no source module is fetched, and nothing is missing', async () => {
  const paths = server.requests.map((r) => r.path);
  const scripts = paths.filter((p) => p.endsWith('.js'));
  assert.ok(scripts.includes('/web/dist/page.js'), `the bundle is fetched (scripts: ${scripts.join(', ')})`);
  // The Code parts' definitions travel as written, beside the bundle; nothing else of the sources does.
  assert.deepEqual(scripts.filter((p) => /^\/web\/(src|widgets|page)\/|^\/web\/index\.js$|^\/web\/dist\/embeddings\.js$/.test(p)),
    ['/web/page/code-parts.js'], 'no other module of the sources travels on its own');
  assert.deepEqual(server.requests.filter((r) => r.status >= 400).map((r) => `${r.status} ${r.path}`), []);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await page.violations(), []);
});

test('the widgets\' stylesheet is linked once, from web/widgets/, and the formulas found KaTeX', async () => {
  const sheets = await page.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => new URL(l.href).pathname));
  assert.equal(sheets.filter((p) => p.endsWith('/widgets.css')).length, 1);
  assert.ok(sheets.includes('/web/widgets/widgets.css'));
  assert.ok(sheets.includes('/node_modules/katex/dist/katex.min.css'));
  assert.ok(await page.evaluate(() => document.querySelectorAll('.tex.typeset .katex').length > 0));
});

test('the model is asked for once, before the widgets are up, and every widget shares that load', async () => {
  const count = (path) => server.requests.filter((r) => r.path === path).length;
  // The size and header in one range request, then the two tables: one load, not one per widget.
  assert.equal(count('/model/model.safetensors'), 3);
  assert.equal(count('/model/config.json'), 1);
  assert.equal(count('/model/tokenizer.json'), 1);
  const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])));
  assert.ok(marks['embeddings:model-requested'] < marks['embeddings:ready:dot-product'],
    'web/page/start.js asks for the model before the first widget (the dot product, which needs no model) is up');
  assert.equal(await page.evaluate(() => document.querySelector('#table').model === window.model), true);
});
