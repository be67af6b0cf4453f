// The weights' requests made as early as a page can make them. This module
// imports only the HTTP source (sources/http.js, which imports nothing
// else), so that a page's first script (web/page/first-requests.js, built
// into a small classic script) can hold it and ask for the weights before
// the package and its WebAssembly have arrived; the package's loader then
// takes the source that script opened (takeEarlySource), with its requests
// already in flight.
import { urlSource } from './sources/http.js';

// The names the C++ loader looks for a token or position table under
// (checkpointTableNames() in the bindings;
// tests/js/loading/early-requests.test.js checks that the two lists agree).
// Only for asking for the tables early: which table is which, and whether
// the file is sound, the C++ loader decides.
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
 * signal, takes this source rather than asking again. `readBlob`: how a
 * large body's bytes are read (sources/http.js; the chapter page reads them
 * in a Worker, page/blob-reader.js).
 * @param {URL} url
 */
export function requestWeightsEarly(url, { expectedTables = [], readBlob } = {}) {
  if (!(url instanceof URL) || earlySources.has(url.href)) return;
  const source = urlSource(url, url.href, undefined, { readBlob });
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
 * signal, takes this source as it takes the weights'. `readBlob`: as for
 * requestWeightsEarly.
 * @param {URL} url
 */
export function requestFileEarly(url, { readBlob } = {}) {
  if (!(url instanceof URL) || earlySources.has(url.href)) return;
  const source = urlSource(url, url.href, undefined, { readBlob });
  source.readAll().catch(() => {});  // the load that takes the source reports a failure
  earlySources.set(url.href, source);
}

/** The source requestWeightsEarly or requestFileEarly opened for this URL, once (a later load opens its own), or undefined. */
export function takeEarlySource(url) {
  const source = earlySources.get(url.href);
  earlySources.delete(url.href);
  return source;
}
