// Disposal: a disposed model refuses every call with one clear error while
// other models keep working, dispose() may be called again, and views taken
// before stay readable (a view holds the whole instance; a copy holds only
// its numbers).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

import { loadModel, rowView, dot, cosine } from '../../../web/index.js';
import { makeModel } from '../helpers/fixtures.js';
import { writeModelFiles, modelPaths } from '../helpers/model-files.js';
import { fixture, model, loadTheModel, stillWorks } from '../helpers/shared-model.js';

let dir;

before(async () => {
  await loadTheModel();
  dir = await writeModelFiles(fixture, 'embeddings-disposal-');
});
after(async () => {
  model.dispose();
  await rm(dir, { recursive: true, force: true });
});

const paths = () => modelPaths(dir);

describe('disposal', () => {
  test('a disposed model refuses calls with a clear error; views stay readable', async () => {
    const model = await loadModel(paths());
    const view = rowView(model.wte, 2);
    const copy = Array.from(view);
    const wte = model.wte;
    model.dispose();
    assert.equal(model.disposed, true);
    assert.deepEqual(Array.from(view), copy);
    for (const call of [() => model.wte, () => rowView(wte, 0), () => model.trace('x'), () => model.nearest(1), () => model.tokenText(1), () => model.cosineMatrix(wte), () => dot(view, view)]) {
      assert.throws(call, /disposed/);
    }
    model.dispose();  // twice is fine
    assert.match(String(model), /disposed/);
  });

  test('Symbol.dispose and delete() free the model', async () => {
    const a = await loadModel(paths());
    a[Symbol.dispose]();
    assert.equal(a.disposed, true);
    const b = await loadModel(paths());
    b.delete();
    assert.equal(b.disposed, true);
  });
});

describe('a disposed model', () => {
  test('every call says so, and other models keep working', async () => {
    const m = await loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
    const { wte } = m;
    const view = rowView(wte, 5);
    const copy = Array.from(view);
    m.dispose();
    const calls = {
      wte: () => m.wte,
      wpe: () => m.wpe,
      encode: () => m.encode('Lily'),
      decode: () => m.decode([1]),
      tokenize: () => m.tokenize('Lily'),
      tokenText: () => m.tokenText(1),
      tokenId: () => m.tokenId('Lily'),
      vocabulary: () => m.vocabulary(),
      trace: () => m.trace('Lily'),
      nearest: () => m.nearest(1),
      'nearest of a vector': () => m.nearest(copy),
      'nearest of a view': () => m.nearest(view),
      cosineMatrix: () => m.cosineMatrix(wte),
      memoryUsage: () => m.memoryUsage(),
      'rowView of its table': () => rowView(wte, 0),
      'wte.data': () => wte.data,
      'dot of its rows': () => dot(view, view),
      'cosine of its rows': () => cosine(view, view),
    };
    for (const [name, call] of Object.entries(calls)) {
      assert.throws(call, /This model has been disposed; load it again with loadModel\(\)/, name);
      stillWorks();
    }
    // map() returns a Promise: it rejects (it threw before any await).
    const map = m.map({ method: 'pca' });
    assert.ok(map instanceof Promise);
    await assert.rejects(map, /This model has been disposed; load it again with loadModel\(\)/);
    // Views taken before stay readable; copies work anywhere.
    assert.deepEqual(Array.from(view), copy);
    assert.ok(Math.abs(cosine(copy, rowView(model.wte, 5)) - 1) < 1e-6);
    // dispose(), delete() and Symbol.dispose may be called again.
    m.dispose();
    m.delete();
    m[Symbol.dispose]();
  });
});

test('a view kept past dispose() holds the whole instance; a copy holds only its numbers', async () => {
  const fixture = makeModel();
  const model = await loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
  const view = rowView(model.wte, 4);
  const copy = model.wte.row(4);
  const memory = model.memoryUsage().tables;
  model.dispose();
  // The view is still readable (as documented) and still a window on the
  // instance's memory, which it keeps alive; the copy is its own.
  assert.equal(view.buffer.byteLength, memory);
  assert.equal(copy.buffer.byteLength, fixture.width * 4);
  assert.deepEqual(Array.from(copy), Array.from(fixture.wte.subarray(4 * fixture.width, 5 * fixture.width)));
  assert.deepEqual(Array.from(view), Array.from(copy));
});

// Four 8,285 × 256 models (8.1 MiB tables, 14 MiB of WebAssembly memory
// each), disposed and still held by an array: their memory comes back
// (before, the disposed models kept all of it: +55 MiB).
test('disposed models that are still referenced keep no WebAssembly memory', async () => {
  const script = fileURLToPath(new URL('../helpers/disposed-memory.mjs', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', script]);
  const { tableBytes, loaded, disposed, kept } = JSON.parse(stdout);
  assert.equal(kept, 4);
  assert.ok(loaded >= 4 * tableBytes, `four models add ${loaded} bytes, tables of ${tableBytes}: the measure sees them`);
  assert.ok(disposed < tableBytes, `${disposed} bytes stay after disposal, more than one table's ${tableBytes}`);
});
