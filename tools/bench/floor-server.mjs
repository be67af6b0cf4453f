// The floor page and the server the page benchmarks load it from
// (tools/bench/page.mjs, tools/bench/phone.mjs): a bare page that fetches the
// bytes the model needs, compiles the .wasm, parses the JSON and paints 512
// rows of the token table, served beside the chapter server's files; nothing
// showing this model can be ready sooner.
import { createChapterServer, contentSecurityPolicy } from '../serve.mjs';

// ---- The floor page ------------------------------------------------------------
// Served by this tool beside the chapter server's files, under the same
// Content-Security-Policy (so its script is a file of its own, not inline).
export const FLOOR_PATH = '/web/bench-floor/';
export const FLOOR_ROWS = 512;

/**
 * Runs in the floor page: the least any page showing this model must do.
 * All requests go out at once; it marks "embeddings:ready:floor" once 512
 * rows of the token table are on the canvas.
 */
async function floorPage() {
  const model = new URL('/model/', location.href);
  const weightsUrl = new URL('model.safetensors', model);
  const range = (start, end) => fetch(weightsUrl, { headers: { Range: `bytes=${start}-${end}` } })
    .then((response) => response.arrayBuffer());
  const wasm = fetch('/web/dist/embeddings.wasm').then((response) => WebAssembly.compileStreaming(response));
  const config = fetch(new URL('config.json', model)).then((response) => response.json());
  const tokenizer = fetch(new URL('tokenizer.json', model)).then((response) => response.json());
  const tables = (async () => {
    const prefix = new Uint8Array(await range(0, 16383));
    const headerLength = Number(new DataView(prefix.buffer).getBigUint64(0, true));
    const headerBytes = 8 + headerLength <= prefix.length ? prefix.subarray(8, 8 + headerLength)
      : new Uint8Array(await range(8, 8 + headerLength - 1));
    const header = JSON.parse(new TextDecoder().decode(headerBytes));
    const table = async (suffix) => {
      const name = Object.keys(header).find((key) => key.endsWith(suffix));
      const [start, end] = header[name].data_offsets;
      const bytes = await range(8 + headerLength + start, 8 + headerLength + end - 1);
      return { rows: header[name].shape[0], cols: header[name].shape[1], data: new Float32Array(bytes) };
    };
    return Promise.all([table('wte.weight'), table('wpe.weight')]);
  })();
  const [, , vocabulary, [wte]] = await Promise.all([wasm, config, tokenizer, tables]);
  if (!vocabulary.model) throw new Error('tokenizer.json has no model');
  // 512 rows, blue for negative and red for positive, as bright as the value is large.
  const rows = Math.min(512, wte.rows), cols = wte.cols;
  let limit = 0;
  for (let i = 0; i < rows * cols; i++) limit = Math.max(limit, Math.abs(wte.data[i]));
  const image = new ImageData(cols, rows);
  for (let i = 0; i < rows * cols; i++) {
    const t = Math.min(1, Math.abs(wte.data[i]) / (limit || 1));
    const fade = Math.round(255 * (1 - t));
    image.data.set(wte.data[i] < 0 ? [fade, fade, 255, 255] : [255, fade, fade, 255], i * 4);
  }
  const source = document.createElement('canvas');
  source.width = cols;
  source.height = rows;
  source.getContext('2d').putImageData(image, 0, 0);
  const canvas = document.createElement('canvas');
  canvas.width = Math.min(document.documentElement.clientWidth, 1024);
  canvas.height = rows * 4;
  document.body.append(canvas);
  const context = canvas.getContext('2d');
  context.imageSmoothingEnabled = false;
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  performance.mark('embeddings:ready:floor');
}

const floorFiles = new Map([
  [`${FLOOR_PATH}index.html`, { type: 'text/html; charset=utf-8', body: Buffer.from('<!doctype html>\n<html lang="en">\n' +
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>The floor</title><script type="module" src="floor.js"></script></head>\n<body><h1>The floor: ${FLOOR_ROWS} rows</h1></body>\n</html>\n`) }],
  [`${FLOOR_PATH}floor.js`, { type: 'text/javascript; charset=utf-8', body: Buffer.from(`(${floorPage})();\n`) }],
]);

/** A generated model of the default shape, for when model/ is empty (same files the page asks for). */
export async function generatedModel() {
  const { makeDevModel } = await import('../../tests/browser/helpers/dev-model.js');
  const probe = makeDevModel({ extraRows: 0 });
  const base = JSON.parse(new TextDecoder().decode(probe.get('config.json'))).vocab_size;
  return makeDevModel({ extraRows: 4096 - base });
}

/**
 * The chapter server on a free port, recording what it sends per path; a
 * generated model's files, when given, are answered from memory under /model/.
 * `create`: another tree's createChapterServer (a checkout of an earlier
 * commit, tools/bench/phone.mjs --before), served with the same floor page.
 */
export async function startServer(files, { create = createChapterServer } = {}) {
  const sent = [];
  const server = create({
    onRequest: (entry) => sent.push(entry),
    ...(files ? { files: { prefix: '/model/', get: (path) => files.get(path) } } : {}),
  });
  // The floor page's two files, answered here; everything else by the chapter server.
  const chapterHandler = server.listeners('request')[0];
  server.removeAllListeners('request');
  server.on('request', (request, response) => {
    const path = request.url.split('?')[0];
    const file = floorFiles.get(path.endsWith('/') ? `${path}index.html` : path);
    if (!file) return chapterHandler(request, response);
    response.writeHead(200, {
      'Content-Type': file.type,
      'Content-Length': file.body.length,
      'Content-Security-Policy': contentSecurityPolicy,
      'Cache-Control': 'no-cache',
    });
    response.end(file.body);
    sent.push({ method: request.method, path, status: 200, bytes: file.body.length });
    return undefined;
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    sent,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

/** Runs in the floor page: resolves with its mark and the navigation timing once it has painted. */
export function floorReady() {
  const result = () => {
    const nav = performance.getEntriesByType('navigation')[0];
    const [floor] = performance.getEntriesByName('embeddings:ready:floor');
    const weights = performance.getEntriesByType('resource').filter((r) => r.name.endsWith('/model.safetensors'));
    return {
      marks: { floor: floor.startTime }, domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
      weightsAsked: Math.min(...weights.map((r) => r.startTime)), tablesArrived: Math.max(...weights.map((r) => r.responseEnd)),
    };
  };
  return new Promise((resolve) => {
    if (performance.getEntriesByName('embeddings:ready:floor').length) return resolve(result());
    const observer = new PerformanceObserver(() => {
      if (!performance.getEntriesByName('embeddings:ready:floor').length) return;
      observer.disconnect();
      resolve(result());
    });
    observer.observe({ type: 'mark' });
  });
}
