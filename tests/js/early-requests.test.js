// Over HTTP the tables are asked for as soon as the weights' first bytes
// are in, from a reading of the header in JavaScript, not once the tables'
// WebAssembly instance has read it: the C++ loader still reads and checks
// the header itself, and its reads are served from those early requests.
import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadModel, rowView } from '../../web/index.js';
import { earlyTableNamesForTests } from '../../web/src/early-requests.js';
import { instantiate } from '../../web/src/runtime.js';
import { createChapterServer, listenOnLoopback } from '../../tools/serve.mjs';
import { makeFamilyModel } from './helpers/checkpoints.js';
import { headerEntry, makeModel, rawFile, writeSafetensors } from './helpers/fixtures.js';

// Rows enough that the tables lie past the weights' first request (16 KiB).
const fixture = makeModel({ width: 8, context: 5, extraRows: 1000 });
let dir;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'embeddings-early-'));
  await mkdir(join(dir, 'model'));
});
after(() => rm(dir, { recursive: true, force: true }));

/**
 * The chapter's server over `dir`, logging each request as it arrives (with
 * its Range header); `holdConfig(requests)` may keep config.json's answer
 * back until it returns true for the requests seen so far.
 */
async function serve({ holdConfig } = {}) {
  const requests = [];
  const server = createChapterServer({ root: dir });
  const chapter = server.listeners('request')[0];
  server.removeAllListeners('request');
  const held = [];
  const release = () => {
    while (held.length && holdConfig(requests)) chapter(...held.shift());
  };
  server.on('request', (request, response) => {
    requests.push({ path: request.url, range: request.headers.range });
    if (holdConfig && request.url.endsWith('/config.json')) held.push([request, response]);
    else chapter(request, response);
    if (holdConfig) release();
  });
  const origin = await listenOnLoopback(server);
  return { origin, requests, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

const weightRanges = (requests, file) => requests.filter((r) => r.path === `/model/${file}`).map((r) => r.range);

describe('the tables are asked for from the header, before the C++ loader has read it', () => {
  test('the list of table names agrees with the C++ loader\'s', async () => {
    const module = await instantiate('tables');
    assert.deepEqual([...earlyTableNamesForTests].sort(), module.checkpointTableNames().split(', ').sort());
  });

  test('the tables\' requests leave while config.json, which the C++ loader waits for, is still held back', { timeout: 30_000 }, async () => {
    await writeFile(join(dir, 'model', 'held.safetensors'), fixture.weights);
    await writeFile(join(dir, 'model', 'config.json'), JSON.stringify(fixture.config));
    // config.json is answered only once both tables have been asked for: the
    // C++ loader cannot have asked (it reads the header only after the
    // config has arrived), so without the early requests this load would never end.
    const server = await serve({ holdConfig: (requests) => weightRanges(requests, 'held.safetensors').length >= 3 });
    try {
      const model = await loadModel({
        weights: `${server.origin}/model/held.safetensors`,
        config: `${server.origin}/model/config.json`,
        tokenizer: fixture.tokenizer,
      });
      assert.deepEqual(Array.from(rowView(model.wte, 3)), Array.from(fixture.wte.subarray(3 * 8, 4 * 8)));
      assert.deepEqual(Array.from(rowView(model.wpe, 4)), Array.from(fixture.wpe.subarray(4 * 8, 5 * 8)));
      // Each range once: the C++ loader's reads were served from the early requests.
      const ranges = weightRanges(server.requests, 'held.safetensors');
      assert.equal(ranges.length, 3, ranges.join(', '));
      assert.equal(new Set(ranges).size, 3, ranges.join(', '));
      model.dispose();
    } finally {
      await server.close();
    }
  });

  test('OPT\'s position table, read from its third row, comes from the one request for the whole tensor', async () => {
    const opt = makeFamilyModel('opt', { width: 8, context: 5, extraRows: 1000 });
    await writeFile(join(dir, 'model', 'opt.safetensors'), opt.weights);
    const server = await serve();
    try {
      const model = await loadModel({ weights: `${server.origin}/model/opt.safetensors`, config: opt.config, tokenizer: opt.tokenizer });
      assert.deepEqual(Array.from(rowView(model.wpe, 0)), Array.from(opt.wpe.subarray(0, 8)));
      assert.equal(weightRanges(server.requests, 'opt.safetensors').length, 3);
      model.dispose();
    } finally {
      await server.close();
    }
  });

  test('a header whose table lies past the end of the file is asked for nothing early, and the C++ loader says what is wrong', async () => {
    const broken = rawFile({
      'transformer.wte.weight': headerEntry('F32', [fixture.vocabSize, 8], 0, fixture.vocabSize * 32),
      'transformer.wpe.weight': headerEntry('F32', [5, 8], fixture.vocabSize * 32, fixture.vocabSize * 32 + 160),
    }, new Uint8Array(64));
    await writeFile(join(dir, 'model', 'short.safetensors'), broken);
    const server = await serve();
    try {
      await assert.rejects(
        loadModel({ weights: `${server.origin}/model/short.safetensors`, config: fixture.config, tokenizer: fixture.tokenizer }),
        (error) => error.message.startsWith(`${server.origin}/model/short.safetensors: `) && !error.message.includes('\n'));
      assert.deepEqual(weightRanges(server.requests, 'short.safetensors'), ['bytes=0-16383']);
    } finally {
      await server.close();
    }
  });

  test('a header longer than the first request\'s 16 KiB is asked for once, by the early reading and the C++ loader together', async () => {
    // Many small tensors before the tables make a header of more than 16 KiB.
    const filler = Array.from({ length: 400 }, (_, i) => ({ name: `extra.${i}.weight`, shape: [2], data: new Float32Array(2) }));
    const long = writeSafetensors([...filler,
      { name: 'transformer.wte.weight', shape: [fixture.vocabSize, 8], data: fixture.wte },
      { name: 'transformer.wpe.weight', shape: [5, 8], data: fixture.wpe }]);
    assert.ok(Number(new DataView(long.buffer).getBigUint64(0, true)) > 16384);
    await writeFile(join(dir, 'model', 'long.safetensors'), long);
    const server = await serve();
    try {
      const model = await loadModel({ weights: `${server.origin}/model/long.safetensors`, config: fixture.config, tokenizer: fixture.tokenizer });
      assert.deepEqual(Array.from(rowView(model.wte, 2)), Array.from(fixture.wte.subarray(2 * 8, 3 * 8)));
      const ranges = weightRanges(server.requests, 'long.safetensors');
      assert.equal(ranges.length, 4, ranges.join(', '));  // the first 16 KiB, the header's rest, the two tables
      assert.equal(new Set(ranges).size, 4, ranges.join(', '));
      model.dispose();
    } finally {
      await server.close();
    }
  });
});
