// The HTTP byte source: range requests where the server supports them, each
// byte asked for once. It imports nothing but the signal helpers, so that a
// page's first script (web/page/first-requests.js, through early-requests.js)
// can hold it and ask for the weights before the package has arrived.
import { abortReason, checkSignal } from './signals.js';

/**
 * fetch() with the errors this package gives: a failed request names the
 * file and why; an HTTP error status names the status. An abort passes
 * through as the signal's reason.
 */
async function fetchFile(url, name, { headers, signal, accept = () => false } = {}) {
  let response;
  try {
    response = await fetch(url, { headers, signal });
  } catch (error) {
    checkSignal(signal);
    throw new Error(`${name}: could not fetch (${error.message})`);
  }
  if (!response.ok && !accept(response.status)) {
    throw new Error(`${name}: HTTP ${response.status} ${response.statusText}`.trimEnd());
  }
  return response;
}

// A body of this many bytes or more (or of a length not given) is read as a
// Blob and then its bytes. Why: a browser hands a response's bytes to the
// thread that reads them, chunk by chunk, in tasks of that thread. Read
// straight into an ArrayBuffer, a 2 MiB table cost a phone's main thread two
// tasks of 110–250 ms (Chromium, CPU 4× slower; a stream reader yielding
// between chunks did no better); as a Blob the bytes gather outside the page
// and come back in one read: the longest task 73 ms or none
// (tools/bench/body-read.mjs, docs/benchmarks.md).
const BLOB_BYTES = 64 * 1024;

/**
 * A Response's body as an ArrayBuffer, a large one through a Blob (above),
 * whose bytes `readBlob` reads (Blob.arrayBuffer() on this thread unless
 * given: the chapter page reads them in a Worker, page/blob-reader.js).
 */
export async function responseBody(response, readBlob = (blob) => blob.arrayBuffer()) {
  const length = response.headers.get('content-length');
  if ((length !== null && Number(length) < BLOB_BYTES) || typeof response.blob !== 'function') return response.arrayBuffer();
  return readBlob(await response.blob());
}

async function bodyBytes(response, name, signal, readBlob) {
  try {
    return new Uint8Array(await responseBody(response, readBlob));
  } catch (error) {
    checkSignal(signal);
    throw new Error(`${name}: the download broke off (${error.message})`);
  }
}

// Range requests where the server supports them; otherwise the whole body
// arrives with the first request and later reads are served from it.
const PREFIX_BYTES = 16384;

/**
 * A ByteSource over HTTP (see sources/index.js), with prefetch, guesses and
 * readAll. `readBlob`: how a large body's bytes are read (responseBody).
 */
export function urlSource(url, name, signal, { readBlob } = {}) {
  return new HttpSource(url, name, signal, readBlob);
}

class HttpSource {
  #url;
  #signal;
  #readBlob;
  // The whole file, when the server sent it (no range support) or readAll asked for it.
  #whole;
  #total;
  // The first bytes, fetched by size(): enough for the 8-byte length and,
  // for a small model, the whole safetensors header, so the header needs no
  // round trip of its own.
  #prefix;
  #sizeKnown;
  // The whole file's request (readAll), once asked for.
  #wholeRead;
  // Every range asked for while the source is open (by read or prefetch),
  // as { offset, length, bytes: Promise }: a read inside one of them is
  // served from it, so bytes asked for ahead travel once. Dropped by close().
  #ranges = [];

  constructor(url, name, signal, readBlob) {
    this.#url = url;
    this.name = name;
    this.#signal = signal;
    this.#readBlob = readBlob;
  }

  #rangeHolding(offset, length) {
    return this.#ranges.find((range) => range.offset <= offset && offset + length <= range.offset + range.length);
  }

  #requestOnce(offset, length, { guessed, reading = false } = {}) {
    let range = this.#rangeHolding(offset, length);
    if (!range) {
      range = { offset, length, bytes: this.#request(offset, length, guessed?.signal ?? this.#signal), guessed };
      range.bytes.catch(() => {});  // a prefetch nobody reads must not be an unhandled rejection
      this.#ranges.push(range);
    }
    if (reading) range.read = true;
    return range.bytes.then((bytes) => bytes.subarray(offset - range.offset, offset - range.offset + length));
  }

  async #request(offset, length, requestSignal = this.#signal) {
    const response = await fetchFile(this.#url, this.name, {
      headers: { Range: `bytes=${offset}-${offset + length - 1}` },
      signal: requestSignal,
      accept: (status) => status === 416,
    });
    if (response.status === 416) {
      // Range past the end. "bytes */N" says how large the file is: an empty
      // file is always answered so, as no range of it exists.
      const size = /^\s*bytes\s+\*\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '');
      if (size) this.#total = Number(size[1]);
      await response.body?.cancel();
      return new Uint8Array(0);
    }
    if (response.status === 206) {
      const range = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '');
      if (range) this.#total = Number(range[1]);
      return bodyBytes(response, this.name, this.#signal, this.#readBlob);
    }
    this.#whole = await bodyBytes(response, this.name, this.#signal, this.#readBlob);
    this.#total = this.#whole.length;
    return this.#whole.subarray(offset, offset + length);
  }

  /** The file's size; once, however often it is called (the page's first script and then the loader). */
  size() {
    this.#sizeKnown ??= (async () => {
      if (this.#total === undefined) this.#prefix = await this.#request(0, PREFIX_BYTES);
      if (this.#total === undefined) throw new Error(`${this.name}: the server did not say how large the file is`);
      return this.#total;
    })();
    return this.#sizeKnown;
  }

  async read(offset, length) {
    if (length === 0) return new Uint8Array(0);
    if (this.#whole) return this.#whole.subarray(offset, offset + length);
    if (this.#prefix && offset + length <= this.#prefix.length) return this.#prefix.subarray(offset, offset + length);
    const bytes = await this.#requestOnce(offset, length, { reading: true });
    if (bytes.length !== Math.min(length, Math.max(0, this.#total - offset))) {
      throw new Error(`${this.name}: asked for ${length} bytes at ${offset}, got ${bytes.length}`);
    }
    return bytes;
  }

  /**
   * Asks for bytes a later read() will want, without waiting for them (the
   * loader asks for the tables as soon as it has seen the header).
   */
  prefetch(offset, length) {
    if (this.#whole || length <= 0 || (this.#prefix && offset + length <= this.#prefix.length)) return;
    this.#requestOnce(offset, length).catch(() => {});
  }

  /**
   * Asks for bytes where the tables are expected to be, before the header
   * has said where they are (guessTableRanges); settleGuesses then keeps the
   * guesses the header confirms and cancels the others.
   */
  guess(offset, length) {
    if (this.#whole || length <= 0 || this.#rangeHolding(offset, length)) return;
    const controller = new AbortController();
    const signal = this.#signal;
    signal?.addEventListener('abort', () => controller.abort(abortReason(signal)), { once: true });
    this.#requestOnce(offset, length, { guessed: controller }).catch(() => {});
  }

  /** A guess is kept when it holds a confirmed range or a read has used it (its bytes are the file's either way); the others are cancelled. */
  settleGuesses(confirmed) {
    const kept = (range) => range.read || confirmed.some(({ offset, length }) =>
      range.offset <= offset && offset + length <= range.offset + range.length);
    for (const range of this.#ranges) if (range.guessed && !kept(range)) range.guessed.abort();
    this.#ranges = this.#ranges.filter((range) => !range.guessed || kept(range));
    for (const range of this.#ranges) range.guessed = undefined;
  }

  /**
   * A whole small file (config.json, tokenizer.json): one plain request,
   * rather than a probe for the size and then the body. Once, however often
   * it is called (the page's first script and then the loader).
   */
  readAll() {
    if (this.#whole) return Promise.resolve(this.#whole);
    this.#wholeRead ??= (async () => {
      this.#whole = await bodyBytes(await fetchFile(this.#url, this.name, { signal: this.#signal }), this.name, this.#signal, this.#readBlob);
      this.#total = this.#whole.length;
      return this.#whole;
    })();
    return this.#wholeRead;
  }

  async close() { this.#ranges = []; }
}
