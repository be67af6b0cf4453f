// Over HTTP the tables are asked for as soon as the weights' first bytes
// are in, from a reading of the header in JavaScript, not once the tables'
// WebAssembly instance has read it: the C++ loader still reads and checks
// the header itself, and its reads are served from those early requests.
import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadModel, rowView } from '../../../web/index.js';
import { earlyTableNamesForTests, requestFileEarly, requestWeightsEarly, tableRangesOf, takeEarlySource } from '../../../web/src/early-requests.js';
import { compileWasmEarly } from '../../../web/src/early-compile.js';
import { compileWasm, instantiate } from '../../../web/src/runtime.js';
import { createChapterServer, listenOnLoopback } from '../../../tools/serve.mjs';
import { makeFamilyModel } from '../helpers/checkpoints.js';
import { headerEntry, makeModel, rawFile, writeSafetensors } from '../helpers/fixtures.js';

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
 * its Range header); with `releaseWhen(requests)`, the answers to the
 * requests `holdBack` picks (config.json's, unless it says otherwise) are kept
 * back until it returns true for the requests seen so far.
 */
async function serve({ releaseWhen, holdBack = (request) => request.url.endsWith('/config.json') } = {}) {
  const requests = [];
  const server = createChapterServer({ root: dir });
  const chapter = server.listeners('request')[0];
  server.removeAllListeners('request');
  const held = [];
  const release = () => {
    while (held.length && releaseWhen(requests)) chapter(...held.shift());
  };
  server.on('request', (request, response) => {
    requests.push({ path: request.url, range: request.headers.range });
    if (releaseWhen && holdBack(request)) held.push([request, response]);
    else chapter(request, response);
    if (releaseWhen) release();
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
    const server = await serve({ releaseWhen: (requests) => weightRanges(requests, 'held.safetensors').length >= 3 });
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

/** Where a safetensors file's two tables lie, read here from its header by name (not with tableRangesOf). */
function tablesOf(bytes) {
  const headerLength = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const at = (name) => {
    const [begin, end] = header[name].data_offsets;
    return { offset: 8 + headerLength + begin, length: end - begin };
  };
  return { position: at('transformer.wpe.weight'), token: at('transformer.wte.weight'), header, headerLength };
}
const rangeHeader = ({ offset, length }) => `bytes=${offset}-${offset + length - 1}`;

/**
 * The fixture's weights served as `file`, opened early with
 * `expectedTables`, then loaded; `check(model, ranges)` sees the model and
 * the weights' Range headers the server got.
 */
async function loadExpecting(file, expectedTables, check, serveOptions = {}) {
  await writeFile(join(dir, 'model', file), fixture.weights);
  const server = await serve(serveOptions);
  const url = new URL(`${server.origin}/model/${file}`);
  try {
    requestWeightsEarly(url, { expectedTables });
    const model = await loadModel({ weights: url, config: fixture.config, tokenizer: fixture.tokenizer });
    try {
      check(model, weightRanges(server.requests, file));
    } finally {
      model.dispose();
    }
  } finally {
    await server.close();
  }
}

describe('a page that knows where its model\'s tables lie asks for them with the first bytes', () => {
  test('tableRangesOf reads a header as the page does: the position table first, file offsets', () => {
    const { position, token, header, headerLength } = tablesOf(fixture.weights);
    assert.deepEqual(tableRangesOf(header, headerLength, fixture.weights.length), [
      { name: 'transformer.wpe.weight', ...position },
      { name: 'transformer.wte.weight', ...token },
    ]);
    // A table past the end of the file, and headers that are not objects, give nothing.
    const [first, last] = [['transformer.wpe.weight', position], ['transformer.wte.weight', token]]
      .sort((a, b) => a[1].offset - b[1].offset);
    assert.deepEqual(tableRangesOf(header, headerLength, last[1].offset + last[1].length - 1).map((r) => r.name), [first[0]]);
    for (const notAHeader of [null, [], 'x', 3]) assert.deepEqual(tableRangesOf(notAHeader, 2, 100), []);
  });

  test('the expected ranges leave at once, before the header is in, and the load reads them: each range once', { timeout: 30_000 }, async () => {
    const { position, token } = tablesOf(fixture.weights);
    // The first bytes are answered only once both tables have been asked
    // for: without the expected ranges (the tables asked for from the header)
    // this load would never end.
    await loadExpecting('expected.safetensors', [position, token], (model, ranges) => {
      assert.deepEqual(Array.from(rowView(model.wte, 7)), Array.from(fixture.wte.subarray(7 * 8, 8 * 8)));
      assert.deepEqual(Array.from(rowView(model.wpe, 2)), Array.from(fixture.wpe.subarray(2 * 8, 3 * 8)));
      assert.deepEqual(ranges.slice().sort(), ['bytes=0-16383', rangeHeader(position), rangeHeader(token)].sort());
    }, {
      holdBack: (request) => request.headers.range === 'bytes=0-16383',
      releaseWhen: (requests) => weightRanges(requests, 'expected.safetensors').length >= 3,
    });
  });

  test('ranges that the header does not confirm (the file changed since the page was built) are cancelled and never read', { timeout: 30_000 }, async () => {
    const { position, token } = tablesOf(fixture.weights);
    const stale = [{ offset: position.offset + 4, length: position.length }, { offset: 100, length: 50 }];
    await loadExpecting('changed.safetensors', stale, (model, ranges) => {
      // The numbers are the file's, read at the header's offsets: the
      // position table's stale range (four bytes off) was not read.
      assert.deepEqual(Array.from(model.wte.data), Array.from(fixture.wte));
      assert.deepEqual(Array.from(model.wpe.data), Array.from(fixture.wpe));
      assert.ok(ranges.includes(rangeHeader(position)) && ranges.includes(rangeHeader(token)), ranges.join(', '));
      assert.equal(ranges.filter((range) => range === rangeHeader(token)).length, 1);
    });
  });

  test('an expected range holding a table serves it: the table is not asked for again', { timeout: 30_000 }, async () => {
    const { position, token } = tablesOf(fixture.weights);
    // One range from the position table's start to the token table's end (the fixture stores wte first, so take both orders).
    const start = Math.min(position.offset, token.offset);
    const end = Math.max(position.offset + position.length, token.offset + token.length);
    const both = { offset: start, length: end - start };
    await loadExpecting('wide.safetensors', [both], (model, ranges) => {
      assert.deepEqual(Array.from(model.wte.data), Array.from(fixture.wte));
      assert.deepEqual(ranges.sort(), ['bytes=0-16383', rangeHeader(both)].sort());
    });
  });
});

describe('the page\'s first script reads in the small files and compiles the .wasm early', () => {
  test('a file asked for early is fetched once: loadModel, given its URL, takes it', { timeout: 30_000 }, async () => {
    await writeFile(join(dir, 'model', 'early.safetensors'), fixture.weights);
    await writeFile(join(dir, 'model', 'early-config.json'), JSON.stringify(fixture.config));
    await writeFile(join(dir, 'model', 'early-tokenizer.json'), fixture.tokenizer);
    const server = await serve();
    try {
      const config = new URL(`${server.origin}/model/early-config.json`);
      const tokenizer = new URL(`${server.origin}/model/early-tokenizer.json`);
      requestFileEarly(config);
      requestFileEarly(tokenizer);
      requestFileEarly(config);  // twice: still one request
      const model = await loadModel({ weights: `${server.origin}/model/early.safetensors`, config, tokenizer });
      const count = (file) => server.requests.filter((r) => r.path === `/model/${file}`).length;
      assert.equal(count('early-config.json'), 1);
      assert.equal(count('early-tokenizer.json'), 1);
      // One plain GET each, as the page preloads them: no range probe.
      assert.ok(server.requests.filter((r) => r.path.endsWith('.json')).every((r) => r.range === undefined));
      assert.deepEqual(model.encode('Lily'), (await loadModel({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer })).encode('Lily'));
      model.dispose();
    } finally {
      await server.close();
    }
  });

  test('a file asked for early that is missing fails the load with the same message as a late one', { timeout: 30_000 }, async () => {
    const server = await serve();
    try {
      const missing = new URL(`${server.origin}/model/no-such-config.json`);
      const late = await loadModel({ weights: fixture.weights, config: missing, tokenizer: fixture.tokenizer }).catch((error) => error.message);
      requestFileEarly(missing);
      const early = await loadModel({ weights: fixture.weights, config: missing, tokenizer: fixture.tokenizer }).catch((error) => error.message);
      assert.match(late, /no-such-config\.json: HTTP 404/);
      assert.equal(early, late);
    } finally {
      await server.close();
    }
  });

  test('a large body asked for early is read by the reader given (the page\'s Worker), a small one as it comes; a reader\'s failure names the file', { timeout: 30_000 }, async () => {
    // 200,000 bytes that are not all alike (a reader that dropped or shifted a chunk shows).
    const large = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 2654435761) >>> 24);
    await writeFile(join(dir, 'model', 'large.bin'), large);
    await writeFile(join(dir, 'model', 'small.bin'), large.subarray(0, 1000));
    const server = await serve();
    try {
      const read = [];
      const readBlob = async (blob) => {
        read.push(blob.size);
        return blob.arrayBuffer();
      };
      const [largeUrl, smallUrl, brokenUrl] = ['large.bin', 'small.bin', 'large.bin?broken'].map((file) => new URL(`${server.origin}/model/${file}`));
      requestFileEarly(largeUrl, { readBlob });
      requestFileEarly(smallUrl, { readBlob });
      assert.deepEqual(await takeEarlySource(largeUrl).readAll(), large);
      assert.deepEqual(await takeEarlySource(smallUrl).readAll(), large.subarray(0, 1000));
      assert.deepEqual(read, [large.length], 'the large body went through the reader, the small one did not');
      requestFileEarly(brokenUrl, { readBlob: async () => { throw new Error('the Worker could not read it'); } });
      await assert.rejects(takeEarlySource(brokenUrl).readAll(), /large\.bin\?broken: the download broke off \(the Worker could not read it\)/);
    } finally {
      await server.close();
    }
  });

  test('the runtime takes the compile started early: the .wasm travels once and the module is that compile\'s', { timeout: 30_000 }, async () => {
    await writeFile(join(dir, 'embeddings.wasm'), await readFile(new URL('../../../web/dist/embeddings.wasm', import.meta.url)));
    const server = await serve();
    try {
      const url = new URL(`${server.origin}/embeddings.wasm`);
      compileWasmEarly(url);
      compileWasmEarly(url);  // twice: still one compile
      const taken = await compileWasm(url);
      assert.ok(taken instanceof WebAssembly.Module);
      assert.equal(server.requests.filter((r) => r.path === '/embeddings.wasm').length, 1);
      assert.ok(WebAssembly.Module.exports(taken).length > 0);
      // Taken once: a later compile of the same URL fetches it again.
      await compileWasm(url);
      assert.equal(server.requests.filter((r) => r.path === '/embeddings.wasm').length, 2);
    } finally {
      await server.close();
    }
  });

  test('an early compile that failed is tried once more by the runtime, which reports its own failure', { timeout: 30_000 }, async () => {
    const server = await serve();
    try {
      const url = new URL(`${server.origin}/missing.wasm`);
      compileWasmEarly(url);
      await assert.rejects(compileWasm(url), /missing\.wasm: HTTP 404/);
      assert.equal(server.requests.filter((r) => r.path === '/missing.wasm').length, 2);
    } finally {
      await server.close();
    }
  });
});
