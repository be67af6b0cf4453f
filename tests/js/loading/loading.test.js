// loadModel from every kind of input: file paths, URLs, buffers, Blobs, HTTP
// with range requests, Promises (a forgotten await) and fetch() Responses;
// the wrong kinds a hurried user passes (a number or null for a file, an
// empty or missing path, a string, null or an array for the options, a Map,
// objects JSON cannot hold, paths that are no file, a detached buffer);
// abandoning a load with an AbortSignal; sizes from the files; errors that
// name the file; and sharing a tokenizer between models.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdir, writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { loadModel, rowView, cosine } from '../../../web/index.js';
import { responseBody } from '../../../web/src/sources/http.js';
import { createChapterServer, listenOnLoopback } from '../../../tools/serve.mjs';
import { makeModel, writeSafetensors } from '../helpers/fixtures.js';
import { writeModelFiles, modelPaths } from '../helpers/model-files.js';
import { fixture as sharedFixture, model as sharedModel, loadTheModel, stillWorks } from '../helpers/shared-model.js';

const fixture = makeModel({ width: 8, context: 5 });
const files = () => ({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer });
let dir;

before(async () => {
  dir = await writeModelFiles(fixture, 'embeddings-loading-');
});
after(() => rm(dir, { recursive: true, force: true }));

const paths = () => modelPaths(dir);

async function checkLoaded(model) {
  assert.equal(model.wte.rows, fixture.vocabSize);
  assert.equal(model.wpe.cols, fixture.width);
  assert.deepEqual(Array.from(rowView(model.wte, 3)), Array.from(fixture.wte.subarray(3 * 8, 4 * 8)));
  assert.deepEqual(model.tokenize('Lily').map((t) => t.text), ['Lily']);
  model.dispose();
}

/** Loads, checks the model is the fixture's, and disposes it. */
async function loadsTheFixture(options) {
  const model = await loadModel(options);
  assert.equal(model.wte.rows, fixture.vocabSize);
  if (options.tokenizer !== undefined) assert.deepEqual(model.tokenize('Lily').map((t) => t.text), ['Lily']);
  model.dispose();
}

/** A rejection with one line of message matching `pattern`. */
async function rejectsOneLine(promise, type, pattern) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof type, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes('\n'), `more than one line: ${error.message}`);
    return true;
  });
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

describe('a load marks its steps (User Timing, for DevTools and tools/bench/page.mjs)', () => {
  test('header, tables, tokenizer and their instances, in order, once each for one load', async () => {
    performance.clearMarks();
    const model = await loadModel(paths());
    const at = (stage) => performance.getEntriesByName(`embeddings:load:${stage}`, 'mark').map((m) => m.startTime);
    const stages = ['instance-tables', 'header-read', 'tables-copied', 'instance-tokenizer', 'tokenizer-loaded'];
    for (const stage of stages) assert.equal(at(stage).length, 1, `one embeddings:load:${stage} mark`);
    assert.ok(at('instance-tables')[0] <= at('header-read')[0] && at('header-read')[0] <= at('tables-copied')[0]);
    assert.ok(at('instance-tokenizer')[0] <= at('tokenizer-loaded')[0]);
    model.dispose();
  });

  test('a load that fails marks no step it did not reach', async () => {
    performance.clearMarks();
    const broken = { ...paths(), tokenizer: Buffer.from('{"model": 3}') };
    await assert.rejects(loadModel(broken));
    assert.equal(performance.getEntriesByName('embeddings:load:tokenizer-loaded', 'mark').length, 0);
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
});

describe('wrong arguments', () => {
  before(loadTheModel);
  after(() => sharedModel.dispose());

  test('loadModel with inputs of the wrong kind', async () => {
    for (const [files, message] of [
      [{ weights: sharedFixture.weights, tokenizer: 42 }, /tokenizer must be a URL, a file path, an ArrayBuffer, a typed array, a Blob or a Response; got number 42/],
      [{ weights: sharedFixture.weights, config: 'no such file' }, /^no such file: cannot open the file \(ENOENT\)$/],
      [{ weights: '' }, /weights: the file name is an empty string/],
      [{ weights: null }, /weights must be a URL, a file path, an ArrayBuffer, a typed array, a Blob or a Response; got null/],
      [[], /the weights file \(a \.safetensors\) is required/],
    ]) {
      await assert.rejects(loadModel(files), (error) => error instanceof Error && message.test(error.message));
      stillWorks();
    }
  });

  test('loadModel with a non-object argument', async () => {
    await assert.rejects(loadModel('model.safetensors'), TypeError);
    await assert.rejects(loadModel(null), TypeError);
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

describe('Promises (a forgotten await) are awaited', () => {
  test('config, tokenizer and weights given as Promises load', async () => {
    await loadsTheFixture({
      weights: Promise.resolve(fixture.weights),
      config: Promise.resolve(fixture.config),
      tokenizer: Promise.resolve(fixture.tokenizer),
    });
  });

  test('a Promise of a contradicting config is checked, not taken as {}', async () => {
    await rejectsOneLine(loadModel({ ...files(), config: Promise.resolve({ ...fixture.config, n_embd: 999 }) }), Error,
      /config \(object\): n_embd is 999/);
  });

  test('a Promise of a model shares its tokenizer', async () => {
    const first = await loadModel(files());
    const second = await loadModel({ weights: fixture.weights, tokenizer: Promise.resolve(first) });
    assert.deepEqual(second.encode('Lily saw Max'), first.encode('Lily saw Max'));
    second.dispose();
    first.dispose();
  });

  test('a Promise that rejects, or resolves to nothing, is named', async () => {
    await assert.rejects(loadModel({ ...files(), tokenizer: Promise.reject(new Error('network down')) }), /network down/);
    await rejectsOneLine(loadModel({ ...files(), config: Promise.resolve(undefined) }), TypeError,
      /config: the Promise given for it resolved to undefined/);
  });
});

describe('Responses are read; a Map is refused by name', () => {
  test('config and tokenizer as fetch() Responses load, and the config is checked', async () => {
    await loadsTheFixture({ ...files(), config: new Response(JSON.stringify(fixture.config)), tokenizer: new Response(fixture.tokenizer) });
    await loadsTheFixture({ ...files(), weights: new Response(fixture.weights) });
    await rejectsOneLine(loadModel({ ...files(), config: new Response(JSON.stringify({ ...fixture.config, n_embd: 999 })) }),
      Error, /n_embd is 999/);
  });

  test('a failed or already read Response is named', async () => {
    await rejectsOneLine(loadModel({ ...files(), tokenizer: new Response('missing', { status: 404, statusText: 'Not Found' }) }),
      Error, /tokenizer \(Response\): the Response given is HTTP 404 Not Found/);
    const used = new Response(fixture.tokenizer);
    await used.arrayBuffer();
    await rejectsOneLine(loadModel({ ...files(), tokenizer: used }), TypeError, /has already been read/);
  });

  test('a large body is read through a Blob, a small one straight, each byte for byte', async () => {
    // Which way each goes (http.js, responseBody): a page's main thread
    // receives a large body in long tasks unless it gathers as a Blob first.
    const readsOf = (bytes, headers) => {
      const response = new Response(bytes, { headers });
      const ways = [];
      for (const way of ['blob', 'arrayBuffer']) {
        const read = response[way].bind(response);
        response[way] = () => { ways.push(way); return read(); };
      }
      return { response, ways };
    };
    const large = new Uint8Array(200_000).map((_, i) => (i * 7919) % 251);
    for (const [bytes, headers, expected] of [
      [large, { 'content-length': String(large.length) }, ['blob']],
      [large, {}, ['blob']],  // a length not given: taken as large
      [large.subarray(0, 1000), { 'content-length': '1000' }, ['arrayBuffer']],
    ]) {
      const { response, ways } = readsOf(bytes, headers);
      assert.deepEqual(new Uint8Array(await responseBody(response)), bytes);
      assert.deepEqual(ways, expected);
    }
    // Through the loader: the fixture's weights as a Response, read as a Blob, load.
    const { response, ways } = readsOf(fixture.weights, {});
    await loadsTheFixture({ ...files(), weights: response });
    assert.deepEqual(ways, ['blob']);
  });

  test('a Map (or another non-plain object) as config is a TypeError naming it', async () => {
    const map = new Map(Object.entries({ ...fixture.config, n_embd: 999 }));
    await rejectsOneLine(loadModel({ ...files(), config: map }), TypeError, /config must be the parsed config\.json .*got an object \(Map\)/);
    await rejectsOneLine(loadModel({ ...files(), config: new Set() }), TypeError, /got an object \(Set\)/);
    await rejectsOneLine(loadModel({ ...files(), weights: new Map() }), TypeError, /weights must be .*got an object \(Map\)/);
  });
});

describe('config objects JSON cannot hold give one line naming config.json', () => {
  test('a cycle', async () => {
    const config = { ...fixture.config, extra: { list: [] } };
    config.extra.list.push(config);
    await rejectsOneLine(loadModel({ ...files(), config }), TypeError, /config \(object\): \.extra\.list\[0\] contains itself \(a cycle\), which config\.json cannot hold/);
  });

  test('a BigInt', async () => {
    await rejectsOneLine(loadModel({ ...files(), config: { ...fixture.config, n_embd: 8n } }), TypeError,
      /config \(object\): \.n_embd is a BigInt, which config\.json cannot hold/);
  });

  test('20,000 levels deep', async () => {
    let deep = {};
    for (let i = 0; i < 20000; i++) deep = { deep };
    await rejectsOneLine(loadModel({ ...files(), config: { ...fixture.config, deep } }), Error,
      /config \(object\): nested deeper than 64 levels at \.deep(\.deep)+, more than config\.json may be/);
  });

  test('a Date inside is written as JSON, not refused', async () => {
    await loadsTheFixture({ ...files(), config: { ...fixture.config, trained: new Date(0) } });
  });
});

describe('paths that are no file, and bytes that are gone', () => {
  test('a folder', async () => {
    const folder = join(dir, 'folder.safetensors');
    await mkdir(folder);
    await rejectsOneLine(loadModel({ ...files(), weights: folder }), Error, /folder\.safetensors: is a folder, not a file/);
    await rejectsOneLine(loadModel({ ...files(), config: dir }), Error, /is a folder, not a file/);
  });

  test('a FIFO, which must not hang the load', async () => {
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    await rejectsOneLine(loadModel({ ...files(), tokenizer: fifo }), Error, /pipe\.json: is a FIFO \(named pipe\), not a file/);
  });

  test('a detached ArrayBuffer, and a view of one', async () => {
    const buffer = fixture.weights.slice().buffer;
    structuredClone(buffer, { transfer: [buffer] });
    await rejectsOneLine(loadModel({ ...files(), weights: buffer }), TypeError, /weights \(ArrayBuffer\): the ArrayBuffer is detached/);
    const view = new Uint8Array(fixture.tokenizer.slice().buffer);
    structuredClone(view.buffer, { transfer: [view.buffer] });
    await rejectsOneLine(loadModel({ ...files(), tokenizer: view }), TypeError, /tokenizer \(Uint8Array\): its ArrayBuffer is detached/);
  });
});

describe('an AbortSignal abandons a load', () => {
  let server, origin;
  const received = [];
  before(async () => {
    // A server that takes every request and never answers.
    server = createServer((request) => received.push(request));
    origin = await listenOnLoopback(server);
  });
  after(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));

  test('a server that never answers: abort() rejects the load and drops its requests', async () => {
    const controller = new AbortController();
    const requested = new Promise((resolve) => server.once('request', resolve));
    const loading = loadModel({ weights: `${origin}/model.safetensors`, config: `${origin}/config.json`, signal: controller.signal });
    await requested;
    controller.abort();
    await assert.rejects(loading, { name: 'AbortError' });
    // Every request that reached the server is given up: its connection closes.
    await Promise.all(received.map((request) => request.socket.destroyed ||
      new Promise((resolve) => request.socket.once('close', resolve))));
    assert.ok(received.length >= 1);
  });

  test('the reason given to abort() is what the load rejects with', async () => {
    const controller = new AbortController();
    const loading = loadModel({ ...files(), tokenizer: new Promise(() => {}), signal: controller.signal });
    controller.abort(new Error('the reader left the page'));
    await assert.rejects(loading, /the reader left the page/);
  });

  test('an already aborted signal rejects at once; a signal that is none is a TypeError', async () => {
    await assert.rejects(loadModel({ ...files(), signal: AbortSignal.abort() }), { name: 'AbortError' });
    await rejectsOneLine(loadModel({ ...files(), signal: { aborted: false } }), TypeError, /loadModel: signal must be an AbortSignal/);
  });

  test('aborted after the last bytes arrived, the model is not handed out', async () => {
    for (const tokenizer of [undefined, fixture.tokenizer]) {
      const controller = new AbortController();
      const onProgress = ({ loaded, total }) => { if (total > 0 && loaded === total) controller.abort(); };
      await assert.rejects(loadModel({ weights: fixture.weights, config: fixture.config, tokenizer, onProgress, signal: controller.signal }),
        { name: 'AbortError' });
    }
  });

  test('aborted between the tokenizer\'s steps (each a task of its own), the load stops there', async () => {
    const controller = new AbortController();
    const marked = [];
    const mark = performance.mark;
    performance.mark = function (name, ...rest) {
      marked.push(name);
      if (name === 'embeddings:load:tokenizer-step-2') controller.abort();
      return mark.call(this, name, ...rest);
    };
    try {
      await assert.rejects(loadModel({ ...files(), signal: controller.signal }), { name: 'AbortError' });
    } finally {
      performance.mark = mark;
    }
    const steps = marked.filter((name) => name.startsWith('embeddings:load:tokenizer-'));
    assert.deepEqual(steps, ['embeddings:load:tokenizer-step-1', 'embeddings:load:tokenizer-step-2']);
  });

  test('a signal that never fires changes nothing', async () => {
    await loadsTheFixture({ ...files(), signal: new AbortController().signal });
  });
});
