// A Model, its tables and a Trace kept in a Proxy: Vue's ref() and
// reactive() (the real ones, from the vue package) and a plain
// new Proxy(model, {}). Every method and getter must give through the
// Proxy what it gives on the object itself (private state and WeakMap
// entries are the object's, not the Proxy's), and functions that take a
// table or a model must take one through a Proxy too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { reactive, ref, readonly, isProxy } from 'vue';

import { loadModel, rowView, cosine, cosineMatrix, cosineMatrixAsync, Matrix, Model } from '../../../web/index.js';
import { makeModel } from '../helpers/fixtures.js';

const fixture = makeModel();
let model;

const files = () => ({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer });
before(async () => { model = await loadModel(files()); });
after(() => model.dispose());

/** The same model, as each kind of Proxy gives it. */
const kept = () => ({
  'new Proxy(model, {})': new Proxy(model, {}),
  'ref(model).value': ref(model).value,
  'reactive({ model }).model': reactive({ model }).model,
  'readonly(model)': readonly(model),
});

/** What a model's methods and getters give, as plain values to compare. */
async function answers(m) {
  const trace = m.trace('Lily saw Max');
  const oneHot = new Float32Array(m.vocabSize);
  oneHot[3] = 1;
  return {
    sizes: [m.vocabSize, m.width, m.context, m.maxTraceTokens, m.parameterCount, m.family, m.hasPositionTable, m.disposed],
    config: { ...m.config },
    text: [m.encode('Lily saw Max'), m.decode(m.encode(' girl')), m.tokenId('·girl'), m.tokenText(3), m.tokenize(' boy'), m.vocabulary().length,
      m.specialTokensAround],
    nearest: m.nearest('·girl', 3),
    nearestToRow: m.nearest(rowView(m.wte, 2), 2, { exclude: ['·boy'] }),
    trace: [trace.tokens, trace.embeddings.toArray(), String(trace)],
    wte: [m.wte.rows, m.wte.cols, m.wte.at(1, 2), m.wte.row(4), [...m.wte].length, String(m.wte)],
    cosine: cosine(rowView(m.wte, 1), rowView(m.wte, 2)),
    maps: [m.cosineMatrix(m.wpe).toArray(), (await m.cosineMatrixAsync(m.wpe)).toArray()],
    product: Array.from(m.vectorTimesWte(oneHot)),
    strings: String(m),
  };
}

test('a Model through Vue\'s ref(), reactive(), readonly() and a plain Proxy: every method and getter answers as on the model itself', async () => {
  const expected = await answers(model);
  for (const [how, m] of Object.entries(kept())) {
    assert.ok(isProxy(m) || how.startsWith('new Proxy'), `${how} is a Proxy`);
    assert.notEqual(m, model, `${how} is not the model itself`);
    assert.ok(m instanceof Model);
    assert.deepEqual(await answers(m), expected, how);
    // The tables are the model's own: views of its memory, no copy.
    assert.equal(m.wte.data.buffer, model.wte.data.buffer, how);
    assert.equal(rowView(m.wte, 5).byteOffset, rowView(model.wte, 5).byteOffset, how);
  }
});

test('a Matrix through a Proxy: rowView, the module\'s functions and the model\'s own maps take it', async () => {
  for (const table of [new Proxy(model.wpe, {}), reactive({ table: model.wpe }).table]) {
    assert.ok(table instanceof Matrix);
    assert.deepEqual(Array.from(rowView(table, 3)), Array.from(rowView(model.wpe, 3)));
    assert.equal(rowView(table, 3).buffer, model.wpe.data.buffer, 'still a view of the model\'s table');
    assert.deepEqual(table.toArray(), model.wpe.toArray());
    assert.deepEqual(cosineMatrix(table).toArray(), cosineMatrix(model.wpe).toArray());
    assert.deepEqual((await cosineMatrixAsync(table)).toArray(), cosineMatrix(model.wpe).toArray());
    assert.deepEqual(model.cosineMatrix(table).toArray(), model.cosineMatrix(model.wpe).toArray());
  }
  const own = new Matrix(Float32Array.from([1, 2, 3, 4]), 2, 2, { name: 'mine' });
  const proxied = new Proxy(own, {});
  assert.deepEqual([proxied.data, proxied.row(1), proxied.at(0, 1), String(proxied)], [own.data, own.row(1), 2, 'Matrix 2 × 2 (mine)']);
});

test('a Trace through a Proxy, a model\'s tokenizer lent through one, and dispose() through one', async () => {
  const trace = ref(model.trace('Lily saw Max')).value;
  assert.deepEqual(trace.tokens.map(({ text }) => text), ['Lily', '·saw', '·Max']);
  assert.equal(String(new Proxy(trace, {})), String(model.trace('Lily saw Max')));
  // A snapshot loaded with the tokenizer of a model kept in reactive().
  const other = await loadModel({ weights: fixture.weights, config: fixture.config, tokenizer: reactive({ model }).model });
  assert.deepEqual(other.encode('Lily saw Max'), model.encode('Lily saw Max'));
  const disposable = await loadModel(files());
  reactive({ disposable }).disposable.dispose();
  assert.equal(disposable.disposed, true);
  assert.throws(() => new Proxy(disposable, {}).nearest('·girl'), /disposed/);
  other.dispose();
});
