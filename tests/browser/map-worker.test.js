// model.map() in a browser: a UMAP map is laid out in a Worker of its own
// (web/src/map-worker.js, built into web/dist/map-worker.js), off the page's main thread, and comes out the
// same, bit for bit, as the Node API's (which works in slices on its own
// thread), with or without a starting layout; an AbortSignal ends the
// Worker and rejects with its reason, while a map asked for beside it is
// still made (by the next Worker).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, chapterSuite } from './helpers/browser.js';
import { Matrix } from '../../web/index.js';

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

  test('lays out in a Worker the same map as Node, bit for bit, from the PCA and from a given start', async () => {
    const cold = await pageMap(600, { seed: 5, epochs: 40 });
    assert.ok(suite.server.requests.some((r) => r.path === '/web/dist/map-worker.js' && r.status === 200), 'the Worker\'s script was fetched');
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
});
