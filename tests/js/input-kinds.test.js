// Wrong kinds of input to loadModel, as a hurried user passes them: a
// forgotten await (a Promise), a Map, a fetch() Response, objects JSON
// cannot hold, paths that are no file, a detached buffer; and abandoning a
// load with an AbortSignal when the server never answers.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadModel } from '../../web/index.js';
import { makeModel } from './helpers/fixtures.js';

const fixture = makeModel({ width: 8, context: 5 });
const files = () => ({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer });
let dir;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'embeddings-inputs-'));
});
after(() => rm(dir, { recursive: true, force: true }));

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
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${server.address().port}`;
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

  test('a signal that never fires changes nothing', async () => {
    await loadsTheFixture({ ...files(), signal: new AbortController().signal });
  });
});
