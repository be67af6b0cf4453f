// Where model files come from: a URL (fetched, with HTTP range requests for
// the weights so only the two tables travel), a file path (Node), a Blob or
// File (a browser file picker), or bytes already in memory.
import { describe } from './matrix.js';

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

/**
 * A random-access byte source.
 * @typedef {{ name: string, size(): Promise<number>,
 *   read(offset: number, length: number): Promise<Uint8Array>, close(): Promise<void> }} ByteSource
 */

function nameOf(input, fallback) {
  if (input instanceof URL) return input.href;
  if (typeof input === 'string') return input;
  if (typeof Blob !== 'undefined' && input instanceof Blob && input.name) return input.name;
  return fallback;
}

function looksLikeUrl(text) {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^(data|blob):/i.test(text);
}

function bytesSource(bytes, name) {
  return {
    name,
    async size() { return bytes.length; },
    async read(offset, length) { return bytes.subarray(offset, offset + length); },
    async close() {},
  };
}

function blobSource(blob, name) {
  return {
    name,
    async size() { return blob.size; },
    async read(offset, length) { return new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()); },
    async close() {},
  };
}

async function fileSource(path, name) {
  const { open } = await import('node:fs/promises');
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new Error(`${name}: cannot open the file (${error.code ?? error.message})`);
  }
  const { size } = await handle.stat();
  return {
    name,
    async size() { return size; },
    async read(offset, length) {
      const out = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(out, done, length - done, offset + done);
        if (bytesRead === 0) throw new Error(`${name}: the file ended early (it changed while being read?)`);
        done += bytesRead;
      }
      return out;
    },
    async close() { await handle.close(); },
  };
}

// Range requests where the server supports them; otherwise the whole body
// arrives with the first request and later reads are served from it.
const PREFIX_BYTES = 16384;

function urlSource(url, name) {
  let whole;
  let total;
  // The first bytes, fetched by size(): enough for the 8-byte length and,
  // for a small model, the whole safetensors header, so the header needs no
  // round trip of its own.
  let prefix;
  async function request(offset, length) {
    let response;
    try {
      response = await fetch(url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` } });
    } catch (error) {
      throw new Error(`${name}: could not fetch (${error.message})`);
    }
    if (response.status === 206) {
      const range = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '');
      if (range) total = Number(range[1]);
      return new Uint8Array(await response.arrayBuffer());
    }
    if (response.status === 416) return new Uint8Array(0);  // Range past the end: an empty file.
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status} ${response.statusText}`.trimEnd());
    whole = new Uint8Array(await response.arrayBuffer());
    total = whole.length;
    return whole.subarray(offset, offset + length);
  }
  return {
    name,
    async size() {
      if (total === undefined) prefix = await request(0, PREFIX_BYTES);
      if (total === undefined) throw new Error(`${name}: the server did not say how large the file is`);
      return total;
    },
    async read(offset, length) {
      if (length === 0) return new Uint8Array(0);
      if (whole) return whole.subarray(offset, offset + length);
      if (prefix && offset + length <= prefix.length) return prefix.subarray(offset, offset + length);
      const bytes = await request(offset, length);
      if (bytes.length !== Math.min(length, Math.max(0, total - offset))) {
        throw new Error(`${name}: asked for ${length} bytes at ${offset}, got ${bytes.length}`);
      }
      return bytes;
    },
    // A whole small file (config.json, tokenizer.json): one plain request,
    // rather than a probe for the size and then the body.
    async readAll() {
      if (whole) return whole;
      let response;
      try {
        response = await fetch(url);
      } catch (error) {
        throw new Error(`${name}: could not fetch (${error.message})`);
      }
      if (!response.ok) throw new Error(`${name}: HTTP ${response.status} ${response.statusText}`.trimEnd());
      whole = new Uint8Array(await response.arrayBuffer());
      total = whole.length;
      return whole;
    },
    async close() {},
  };
}

/**
 * Opens any accepted kind of input as a ByteSource.
 * @param {string | URL | ArrayBuffer | ArrayBufferView | Blob} input
 * @param {string} role e.g. "weights", for messages when the input has no name
 * @param {URL | string | undefined} base URL that relative URLs resolve against (browser)
 */
export async function openSource(input, role) {
  if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer)) {
    return bytesSource(new Uint8Array(input), `${role} (ArrayBuffer)`);
  }
  if (ArrayBuffer.isView(input)) {
    return bytesSource(new Uint8Array(input.buffer, input.byteOffset, input.byteLength), `${role} (${input.constructor.name})`);
  }
  if (typeof Blob !== 'undefined' && input instanceof Blob) return blobSource(input, nameOf(input, `${role} (Blob)`));
  if (input instanceof URL) {
    if (input.protocol === 'file:' && isNode) {
      const { fileURLToPath } = await import('node:url');
      return fileSource(fileURLToPath(input), input.href);
    }
    return urlSource(input, input.href);
  }
  if (typeof input === 'string') {
    if (input === '') throw new TypeError(`${role}: the file name is an empty string`);
    if (isNode && !looksLikeUrl(input)) return fileSource(input, input);
    if (isNode && input.startsWith('file:')) return openSource(new URL(input), role);
    const base = typeof document !== 'undefined' ? document.baseURI : undefined;
    let url;
    try {
      url = new URL(input, base);
    } catch {
      throw new TypeError(`${role}: ${JSON.stringify(input)} is not a URL`);
    }
    return urlSource(url, input);
  }
  throw new TypeError(`${role} must be a URL, a file path, an ArrayBuffer, a typed array or a Blob; got ${describe(input)}`);
}

/** Reads a whole text file (config.json, tokenizer.json) from any accepted input. */
export async function readText(input, role) {
  if (typeof input === 'object' && input !== null && !(input instanceof URL) && !ArrayBuffer.isView(input) &&
      !(input instanceof ArrayBuffer) && !(typeof Blob !== 'undefined' && input instanceof Blob)) {
    // An already-parsed JSON object.
    return { name: `${role} (object)`, text: JSON.stringify(input) };
  }
  const source = await openSource(input, role);
  try {
    const bytes = source.readAll ? await source.readAll() : await source.read(0, await source.size());
    let text;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new Error(`${source.name}: not valid UTF-8 text`);
    }
    return { name: source.name, text };
  } finally {
    await source.close();
  }
}
