// The map's Worker (web/src/map/map-worker.js) driven by its messages, here in
// Node with `self` standing for the Worker's global: each map comes back
// with its points' buffer transferred, not copied (the page's main thread
// takes it without a copy), the same bits as model.map(); and a PCA asked
// for while a UMAP is under way comes back first, the Worker reading its
// messages between the UMAP's slices.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { loadModel, Matrix } from '../../../web/index.js';
import { setMapThreads } from '../../../web/src/map/instance.js';

const posted = [];
let model, answered;

before(async () => {
  model = await loadModel();
  setMapThreads(1);  // model.map() here on one thread, as the Worker below runs
  globalThis.self = {
    postMessage(message, transfer = []) {
      posted.push({ message, transfer });
      answered?.();
    },
  };
  await import('../../../web/src/map/map-worker.js');
});

after(() => {
  model.dispose();
  delete globalThis.self;
});

const send = (message) => globalThis.self.onmessage({ data: message });

/** Waits until a message that `test` accepts has been posted; returns it. */
async function posting(accept) {
  for (;;) {
    const found = posted.find(({ message }) => accept(message));
    if (found) return found;
    await new Promise((resolve) => { answered = resolve; });
  }
}

/** Sends a job: its spec, its table's bytes in one chunk, and go. */
function job(id, table, method, settings) {
  send({ id, spec: { method, rows: table.rows, cols: table.cols, dtype: 'float32', caller: 'map', settings } });
  const chunk = new Uint8Array(table.data.buffer.slice(table.data.byteOffset, table.data.byteOffset + table.data.byteLength));
  send({ id, offset: 0, chunk });
  send({ id, go: true });
}

test('a map comes back with its points\' buffer transferred, the bits model.map() gives', async () => {
  const wasm = await WebAssembly.compile(readFileSync(new URL('../../../web/dist/layout.wasm', import.meta.url)));
  send({ wasm, threads: false, cores: 1 });
  await posting((message) => message.ready);
  const table = new Matrix(model.wte.data.slice(0, 600 * model.width), 600, model.width);
  job(1, table, 'pca', { neighbours: 15, minDist: 0.1, epochs: 0, seed: 1 });
  const { message, transfer } = await posting((m) => m.id === 1 && (m.result || m.error));
  assert.equal(message.error, undefined);
  assert.deepEqual(transfer, [message.result.points.buffer], 'the points\' buffer is transferred');
  assert.deepEqual(Array.from(message.result.points), Array.from((await model.map({ table, method: 'pca' })).data));
});

test('a PCA asked for while a UMAP is under way comes back before it, each the bits model.map() gives', async () => {
  const table = new Matrix(model.wte.data.slice(0, 2000 * model.width), 2000, model.width);
  const small = new Matrix(model.wte.data.slice(0, 300 * model.width), 300, model.width);
  const settings = { neighbours: 15, minDist: 0.1, epochs: 60, seed: 4 };
  const start = posted.length;
  job(2, table, 'umap', settings);
  // The UMAP has started (its first progress) when the PCA is asked for.
  await posting((m) => m.id === 2 && m.progress);
  job(3, small, 'pca', { ...settings, epochs: 0 });
  await posting((m) => m.id === 2 && (m.result || m.error));
  const results = posted.slice(start).filter(({ message }) => message.result || message.error).map(({ message }) => message);
  assert.deepEqual(results.map((m) => m.id), [3, 2], 'the PCA first');
  assert.deepEqual(Array.from(results[0].result.points), Array.from((await model.map({ table: small, method: 'pca' })).data));
  assert.deepEqual(Array.from(results[1].result.points), Array.from((await model.map({ table, ...settings })).data));
});
