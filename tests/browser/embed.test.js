// The widgets in another page (web/examples/embed.html): they load their
// model from their attributes, share one load, take a model by script, and
// show a visible error when their files are missing.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { num } from '../../web/widgets/parts/format.js';
import { startServer, launch, openPage, waitForWidgets, screenshot, checkModel, nodeModel, modelMode } from './helpers/browser.js';

let server, browser, model;

before(async () => {
  checkModel();
  model = await nodeModel();
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  model?.dispose();
});

/** Console errors other than the browser's own report of an expected HTTP 404. */
const unexpected = (problems) => problems.filter((p) => !/Failed to load resource: the server responded with a status of 404/.test(p));

describe(`the embed example (${modelMode} model)`, () => {
  let page;
  before(async () => {
    page = await openPage(browser, { width: 375, height: 800 });
    await page.goto(`${server.origin}/web/examples/embed.html`);
  });
  after(() => page?.context().close());

  test('every widget gets ready, under the CSP, with one shared model', async () => {
    assert.deepEqual(await waitForWidgets(page), []);
    const shared = await page.evaluate(() => {
      const [first, ...others] = ['#nearest', '#map', '#trace', '#pairs'].map((id) => document.querySelector(id).model);
      return others.every((m) => m === first);
    });
    assert.ok(shared, 'the widgets naming the same files, and the one given a model by script, hold one model');
    const neighbours = await page.evaluate(() => [...document.querySelectorAll('#nearest .ew-neighbour .ew-muted')].map((e) => Number(e.textContent)));
    let girl;
    try {
      girl = model.tokenId('·girl');
    } catch {
      girl = undefined;
    }
    if (girl !== undefined) assert.deepEqual(neighbours, model.nearest(girl, 5).map((n) => n.id));
    const readout = await page.locator('#map .ew-grid-readout').textContent();
    const far = Math.min(51, model.context);
    assert.equal(readout, `Places 2 and ${far} (rows 1 and ${far - 1} of the position table): cosine ${num(model.cosineMatrix(model.wpe).at(1, far - 1), 2)}`);
    assert.equal(await page.evaluate(() => document.querySelector('#trace').trace.tokens.length), model.encode('Once upon a time, Lily saw Max.').length);
    assert.deepEqual(page.problems, []);
    assert.deepEqual(await page.violations(), []);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the page is ${width} px wide`);
    await screenshot(page, 'embed-375', { fullPage: true });
  });

  test('a widget pointed at a missing file shows a visible error', async () => {
    await page.evaluate(() => {
      const broken = document.createElement('ew-position-map');
      broken.id = 'broken';
      broken.setAttribute('weights', 'no-such-model/model.safetensors');
      document.querySelector('main').append(broken);
    });
    await page.waitForFunction(() => document.querySelector('#broken').dataset.state === 'error');
    const alert = page.locator('#broken [role="alert"]');
    assert.ok(await alert.isVisible());
    const text = await alert.textContent();
    assert.match(text, /The model could not be loaded/);
    assert.match(text, /no-such-model\/model\.safetensors/);
    assert.match(text, /404/);
    assert.deepEqual(unexpected(page.problems), []);
  });

  test('a missing tokenizer is reported too, naming the file', async () => {
    await page.evaluate(() => {
      const broken = document.createElement('ew-nearest-words');
      broken.id = 'broken-tokenizer';
      broken.setAttribute('src', '../../model/');
      broken.setAttribute('tokenizer', 'nowhere/tokenizer.json');
      document.querySelector('main').append(broken);
    });
    await page.waitForFunction(() => document.querySelector('#broken-tokenizer').dataset.state === 'error');
    assert.match(await page.locator('#broken-tokenizer [role="alert"]').textContent(), /nowhere\/tokenizer\.json/);
    await screenshot(page, 'embed-errors', { fullPage: true });
  });

  test('a training slider without snapshots says so', async () => {
    await page.evaluate(() => {
      const slider = document.createElement('ew-training-slider');
      slider.id = 'no-snapshots';
      slider.setAttribute('src', '../../model/');
      slider.setAttribute('snapshots', 'nowhere/index.json');
      document.querySelector('main').append(slider);
      slider.scrollIntoView();
    });
    await page.waitForFunction(() => document.querySelector('#no-snapshots').dataset.state === 'error');
    const text = await page.locator('#no-snapshots > .ew-status[role="alert"]').textContent();
    assert.match(text, /The training snapshots could not be loaded/);
    assert.match(text, /nowhere\/index\.json/);
    assert.deepEqual(unexpected(page.problems), []);
  });
});

describe('the chapter page when the model cannot be loaded', () => {
  test('the page and its widgets say so; the dot product still works', async () => {
    const page = await openPage(browser, { width: 1280, height: 900 });
    await page.route(/\/model\/model\.safetensors$/, (route) => route.fulfill({ status: 404, body: 'Not found' }));
    await page.goto(`${server.origin}/web/page/`);
    await page.waitForFunction(() => document.documentElement.dataset.page === 'error');
    assert.match(await page.locator('#model-text').textContent(), /The model could not be loaded: .*model\.safetensors.*404/);
    assert.equal(await page.locator('#model-line').getAttribute('role'), 'alert');
    await page.waitForFunction(() => document.querySelector('#table').dataset.state === 'error');
    assert.ok(await page.locator('#table [role="alert"]').isVisible());
    // The dot product needs no model.
    assert.equal(await page.locator('#dot-widget').getAttribute('data-state'), 'ready');
    assert.equal(await page.locator('#dot-widget .ew-dot-sum').textContent(), '1');
    await screenshot(page, 'page-load-error');
    assert.deepEqual(unexpected(page.problems), []);
    assert.deepEqual(await page.violations(), []);
    await page.context().close();
  });
});
