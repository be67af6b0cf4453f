// model.map() in a browser: a map is made in a Worker of its own
// (web/src/map/map-worker.js, built into web/dist/map-worker.js), off the
// page's main thread, on several threads when the page is cross-origin
// isolated (as tools/serve.mjs serves it) and on one when it is not, and
// comes out the same, bit for bit, as the Node API's (which works in
// slices), with or without a starting layout, by UMAP (exact neighbours
// and NN-descent) or PCA (the covariance and the Krylov methods); a PCA
// asked for while a UMAP is under way comes first; an
// AbortSignal ends the Worker and rejects with its reason, while a map
// asked for beside it is still made (by the next Worker).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, chapterSuite } from './helpers/browser.js';
import { Matrix } from '../../web/index.js';
import { createChapterServer, listenOnLoopback } from '../../tools/serve.mjs';

const suite = chapterSuite({ before, after });

describe('model.map in the browser', () => {
  let page;
  before(async () => {
    page = await openPage(suite.browser, { width: 1280, height: 900 });
    await page.goto(`${suite.server.origin}/web/page/`);
    await page.waitForFunction(() => document.querySelector('#nearest')?.dataset.state === 'ready', undefined, { timeout: 60000 });
  });
  after(() => page.context().close());

  /** In the page: model.map() of the first `rows` rows of wte with `options` ({ init } as numbers), as numbers. */
  const pageMap = (rows, options) => page.evaluate(async ([n, { init, ...rest }]) => {
    const model = document.querySelector('#nearest').model;
    const PageMatrix = model.wte.constructor;  // the page's Matrix class
    const table = new PageMatrix(model.wte.data.slice(0, n * model.width), n, model.width);
    const map = await model.map({ table, ...rest, ...(init ? { init: new PageMatrix(Float32Array.from(init), n, 2) } : {}) });
    return Array.from(map.data);
  }, [rows, options]);

  const nodeMap = async (rows, options) => {
    const table = new Matrix(suite.model.wte.data.slice(0, rows * suite.model.width), rows, suite.model.width);
    const init = options.init && new Matrix(Float32Array.from(options.init), rows, 2);
    return Array.from((await suite.model.map({ table, ...options, ...(init ? { init } : {}) })).data);
  };

  test('lays out on several threads in a Worker the same map as Node, bit for bit, from the PCA and from a given start', async () => {
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
    const cold = await pageMap(600, { seed: 5, epochs: 40 });
    assert.ok(suite.server.requests.some((r) => r.path === '/web/dist/map-worker.js' && r.status === 200), 'the Worker\'s script was fetched');
    assert.ok(suite.server.requests.some((r) => r.path === '/web/dist/layout-threads.wasm' && r.status === 200), 'the threaded module was fetched');
    assert.deepEqual(cold, await nodeMap(600, { seed: 5, epochs: 40 }));
    const init = cold.map((v, k) => (k % 2 ? -v : v));
    assert.deepEqual(await pageMap(600, { seed: 6, epochs: 20, init }), await nodeMap(600, { seed: 6, epochs: 20, init }));
    assert.deepEqual(page.problems, []);
  });

  test('a Worker that cannot start: a warning says why, and only then is the map made on the page\'s thread, the same map', async () => {
    const fallback = await openPage(suite.browser, { width: 1280, height: 900 });
    try {
      await fallback.route('**/map-worker.js', (route) => route.fulfill({ status: 404, body: '' }));
      await fallback.goto(`${suite.server.origin}/web/page/`);
      await fallback.waitForFunction(() => document.querySelector('#nearest')?.dataset.state === 'ready', undefined, { timeout: 60000 });
      const points = await fallback.evaluate(async (n) => {
        const model = document.querySelector('#nearest').model;
        const table = new model.wte.constructor(model.wte.data.slice(0, n * model.width), n, model.width);
        return Array.from((await model.map({ table, seed: 5, epochs: 40 })).data);
      }, 600);
      const warnings = fallback.messages.filter(({ type, text }) => type === 'warning' && text.startsWith('[embeddings]'));
      assert.equal(warnings.length, 1);
      assert.match(warnings[0].text, /^\[embeddings\] model\.map: the map's Worker could not start \(.+\); maps go on the main thread/);
      assert.deepEqual(points, await nodeMap(600, { seed: 5, epochs: 40 }));
    } finally {
      await fallback.context().close();
    }
  });

  test('an AbortSignal rejects with its reason; a map asked for beside it is still made, and the next one too', async () => {
    const result = await page.evaluate(async () => {
      const model = document.querySelector('#nearest').model;
      const controller = new AbortController();
      let progressed = 0;
      const stopped = model.map({ signal: controller.signal, onProgress: () => { if (++progressed === 2) controller.abort(new Error('reader left')); } })
        .then(() => 'finished', (error) => error.message);
      const beside = model.map({ table: model.wte, epochs: 10, seed: 9 }).then((map) => map.rows);
      const [first, second] = await Promise.all([stopped, beside]);
      const after = (await model.map({ epochs: 5 })).rows;
      return { first, second, after, progressed };
    });
    assert.deepEqual({ first: result.first, second: result.second, after: result.after }, { first: 'reader left', second: suite.model.vocabSize, after: suite.model.vocabSize });
    assert.ok(result.progressed >= 2);
    assert.deepEqual(page.problems, []);
  });

  test('a PCA asked for while a UMAP is laid out comes back first, between the UMAP\'s slices; both are Node\'s maps', async () => {
    const order = await page.evaluate(async () => {
      const model = document.querySelector('#nearest').model;
      const done = [];
      let pca;
      const umap = model.map({ seed: 11, onProgress: () => {
        pca ??= model.map({ method: 'pca', table: new model.wte.constructor(model.wte.data.slice(0, 600 * model.width), 600, model.width) })
          .then((map) => { done.push('pca'); return Array.from(map.data); });
      } }).then((map) => { done.push('umap'); return Array.from(map.data.slice(0, 64)); });
      const umapPoints = await umap;
      return { done, pca: await pca, umap: umapPoints };
    });
    assert.deepEqual(order.done, ['pca', 'umap']);
    const table = new Matrix(suite.model.wte.data.slice(0, 600 * suite.model.width), 600, suite.model.width);
    assert.deepEqual(order.pca, Array.from((await suite.model.map({ table, method: 'pca' })).data));
    assert.deepEqual(order.umap, Array.from((await suite.model.map({ seed: 11 })).data.slice(0, 64)));
    assert.deepEqual(page.problems, []);
  });

  test('past the exact sizes (NN-descent, the Krylov PCA) the threads give Node\'s map too', async () => {
    // 8,300 rows (NN-descent past 8,192) of 136 numbers (the Krylov method past 128), made by a formula.
    const rows = 8300, cols = 136;
    const make = (n, c) => Float32Array.from({ length: n * c }, (_, k) => Math.sin(k % 9973) + Math.cos((Math.floor(k / c) % 41) * 0.7 + (k % c)));
    const inPage = await page.evaluate(async ([n, c]) => {
      const model = document.querySelector('#nearest').model;
      // The same formula as `make`.
      const numbers = Float32Array.from({ length: n * c }, (_, k) => Math.sin(k % 9973) + Math.cos((Math.floor(k / c) % 41) * 0.7 + (k % c)));
      const table = new model.wte.constructor(numbers, n, c);
      const umap = await model.map({ table, epochs: 5, seed: 3 });
      const pca = await model.map({ table, method: 'pca' });
      return [Array.from(umap.data), Array.from(pca.data)];
    }, [rows, cols]);
    const table = new Matrix(make(rows, cols), rows, cols);
    assert.deepEqual(inPage[0], Array.from((await suite.model.map({ table, epochs: 5, seed: 3 })).data));
    assert.deepEqual(inPage[1], Array.from((await suite.model.map({ table, method: 'pca' })).data));
    assert.deepEqual(page.problems, []);
  });
});

test('a page that is not cross-origin isolated makes its maps on one thread, the same bits', async () => {
  const runner = `import { mapRows } from '/web/src/map/index.js';
import { Matrix } from '/web/index.js';
const table = new Matrix(Float32Array.from({ length: 400 * 24 }, (_, k) => Math.sin(k * 0.37) + (k % 7)), 400, 24);
const map = await mapRows(table, { epochs: 20, seed: 4 });
window.result = { isolated: self.crossOriginIsolated, points: Array.from(map.data) };`;
  const files = new Map([['index.html', '<!doctype html><meta charset="utf-8"><title>one thread</title><link rel="icon" href="/web/page/favicon.svg"><script type="module" src="run.js"></script>'], ['run.js', runner]]);
  const server = createChapterServer({ crossOriginIsolated: false, onRequest: (entry) => requests.push(entry), files: { prefix: '/model/one-thread/', get: (path) => files.has(path) && new TextEncoder().encode(files.get(path)) } });
  const requests = [];
  const origin = await listenOnLoopback(server);
  const page = await openPage(suite.browser);
  try {
    await page.goto(`${origin}/model/one-thread/index.html`);
    await page.waitForFunction(() => window.result !== undefined, undefined, { timeout: 60000 });
    const result = await page.evaluate(() => window.result);
    assert.equal(result.isolated, false);
    assert.ok(requests.some((r) => r.path === '/web/dist/layout.wasm' && r.status === 200));
    assert.ok(!requests.some((r) => r.path.startsWith('/web/dist/layout-threads')));
    const table = new Matrix(Float32Array.from({ length: 400 * 24 }, (_, k) => Math.sin(k * 0.37) + (k % 7)), 400, 24);
    assert.deepEqual(result.points, Array.from((await suite.model.map({ table, epochs: 20, seed: 4 })).data));
    assert.deepEqual(page.problems, []);
  } finally {
    await page.context().close();
    await new Promise((resolve) => server.close(resolve));
  }
});
