// tools/serve.mjs as a hostile client finds it: malformed requests, ways
// out of the served folders, files that change while being sent, a bounded
// fuzz of request lines, paths and headers; its command line (--root,
// --help); and the loader against it (an empty file's 416).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { get } from 'node:http';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadModel } from '../../../web/index.js';
import { createChapterServer, requestPath, usage } from '../../../tools/serve.mjs';
import { makeModel } from '../helpers/fixtures.js';
import { uniformRandom } from '../helpers/text.js';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const servePath = join(repository, 'tools', 'serve.mjs');

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/**
 * Sends raw bytes on a new connection, half-closes it and collects
 * everything the server writes until it closes: the client says nothing
 * more, so every complete or broken request must be answered.
 */
function rawRequest(port, bytes, { timeoutMs = 10000 } = {}) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${JSON.stringify(String(bytes).slice(0, 200))}`));
    }, timeoutMs);
    socket.on('connect', () => socket.end(bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});  // a reset after the answer is fine; the answer is what counts
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

const statusOf = (answer) => Number(/^HTTP\/1\.[01] (\d{3}) /.exec(answer)?.[1]);

async function alive(port) {
  const response = await fetch(`http://127.0.0.1:${port}/web/index.js`);
  assert.equal(response.status, 200);
  assert.match(await response.text(), /loadModel/);
}

describe('the repository server', () => {
  let server, requests;
  before(async () => {
    requests = [];
    server = await listen(createChapterServer({ onRequest: (entry) => requests.push(entry) }));
  });
  after(() => server.close());

  test('malformed requests get a 400 and the server lives', async () => {
    const targets = ['/%', '/web/%ff', '//[', '/web/%E0%A4%A', '/model/%', '/%%30%30', '/web/%uD800'];
    for (const target of targets) {
      const answer = await rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      assert.equal(statusOf(answer), 400, `${target}: ${answer.split('\r\n')[0]}`);
    }
    for (const line of ['GARBAGE', 'GET', 'GET / HTTP/9.9', '\x00\x01\x02', 'GET http://evil/ HTTP/1.1', 'GET * HTTP/1.1']) {
      const status = statusOf(await rawRequest(server.port, `${line}\r\nHost: x\r\n\r\n`));
      assert.ok(status >= 400 && status < 500, `${JSON.stringify(line)} answered ${status}`);
    }
    assert.equal(statusOf(await rawRequest(server.port, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n\r\n')), 405);
    assert.equal(statusOf(await rawRequest(server.port, 'POST /web/index.js HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n')), 405);
    await alive(server.port);
  });

  test('no way out of web/, model/ and KaTeX', async () => {
    const attempts = [
      '/web/..%2f.git%2fconfig', '/model/..%2f.git%2fHEAD', '/web/..%2ftools%2fsetup.sh', '/web/..%2Fpackage.json',
      '/web/..%5cpackage.json', '/web/%2e%2e/package.json', '/web/../package.json', '/web/../../../../etc/passwd',
      '/model/%2e%2e%2f.git/HEAD', '/.git/config', '/web/.gitignore', '/tools/serve.mjs', '/package.json',
      '/node_modules/katex/package.json', '/node_modules/katex/dist/../package.json', '/web\\..\\package.json',
      '/web/%00/../package.json', '/build/native/CMakeCache.txt', '/web/..', '/web/..%2f',
    ];
    for (const target of attempts) {
      const answer = await rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      const status = statusOf(answer);
      assert.ok(status >= 300 && status < 500, `${target} answered ${answer.split('\r\n')[0]}`);
      assert.doesNotMatch(answer, /\[core\]|"devDependencies"|root:x:0|ref: refs/, target);
      if (status === 301 || status === 302) {
        // A redirect may only lead back into a served folder.
        const location = /\r\nLocation: ([^\r]*)/i.exec(answer)[1];
        assert.match(location, /^\/(web|model)\//, target);
      }
    }
    // What is inside still is served, normalised or not.
    for (const target of ['/web/index.js', '/web/../web/index.js', '/web/./src/../index.js', '/model/config.json',
      '/node_modules/katex/dist/katex.min.css']) {
      assert.equal(statusOf(await rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`)), 200, target);
    }
    await alive(server.port);
  });

  test('the log callback gets each answer as fields', async () => {
    requests.length = 0;
    await (await fetch(`http://127.0.0.1:${server.port}/model/config.json`, { headers: { Range: 'bytes=0-9' } })).arrayBuffer();
    await (await fetch(`http://127.0.0.1:${server.port}/web/%ff`)).arrayBuffer();
    assert.deepEqual(requests, [
      { method: 'GET', path: '/model/config.json', status: 206, bytes: 10 },
      { method: 'GET', path: '/web/%ff', status: 400, bytes: 26 },
    ]);
  });

  test('requestPath decodes, normalises and refuses', () => {
    assert.equal(requestPath('/web/a%20b/../c.js?x=1'), '/web/c.js');
    assert.equal(requestPath('/web//src/./index.js'), '/web/src/index.js');
    assert.throws(() => requestPath('//evil.example/web/'), { status: 400 });
    assert.equal(requestPath('/../../web/index.js'), '/web/index.js');
    assert.throws(() => requestPath('/web/..%2f.git'), { status: 400 });
    assert.throws(() => requestPath('/%'), { status: 400 });
    assert.throws(() => requestPath('/web/%0a'), { status: 400 });
    assert.throws(() => requestPath('http://host/web/'), { status: 400 });
    assert.throws(() => requestPath('/web/.hidden'), { status: 404 });
  });
});

describe('a site folder (--root) and files that change', () => {
  let dir, server, requests;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'embeddings-server-'));
    await mkdir(join(dir, 'model'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>site</title>');
    await writeFile(join(dir, 'model', 'empty.safetensors'), new Uint8Array(0));
    await writeFile(join(dir, 'secret.txt'), 'outside');
    await mkdir(join(dir, 'site'));
    await writeFile(join(dir, 'site', 'index.html'), '<!doctype html><title>inner</title>');
    await symlink(join(dir, 'secret.txt'), join(dir, 'site', 'link.txt'));
    execFileSync('mkfifo', [join(dir, 'site', 'fifo')]);
    await writeFile(join(dir, 'site', '.env'), 'TOKEN=1');
    requests = [];
    server = await listen(createChapterServer({ root: join(dir, 'site'), onRequest: (entry) => requests.push(entry) }));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('the root serves its index.html; links out of it, FIFOs and hidden files are not served', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const index = await fetch(`${base}/`);
    assert.equal(index.status, 200);
    assert.match(await index.text(), /inner/);
    for (const target of ['/link.txt', '/fifo', '/.env', '/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt']) {
      const answer = await rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      assert.ok(statusOf(answer) >= 400, `${target}: ${answer.split('\r\n')[0]}`);
      assert.doesNotMatch(answer, /outside|TOKEN/, target);
    }
    await rawRequest(server.port, 'GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(requests.at(-1).status, 200);
  });

  test('a file cut or removed while being sent fails that request only', async () => {
    const file = join(dir, 'site', 'big.bin');
    const size = 32 * 1024 * 1024;
    for (const change of ['truncate', 'unlink']) {
      await writeFile(file, new Uint8Array(size));
      const outcome = await new Promise((resolve) => {
        get(`http://127.0.0.1:${server.port}/big.bin`, (response) => {
          let received = 0;
          let changed = false;
          response.on('data', (chunk) => {
            received += chunk.length;
            if (changed) return;
            changed = true;
            response.pause();
            (change === 'truncate' ? truncate(file, 0) : unlink(file)).then(() => setTimeout(() => response.resume(), 50));
          });
          response.on('end', () => resolve({ received, complete: response.complete }));
          response.on('error', () => resolve({ received, complete: false }));
          response.on('aborted', () => resolve({ received, complete: false }));
        });
      });
      if (change === 'truncate') {
        // The bytes that were there when the request came are gone: the
        // client must see a broken response, not a short file.
        assert.ok(!outcome.complete && outcome.received < size, `${change}: ${JSON.stringify(outcome)}`);
      } else {
        // The open file is still readable after its name is removed: all of it arrives.
        assert.ok(outcome.complete && outcome.received === size, `${change}: ${JSON.stringify(outcome)}`);
      }
      const index = await fetch(`http://127.0.0.1:${server.port}/index.html`);
      assert.equal(index.status, 200, `alive after ${change}`);
      await index.arrayBuffer();
    }
  });

  test('an empty file: 416 with "bytes */0", which the loader reads as an empty file', async () => {
    const empty = await listen(createChapterServer({ root: dir }));
    try {
      const response = await fetch(`http://127.0.0.1:${empty.port}/model/empty.safetensors`, { headers: { Range: 'bytes=0-16383' } });
      assert.equal(response.status, 416);
      assert.equal(response.headers.get('content-range'), 'bytes */0');
      await assert.rejects(loadModel({ weights: `http://127.0.0.1:${empty.port}/model/empty.safetensors` }), (error) => {
        assert.doesNotMatch(error.message, /did not say how large/);
        assert.match(error.message, /empty\.safetensors: .*(empty|0 bytes|too short|header length)/);
        return true;
      });
    } finally {
      await empty.close();
    }
  });

  test('files in memory are answered like files on disk', async () => {
    const fixture = makeModel({ width: 8, context: 5 });
    const files = new Map([['model.safetensors', fixture.weights], ['config.json', new TextEncoder().encode(JSON.stringify(fixture.config))],
      ['tokenizer.json', fixture.tokenizer]]);
    const log = [];
    const memory = await listen(createChapterServer({ root: dir, files: { prefix: '/model/', get: (path) => files.get(path) }, onRequest: (entry) => log.push(entry) }));
    try {
      const base = `http://127.0.0.1:${memory.port}/model/`;
      const model = await loadModel({ weights: `${base}model.safetensors`, config: `${base}config.json`, tokenizer: `${base}tokenizer.json` });
      assert.equal(model.wte.rows, fixture.vocabSize);
      model.dispose();
      assert.ok(log.filter((entry) => entry.path === '/model/model.safetensors').every((entry) => entry.status === 206), JSON.stringify(log));
      assert.equal((await fetch(`${base}missing.json`)).status, 404);
      const past = await fetch(`${base}config.json`, { headers: { Range: 'bytes=999999-' } });
      assert.equal(past.status, 416);
    } finally {
      await memory.close();
    }
  });
});

describe('the command line', () => {
  function run(args, { until } = {}) {
    const child = spawn(process.execPath, [servePath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.stderr.on('data', (chunk) => { err += chunk; });
    const exited = new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
    const ready = until && new Promise((resolve, reject) => {
      child.stdout.on('data', () => { if (until.test(out)) resolve(out); });
      child.on('exit', () => reject(new Error(`exited before ${until}: ${out}${err}`)));
    });
    return { child, exited, ready };
  }

  test('--help prints the usage and exits without starting a server', async () => {
    const { code, out } = await run(['--help']).exited;
    assert.equal(code, 0);
    assert.equal(out.trim(), usage);
    assert.match(out, /--root DIR/);
    assert.doesNotMatch(out, /Press Ctrl\+C/);
  });

  test('an unknown option or a missing --root is an error, not a server', async () => {
    for (const args of [['--bogus'], ['--root'], ['--root', '/nonexistent-folder'], ['--port', 'eighty']]) {
      const { code, err } = await run(args).exited;
      assert.equal(code, 2, args.join(' '));
      assert.match(err, /^serve\.mjs: /, args.join(' '));
    }
  });

  test('--verbose prints one line per answer, from the structured log', async () => {
    const { child, ready } = run(['--verbose', '--port', '0'], { until: /is at http:\/\/\S+\n/ });
    try {
      const origin = /is at (http:\/\/[^/\s]+)\//.exec(await ready)[1];
      const lines = new Promise((resolve) => {
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const requests = out.split('\n').filter((line) => /^(GET|HEAD) /.test(line));
          if (requests.length === 2) resolve(requests);
        });
      });
      await (await fetch(`${origin}/model/config.json`, { headers: { Range: 'bytes=0-9' } })).arrayBuffer();
      await (await fetch(`${origin}/web/%ff`)).arrayBuffer();
      assert.deepEqual(await lines, ['GET /model/config.json 206 10', 'GET /web/%ff 400 26']);
    } finally {
      child.kill();
    }
  });

  test('--root serves the docs\' minimal page at a site root', async () => {
    const site = await mkdtemp(join(tmpdir(), 'embeddings-site-'));
    const docs = await readFile(join(repository, 'docs', 'embedding.md'), 'utf8');
    const page = /## A minimal page\s+```html\n([\s\S]*?)```/.exec(docs)[1];
    await writeFile(join(site, 'index.html'), page);
    await cp(join(repository, 'web'), join(site, 'web'), { recursive: true });
    const { child, ready } = run(['--root', site, '--port', '0'], { until: /is at http:\/\/\S+\n/ });
    try {
      const origin = /is at (http:\/\/[^/\s]+)\//.exec(await ready)[1];
      const index = await fetch(`${origin}/`);
      assert.equal(index.status, 200);
      assert.equal(await index.text(), page);
      // Everything the page names, relative to itself, is there.
      for (const reference of page.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)) {
        const response = await fetch(new URL(reference[1], `${origin}/`));
        assert.equal(response.status, 200, reference[1]);
        await response.arrayBuffer();
      }
      const wasm = await fetch(`${origin}/web/dist/embeddings.wasm`, { method: 'HEAD' });
      assert.equal(wasm.status, 200);
      assert.equal(wasm.headers.get('content-type'), 'application/wasm');
      assert.equal((await fetch(`${origin}/..%2f..%2fetc/passwd`)).status, 400);
    } finally {
      child.kill();
      await rm(site, { recursive: true, force: true });
    }
  });
});

// ---- A bounded fuzz -----------------------------------------------------------

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PATCH', 'CONNECT', 'get', 'G\x00T', ''];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1 extra', 'HTTP', ''];
const SEGMENTS = ['web', 'model', 'src', 'index.js', 'config.json', 'model.safetensors', 'page', 'node_modules', 'katex',
  'dist', '..', '.', '', '.git', 'HEAD', 'config', 'tools', '%2f', '%2F', '%5c', '%', '%f', '%ff', '%00', '%2e%2e',
  '%e2%80%ae', '%c0%af', '~', '[', ']', '?', '#', '?x=1', ';', '..%2f', '%252f', '\\', ' ', '\t'];
const HEADERS = [
  'Host: 127.0.0.1', 'Range: bytes=0-10', 'Range: bytes=-5', 'Range: bytes=5-1', 'Range: bytes=-', 'Range: bytes=0-0,2-3',
  'Range: bytes=99999999999999999999-', 'Range: items=0-1', 'Range: bytes=18446744073709551616-0', 'Content-Length: 5',
  'Content-Length: -1', 'Content-Length: 99999999999999999999', 'Transfer-Encoding: chunked', 'Expect: 100-continue',
  'Expect: nonsense', 'Upgrade: websocket', 'Connection: Upgrade', 'Connection: close', 'Connection: keep-alive',
  'If-Modified-Since: garbage', 'Accept-Encoding: gzip', 'X-Empty:', 'No colon here', ': no name', 'Bad\x01Name: x',
  'X-Value: \x7f\x00', `X-Long: ${'a'.repeat(20000)}`, 'Host: a', 'Host: b',
];

function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

// Paths that exist, for the fuzz to start from and mutate.
const REAL_PATHS = ['/web/index.js', '/web/src/model/index.js', '/web/dist/embeddings.wasm', '/web/page/', '/web/widgets/widgets.css',
  '/model/config.json', '/model/tokenizer.json', '/model/model.safetensors', '/node_modules/katex/dist/katex.min.css'];

function randomPath(random) {
  if (random() < 0.6) {
    // A real path, as it is or with a segment or two put in (traversal, encodings, noise).
    const parts = pick(random, REAL_PATHS).split('/');
    const insertions = random() < 0.4 ? 0 : 1 + Math.floor(random() * 2);
    for (let i = 0; i < insertions; i++) parts.splice(1 + Math.floor(random() * (parts.length - 1)), 0, pick(random, SEGMENTS));
    return parts.join('/');
  }
  const parts = [];
  const count = 1 + Math.floor(random() * 6);
  for (let i = 0; i < count; i++) {
    if (random() < 0.1) {
      // Bytes no list thought of, percent-encoded or raw.
      const byte = Math.floor(random() * 256);
      parts.push(random() < 0.5 ? `%${byte.toString(16).padStart(2, '0')}` : String.fromCharCode(byte));
    } else {
      parts.push(pick(random, SEGMENTS));
    }
  }
  return (random() < 0.95 ? '/' : '') + parts.join(random() < 0.9 ? '/' : '');
}

function randomRequest(random) {
  const line = `${pick(random, random() < 0.8 ? ['GET', 'HEAD'] : METHODS)} ${randomPath(random)} ${random() < 0.8 ? 'HTTP/1.1' : pick(random, VERSIONS)}`;
  // Node refuses an HTTP/1.1 request without a Host header before the server sees it.
  const headers = random() < 0.9 ? ['Host: 127.0.0.1'] : [];
  const count = Math.floor(random() * 4);
  for (let i = 0; i < count; i++) headers.push(pick(random, HEADERS));
  let text = `${line}\r\n${headers.join('\r\n')}${headers.length ? '\r\n' : ''}\r\n`;
  if (random() < 0.3) text = mutate(random, text);
  return text;
}

/** A few random byte flips, insertions and deletions. */
function mutate(random, text) {
  const bytes = [...Buffer.from(text, 'latin1')];
  const edits = 1 + Math.floor(random() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * bytes.length);
    const kind = random();
    const byte = random() < 0.3 ? pick(random, [0, 10, 13, 32, 37, 47, 58, 92, 127, 255]) : Math.floor(random() * 256);
    if (kind < 0.4) bytes[at] = byte;
    else if (kind < 0.7) bytes.splice(at, 0, byte);
    else bytes.splice(at, 1);
  }
  return Buffer.from(bytes).toString('latin1');
}

describe('a bounded fuzz of the server', () => {
  test('3,000 random and mutated requests: each answered, nothing outside the served folders, alive after', async () => {
    const log = [];
    const server = await listen(createChapterServer({ onRequest: (entry) => log.push(entry) }));
    const random = uniformRandom(20261201);
    const total = 3000;
    const inputs = Array.from({ length: total }, () => randomRequest(random));
    const unanswered = [];
    let next = 0;
    // Eight connections at a time; each input on its own connection.
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < total) {
        const input = inputs[next++];
        const answer = await rawRequest(server.port, Buffer.from(input, 'latin1'));
        // Only bytes that hold no request at all (nothing but CR and LF) may go unanswered.
        if (!/^HTTP\/1\.[01] \d{3} /.test(answer) && /[^\r\n]/.test(input)) unanswered.push(JSON.stringify(input.slice(0, 120)));
      }
    }));
    try {
      assert.deepEqual(unanswered, []);
      const served = log.filter((entry) => entry.status >= 200 && entry.status < 300);
      // The generator must reach the file-serving code often, not only the parser's refusals.
      assert.ok(served.length > total / 20, `only ${served.length} requests were served a file: the generator is too wild`);
      assert.ok(log.length > total / 4, `only ${log.length} requests reached the server's handler`);
      for (const entry of served) {
        assert.match(entry.path, /^\/(web|model|node_modules\/katex\/dist)\//, JSON.stringify(entry));
        assert.ok(!entry.path.split('/').includes('..'), JSON.stringify(entry));
      }
      await alive(server.port);
    } finally {
      await server.close();
    }
  });
});
