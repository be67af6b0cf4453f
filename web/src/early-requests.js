// The weights' HTTP byte source, and the weights' requests made as early as
// a page can make them. This module imports nothing, so that a page's
// first script (web/page/first-requests.js, built into a small classic
// script) can hold it alone and ask for the weights before the package and
// its WebAssembly have arrived; the package's loader then takes the source
// that script opened (takeEarlySource), with its requests already in flight.

// What a fired signal rejects with: its reason (an AbortError unless abort() was given another).
export const abortReason = (signal) => signal.reason ?? new DOMException('The load was aborted', 'AbortError');

/** Throws the signal's reason once it has fired. */
export function checkSignal(signal) {
  if (signal?.aborted) throw abortReason(signal);
}

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

async function bodyBytes(response, name, signal) {
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    checkSignal(signal);
    throw new Error(`${name}: the download broke off (${error.message})`);
  }
}

// Range requests where the server supports them; otherwise the whole body
// arrives with the first request and later reads are served from it.
const PREFIX_BYTES = 16384;

export function urlSource(url, name, signal) {
  let whole;
  let total;
  // The first bytes, fetched by size(): enough for the 8-byte length and,
  // for a small model, the whole safetensors header, so the header needs no
  // round trip of its own.
  let prefix;
  let sizeKnown;
  // The whole file's request (readAll), once asked for.
  let wholeRead;
  // Every range asked for while the source is open (by read or prefetch),
  // as { offset, length, bytes: Promise }: a read inside one of them is
  // served from it, so bytes asked for ahead travel once. Dropped by close().
  let ranges = [];
  const rangeHolding = (offset, length) =>
    ranges.find((range) => range.offset <= offset && offset + length <= range.offset + range.length);
  function requestOnce(offset, length, { guessed, reading = false } = {}) {
    let range = rangeHolding(offset, length);
    if (!range) {
      range = { offset, length, bytes: request(offset, length, guessed?.signal ?? signal), guessed };
      range.bytes.catch(() => {});  // a prefetch nobody reads must not be an unhandled rejection
      ranges.push(range);
    }
    if (reading) range.read = true;
    return range.bytes.then((bytes) => bytes.subarray(offset - range.offset, offset - range.offset + length));
  }
  async function request(offset, length, requestSignal = signal) {
    const response = await fetchFile(url, name, {
      headers: { Range: `bytes=${offset}-${offset + length - 1}` },
      signal: requestSignal,
      accept: (status) => status === 416,
    });
    if (response.status === 416) {
      // Range past the end. "bytes */N" says how large the file is: an empty
      // file is always answered so, as no range of it exists.
      const size = /^\s*bytes\s+\*\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '');
      if (size) total = Number(size[1]);
      await response.body?.cancel();
      return new Uint8Array(0);
    }
    if (response.status === 206) {
      const range = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '');
      if (range) total = Number(range[1]);
      return bodyBytes(response, name, signal);
    }
    whole = await bodyBytes(response, name, signal);
    total = whole.length;
    return whole.subarray(offset, offset + length);
  }
  return {
    name,
    // Once, however often it is called (the page's first script and then the loader).
    size() {
      sizeKnown ??= (async () => {
        if (total === undefined) prefix = await request(0, PREFIX_BYTES);
        if (total === undefined) throw new Error(`${name}: the server did not say how large the file is`);
        return total;
      })();
      return sizeKnown;
    },
    async read(offset, length) {
      if (length === 0) return new Uint8Array(0);
      if (whole) return whole.subarray(offset, offset + length);
      if (prefix && offset + length <= prefix.length) return prefix.subarray(offset, offset + length);
      const bytes = await requestOnce(offset, length, { reading: true });
      if (bytes.length !== Math.min(length, Math.max(0, total - offset))) {
        throw new Error(`${name}: asked for ${length} bytes at ${offset}, got ${bytes.length}`);
      }
      return bytes;
    },
    // Asks for bytes a later read() will want, without waiting for them
    // (the loader asks for the tables as soon as it has seen the header).
    prefetch(offset, length) {
      if (whole || length <= 0 || (prefix && offset + length <= prefix.length)) return;
      requestOnce(offset, length).catch(() => {});
    },
    // Asks for bytes where the tables are expected to be, before the header
    // has said where they are (guessTableRanges); settleGuesses then keeps
    // the guesses the header confirms and cancels the others.
    guess(offset, length) {
      if (whole || length <= 0 || rangeHolding(offset, length)) return;
      const controller = new AbortController();
      signal?.addEventListener('abort', () => controller.abort(abortReason(signal)), { once: true });
      requestOnce(offset, length, { guessed: controller }).catch(() => {});
    },
    // A guess is kept when it holds a confirmed range or a read has used it
    // (its bytes are the file's either way); the others are cancelled.
    settleGuesses(confirmed) {
      const kept = (range) => range.read || confirmed.some(({ offset, length }) =>
        range.offset <= offset && offset + length <= range.offset + range.length);
      for (const range of ranges) if (range.guessed && !kept(range)) range.guessed.abort();
      ranges = ranges.filter((range) => !range.guessed || kept(range));
      for (const range of ranges) range.guessed = undefined;
    },
    // A whole small file (config.json, tokenizer.json): one plain request,
    // rather than a probe for the size and then the body. Once, however
    // often it is called (the page's first script and then the loader).
    readAll() {
      if (whole) return Promise.resolve(whole);
      wholeRead ??= (async () => {
        whole = await bodyBytes(await fetchFile(url, name, { signal }), name, signal);
        total = whole.length;
        return whole;
      })();
      return wholeRead;
    },
    async close() { ranges = []; },
  };
}

// The names the C++ loader looks for a token or position table under
// (checkpointTableNames() in the bindings; tests/js/early-requests.test.js
// checks that the two lists agree). Only for asking for the tables early: which
// table is which, and whether the file is sound, the C++ loader decides.
// The position tables first, as the C++ loader reads them: the small one
// is asked for before the large one. (The other way round, Chromium was seen
// to send the position table's request twice: its HTTP cache takes the
// range requests of one URL in turn. tests/browser/page-loading.test.js
// counts the page's requests.)
const TABLE_NAMES = [
  'transformer.wpe.weight', 'wpe.weight', 'model.decoder.embed_positions.weight', 'decoder.embed_positions.weight',
  'transformer.wte.weight', 'wte.weight', 'model.embed_tokens.weight', 'gpt_neox.embed_in.weight',
  'model.decoder.embed_tokens.weight', 'decoder.embed_tokens.weight',
];
/** For the tests: the names above, to compare with the C++ loader's. */
export const earlyTableNamesForTests = Object.freeze([...TABLE_NAMES]);
// A header longer than this is left to the C++ loader alone (real ones are
// well under a megabyte; the C++ loader takes up to 100 MB).
const MAX_EARLY_HEADER_BYTES = 16 * 1024 * 1024;
// Nor is a table of more bytes than one table may take (the C++ loader's bound) asked for early.
const MAX_EARLY_TABLE_BYTES = 2 ** 30;

/**
 * Asks for the tables' bytes (source.prefetch) as soon as the weights' first
 * bytes are in, from a reading of the header in JavaScript, so that their
 * requests do not wait for the tables' WebAssembly instance: over HTTP that
 * is the module's compilation and start-up, and on a page the main thread's
 * other work. It only schedules fetches and trusts nothing: the C++ loader
 * reads the header again, checks it all and reads what it needs, served from
 * these requests when the bytes are the same. A header this reading cannot
 * make sense of schedules nothing. Calls `requested` once it has asked.
 */
export function askForTablesEarly(source, sizePromise, requested) {
  if (!source.prefetch) return;
  let ranges = [];
  sizePromise.then(async (size) => {
    if (size < 8) return;
    const first = await source.read(0, 8);
    const headerLength = new DataView(first.buffer, first.byteOffset, 8).getBigUint64(0, true);
    if (headerLength < 2n || headerLength > BigInt(Math.min(MAX_EARLY_HEADER_BYTES, size - 8))) return;
    const length = Number(headerLength);
    let header;
    try {
      header = JSON.parse(new TextDecoder().decode(await source.read(8, length)));
    } catch {
      return;
    }
    ranges = tableRangesOf(header, length, size);
    for (const { offset, length: bytes } of ranges) source.prefetch(offset, bytes);
    if (ranges.length) requested();
  }).catch(() => {})  // the C++ loader's own reads report what went wrong
    .finally(() => source.settleGuesses?.(ranges));
}

/**
 * Where a safetensors header (parsed JSON; `headerLength` bytes long, in a
 * file of `size` bytes) puts the tables the C++ loader looks for, as
 * [{ name, offset, length }] in file offsets, the position table first:
 * nothing for a header that is not an object, and no entry that could not
 * be a table of this file.
 */
export function tableRangesOf(header, headerLength, size) {
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return [];
  const dataStart = 8 + headerLength;
  const ranges = [];
  for (const name of TABLE_NAMES) {
    const offsets = Object.hasOwn(header, name) ? header[name]?.data_offsets : undefined;
    if (!Array.isArray(offsets) || offsets.length !== 2) continue;
    const [begin, end] = offsets;
    if (!Number.isSafeInteger(begin) || !Number.isSafeInteger(end) || begin < 0 || end <= begin ||
        end - begin > MAX_EARLY_TABLE_BYTES || dataStart + end > size) continue;
    ranges.push({ name, offset: dataStart + begin, length: end - begin });
  }
  return ranges;
}

// Sources opened by requestWeightsEarly, by URL, until a load takes them.
// The page's first script is a classic script holding its own copy of this
// module, so the one table of them is kept on the global object, under a
// key no other code uses.
const earlySources = (globalThis[Symbol.for('embeddings-and-position: weights requested early')] ??= new Map());

/**
 * Opens the weights at `url` now: their first bytes are asked for at once
 * and, as soon as those are in, the tables (askForTablesEarly). A page calls
 * this from its first script; loadModel, given the same URL without a
 * signal, takes this source rather than asking again.
 * @param {URL} url
 */
export function requestWeightsEarly(url, { expectedTables = [] } = {}) {
  if (!(url instanceof URL) || earlySources.has(url.href)) return;
  const source = urlSource(url, url.href);
  const size = source.size();
  size.catch(() => {});  // the load that takes the source reports a failure
  // The ranges the page expects the tables at leave beside the first bytes,
  // not a round trip (and, on a busy page, a long task) after them; the
  // header read below confirms them or cancels them.
  for (const { offset, length } of expectedTables) {
    if (Number.isSafeInteger(offset) && Number.isSafeInteger(length) && offset >= 0 && length > 0) source.guess(offset, length);
  }
  askForTablesEarly(source, size, () => {});
  earlySources.set(url.href, source);
}

/**
 * Asks for a whole small file at `url` now (config.json, tokenizer.json: the
 * request the page preloads, one plain GET), so that its answer is read in
 * while the document is parsed and laid out, not by main-thread tasks queued
 * behind the bundle's first work. loadModel, given the same URL without a
 * signal, takes this source as it takes the weights'.
 * @param {URL} url
 */
export function requestFileEarly(url) {
  if (!(url instanceof URL) || earlySources.has(url.href)) return;
  const source = urlSource(url, url.href);
  source.readAll().catch(() => {});  // the load that takes the source reports a failure
  earlySources.set(url.href, source);
}

/** The source requestWeightsEarly or requestFileEarly opened for this URL, once (a later load opens its own), or undefined. */
export function takeEarlySource(url) {
  const source = earlySources.get(url.href);
  earlySources.delete(url.href);
  return source;
}
