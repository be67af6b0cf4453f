#!/usr/bin/env node
// Serves the chapter over HTTP: static files with the right types, HTTP
// range requests (the page fetches only the two embedding tables out of
// model.safetensors), and a strict Content-Security-Policy without
// 'unsafe-eval', which the page must work under.
//
// It may be reachable from other machines (--host 0.0.0.0), so it trusts
// nothing in a request: a malformed one gets a 400 and the server goes on;
// a path is decoded, normalised and only then checked, encoded separators
// are refused, and the file finally opened must lie inside a served folder
// once symbolic links are resolved.
import { createServer } from 'node:http';
import { constants, statSync } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { extname, join, posix, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

export const usage = `Serves the chapter page (or a site folder) over HTTP.

  node tools/serve.mjs [--port 8000] [--host 127.0.0.1] [--root DIR] [--verbose]

  --port N     the port (0: any free one; default 8000, or $PORT)
  --host H     the address to listen on (default 127.0.0.1, or $HOST);
               0.0.0.0 makes the page reachable from other machines
  --root DIR   serve everything under DIR (a site folder holding, say, an
               index.html, web/ and model/) instead of this repository's
               web/, model/ and KaTeX
  --verbose    print one line per request
  --help       print this and exit`;

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * The headers that make a page cross-origin isolated, so that it may share
 * WebAssembly memory between Workers: the vocabulary map then runs on
 * several threads (web/src/map/layout-threads.js). The opener policy keeps
 * the page out of other origins' windows; the embedder policy lets it load
 * only what agrees to it (everything here is same-origin, and says so with
 * Cross-Origin-Resource-Policy). A site that embeds the widgets sends the
 * same two (docs/embedding.md); without them the map runs on one thread.
 */
export const crossOriginIsolationHeaders = Object.freeze({
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
});

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.safetensors': 'application/octet-stream',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

// Of this repository, only what the page and the package need is served,
// never the build tree, the tools or git.
const repositoryFolders = ['/web/', '/model/', '/node_modules/katex/dist/'];

/** A request the server refuses, with the status and the reason it answers. */
class Refusal extends Error {
  constructor(status, reason) {
    super(reason);
    this.status = status;
  }
}

/**
 * The request target's path, decoded and normalised, or a Refusal. Encoded
 * separators are refused rather than decoded: `/web/..%2f.git` must not
 * become a path that climbs out after the folder check.
 */
export function requestPath(target) {
  // "//host/…" is a URL without a scheme, not a path: never one this server made.
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//')) throw new Refusal(400, 'Bad request target');
  const raw = target.split('?')[0].split('#')[0];
  if (/%2f|%5c|%00|\\/i.test(raw)) throw new Refusal(400, 'Encoded separators are not allowed');
  let decoded;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new Refusal(400, 'Malformed percent-encoding');
  }
  if (/[\0-\x1f\x7f]/.test(decoded)) throw new Refusal(400, 'Control characters are not allowed');
  // normalize() resolves "." and ".." and never climbs above "/".
  const path = posix.normalize(decoded);
  // Hidden files (.git, .env, editor backups) are never part of a site.
  if (path.split('/').some((part) => part.startsWith('.'))) throw new Refusal(404, 'Not found');
  return path;
}

const encodePath = (path) => path.split('/').map(encodeURIComponent).join('/');

function inside(folder, file) {
  return file === folder || file.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** Starts `server` on a free port of 127.0.0.1 and gives its origin, e.g. "http://127.0.0.1:41234" (for tests and benchmarks). */
export async function listenOnLoopback(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

/**
 * The HTTP server.
 *
 * @param {{
 *   root?: string,
 *   onRequest?: (entry: { method: string, path: string, status: number, bytes: number }) => void,
 *   files?: { prefix: string, get(path: string): Uint8Array | undefined },
 *   crossOriginIsolated?: boolean,
 * }} [options]
 *   root: a site folder whose every file is served, `/` being its
 *   index.html; without it, this repository's web/, model/ and KaTeX, `/`
 *   leading to the chapter page. onRequest: called once for each answer,
 *   with the decoded path (or the raw target when it could not be decoded)
 *   and the length of the body it announced. files: bytes in memory answered
 *   for the paths under `prefix` (such as a generated model under /model/),
 *   with the same headers and range handling as files on disk.
 *   crossOriginIsolated: whether pages are sent crossOriginIsolationHeaders
 *   (default true; false serves them as a site without them would be).
 */
export function createChapterServer(options = {}) {
  const unknown = Object.keys(options).filter((key) => !['root', 'onRequest', 'files', 'crossOriginIsolated'].includes(key));
  if (unknown.length) throw new TypeError(`createChapterServer: unknown option ${unknown.map((key) => JSON.stringify(key)).join(', ')}`);
  const { root, onRequest = () => {}, files, crossOriginIsolated = true } = options;
  const site = root !== undefined;
  const folders = site ? ['/'] : repositoryFolders;
  const sendFile = fileSender(resolve(root ?? repositoryRoot), folders);

  async function answer(request, response, logged) {
    response.setHeader('Content-Security-Policy', contentSecurityPolicy);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if (crossOriginIsolated) for (const [name, value] of Object.entries(crossOriginIsolationHeaders)) response.setHeader(name, value);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new Refusal(405, 'Method not allowed');
    }
    let path = requestPath(request.url);
    logged.path = path;
    if (path === '/' && !site) return redirect(response, 302, '/web/page/');
    if (folders.some((folder) => path === folder.slice(0, -1))) return redirect(response, 301, `${encodePath(path)}/`);
    if (!folders.some((folder) => path.startsWith(folder))) throw new Refusal(404, 'Not found');
    if (path.endsWith('/')) path += 'index.html';
    if (files && path.startsWith(files.prefix)) {
      const bytes = files.get(path.slice(files.prefix.length));
      if (!bytes) throw new Refusal(404, 'Not found');
      return sendBody(request, response, path, {
        size: bytes.length,
        body: (start, end) => Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start + 1),
      });
    }
    return sendFile(request, response, path);
  }

  const server = createServer(async (request, response) => {
    // The raw target until it is known to decode.
    const logged = { method: request.method, path: request.url };
    let entry;
    try {
      entry = await answer(request, response, logged);
    } catch (error) {
      entry = sendFailure(request, response, error);
    }
    onRequest({ ...logged, ...entry });
  }).on('connect', (request, socket) => {
    // A CONNECT (proxy) request would otherwise be dropped without an answer.
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  // A client that half-closes after its request (`nc`, a script) still gets
  // its answer: by default Node closes the connection at the client's end,
  // cutting off any answer still being prepared.
  server.httpAllowHalfOpen = true;
  return server;
}

function redirect(response, status, location) {
  response.writeHead(status, { Location: location, 'Content-Length': '0' });
  response.end();
  return { status, bytes: 0 };
}

/** Answers a Refusal with its status (any other error with 500), or cuts a response already under way. */
function sendFailure(request, response, error) {
  const refusal = error instanceof Refusal;
  const status = refusal ? error.status : 500;
  const body = refusal ? error.message : 'Internal server error';
  if (!response.headersSent) {
    response.writeHead(status, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      ...(status === 405 ? { Allow: 'GET, HEAD' } : {}),
      ...(refusal ? error.headers : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  } else {
    response.destroy();
  }
  return { status, bytes: Buffer.byteLength(body) };
}

/**
 * sendFile(request, response, path): the file at `path` under `base`, if it
 * lies in one of `folders` once links are resolved (KaTeX may sit behind a
 * linked node_modules, so each folder is resolved too). Each folder is
 * resolved once; one that does not exist yet is tried again.
 */
function fileSender(base, folders) {
  const resolvedFolders = new Map();
  async function servedFolders() {
    for (const folder of folders) {
      if (resolvedFolders.has(folder)) continue;
      try {
        resolvedFolders.set(folder, await realpath(join(base, folder)));
      } catch {
        // A folder that does not exist serves nothing.
      }
    }
    return [...resolvedFolders.values()];
  }

  return async function sendFile(request, response, path) {
    let real;
    try {
      real = await realpath(join(base, path));
    } catch {
      throw new Refusal(404, 'Not found');
    }
    if (!(await servedFolders()).some((folder) => inside(folder, real))) throw new Refusal(404, 'Not found');
    // Opened without blocking, then checked: a FIFO must not hang the server.
    let handle;
    try {
      handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      throw new Refusal(404, 'Not found');
    }
    let handed = false;
    try {
      const info = await handle.stat();
      if (info.isDirectory()) return redirect(response, 301, `${encodePath(path)}/`);
      if (!info.isFile()) throw new Refusal(404, 'Not found');
      handed = true;
      return sendBody(request, response, path, {
        size: info.size,
        lastModified: info.mtime.toUTCString(),
        type: types[extname(real)],
        body: (start, end) => handle.createReadStream({ start, end, autoClose: true }),
        unused: () => handle.close(),
      });
    } finally {
      if (!handed) await handle.close();
    }
  };
}

/**
 * Answers with a body of `size` bytes, or the part a Range header asks for.
 * `body(start, end)` gives the bytes from start to end inclusive, as a
 * Buffer or a readable stream; a stream that fails or ends early (a file
 * removed or cut while being sent) ends this response only.
 */
function sendBody(request, response, path, { size, lastModified, type, body, unused = () => {} }) {
  const headers = {
    'Content-Type': type ?? types[extname(path)] ?? 'application/octet-stream',
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'no-cache',
    ...(lastModified ? { 'Last-Modified': lastModified } : {}),
  };
  let start = 0, end = size - 1, status = 200;
  const range = request.headers.range;
  const unsatisfiable = { 'Content-Range': `bytes */${size}` };
  if (range) {
    const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (!match || (match[1] === '' && match[2] === '')) {
      unused();
      throw Object.assign(new Refusal(416, 'Bad range'), { headers: unsatisfiable });
    }
    if (match[1] === '') {
      start = Math.max(0, size - Number(match[2]));
    } else {
      start = Number(match[1]);
      if (match[2] !== '') end = Math.min(end, Number(match[2]));
    }
    if (start >= size || start > end) {
      unused();
      throw Object.assign(new Refusal(416, 'Range not satisfiable'), { headers: unsatisfiable });
    }
    status = 206;
    headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  }
  const length = size === 0 ? 0 : end - start + 1;
  headers['Content-Length'] = String(length);
  if (request.method === 'HEAD' || length === 0) {
    unused();
    response.writeHead(status, headers);
    response.end();
    return { status, bytes: length };
  }
  if (response.destroyed || request.socket.destroyed) {
    // The client left while the file was being opened.
    unused();
    return { status, bytes: 0 };
  }
  const bytes = body(start, end);
  response.writeHead(status, headers);
  if (Buffer.isBuffer(bytes)) {
    response.end(bytes);
    return { status, bytes: length };
  }
  let sent = 0;
  bytes.on('data', (chunk) => {
    sent += chunk.length;
    if (!response.write(chunk)) bytes.pause();
  });
  response.on('drain', () => bytes.resume());
  response.on('close', () => bytes.destroy());
  bytes.on('error', () => response.destroy());
  // Fewer bytes than announced: the client must see a broken response, not a short file.
  bytes.on('end', () => (sent === length ? response.end() : response.destroy()));
  return { status, bytes: length };
}

function main(args) {
  const known = new Set(['--port', '--host', '--root', '--verbose', '--help', '-h']);
  const withValue = new Set(['--port', '--host', '--root']);
  const options = {};
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].split(/=(.*)/s);
    if (!known.has(name)) return fail(`unknown option ${JSON.stringify(args[i])}`);
    if (!withValue.has(name)) {
      options[name] = true;
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined || value === '') return fail(`${name} needs a value`);
    options[name] = value;
  }
  if (options['--help'] || options['-h']) {
    console.log(usage);
    return;
  }
  const port = Number(options['--port'] ?? process.env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`--port must be a port number, got ${options['--port'] ?? process.env.PORT}`);
  const host = options['--host'] ?? process.env.HOST ?? '127.0.0.1';
  const root = options['--root'];
  if (root !== undefined) {
    let info;
    try {
      info = statSync(root);
    } catch {
      return fail(`--root ${root} does not exist`);
    }
    if (!info.isDirectory()) return fail(`--root ${root} is not a folder`);
  }
  const onRequest = options['--verbose']
    ? ({ method, path, status, bytes }) => console.log(`${method} ${path} ${status} ${bytes}`)
    : undefined;
  const server = createChapterServer({ root, onRequest });
  server.on('error', (error) => {
    console.error(error.code === 'EADDRINUSE' ? `Port ${port} is in use; pass --port N to choose another.` : error.message);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const shown = host === '0.0.0.0' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
    const page = root === undefined ? '/web/page/' : '/';
    console.log(`${root === undefined ? 'The chapter page' : `The site in ${root}`} is at http://${shown}:${server.address().port}${page}`);
    console.log('Press Ctrl+C to stop.');
  });
}

function fail(message) {
  console.error(`serve.mjs: ${message}\n\n${usage}`);
  process.exitCode = 2;
}

if (import.meta.url === `file://${process.argv[1]}` || fileURLToPath(import.meta.url) === resolve(process.argv[1] ?? '')) {
  main(process.argv.slice(2));
}
