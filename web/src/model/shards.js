// Sharded checkpoints: a model.safetensors.index.json given as the weights
// names the shard that holds the tables, which is opened in its place.
import { openSource, settleInput } from '../sources/index.js';
import { askForTablesEarly } from '../early-requests.js';

// Index files of sharded checkpoints are a few hundred kilobytes at most
// (one line per tensor); this bound keeps a wrong file from being read whole.
const MAX_INDEX_BYTES = 16 * 1024 * 1024;

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

/** Where a shard named in an index lies: beside the index (a URL or a path). */
async function shardBeside(indexInput, indexName, file) {
  if (file.includes('/') || file.includes('\\') || file === '..' || file === '.') {
    throw new Error(`${indexName}: the shard name ${JSON.stringify(file)} is not a file name beside the index`);
  }
  if (indexInput instanceof URL) return new URL(file, indexInput);
  if (typeof indexInput === 'string') {
    if (/^[a-z][a-z0-9+.-]*:/i.test(indexInput) || typeof document !== 'undefined') {
      return new URL(file, new URL(indexInput, typeof document !== 'undefined' ? document.baseURI : undefined));
    }
    const { pathBeside } = await import('#platform');
    return pathBeside(indexInput, file);
  }
  throw new Error(`${indexName}: a sharded checkpoint's index given as bytes cannot say where its shards are; ` +
    'give the index as a URL or a file path, or give the shard with the tables as the weights');
}

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
    if (size > MAX_INDEX_BYTES) throw new Error(`${source.name}: a sharded checkpoint's index of ${size} bytes is more than the ${MAX_INDEX_BYTES} one may be`);
    // (Over HTTP, a small index is already in the first bytes size() fetched.)
    const text = new TextDecoder().decode(await source.read(0, size));
    let index;
    try {
      index = JSON.parse(text);
    } catch {
      index = undefined;
    }
    const map = index?.weight_map;
    // Not an index either: the safetensors reader says what is wrong with it.
    if (typeof map !== 'object' || map === null || Array.isArray(map)) return { source, sizePromise };
    const names = module.checkpointTableNames().split(', ');
    const found = names.filter((name) => typeof map[name] === 'string');
    if (!found.length) {
      throw new Error(`${source.name}: the index names no token embedding table (expected one of ${names.join(', ')})`);
    }
    const files = [...new Set(found.map((name) => map[name]))];
    if (files.length > 1) {
      throw new Error(`${source.name}: the tables are in different shards (${found.map((name) => `${name} in ${map[name]}`).join(', ')}); ` +
        'this module reads them from one shard');
    }
    const shardInput = await settleShard(weightsInput, source.name, files[0], signal);
    const shard = await openSource(shardInput, 'weights', { signal });
    const shardSize = shard.size();
    shardSize.catch(() => {});
    askForTablesEarly(shard, shardSize, requested);
    await source.close();
    const totalBytes = Number(index.metadata?.total_size);
    return { source: shard, sizePromise: shardSize, shards: { indexName: source.name, totalBytes: Number.isFinite(totalBytes) ? totalBytes : 0 } };
  } catch (error) {
    await source.close();
    throw error;
  }
}

async function settleShard(weightsInput, indexName, file, signal) {
  const input = await settleInput(weightsInput, 'weights', signal);
  return shardBeside(input, indexName, file);
}
