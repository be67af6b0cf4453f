// Sharded checkpoints: a model.safetensors.index.json given as the weights
// names the shard that holds the tables, which is opened in its place.
//
// The index is a file nobody has checked, so it is trusted with nothing: its
// size and shape are bounded before it is parsed, the shard it names must be
// a plain file name that stays beside it (same origin, same folder; in Node,
// the same folder on disk), checked before any request or file open, and its
// total_size must be a byte count that can hold the tables.
import { openSource, settleInput } from '../sources/index.js';
import { askForTablesEarly } from '../early-requests.js';
import { hasEscapedCharacters, quote } from '../message.js';

// Index files of sharded checkpoints are a line per tensor: tens of
// kilobytes for a dense model, a few megabytes for the largest mixtures of
// experts (tens of thousands of tensors). This bound keeps a wrong file from
// being read whole.
export const MAX_INDEX_BYTES = 16 * 1024 * 1024;
// An index is an object of a metadata object and a weight_map object of
// strings: 2 levels below the top and 3 objects. JSON.parse of 16 MiB of
// nested arrays took 7-9 s (and 300 MiB); these bounds refuse any such file
// in one pass over its bytes first, while leaving room for richer metadata.
export const MAX_INDEX_DEPTH = 8;
export const MAX_INDEX_CONTAINERS = 1024;
// The longest file name most file systems allow, in bytes.
const MAX_SHARD_NAME_BYTES = 255;
const utf8 = new TextEncoder();

/**
 * Whether the weights given are a sharded checkpoint's index
 * (model.safetensors.index.json) rather than a safetensors file: JSON text
 * where a safetensors file has its header's length, a length no file of
 * this size could hold.
 */
function looksLikeShardIndex(first, size) {
  if (first.length < 8 || first[0] !== 0x7b) return false;  // "{"
  const length = new DataView(first.buffer, first.byteOffset, 8).getBigUint64(0, true);
  return length > BigInt(size - 8);
}

/**
 * Refuses, by what is wrong with it, a shard name that is not a plain file
 * name: one that could name a file anywhere but beside the index once it is
 * resolved as a URL or joined to a path. Checked before any request or open.
 */
function checkShardName(indexName, file) {
  const refuse = (why) => {
    throw new Error(`${indexName}: the shard name ${quote(file)} ${why}; a shard must be a file beside the index, ` +
      'named as it is (such as "model-00001-of-00002.safetensors")');
  };
  if (file === '') refuse('is empty');
  const bytes = utf8.encode(file).length;
  if (bytes > MAX_SHARD_NAME_BYTES) refuse(`is ${bytes} bytes long, more than the ${MAX_SHARD_NAME_BYTES} a file name may have`);
  // (The URL parser drops tabs and newlines, and spaces at either end: ".\t." would be "..".)
  if (hasEscapedCharacters(file)) refuse('holds a control or text-direction character');
  if (file !== file.trim()) refuse('starts or ends with a space');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(file);
  if (scheme) refuse(`starts with a URL scheme (${scheme[1].toLowerCase()}:), which would lead to another place`);
  if (/[/\\]/.test(file)) refuse('holds a folder separator (/ or \\)');
  if (file === '.' || file === '..') refuse('names a folder');
  if (/%[0-9a-f]{2}/i.test(file)) refuse('holds a percent escape (such as %2e, a dot), which a URL would decode');
  if (/[?#]/.test(file)) refuse('holds a ? or #, which a URL would read as a query or a fragment');
}

/** Where a shard named in an index lies: beside the index (a URL or a path), checked to be there. */
async function shardBeside(indexInput, indexName, file) {
  checkShardName(indexName, file);
  if (indexInput instanceof URL) return urlBeside(indexInput, indexName, file);
  if (typeof indexInput === 'string') {
    if (/^[a-z][a-z0-9+.-]*:/i.test(indexInput) || typeof document !== 'undefined') {
      let base;
      try {
        base = new URL(indexInput, typeof document !== 'undefined' ? document.baseURI : undefined);
      } catch {
        throw new TypeError(`${indexName}: the index's address is not a URL`);
      }
      return urlBeside(base, indexName, file);
    }
    const { dirname, join } = await import('#platform');
    const path = join(dirname(indexInput), file);
    // In the index's folder (as join() normalises it), lexically,
    // not through symbolic links: a Hugging Face cache's snapshot folder
    // holds links to its blobs folder, and those are the model's own.
    if (dirname(path) !== join(dirname(indexInput), '.')) {
      throw new Error(`${indexName}: the shard name ${quote(file)} leads out of the index's folder`);
    }
    return path;
  }
  throw new Error(`${indexName}: a sharded checkpoint's index given as bytes cannot say where its shards are; ` +
    'give the index as a URL or a file path, or give the shard with the tables as the weights');
}

/** The shard's URL: beside the index, on its origin, in its folder; refused otherwise. */
function urlBeside(base, indexName, file) {
  // A data: or blob: URL has no folder for a shard to be in (new URL would say only "Invalid URL").
  if (!base.pathname.startsWith('/')) {
    throw new Error(`${indexName}: a sharded checkpoint's index given as a ${base.protocol} URL has no folder, so it ` +
      'cannot say where its shards are; give the index by its own URL or file path, or the shard with the tables as the weights');
  }
  const url = new URL(file, base);
  const folder = (u) => u.pathname.slice(0, u.pathname.lastIndexOf('/') + 1);
  if (url.protocol !== base.protocol || url.host !== base.host || folder(url) !== folder(base) || url.search || url.hash) {
    throw new Error(`${indexName}: the shard name ${quote(file)} leads out of the index's folder (to another ` +
      `${url.protocol !== base.protocol || url.host !== base.host ? 'origin' : 'folder'})`);
  }
  return url;
}

/**
 * Refuses an index whose JSON nests deeper than MAX_INDEX_DEPTH or holds
 * more than MAX_INDEX_CONTAINERS objects and arrays, in one pass over its
 * bytes (strings skipped), before JSON.parse sees it. Text that is not JSON
 * passes: the parse says so.
 */
function checkIndexShape(bytes, name) {
  let depth = 0, containers = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x22) {  // a string: up to its closing quote, escapes skipped
      for (i++; i < bytes.length && bytes[i] !== 0x22; i++) if (bytes[i] === 0x5c) i++;
    } else if (b === 0x7b || b === 0x5b) {  // { [
      if (++depth > MAX_INDEX_DEPTH) {
        throw new Error(`${name}: the index nests more than ${MAX_INDEX_DEPTH} levels deep (at byte ${i}); ` +
          'a sharded checkpoint\'s index is an object of "metadata" and "weight_map" (tensor names to shard files), 2 levels deep');
      }
      if (++containers > MAX_INDEX_CONTAINERS) {
        throw new Error(`${name}: the index holds more than ${MAX_INDEX_CONTAINERS} objects and arrays (at byte ${i}); ` +
          'a sharded checkpoint\'s index holds 3: the top level, "metadata" and "weight_map"');
      }
    } else if (b === 0x7d || b === 0x5d) {  // } ]
      depth--;
    }
  }
}

/**
 * The index's metadata.total_size (the bytes of every tensor of every
 * shard), or undefined where it gives none. One it gives must be a whole
 * number of bytes (true, 1e300 or "12" are refused here) that holds at least
 * the tables (checkTables, once the shard's header has said their bytes:
 * 123 for tables of 9,120 bytes is refused), as the parameter count is made
 * of it.
 */
function totalSize(index, name) {
  const metadata = index.metadata;
  if (metadata === undefined || metadata === null) return undefined;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw new Error(`${name}: the index's "metadata" is ${describeJson(metadata)}, not an object`);
  }
  if (!('total_size' in metadata)) return undefined;
  const total = metadata.total_size;
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) {
    throw new Error(`${name}: the index's metadata.total_size is ${describeJson(total)}; it must be the bytes of ` +
      `every tensor in every shard, a whole number (at most ${Number.MAX_SAFE_INTEGER})`);
  }
  return total;
}

const describeJson = (value) => (typeof value === 'string' ? `the string ${quote(value)}`
  : Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value));

/**
 * The opened weights, or, when they are a sharded checkpoint's index, the
 * shard holding the token table (and the position table: both must be in
 * that one shard), opened in their place. The other shards are never asked for.
 */
export async function openShardWithTables(module, opened, weightsInput, signal, requested) {
  const { source, sizePromise } = opened;
  let size;
  try {
    size = await sizePromise;
    const first = await source.read(0, Math.min(8, size));
    if (!looksLikeShardIndex(first, size)) return { source, sizePromise };
    if (size > MAX_INDEX_BYTES) {
      throw new Error(`${source.name}: a sharded checkpoint's index of ${size} bytes is more than the ` +
        `${MAX_INDEX_BYTES} (16 MiB) one may be; the largest checkpoints' indexes are a few MiB`);
    }
    // (Over HTTP, a small index is already in the first bytes size() fetched.)
    const bytes = await source.read(0, size);
    checkIndexShape(bytes, source.name);
    let index;
    try {
      index = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      index = undefined;
    }
    const map = index?.weight_map;
    // Not an index either: the safetensors reader says what is wrong with it.
    if (typeof map !== 'object' || map === null || Array.isArray(map)) return { source, sizePromise };
    const totalBytes = totalSize(index, source.name);
    const names = module.checkpointTableNames().split(', ');
    const found = names.filter((name) => typeof map[name] === 'string');
    if (!found.length) {
      throw new Error(`${source.name}: the index names no token embedding table (expected one of ${names.join(', ')})`);
    }
    const files = [...new Set(found.map((name) => map[name]))];
    if (files.length > 1) {
      throw new Error(`${source.name}: the tables are in different shards (${found.map((name) => `${name} in ${quote(map[name])}`).join(', ')}); ` +
        'this module reads them from one shard');
    }
    const shardInput = await settleShard(weightsInput, source.name, files[0], signal);
    const shard = await openSource(shardInput, 'weights', { signal });
    const shardSize = shard.size();
    shardSize.catch(() => {});
    askForTablesEarly(shard, shardSize, requested);
    await source.close();
    const indexName = source.name;
    // total_size against the tables, once the shard's header has said their bytes (tables.js).
    const checkTables = (tablesBytes) => {
      if (totalBytes !== undefined && totalBytes < tablesBytes) {
        throw new Error(`${indexName}: the index's metadata.total_size is ${totalBytes} bytes, fewer than the ` +
          `${tablesBytes} of the embedding tables alone; it must count the bytes of every tensor in every shard`);
      }
    };
    return { source: shard, sizePromise: shardSize, shards: { indexName, totalBytes, checkTables } };
  } catch (error) {
    await source.close();
    throw error;
  }
}

async function settleShard(weightsInput, indexName, file, signal) {
  const input = await settleInput(weightsInput, 'weights', signal);
  return shardBeside(input, indexName, file);
}
