// The chapter page opening another model: one named in the address
// (?model=FOLDER/), here a model with rotary positions and no position
// table, whose widgets say so instead of failing; and files picked from the
// reader's disk, read in the browser and sent nowhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createChapterServer, listenOnLoopback } from '../../tools/serve.mjs';
import { launch, openPage, waitForWidgets } from './helpers/browser.js';
import { makeDevModel } from './helpers/dev-model.js';

const rotary = makeDevModel({ rotary: true });
const learned = makeDevModel({ seed: 11, context: 64 });
const bfloat = makeDevModel({ seed: 12, context: 32, dtype: 'BF16' });
let server, origin, browser, page;
const requests = [];
const WIDGETS = '#table, #nearest, #pairs, #dot-widget, #positions, #trace';

before(async () => {
  server = createChapterServer({
    onRequest: (entry) => requests.push(entry),
    files: { prefix: '/model/rotary/', get: (path) => rotary.get(path) },
  });
  origin = await listenOnLoopback(server);
  browser = await launch();
  page = await openPage(browser);
  await page.goto(`${origin}/web/page/?model=/model/rotary/`);
  await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

test('?model= opens that folder\'s model, and only it', async () => {
  assert.deepEqual(await waitForWidgets(page, WIDGETS), []);
  const paths = requests.map((r) => r.path);
  assert.ok(paths.includes('/model/rotary/model.safetensors'));
  assert.ok(paths.includes('/model/rotary/config.json'));
  assert.ok(paths.includes('/model/rotary/tokenizer.json'));
  assert.ok(!paths.some((p) => p.startsWith('/model/model.safetensors')), 'the default model is never fetched');
  assert.ok(!paths.includes('/model/config.json') && !paths.includes('/model/tokenizer.json'), 'nor its small files (no preload of them)');
  assert.equal(await page.evaluate(() => window.model.family), 'Llama, Mistral, Qwen, Gemma, Phi');
  assert.equal(await page.evaluate(() => document.querySelector('#table').model === window.model), true);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await page.violations(), []);
});

test('a model without a position table: every widget works or says it has no position table', async () => {
  assert.equal(await page.evaluate(() => window.model.wpe), null);
  assert.equal(await page.evaluate(() => window.trace.positionEmbeddings), null);
  const says = /this model has no position table: it uses rotary positions/i;
  assert.match(await page.locator('#positions').innerText(), says);
  assert.equal(await page.locator('#positions canvas.ew-grid-canvas, #positions [role="grid"]').count(), 0);
  assert.match(await page.locator('#trace').innerText(), says);
  assert.match(await page.locator('#model-text').innerText(), /no position table \(rotary positions, 8,192 places\)/);
  assert.match(await page.locator('[data-fig="pos-near"]').first().innerText(), says);
  // The trace's rows are the token rows, and what the first layer reads is the same numbers.
  const rows = await page.evaluate(() => {
    const t = window.trace;
    return { same: t.embeddings.data.every((x, i) => x === t.tokenEmbeddings.data[i]), n: t.tokens.length };
  });
  assert.ok(rows.n > 0 && rows.same);
  // The token widgets work as for any model.
  const nearest = await page.evaluate(() => window.model.nearest('·girl', 3).map((n) => n.text));
  assert.equal(nearest.length, 3);
  assert.deepEqual(page.problems, []);
});

test('files picked from disk open in the browser, with no request carrying them', async () => {
  const before = requests.length;
  await page.setInputFiles('#model-files', ['model.safetensors', 'config.json', 'tokenizer.json'].map((name) => ({
    name, mimeType: name.endsWith('.json') ? 'application/json' : 'application/octet-stream', buffer: Buffer.from(learned.get(name)),
  })));
  await page.waitForFunction(() => window.model?.hasPositionTable === true && document.documentElement.dataset.page === 'ready');
  assert.deepEqual(await waitForWidgets(page, WIDGETS), []);
  assert.equal(await page.evaluate(() => window.model.context), 64);
  assert.equal(await page.evaluate(() => document.querySelector('#positions').model === window.model), true);
  // The position map is back, 64 × 64.
  assert.doesNotMatch(await page.locator('#positions').innerText(), /no position table/i);
  assert.equal(await page.evaluate(() => document.querySelector('#positions').map.rows), 64);
  assert.deepEqual(requests.slice(before).filter((r) => r.method !== 'GET' || /safetensors|config|tokenizer/.test(r.path)), []);
  assert.deepEqual(page.problems, []);
});

test('a BF16 model\'s tables stay in 16 bits, and the token table shows their numbers, not their bits', async () => {
  await page.setInputFiles('#model-files', ['model.safetensors', 'config.json', 'tokenizer.json'].map((name) => ({
    name, mimeType: name.endsWith('.json') ? 'application/json' : 'application/octet-stream', buffer: Buffer.from(bfloat.get(name)),
  })));
  await page.waitForFunction(() => window.model?.context === 32 && document.documentElement.dataset.page === 'ready');
  assert.deepEqual(await waitForWidgets(page, WIDGETS), []);
  assert.equal(await page.evaluate(() => window.model.wte.dtype), 'bfloat16');
  assert.equal(await page.evaluate(() => window.model.wte.data instanceof Uint16Array), true);
  // The colour scale and a row's numbers are the table's numbers (about ±0.3), not bit patterns (up to 65,535).
  const legend = await page.locator('#table .ew-legend').getAttribute('aria-label');
  const limit = Number(/red is ([\d.]+) or more/.exec(legend)[1]);
  assert.ok(limit > 0.01 && limit < 1, legend);
  await page.evaluate(() => document.querySelector('#table').grid.select(window.model.tokenId('·girl'), 0));
  // The cell's own number, as the grid reads it for the reader.
  const cell = await page.evaluate(() => document.querySelector('#table').grid.options.value(window.model.tokenId('·girl'), 3));
  assert.equal(cell, await page.evaluate(() => window.model.wte.row(window.model.tokenId('·girl'))[3]));
  const rowText = await page.locator('#table .ew-row-numbers').innerText();
  const numbers = rowText.replace(/^.*starts /, '').split(', ').filter((x) => x !== '…').map((x) => Number(x.replace('−', '-')));
  const expected = await page.evaluate(() => Array.from(window.rowView(window.model.wte, window.model.tokenId('·girl')).subarray(0, 5)));
  assert.equal(numbers.length, 5, rowText);
  numbers.forEach((x, i) => assert.ok(Math.abs(x - expected[i]) < 0.01, `${rowText} against ${expected}`));
  assert.equal((await page.evaluate(() => window.model.nearest('·girl', 3))).length, 3);
  assert.deepEqual(page.problems, []);
});
