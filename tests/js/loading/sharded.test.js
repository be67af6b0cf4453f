// Sharded checkpoints (model.safetensors.index.json and its shards): only
// the shard with the tables is read, by range request over HTTP; the other
// shards are never asked for.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadModel, rowView } from '../../../web/index.js';
import { createChapterServer, listenOnLoopback } from '../../../tools/serve.mjs';
import { writeSafetensors } from '../helpers/fixtures.js';
import { makeFamilyModel } from '../helpers/checkpoints.js';

const model = makeFamilyModel('llama', { width: 8, context: 6 });
const { vocabSize, width } = model;
const block = (name, n) => ({ name, shape: [n], data: new Float32Array(n).fill(0.5) });
// Shard 1: the token table and layer 0; shard 2: layer 1 and the output layer.
const shard1 = writeSafetensors([
  { name: 'model.embed_tokens.weight', shape: [vocabSize, width], data: model.wte },
  block('model.layers.0.input_layernorm.weight', width),
]);
const shard2 = writeSafetensors([
  block('model.layers.1.input_layernorm.weight', width),
  { name: 'lm_head.weight', shape: [vocabSize, width], data: model.wte },
]);
const total = 2 * vocabSize * width + 2 * width;
const names = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
const index = (map, totalSize = total * 4) => new TextEncoder().encode(JSON.stringify({ metadata: { total_size: totalSize }, weight_map: map }));
const goodIndex = index({
  'model.embed_tokens.weight': names[0], 'model.layers.0.input_layernorm.weight': names[0],
  'model.layers.1.input_layernorm.weight': names[1], 'lm_head.weight': names[1],
});
const config = { ...model.config, num_hidden_layers: 2, tie_word_embeddings: false };
const files = new Map([
  ['model.safetensors.index.json', goodIndex], [names[0], shard1], [names[1], shard2], ['config.json', new TextEncoder().encode(JSON.stringify(config))],
  ['tokenizer.json', model.tokenizer],
]);
let server, origin, dir;
const requests = [];

before(async () => {
  server = createChapterServer({ onRequest: (entry) => requests.push(entry), files: { prefix: '/model/sharded/', get: (path) => files.get(path) } });
  origin = await listenOnLoopback(server);
  dir = await mkdtemp(join(tmpdir(), 'embeddings-sharded-'));
  for (const [name, bytes] of files) await writeFile(join(dir, name), bytes);
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

function checkModel(loaded) {
  assert.equal(loaded.vocabSize, vocabSize);
  assert.equal(loaded.wpe, null);
  assert.deepEqual(Array.from(rowView(loaded.wte, 4)), Array.from(model.wte.subarray(4 * width, 5 * width)));
  // Every shard's numbers, from the index's total_size (F32: 4 bytes each).
  assert.equal(loaded.parameterCount, total);
  assert.equal(loaded.config.layers, 2);
  assert.equal(loaded.nearest('Lily', 2).length, 2);
}

test('over HTTP, only the shard with the token table is fetched, by range requests', async () => {
  const base = `${origin}/model/sharded/`;
  const loaded = await loadModel({ weights: `${base}model.safetensors.index.json`, config: `${base}config.json`, tokenizer: `${base}tokenizer.json` });
  try {
    checkModel(loaded);
    assert.match(loaded.source, /model-00001-of-00002\.safetensors$/);
    const paths = requests.map((r) => r.path);
    assert.ok(!paths.some((p) => p.includes(names[1])), `the second shard is never asked for: ${paths.join(', ')}`);
    const first = requests.filter((r) => r.path.endsWith(names[0]));
    assert.ok(first.length >= 1 && first.every((r) => r.status === 206), 'the shard is read by range requests');
  } finally {
    loaded.dispose();
  }
});

test('from a path, the shard beside the index is opened', async () => {
  const loaded = await loadModel({ weights: join(dir, 'model.safetensors.index.json'), config, tokenizer: join(dir, 'tokenizer.json') });
  try {
    checkModel(loaded);
  } finally {
    loaded.dispose();
  }
});

test('an index that cannot be followed is a clear error', async () => {
  const write = async (name, bytes) => { await writeFile(join(dir, name), bytes); return join(dir, name); };
  await assert.rejects(loadModel({ weights: goodIndex }),
    /a sharded checkpoint's index given as bytes cannot say where its shards are/);
  await assert.rejects(loadModel({ weights: await write('apart.index.json', new TextEncoder().encode(JSON.stringify({
    weight_map: { 'transformer.wte.weight': names[0], 'transformer.wpe.weight': names[1] } }))) }),
  /the tables are in different shards \(transformer\.wte\.weight in "model-00001-of-00002\.safetensors", transformer\.wpe\.weight in "model-00002/);
  await assert.rejects(loadModel({ weights: await write('none.index.json', index({ 'lm_head.weight': names[1] })) }),
    /the index names no token embedding table \(expected one of transformer\.wte\.weight, wte\.weight, model\.embed_tokens\.weight/);
  await assert.rejects(loadModel({ weights: await write('escape.index.json', index({ 'model.embed_tokens.weight': '../x.safetensors' })) }),
    /the shard name "\.\.\/x\.safetensors" holds a folder separator \(\/ or \\\); a shard must be a file beside the index/);
  await assert.rejects(loadModel({ weights: await write('nomap.index.json', new TextEncoder().encode('{"metadata": {}}  ')) }),
    /the header length/);  // JSON without a weight_map is no index: read as safetensors, it fails so
});
