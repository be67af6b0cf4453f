// A sharded checkpoint's index is a file nobody has checked. A shard name
// that could lead anywhere but beside the index (a URL scheme, a folder, a
// percent-encoded dot, a character the URL parser drops) is refused by name
// before any request or file open: over HTTP, from a path and from a file:
// URL, each way between file: and http:. The index's size and shape are
// bounded before it is parsed, its total_size must hold the tables, every
// string of it shown in a message is quoted as the C++ messages quote file
// text, and an index in a data: URL says why it cannot be followed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import fsPromises, { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { loadModel } from '../../../web/index.js';
import { quote } from '../../../web/src/message.js';
import { MAX_INDEX_BYTES, MAX_INDEX_CONTAINERS, MAX_INDEX_DEPTH } from '../../../web/src/model/shards.js';
import { createChapterServer, listenOnLoopback } from '../../../tools/serve.mjs';
import { rawFile, writeSafetensors } from '../helpers/fixtures.js';
import { makeFamilyModel } from '../helpers/checkpoints.js';

const utf8 = new TextEncoder();
const model = makeFamilyModel('llama', { width: 8, context: 6 });
const { vocabSize, width } = model;
const tablesBytes = vocabSize * width * 4;
const shardName = 'model-00001-of-00001.safetensors';
const shard = writeSafetensors([{ name: 'model.embed_tokens.weight', shape: [vocabSize, width], data: model.wte }]);
const indexOf = (file, metadata = { total_size: tablesBytes }) => utf8.encode(JSON.stringify({ metadata, weight_map: { 'model.embed_tokens.weight': file } }));
const secret = 'SECRET-FIRST-BYTES';

// Server A serves the index and the shard (and records every request);
// server B is the other origin a name could lead to: it records every
// connection, HTTP or not (TLS, WebSocket, FTP), and answers none.
const files = new Map([[shardName, shard]]);
const requests = [];
const contacts = [];
let serverA, originA, serverB, portB, dir;
// Every file open in this process, through the fs/promises open() the file source uses.
const opened = [];
const realOpen = fsPromises.open;

before(async () => {
  serverA = createChapterServer({ onRequest: (entry) => requests.push(entry.path), files: { prefix: '/model/m/', get: (path) => files.get(path) } });
  originA = await listenOnLoopback(serverA);
  serverB = createServer((socket) => { contacts.push(socket.remoteAddress); socket.destroy(); });
  await new Promise((resolve) => serverB.listen(0, '127.0.0.1', resolve));
  portB = serverB.address().port;
  dir = await mkdtemp(join(tmpdir(), 'embeddings-shard-index-'));
  await writeFile(join(dir, shardName), shard);
  await writeFile(join(dir, 'secret.txt'), secret);
  fsPromises.open = (path, ...rest) => { opened.push(String(path)); return realOpen(path, ...rest); };
  syncBuiltinESMExports();
});
after(async () => {
  fsPromises.open = realOpen;
  syncBuiltinESMExports();
  await new Promise((resolve) => serverA.close(resolve));
  await new Promise((resolve) => serverB.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

// What each way out looks like; `why` is what the refusal says. DISK: tried
// from disk too (the ways to the network, to another file, out of the folder).
const DISK = true;
const hostile = () => [
  [`https:127.0.0.1:${portB}`, /starts with a URL scheme \(https:\)/, DISK],
  [`ftp:127.0.0.1:${portB}`, /starts with a URL scheme \(ftp:\)/],
  [`ws:127.0.0.1:${portB}`, /starts with a URL scheme \(ws:\)/, DISK],
  [`http:127.0.0.1:${portB}`, /starts with a URL scheme \(http:\)/, DISK],
  [`HTTP:127.0.0.1:${portB}`, /starts with a URL scheme \(http:\)/],
  [`file:${join(dir, 'secret.txt')}`, /starts with a URL scheme \(file:\)/, DISK],
  ['file:secret.txt', /starts with a URL scheme \(file:\)/, DISK],
  ['data:application/octet-stream;base64,AAAA', /starts with a URL scheme \(data:\)/],
  ['blob:http://127.0.0.1/0b1c', /starts with a URL scheme \(blob:\)/],
  ['javascript:alert(1)', /starts with a URL scheme \(javascript:\)/],
  [`//127.0.0.1:${portB}/x.safetensors`, /holds a folder separator/],
  ['../secret.txt', /holds a folder separator/, DISK],
  ['..\\secret.txt', /holds a folder separator/],
  ['sub\\x.safetensors', /holds a folder separator/],
  ['..', /names a folder/, DISK],
  ['.', /names a folder/],
  ['%2e%2e', /holds a percent escape/, DISK],
  ['%2E.', /holds a percent escape/],
  ['.%2e', /holds a percent escape/, DISK],
  ['%2e%2e%2fsecret.txt', /holds a percent escape/],
  ['.\t.', /holds a control or text-direction character/, DISK],
  ['.\n.', /holds a control or text-direction character/],
  [' .. ', /starts or ends with a space/],
  ['x.safetensors?a=b', /holds a \? or #/],
  ['#top', /holds a \? or #/],
  ['', /is empty/],
];

/** The load refuses `file` by name, with no request but the index's, no connection to B and no file opened. */
async function refused(weights, indexName, file, why) {
  requests.length = 0;
  contacts.length = 0;
  opened.length = 0;
  await assert.rejects(loadModel({ weights }), (error) => {
    assert.equal(error.constructor, Error, error.message);
    assert.ok(error.message.startsWith(`${indexName}: the shard name ${quote(file)} `), error.message);
    assert.match(error.message, why);
    assert.ok(!error.message.includes(secret));
    return true;
  });
  // The index itself was read (so the records see what the load does), and nothing else.
  const seen = indexName.startsWith('http:') ? requests : opened;
  assert.ok(seen.length > 0, 'the index was read');
  assert.ok(requests.every((path) => path.endsWith('.index.json')), `requests: ${requests.join(', ')}`);
  assert.deepEqual(contacts, [], 'no connection to the other origin');
  assert.ok(opened.every((path) => path.endsWith('.index.json')), `opened: ${opened.join(', ')}`);
}

test('over HTTP, a shard name that leads elsewhere is refused before any request or file open', async () => {
  for (const [file, why] of hostile()) {
    files.set('x.index.json', indexOf(file));
    const url = `${originA}/model/m/x.index.json`;
    await refused(url, url, file, why);
  }
});

test('from a path and from a file: URL, names that lead to the network or out of the folder are refused before any open or request', async () => {
  const cases = hostile().filter(([, , disk]) => disk);
  assert.equal(cases.length, 10);
  for (const [i, [file, why]] of cases.entries()) {
    const path = join(dir, `x${i}.index.json`);
    await writeFile(path, indexOf(file));
    await refused(path, path, file, why);
    const url = pathToFileURL(path);
    await refused(url, url.href, file, why);
  }
});

test('a shard beside the index loads, by a name with spaces and accents too, over HTTP and from disk', async () => {
  const name = 'modèle 1 (F32).safetensors';
  files.set(name, shard);
  files.set('ok.index.json', indexOf(name));
  await writeFile(join(dir, name), shard);
  await writeFile(join(dir, 'ok.index.json'), indexOf(name));
  for (const weights of [`${originA}/model/m/ok.index.json`, join(dir, 'ok.index.json'), pathToFileURL(join(dir, 'ok.index.json'))]) {
    const loaded = await loadModel({ weights });
    assert.equal(loaded.vocabSize, vocabSize);
    assert.equal(loaded.parameterCount, vocabSize * width);
    loaded.dispose();
  }
});

test('an index given as a data: URL says it has no folder for its shards', async () => {
  const url = `data:application/json;base64,${Buffer.from(indexOf(shardName)).toString('base64')}`;
  await assert.rejects(loadModel({ weights: url }), (error) => {
    assert.ok(error.message.startsWith(`${url}: a sharded checkpoint's index given as a data: URL has no folder, so it cannot say where its shards are`), error.message);
    return true;
  });
});

test('the index is bounded in size and shape before it is parsed, and the refusal says where it stopped', async () => {
  const tooLarge = new Uint8Array(MAX_INDEX_BYTES + 1).fill(0x20);
  tooLarge.set(utf8.encode('{"weight_map": {}}'));
  await assert.rejects(loadModel({ weights: tooLarge }),
    new RegExp(`^Error: weights \\(Uint8Array\\): a sharded checkpoint's index of ${MAX_INDEX_BYTES + 1} bytes is more than the ${MAX_INDEX_BYTES} \\(16 MiB\\)`));
  // 16 MiB of nested arrays (JSON.parse took 7-9 s), and of many small ones.
  const deep = new Uint8Array(MAX_INDEX_BYTES);
  deep.set(utf8.encode('{"weight_map": '));
  deep.fill(0x5b, 15, MAX_INDEX_BYTES / 2);
  deep.fill(0x5d, MAX_INDEX_BYTES / 2, MAX_INDEX_BYTES - 1);
  deep[MAX_INDEX_BYTES - 1] = 0x7d;
  await assert.rejects(loadModel({ weights: deep }),
    new RegExp(`^Error: weights \\(Uint8Array\\): the index nests more than ${MAX_INDEX_DEPTH} levels deep \\(at byte ${15 + MAX_INDEX_DEPTH - 1}\\)`));
  const many = utf8.encode(`{"weight_map": {}, "x": [${'[],'.repeat((MAX_INDEX_BYTES - 30) / 3)}[]]}`);
  await assert.rejects(loadModel({ weights: many }), (error) => {
    const at = /^weights \(Uint8Array\): the index holds more than 1024 objects and arrays \(at byte (\d+)\)/.exec(error.message);
    assert.ok(at && Number(at[1]) < 4 * MAX_INDEX_CONTAINERS, error.message);
    return true;
  });
  // A string that holds brackets is no nesting.
  const path = join(dir, 'brackets.index.json');
  await writeFile(path, utf8.encode(JSON.stringify({ metadata: { note: '[[[[[[[[[[[[{{{{{{{{{{\\"' }, weight_map: { 'model.embed_tokens.weight': shardName } })));
  const loaded = await loadModel({ weights: path });
  assert.equal(loaded.vocabSize, vocabSize);
  loaded.dispose();
});

test('total_size must be a whole number of bytes that holds the tables; without one the count is the shard\'s', async () => {
  const load = async (metadata) => {
    const path = join(dir, 'total.index.json');
    await writeFile(path, indexOf(shardName, metadata));
    return loadModel({ weights: path });
  };
  const path = join(dir, 'total.index.json');
  for (const [total, shown] of [[true, 'true'], ['12', 'the string "12"'], [1e300, '1e\\+300'], [-4, '-4'], [1.5, '1.5'], [null, 'null'], [[1], 'an array']]) {
    await assert.rejects(load({ total_size: total }), new RegExp(`^Error: ${path.replace(/[.]/g, '\\.')}: the index's metadata.total_size is ${shown}; it must be the bytes of every tensor in every shard, a whole number`));
  }
  await assert.rejects(load({ total_size: 123 }), new RegExp(`: the index's metadata.total_size is 123 bytes, fewer than the ${tablesBytes} of the embedding tables alone`));
  await assert.rejects(load([]), /: the index's "metadata" is an array, not an object$/);
  for (const [metadata, count] of [[{ total_size: 3 * tablesBytes }, 3 * vocabSize * width], [{}, vocabSize * width], [undefined, vocabSize * width]]) {
    const loaded = await load(metadata);
    assert.equal(loaded.parameterCount, count);
    loaded.dispose();
  }
});

test('strings of the index in messages are quoted as the C++ messages quote file text: cut, escaped, one line', async () => {
  const names = ['line one\nline two.safetensors', 'abc\u202Egnp.safetensors', 'a'.repeat(10_000_000)];
  // The same text in a C++ message (a tensor name in a safetensors header): the same quote.
  for (const name of [...names.slice(0, 2), 'a'.repeat(1000), 'é'.repeat(30), 'tab\t"q" \\ \u0085\u2066\u061c\u2029']) {
    await assert.rejects(loadModel({ weights: rawFile({ [name]: [] }) }), (error) => {
      assert.ok(error.message.includes(`${quote(name)} is an array`), error.message.slice(0, 200));
      return true;
    });
  }
  for (const name of names) {
    const path = join(dir, 'names.index.json');
    await writeFile(path, utf8.encode(JSON.stringify({ weight_map: { 'model.embed_tokens.weight': name, 'model.norm.weight': 'other.safetensors' } })));
    await assert.rejects(loadModel({ weights: path }), (error) => {
      assert.ok(error.message.length < 400, `a message of ${error.message.length} characters`);
      assert.ok(!/[\n\u202E]/.test(error.message), error.message);
      assert.ok(error.message.includes(quote(name)), error.message);
      return true;
    });
    if (name.length > 1000) continue;
    const apart = join(dir, 'apart.index.json');
    await writeFile(apart, utf8.encode(JSON.stringify({ weight_map: { 'transformer.wte.weight': name, 'transformer.wpe.weight': shardName } })));
    await assert.rejects(loadModel({ weights: apart }), (error) => {
      assert.ok(error.message.includes(`transformer.wte.weight in ${quote(name)}, transformer.wpe.weight in "${shardName}"`), error.message.slice(0, 300));
      assert.ok(error.message.length < 400 && !/[\n\u202E]/.test(error.message));
      return true;
    });
  }
  assert.equal(quote('a'.repeat(40)), `"${'a'.repeat(40)}"`);
  assert.equal(quote('a'.repeat(41)), `"${'a'.repeat(40)}..."`);
  assert.equal(quote('é'.repeat(21)), `"${'é'.repeat(20)}..."`);
  assert.equal(quote('\ud800'), '"\ufffd"');
  assert.equal(quote('tab\there "q" \\ \u0085\u2066'), '"tab\\there \\"q\\" \\\\ \\u0085\\u2066"');
});
