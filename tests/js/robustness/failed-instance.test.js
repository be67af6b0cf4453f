// An instance that fails inside WebAssembly (a trap: memory access out of
// bounds, a stack overflow, abort()) is stopped: the failing call throws an
// Error that names the failure and the file, every later call on that
// instance throws one too, before any WebAssembly code runs (never a silent
// [] from a corrupted memory), disposing it works, and every other instance
// keeps working. Each kind of instance: a model's tables, its tokenizer, the
// map's layout module and (in a process of its own) the shared kernels.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

import { observeInstances } from '../../../web/src/runtime.js';
import { loadModel, rowView, cosine } from '../../../web/index.js';
import { fixture, model, loadTheModel, stillWorks } from '../helpers/shared-model.js';

const utf8 = new TextEncoder();
let latest = {};
observeInstances((module, role) => { latest[role] = module; });

before(loadTheModel);
after(() => model.dispose());

/** A fresh model of the fixture, and its two instances as they were made. */
async function freshModel(tokenizer = fixture.tokenizer) {
  latest = {};
  const m = await loadModel({ weights: fixture.weights, tokenizer });
  return { m, tables: latest.tables, tokenizer: latest.tokenizer };
}

/** A trap: a kernel asked to read past the end of its instance's memory. */
const trap = (module) => module._embeddings_dot(module.HEAPU8.length, 0, 64);

/** `call` throws the Error of a stopped instance: named, about `file`, with the trap as its cause. */
function assertStopped(call, file, what) {
  assert.throws(call, (error) => {
    assert.equal(error.constructor, Error, `${error.constructor.name}: ${error.message}`);
    assert.ok(error.message.startsWith(`${file}: ${what} WebAssembly instance was stopped when it failed (RuntimeError: memory access out of bounds)`), error.message);
    assert.match(error.message, /Load the model again with loadModel\(\)\.$/);
    assert.ok(error.cause instanceof WebAssembly.RuntimeError);
    return true;
  });
}

test('a trap in a model\'s tables stops that model: every later call says so, and dispose() works', async () => {
  const { m, tables } = await freshModel();
  const view = rowView(m.wte, 3);
  assert.throws(() => trap(tables), (error) => {
    assert.equal(error.constructor, Error);
    assert.equal(error.message, "weights (Uint8Array): the model's tables' WebAssembly instance failed " +
      '(RuntimeError: memory access out of bounds) and is stopped: its memory may be left inconsistent, so it ' +
      'refuses every later call. Load the model again with loadModel().');
    assert.ok(error.cause instanceof WebAssembly.RuntimeError);
    return true;
  });
  for (const call of [() => m.wte, () => m.nearest(1), () => m.trace('Lily'), () => m.encode('Lily'), () => m.tokenText(1),
    () => cosine(view, view), () => m.cosineMatrix(m.wpe), () => trap(tables)]) {
    assertStopped(call, 'weights (Uint8Array)', "the model's tables'");
  }
  stillWorks();
  m.dispose();
  assert.equal(m.disposed, true);
  assert.throws(() => m.nearest(1), /This model has been disposed/);
});

test('a trap in a tokenizer stops its text calls; the tables keep working', async () => {
  const { m, tokenizer } = await freshModel();
  assert.throws(() => trap(tokenizer), /^Error: tokenizer \(Uint8Array\): the tokenizer's WebAssembly instance failed/);
  for (const call of [() => m.encode('Lily'), () => m.decode([1]), () => m.tokenize('Lily'), () => m.tokenText(1),
    () => m.tokenId('Lily'), () => m.vocabulary(), () => m.trace('Lily'), () => m.nearest(1)]) {
    assertStopped(call, 'tokenizer (Uint8Array)', "the tokenizer's");
  }
  assert.deepEqual(Array.from(rowView(m.wte, 4)), Array.from(fixture.wte.subarray(4 * fixture.width, 5 * fixture.width)));
  stillWorks();
  m.dispose();
});

// 2,000 pipeline stages (a 57 KB tokenizer.json; about 1,150 were enough to
// overflow): the same pipeline as one stage, whose ids it must give, or else
// a stopped instance, named. Before, the overflow ran over the module's
// globals: encode gave wrong ids (or []), then every call trapped.
test('a pre-tokenizer of 2,000 stages gives the ids of one stage, or a stopped instance that says its stack overflowed', async () => {
  const withStages = (count) => {
    const json = JSON.parse(fixture.tokenizerJson);
    json.pre_tokenizer = { type: 'Sequence', pretokenizers: [...Array.from({ length: count }, () => ({ type: 'WhitespaceSplit' })), json.pre_tokenizer] };
    return utf8.encode(JSON.stringify(json));
  };
  const text = 'abc 1'.repeat(200);
  const one = await loadModel({ weights: fixture.weights, tokenizer: withStages(1) });
  const expected = one.encode(text);
  one.dispose();
  let m;
  try {
    m = await loadModel({ weights: fixture.weights, tokenizer: withStages(2000) });
  } catch (error) {
    assert.match(error.message, /^tokenizer \(Uint8Array\): /);  // a refusal by name at load time is right too
    return;
  }
  let ids;
  try {
    ids = m.encode(text);
  } catch (error) {
    assert.equal(error.constructor, Error);
    assert.match(error.message, /^tokenizer \(Uint8Array\): the tokenizer's WebAssembly instance failed \(RuntimeError: memory access out of bounds: its stack overflowed, calls nested too deep\) and is stopped/);
    for (let i = 0; i < 3; i++) assert.throws(() => m.encode(text), /WebAssembly instance was stopped when it failed \(RuntimeError: memory access out of bounds: its stack overflowed/);
    m.dispose();
    stillWorks();
    return;
  }
  assert.deepEqual(ids, expected);
  assert.deepEqual(m.encode(text), expected);
  m.dispose();
});

test('a trap in the map\'s layout module fails that map; the next map has a new instance', async () => {
  const m = await loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
  try {
    // This process's first map makes the layout instance.
    latest = {};
    const first = await m.map({ method: 'pca' });
    const { layout } = latest;
    assert.ok(layout, 'the layout instance was made');
    // A PCA's state read past the end of the instance's memory.
    assert.throws(() => layout._layout_pca_progress(layout.HEAPU8.length),
      /^Error: the map's layout WebAssembly instance failed \(RuntimeError: memory access out of bounds\) and is stopped: .* The next map starts a new one\.$/);
    assert.throws(() => layout._free(0), /the map's layout WebAssembly instance was stopped when it failed/);
    const again = await m.map({ method: 'pca' });
    assert.deepEqual(Array.from(again.data), Array.from(first.data));
    assert.ok(latest.layout && latest.layout !== layout, 'a new layout instance');
  } finally {
    m.dispose();
  }
});

test('a trap in the shared kernels\' instance stops dot() and cosine() of plain arrays, by name', async () => {
  const script = fileURLToPath(new URL('../helpers/kernels-trap.mjs', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [script]);
  const result = JSON.parse(stdout);
  assert.match(result.trap, /^Error: the package's shared kernels' WebAssembly instance failed \(RuntimeError: memory access out of bounds\)/);
  for (const message of [result.dot, result.cosine]) {
    assert.match(message, /^Error: the package's shared kernels' WebAssembly instance was stopped when it failed \(RuntimeError: memory access out of bounds\), and refuses every call since\. Reload the page/);
  }
  assert.equal(result.before, 1);
  assert.equal(result.modelRows, 1, 'a model\'s own rows are computed in its own instance');
});
