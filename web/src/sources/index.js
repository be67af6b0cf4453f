// Where model files come from: a URL (fetched, with HTTP range requests for
// the weights so only the two tables travel), a file path (Node), a Blob or
// File (a browser file picker), bytes already in memory, a fetch()
// Response, or a Promise of any of these. Every wait on the network or the
// disk can be abandoned with an AbortSignal.
import { describe } from '../matrix.js';
import { isNode } from '../runtime.js';
import { takeEarlySource } from '../early-requests.js';
import { abortReason, checkSignal } from './signals.js';
import { responseBody, urlSource } from './http.js';

export { checkSignal };

/**
 * A random-access byte source.
 * @typedef {{ name: string, size(): Promise<number>,
 *   read(offset: number, length: number): Promise<Uint8Array>, close(): Promise<void>,
 *   prefetch?(offset: number, length: number): void }} ByteSource
 * (prefetch: only where a read waits on a network; the others need none)
 */

function nameOf(input, fallback) {
  if (input instanceof URL) return input.href;
  if (typeof input === 'string') return input;
  if (typeof Blob !== 'undefined' && input instanceof Blob && input.name) return input.name;
  return fallback;
}

/**
 * Waits for a promise unless the signal fires first: a Promise given as a
 * file, which loadModel cannot cancel, must not keep it waiting.
 */
export function untilAborted(promise, signal) {
  if (!signal) return promise;
  checkSignal(signal);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const isThenable = (value) => value !== null && (typeof value === 'object' || typeof value === 'function') &&
  typeof value.then === 'function';
const isResponse = (value) => typeof Response !== 'undefined' && value instanceof Response;

/**
 * The input itself, or what a Promise given for it resolves to (a
 * forgotten `await` is the usual reason for one).
 */
export async function settleInput(input, role, signal) {
  if (!isThenable(input)) return input;
  const value = await untilAborted(Promise.resolve(input), signal);
  if (value === undefined || value === null) throw new TypeError(`${role}: the Promise given for it resolved to ${value}`);
  if (isThenable(value)) throw new TypeError(`${role}: the Promise given for it resolved to another Promise`);
  return value;
}

// A detached buffer (transferred to a worker, or a grown WebAssembly
// memory's old buffer) has no bytes left; reading it would throw deep inside.
function isDetached(buffer) {
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
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

function blobSource(blob, name, signal) {
  return {
    name,
    async size() { return blob.size; },
    async read(offset, length) {
      return new Uint8Array(await untilAborted(blob.slice(offset, offset + length).arrayBuffer(), signal));
    },
    async close() {},
  };
}

// A Response handed over (from the caller's own fetch): its body, read once.
async function responseBytes(response, role, signal) {
  const name = response.url || `${role} (Response)`;
  if (!response.ok) throw new Error(`${name}: the Response given is HTTP ${response.status} ${response.statusText}`.trimEnd());
  if (response.bodyUsed) throw new TypeError(`${name}: the body of the Response given has already been read`);
  return { name, bytes: new Uint8Array(await untilAborted(responseBody(response), signal)) };
}

/**
 * Opens any accepted kind of input as a ByteSource.
 * @param {string | URL | ArrayBuffer | ArrayBufferView | Blob | Response | Promise<any>} input
 * @param {string} role e.g. "weights", for messages when the input has no name
 * @param {{ signal?: AbortSignal }} [options] signal: abandons the opening and every later read
 */
export async function openSource(input, role, { signal } = {}) {
  input = await settleInput(input, role, signal);
  if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer)) {
    if (isDetached(input)) throw new TypeError(`${role} (ArrayBuffer): the ArrayBuffer is detached (transferred or freed), it holds no bytes`);
    return bytesSource(new Uint8Array(input), `${role} (ArrayBuffer)`);
  }
  if (ArrayBuffer.isView(input)) {
    const kind = input.constructor.name;
    if (isDetached(input.buffer)) throw new TypeError(`${role} (${kind}): its ArrayBuffer is detached (transferred or freed), it holds no bytes`);
    return bytesSource(new Uint8Array(input.buffer, input.byteOffset, input.byteLength), `${role} (${kind})`);
  }
  if (typeof Blob !== 'undefined' && input instanceof Blob) return blobSource(input, nameOf(input, `${role} (Blob)`), signal);
  if (isResponse(input)) {
    const { name, bytes } = await responseBytes(input, role, signal);
    return bytesSource(bytes, name);
  }
  if (input instanceof URL) {
    if (input.protocol === 'file:' && isNode) {
      const { fileSource, fileURLToPath } = await import('#platform');
      return fileSource(fileURLToPath(input), input.href, signal);
    }
    // Opened already by the page's first script (early-requests.js), unless this load may be abandoned.
    return (signal === undefined && takeEarlySource(input)) || urlSource(input, input.href, signal);
  }
  if (typeof input === 'string') {
    if (input === '') throw new TypeError(`${role}: the file name is an empty string`);
    if (isNode && !looksLikeUrl(input)) return (await import('#platform')).fileSource(input, input, signal);
    if (isNode && input.startsWith('file:')) return openSource(new URL(input), role, { signal });
    const base = typeof document !== 'undefined' ? document.baseURI : undefined;
    let url;
    try {
      url = new URL(input, base);
    } catch {
      throw new TypeError(`${role}: ${JSON.stringify(input)} is not a URL`);
    }
    return urlSource(url, input, signal);
  }
  throw new TypeError(`${role} must be a URL, a file path, an ArrayBuffer, a typed array, a Blob or a Response; got ${describe(input)}`);
}

// As deep as the C++ JSON reader nests (JsonOptions::max_depth).
const MAX_JSON_DEPTH = 64;

/**
 * Checks that a parsed object can be written as JSON the C++ reader takes:
 * JSON.stringify would throw a multi-line TypeError for a cycle or a
 * BigInt, and overflow the stack for a very deep object. The walk stops at
 * the first problem, and at MAX_JSON_DEPTH, so it never recurses deeper.
 */
function checkJsonable(value, name, file, path = '', depth = 0, ancestors = new Set()) {
  const where = path || 'the top level';
  if (typeof value === 'bigint') throw new TypeError(`${name}: ${where} is a BigInt, which ${file} cannot hold; give a Number`);
  if (typeof value !== 'object' || value === null) return;
  if (ancestors.has(value)) throw new TypeError(`${name}: ${where} contains itself (a cycle), which ${file} cannot hold`);
  if (depth >= MAX_JSON_DEPTH) throw new Error(`${name}: nested deeper than ${MAX_JSON_DEPTH} levels at ${where}, more than ${file} may be`);
  if (typeof value.toJSON === 'function') return;  // a Date, say: JSON.stringify asks it
  ancestors.add(value);
  for (const key of Object.keys(value)) {
    const step = Array.isArray(value) ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    checkJsonable(value[key], name, file, `${path}${step}`, depth + 1, ancestors);
  }
  ancestors.delete(value);
}

const isPlainData = (value) => Array.isArray(value) ||
  [Object.prototype, null].includes(Object.getPrototypeOf(value));

/**
 * Reads a whole text file (config.json, tokenizer.json) from any accepted
 * input, or writes an already-parsed object back as JSON.
 * @param {{ signal?: AbortSignal }} [options]
 */
export async function readText(input, role, { signal } = {}) {
  const { name, bytes, text } = await readJson(input, role, signal);
  return { name, text: text ?? decodeUtf8(bytes, name) };
}

/**
 * The same as UTF-8 bytes, never decoded to a string (a tokenizer.json of
 * tens of megabytes goes to WebAssembly as it is; decoding it and encoding
 * it back took longer than reading its tables). The bytes are not checked:
 * `isUtf8(bytes)` does that, and a leading byte order mark is left in.
 * @param {{ signal?: AbortSignal }} [options]
 */
export async function readBytes(input, role, { signal } = {}) {
  const { name, bytes, text } = await readJson(input, role, signal);
  return { name, bytes: bytes ?? new TextEncoder().encode(text) };
}

// { name, bytes } as read, or { name, text } for an already-parsed object.
async function readJson(input, role, signal) {
  input = await settleInput(input, role, signal);
  const file = `${role}.json`;
  if (isResponse(input)) return responseBytes(input, role, signal);
  if (typeof input === 'object' && input !== null && !(input instanceof URL) && !ArrayBuffer.isView(input) &&
      !(input instanceof ArrayBuffer) && !(typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer) &&
      !(typeof Blob !== 'undefined' && input instanceof Blob)) {
    // An already-parsed JSON object: a plain object or array, nothing that
    // JSON.stringify would quietly turn into {} (a Map, a Set, a class).
    if (!isPlainData(input)) {
      throw new TypeError(`${role} must be the parsed ${file} (a plain object), a URL, a file path, bytes, a Blob or a Response; ` +
        `got ${describe(input)}`);
    }
    const name = `${role} (object)`;
    checkJsonable(input, name, file);
    return { name, text: JSON.stringify(input) };
  }
  const source = await openSource(input, role, { signal });
  try {
    const bytes = source.readAll ? await source.readAll() : await source.read(0, await source.size());
    return { name: source.name, bytes };
  } finally {
    await source.close();
  }
}

/** Whether `bytes` are valid UTF-8 (as decodeUtf8 would accept them). */
export function isUtf8(bytes) {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function decodeUtf8(bytes, name) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notUtf8(name);
  }
}

export const notUtf8 = (name) => new Error(`${name}: not valid UTF-8 text`);
