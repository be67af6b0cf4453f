// loadModel from every kind of input, sizes from the files, errors that name
// the file, and disposal.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { loadModel, rowView, cosine, dot } from '../../web/index.js';
import { createChapterServer } from '../../tools/serve.mjs';
import { makeModel, writeSafetensors } from './helpers/fixtures.js';

const fixture = makeModel({ width: 8, context: 5 });
let dir;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'embeddings-loading-'));
  await writeFile(join(dir, 'model.safetensors'), fixture.weights);
  await writeFile(join(dir, 'config.json'), JSON.stringify(fixture.config));
  await writeFile(join(dir, 'tokenizer.json'), fixture.tokenizer);
});
after(() => rm(dir, { recursive: true, force: true }));

const paths = () => ({
  weights: join(dir, 'model.safetensors'),
  config: join(dir, 'config.json'),
  tokenizer: join(dir, 'tokenizer.json'),
});

async function checkLoaded(model) {
  assert.equal(model.wte.rows, fixture.vocabSize);
  assert.equal(model.wpe.cols, fixture.width);
  assert.deepEqual(Array.from(rowView(model.wte, 3)), Array.from(fixture.wte.subarray(3 * 8, 4 * 8)));
  assert.deepEqual(model.tokenize('Lily').map((t) => t.text), ['Lily']);
  model.dispose();
}

describe('inputs', () => {
  test('file paths', async () => checkLoaded(await loadModel(paths())));

  test('file URLs, as URL objects and strings', async () => {
    const p = paths();
    await checkLoaded(await loadModel({ weights: pathToFileURL(p.weights), config: pathToFileURL(p.config), tokenizer: pathToFileURL(p.tokenizer).href }));
  });

  test('ArrayBuffers, typed arrays, Blobs and a parsed config object', async () => {
    const buffer = fixture.weights.buffer.slice(fixture.weights.byteOffset, fixture.weights.byteOffset + fixture.weights.byteLength);
    await checkLoaded(await loadModel({ weights: buffer, config: fixture.config, tokenizer: new Blob([fixture.tokenizer]) }));
  });

  test('HTTP with range requests: only the two tables travel', async () => {
    // A file with a big third tensor that the page never needs.
    const big = writeSafetensors([
      { name: 'transformer.h.0.mlp.c_fc.weight', shape: [256, 1024], data: new Float32Array(256 * 1024) },
      { name: 'transformer.wte.weight', shape: [fixture.vocabSize, 8], data: fixture.wte },
      { name: 'transformer.wpe.weight', shape: [5, 8], data: fixture.wpe },
    ]);
    // Served from a temporary root, so nothing is written into the repository.
    await mkdir(join(dir, 'model'), { recursive: true });
    await writeFile(join(dir, 'model', 'big.safetensors'), big);
    const requests = [];
    const server = createChapterServer({ root: dir, onRequest: (entry) => requests.push(entry) });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${server.address().port}`;
      const model = await loadModel({ weights: `${base}/model/big.safetensors`, config: fixture.config, tokenizer: fixture.tokenizer });
      assert.equal(model.parameterCount, 256 * 1024 + fixture.vocabSize * 8 + 5 * 8);
      const fetched = requests.reduce((sum, entry) => sum + entry.bytes, 0);
      assert.ok(requests.length > 0 && requests.every((entry) => entry.status === 206), JSON.stringify(requests));
      // At most the first 16 KiB (length and header in one request) besides the tables.
      assert.ok(fetched < (fixture.vocabSize * 8 + 5 * 8) * 4 + 16384 + 1024, `fetched ${fetched} of ${big.length} bytes`);
      await checkLoaded(model);
    } finally {
      server.close();
    }
  });

  test('sizes come from the files: a 50257 × 768 GPT-2-shaped table loads', async () => {
    const vocab = 50257, width = 768, context = 1024;
    const wte = new Float32Array(vocab * width);
    for (let r = 0; r < vocab; r += 997) wte[r * width + (r % width)] = r;
    const weights = writeSafetensors([
      { name: 'wte.weight', shape: [vocab, width], data: wte },
      { name: 'wpe.weight', shape: [context, width], data: new Float32Array(context * width).fill(0.5) },
    ]);
    const file = join(dir, 'gpt2.safetensors');
    await writeFile(file, weights);
    const model = await loadModel({ weights: file, config: { model_type: 'gpt2', vocab_size: vocab, n_embd: width, n_positions: context } });
    assert.deepEqual(model.config, { vocabSize: vocab, width, context, layers: undefined, heads: undefined });
    assert.equal(rowView(model.wte, 49850)[49850 % width], 49850);
    assert.equal(model.nearest(49850, 1)[0].score, 0);
    assert.ok(Math.abs(model.cosineMatrix(model.wpe).at(0, 1023) - 1) < 1e-6);
    assert.throws(() => model.trace('text'), /without a tokenizer/);
    model.dispose();
  });
});

describe('errors name the file and leave earlier models working', () => {
  let survivor;
  before(async () => { survivor = await loadModel(paths()); });
  after(() => survivor.dispose());

  const cases = [
    ['a missing weights file', () => ({ ...paths(), weights: join(dir, 'missing.safetensors') }), /missing\.safetensors: cannot open/],
    ['no weights at all', () => ({ config: fixture.config }), /weights file .* is required/],
    ['an unknown option', () => ({ ...paths(), weight: 'x' }), /unknown option "weight"/],
    ['weights that are not safetensors', () => ({ ...paths(), weights: new TextEncoder().encode('{"hello": "world"}') }), /weights \(Uint8Array\): the header length/],
    ['a truncated file', () => ({ ...paths(), weights: fixture.weights.subarray(0, fixture.weights.length - 10) }), /is the file truncated/],
    ['a contradicting config', () => ({ ...paths(), config: { ...fixture.config, n_embd: 16 } }), /config \(object\): n_embd is 16 but transformer\.wte\.weight has columns: 8/],
    ['a config that is not JSON', () => ({ ...paths(), config: new TextEncoder().encode('{nope') }), /config \(Uint8Array\): not valid JSON/],
    ['a tokenizer that is not JSON', () => ({ ...paths(), tokenizer: new TextEncoder().encode('[') }), /tokenizer \(Uint8Array\): /],
    ['a tokenizer with more tokens than wte has rows', () => ({ ...paths(), tokenizer: makeModel({ words: [' girl', ' boy', 'Lily', ' Lily', ' saw', ' Max', 'Max', ' three', ' 3', ' extra'] }).tokenizer }), /has \d+ tokens but the token table transformer\.wte\.weight has only \d+ rows/],
    ['text that is not UTF-8', () => ({ ...paths(), tokenizer: new Uint8Array([0xff, 0xfe]) }), /not valid UTF-8/],
    ['a weights input of the wrong type', () => ({ ...paths(), weights: 42 }), /weights must be a URL, a file path/],
  ];
  for (const [name, files, message] of cases) {
    test(name, async () => {
      await assert.rejects(loadModel(files()), message);
      assert.equal(cosine(rowView(survivor.wte, 1), rowView(survivor.wte, 1)) > 0.999, true);
      assert.equal(survivor.trace('Lily saw').tokens.length, 2);
    });
  }

  test('loadModel with a non-object argument', async () => {
    await assert.rejects(loadModel('model.safetensors'), TypeError);
    await assert.rejects(loadModel(null), TypeError);
  });
});

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

describe('sharing a tokenizer', () => {
  test('a model given as the tokenizer shares it; each disposes independently', async () => {
    const first = await loadModel(paths());
    const second = await loadModel({ weights: paths().weights, tokenizer: first });
    assert.deepEqual(second.encode('Lily saw Max'), first.encode('Lily saw Max'));
    assert.deepEqual(second.vocabulary(), first.vocabulary());
    assert.equal(second.memoryUsage().tokenizer, first.memoryUsage().tokenizer);
    first.dispose();
    assert.deepEqual(second.tokenize('Lily').map((t) => t.text), ['Lily']);
    second.dispose();
    await assert.rejects(loadModel({ weights: paths().weights, tokenizer: first }), /has been disposed/);
  });

  test('vocabulary() lists every token\'s display text by id', async () => {
    const model = await loadModel(paths());
    const vocabulary = model.vocabulary();
    assert.equal(vocabulary.length, fixture.vocabSize);
    vocabulary.forEach((text, id) => assert.equal(text, model.tokenText(id)));
    vocabulary[0] = 'changed';
    assert.notEqual(model.vocabulary()[0], 'changed');
    model.dispose();
  });
});
