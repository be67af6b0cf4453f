#!/usr/bin/env node
// Serves the repository over HTTP for the chapter page: static files with
// the right types, HTTP range requests (the page fetches only the two
// embedding tables out of model.safetensors), and a strict
// Content-Security-Policy without 'unsafe-eval', which the page must work under.
//
//   node tools/serve.mjs [--port 8000] [--host 127.0.0.1]
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

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

// Only what the page and the package need is served, never the build tree or git.
const servedPrefixes = ['/web/', '/model/', '/node_modules/katex/dist/'];

function send(response, status, body, headers = {}) {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  response.end(body);
}

/**
 * @param {{ log?: (line: string) => void, root?: string }} options root: the
 *   folder served (default: this repository); tests serve a temporary copy.
 */
export function createChapterServer({ log = () => {}, root = repositoryRoot } = {}) {
  return createServer(async (request, response) => {
    response.setHeader('Content-Security-Policy', contentSecurityPolicy);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    const url = new URL(request.url, 'http://localhost');
    let path = decodeURIComponent(url.pathname);
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'Method not allowed');
    if (path === '/') {
      response.writeHead(302, { Location: '/web/page/' });
      return response.end();
    }
    if (!servedPrefixes.some((prefix) => path.startsWith(prefix))) return send(response, 404, 'Not found');
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(root, path));
    if (!file.startsWith(root + sep)) return send(response, 403, 'Forbidden');
    let info;
    try {
      info = await stat(file);
    } catch {
      return send(response, 404, 'Not found');
    }
    if (info.isDirectory()) {
      response.writeHead(301, { Location: `${url.pathname}/` });
      return response.end();
    }
    const headers = {
      'Content-Type': types[extname(file)] ?? 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'no-cache',
      'Last-Modified': info.mtime.toUTCString(),
    };
    let start = 0, end = info.size - 1, status = 200;
    const range = request.headers.range;
    if (range) {
      const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
      if (!match || (match[1] === '' && match[2] === '')) {
        return send(response, 416, 'Bad range', { 'Content-Range': `bytes */${info.size}` });
      }
      if (match[1] === '') {
        start = Math.max(0, info.size - Number(match[2]));
      } else {
        start = Number(match[1]);
        if (match[2] !== '') end = Math.min(end, Number(match[2]));
      }
      if (start >= info.size || start > end) {
        return send(response, 416, 'Range not satisfiable', { 'Content-Range': `bytes */${info.size}` });
      }
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${info.size}`;
    }
    headers['Content-Length'] = String(info.size === 0 ? 0 : end - start + 1);
    response.writeHead(status, headers);
    log(`${request.method} ${path} ${status} ${headers['Content-Length']}`);
    if (request.method === 'HEAD' || info.size === 0) return response.end();
    createReadStream(file, { start, end }).pipe(response);
  });
}

if (import.meta.url === `file://${process.argv[1]}` || fileURLToPath(import.meta.url) === resolve(process.argv[1] ?? '')) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
  };
  const port = Number(option('--port', process.env.PORT ?? 8000));
  const host = option('--host', process.env.HOST ?? '127.0.0.1');
  const server = createChapterServer({ log: args.includes('--verbose') ? console.log : () => {} });
  server.on('error', (error) => {
    console.error(error.code === 'EADDRINUSE' ? `Port ${port} is in use; pass --port N to choose another.` : error.message);
    process.exit(1);
  });
  server.listen(port, host, () => {
    console.log(`The chapter page is at http://${host === '0.0.0.0' ? 'localhost' : host}:${port}/web/page/`);
    console.log('Press Ctrl+C to stop.');
  });
}
