// The chapter page opening another model: one named in the address
// (?model=FOLDER/), here a model with rotary positions and no position
// table, whose widgets say so instead of failing; and files picked from the
// reader's disk, read in the browser and sent nowhere. Files that cannot be
// opened (garbage, cut short, a bad config.json) leave the page's model in
// place and say why beside the picker; an address whose model cannot be
// opened gives the page's own; weights alone open the tables by row id and
// the page names the missing tokenizer.json (?weights= alone gives the same
// files, tests/js/page/model-choice.test.js); a
// training snapshot opened as a model claims no share of the whole model.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createChapterServer, listenOnLoopback } from '../../tools/serve.mjs';
import { launch, openPage, screenshot, waitForWidgets } from './helpers/browser.js';
import { makeDevModel } from './helpers/dev-model.js';
import { writeSafetensors } from '../js/helpers/fixtures.js';
import { loadModel } from '../../web/index.js';
import { num } from '../../web/widgets/parts/format.js';

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
  // Every part laid out too (web/page/later-parts.js): the tests read the widgets' rendered text.
  await page.waitForFunction(() => document.documentElement.dataset.page === 'ready' && document.documentElement.dataset.parts === 'laid-out');
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
  // Instead of a blank: how a turned vector's similarity depends on the distance, from config.json's rope_theta.
  assert.match(await page.locator('#positions').innerText(), /with base 500,000/);
  const rotary = await page.evaluate(() => {
    const map = document.querySelector('#positions').map;
    return { rows: map.rows, near: map.at(1, 2), diagonal: map.at(10, 13) === map.at(40, 43) };
  });
  // config.json: 128 numbers, 4 heads, so heads of 32 numbers, 16 pairs turning.
  let near = 0;
  for (let i = 0; i < 16; i++) near += Math.cos(500000 ** (-2 * i / 32));
  assert.equal(rotary.rows, 128);
  assert.ok(Math.abs(rotary.near - near / 16) < 1e-6 && rotary.diagonal, JSON.stringify(rotary));
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
  // Its tokenizer puts a BOS before every text, as Llama 3's does: the trace says so, and counts the reader's own tokens.
  const special = await page.evaluate(() => ({
    around: window.model.specialTokensAround,
    plain: window.model.encode('Lily saw Max'),
    withSpecial: window.model.encode('Lily saw Max', { addSpecialTokens: true }),
  }));
  assert.deepEqual(special.around.before.map((t) => t.text), ['<|endoftext|>']);
  assert.deepEqual(special.withSpecial, [special.around.before[0].id, ...special.plain]);
  const note = page.locator('#trace .ew-trace-special');
  assert.match(await note.innerText(), /expects <\|endoftext\|> before every text.*only your own tokens/s);
  assert.deepEqual(page.problems, []);
});

test('a model without a position table: no sentence or number assumes one, and the trace\'s limit is the model\'s own', async () => {
  assert.deepEqual(await waitForWidgets(page, WIDGETS), []);
  const position = await page.locator('#position').innerText();
  // The learned table's sentences are gone (not two contradicting ones), the rotary ones say what this model does.
  assert.doesNotMatch(position, /score nothing|position lists, one for each place|Our model learns these lists|W_P is the position table/, position);
  assert.match(position, /learns no such lists: it has no position table\. It uses rotary positions/);
  assert.match(position, /This model has no position lists: it uses rotary positions, so it reads at most 8,192 tokens at a time/);
  assert.match(position, /The book’s model, with its learned lists, scores 0\.98 and −0\.22\./);
  assert.equal(await page.locator('#position .where[data-when="rotary"]').isVisible(), true);
  const where = (await page.locator('#position .where[data-when="rotary"]').textContent()).replace(/\s+/g, ' ');
  assert.match(where, /^This model has no position table .*: its first layer reads .*, and it reads at most 8,192 tokens/);
  // Its scores are the rotary map's, the map the page shows.
  const scores = await page.evaluate(() => [document.querySelector('#positions').map.at(1, 2), document.querySelector('#positions').map.at(1, 50)]);
  assert.equal(await page.locator('#position [data-fig="rotary-near"]').innerText(), num(scores[0], 2));
  assert.equal(await page.locator('#position [data-fig="rotary-far"]').innerText(), num(scores[1], 2));
  // Its places buttons compare on the rotary map.
  await page.locator('[data-places="2 51"]').click();
  assert.match(await page.locator('#positions .ew-grid-readout').first().innerText(), /^Places 2 and 51, 49 apart: cosine /);
  // The trace holds 1,024 tokens of the 8,192 the model reads, and says so; ·Lily's sum is its token list at both places.
  assert.match(await page.locator('#trace .ew-count').first().innerText(), /^\d+ tokens of at most 1,024 traced here \(the model reads up to 8,192\)$/);
  const lily = await page.locator('#trace .ew-compare-table tbody tr', { hasText: 'Lily' }).locator('td').allInnerTexts();
  assert.deepEqual(lily.slice(2), ['the same list', 'the same (no position list is added)']);
  // The console's help has no example that needs a position table.
  const help = await page.evaluate(() => {
    const lines = [];
    const info = console.info;
    console.info = (text) => lines.push(text);
    try { window.help(); } finally { console.info = info; }
    return lines.join('\n');
  });
  assert.doesNotMatch(help, /cosineMatrix\(model\.wpe\)|token \+ position/);
  assert.match(help, /the token rows \(no position table\)/);
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
  assert.match(rowText, / \(the first 5 of its \d+ numbers\)$/);
  const numbers = rowText.replace(/^.*starts /, '').replace(/ \(.*\)$/, '').split(', ').map((x) => Number(x.replace('−', '-')));
  const expected = await page.evaluate(() => Array.from(window.rowView(window.model.wte, window.model.tokenId('·girl')).subarray(0, 5)));
  assert.equal(numbers.length, 5, rowText);
  numbers.forEach((x, i) => assert.ok(Math.abs(x - expected[i]) < 0.01, `${rowText} against ${expected}`));
  assert.equal((await page.evaluate(() => window.model.nearest('·girl', 3))).length, 3);
  assert.deepEqual(page.problems, []);
});

/** Picks files by name: { name: bytes }. */
function pick(files) {
  return page.setInputFiles('#model-files', Object.entries(files).map(([name, bytes]) => ({
    name, mimeType: name.endsWith('.json') ? 'application/json' : 'application/octet-stream', buffer: Buffer.from(bytes),
  })));
}

test('a file that cannot be opened leaves the page\'s model in place, and the line beside the picker says what was wrong', async () => {
  await page.evaluate(() => { window.__shown = window.model; });
  const weights = learned.get('model.safetensors');
  const cases = [
    // 26 bytes that are no safetensors file, with a real config and tokenizer.
    [{ 'garbage.safetensors': new TextEncoder().encode('this is not a safetensors!'), 'config.json': learned.get('config.json'), 'tokenizer.json': learned.get('tokenizer.json') },
      /^garbage\.safetensors, config\.json, tokenizer\.json could not be opened, so the page still shows .*garbage\.safetensors: /],
    // The real file cut short.
    [{ 'cut.safetensors': weights.subarray(0, Math.floor(weights.length / 2)), 'config.json': learned.get('config.json'), 'tokenizer.json': learned.get('tokenizer.json') },
      /^cut\.safetensors, .* could not be opened, so the page still shows .*cut\.safetensors: /],
    // A config.json that is not JSON.
    [{ 'model.safetensors': weights, 'bad-config.json': new TextEncoder().encode('{ "n_embd": '), 'tokenizer.json': learned.get('tokenizer.json') },
      /^model\.safetensors, bad-config\.json, tokenizer\.json could not be opened, so the page still shows .*bad-config\.json/],
  ];
  for (const [files, says] of cases) {
    await pick(files);
    await page.waitForFunction((source) => new RegExp(source).test(document.querySelector('#model-pick-status').textContent), says.source);
    const kept = await page.evaluate((selector) => ({
      same: window.model === window.__shown,
      widgets: [...document.querySelectorAll(selector)].filter((w) => (w.model !== undefined && w.model !== window.model) || w.dataset.state !== 'ready').map((w) => `${w.id} ${w.dataset.state}`),
      alert: document.querySelector('#model-pick-status').getAttribute('role'),
      header: document.querySelector('#model-text').textContent,
    }), WIDGETS);
    assert.deepEqual({ ...kept, header: kept.header.startsWith('Model loaded:') }, { same: true, widgets: [], alert: 'alert', header: true }, JSON.stringify(kept));
  }
  assert.deepEqual(page.problems, []);
  // Scrolled to the foot, the training slider asks for the rotary folder's snapshots, which it has none of (and says so).
  await page.locator('.model-picker').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('#slider').dataset.state === 'error');
  await screenshot(page, 'model-pick-failed', { locator: page.locator('.model-picker') });
  assert.match(await page.locator('#slider > .ew-status').textContent(), /No training snapshots could be loaded from \/model\/rotary\/snapshots\/index\.json/);
  page.problems.splice(0, page.problems.length, ...page.problems.filter((p) => !/status of 404/.test(p)));
});

test('the weights alone open the tables, shown by row id; the page names the missing tokenizer.json', async () => {
  await pick({ 'model.safetensors': learned.get('model.safetensors') });
  await page.waitForFunction(() => window.model?.context === 64 && document.documentElement.dataset.page === 'ready');
  assert.deepEqual(await waitForWidgets(page, '#table, #nearest, #positions, #analogy, #one-hot, #row-dot'), []);
  // The one-hot product and the real rows' dot product by row id, without words.
  assert.equal(await page.evaluate(() => document.querySelector('#one-hot').result.equal), 128);
  assert.match(await page.locator('#row-dot .ew-rowdot-presets').textContent(), /came without its tokenizer\.json/);
  const header = await page.locator('#model-text').textContent();
  assert.match(header, /^Model loaded from its weights alone: .* It came without its tokenizer\.json/);
  assert.doesNotMatch(header, /Every figure below comes from it/);
  const story = await page.locator('.story [data-fig="lily-id"]').textContent();
  assert.match(story, /without its tokenizer\.json/);
  assert.doesNotMatch(await page.locator('#embeddings').innerText(), /\(none:/);
  assert.match(await page.locator('#model-pick-status').textContent(), /without a tokenizer\.json \(rows by id\)/);
  // The token table by id, the closest tokens by id, the map by id; the trace says what it needs.
  await page.locator('#table input[role="combobox"]').fill('#3');
  await page.locator('#table input[role="combobox"]').press('Enter');
  assert.equal(await page.evaluate(() => document.querySelector('#table').grid.highlighted), 3);
  await page.locator('#nearest input[role="combobox"]').fill('5');
  await page.locator('#nearest input[role="combobox"]').press('Enter');
  assert.match(await page.locator('#nearest .ew-summary').textContent(), /closest to #5 \(id 5\)/);
  assert.match(await page.locator('#trace .ew-status').textContent(), /tokenizer\.json/);
  assert.match(await page.locator('#pairs').innerText(), /came without its tokenizer\.json/);
  await page.locator('#vocabulary-map').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('#vocabulary-map').map?.rows === window.model.vocabSize);
  assert.equal(await page.evaluate(() => document.querySelector('#vocabulary-map').tokenId), 5);
  assert.deepEqual(page.problems, []);
});

test('a training snapshot opened as a model says its file holds only the two tables, not a share of the whole model', async () => {
  const [last] = JSON.parse(new TextDecoder().decode(learned.get('snapshots/index.json'))).snapshots.slice(-1);
  await pick({ [last.file]: learned.get(`snapshots/${last.file}`), 'config.json': learned.get('config.json'), 'tokenizer.json': learned.get('tokenizer.json') });
  await page.waitForFunction(() => window.model?.wte.dtype === 'float16' && document.documentElement.dataset.page === 'ready');
  const numbers = await page.locator('#embeddings .numbers').innerText();
  assert.match(numbers, /this file holds nothing but the token and position tables, so how many numbers the whole model learned, and so their share, is not known here/);
  assert.doesNotMatch(numbers, /in every/);
  assert.match(await page.locator('#model-text').textContent(), /Its file holds only the token and position tables/);
  const details = await page.locator('#model-details').textContent();
  assert.match(details, /numbers in its file, only the token and position tables \(its config\.json names 2 layers, which the file does not hold\)/);
  assert.deepEqual(page.problems, []);
});

test('a rotary model\'s file of its token table alone says so, and its trace holds the context its config.json gives', async () => {
  const full = await loadModel({ weights: rotary.get('model.safetensors'), config: rotary.get('config.json') });
  const weights = writeSafetensors([{ name: 'model.embed_tokens.weight', shape: [full.vocabSize, full.width], data: Float32Array.from(full.wte.data) }]);
  full.dispose();
  const config = { ...JSON.parse(new TextDecoder().decode(rotary.get('config.json'))), max_position_embeddings: 100 };
  await pick({ 'tables.safetensors': weights, 'config.json': new TextEncoder().encode(JSON.stringify(config)), 'tokenizer.json': rotary.get('tokenizer.json') });
  await page.waitForFunction(() => window.model?.context === 100 && document.documentElement.dataset.page === 'ready');
  assert.match(await page.locator('#model-text').textContent(), /Its file holds only the token table, so/);
  assert.match(await page.locator('#embeddings .numbers').innerText(), /this file holds nothing but the token table, so/);
  assert.doesNotMatch(await page.locator('body').innerText(), /token and position tables/);
  assert.equal(await page.evaluate(() => window.model.maxTraceTokens), 100);
  await page.evaluate(() => { document.querySelector('#trace').text = 'Max saw Lily. '.repeat(40); });
  assert.match(await page.locator('#trace .ew-count').first().innerText(), /^\d+ tokens of at most 100: \d+ too many$/);
  assert.match(await page.locator('#trace .ew-warning').first().innerText(), /but the model reads at most 100 tokens at a time/);
  assert.match(await page.locator('#position').innerText(), /reads at most 100 tokens at a time/);
  assert.deepEqual(page.problems, []);
});

test('an address whose model cannot be opened gives the page\'s own model, and says why beside the picker', async () => {
  const other = await openPage(browser);
  await other.goto(`${origin}/web/page/?model=/model/missing/`);
  await other.waitForFunction(() => document.documentElement.dataset.page === 'ready', undefined, { timeout: 60000 });
  assert.deepEqual(await waitForWidgets(other, WIDGETS), []);
  assert.equal(await other.evaluate(() => window.model.source.endsWith('/model/model.safetensors')), true);
  assert.match(await other.locator('#model-pick-status').textContent(),
    /^The model the address names \(\/model\/missing\/model\.safetensors\) could not be opened, so the page shows its own model instead\. .*404/);
  assert.match(await other.locator('#model-text').textContent(), /The model the address names could not be opened/);
  // Its files were asked for, and answered 404; nothing else went wrong.
  assert.deepEqual(other.problems.filter((p) => !/Failed to load resource: the server responded with a status of 404/.test(p)), []);
  await other.context().close();
});
