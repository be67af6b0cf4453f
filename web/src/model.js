// loadModel() and the Model it gives: the token and position tables, the
// tokenizer, traces, nearest tokens and cosine maps.
import { instantiate, mark } from './runtime.js';
import { DTYPES, Matrix, checkIndex, describe, rowView } from './matrix.js';
import { checkSignal, isUtf8, notUtf8, openSource, readBytes, readText, settleInput } from './sources.js';
import { askForTablesEarly } from './early-requests.js';
import { defaultModelFiles } from './default-model.js';
import { checkFloat32, checkMapSize, cosineMatrixOf, registerHost, releaseHost } from './vectors.js';
import { mapRows } from './map.js';

const TOKEN = 0;
const POSITION = 1;
/** The longest text encode() and trace() take at once, in bytes of UTF-8 (and the most ids decode() takes). */
export const MAX_TEXT_BYTES = 8 * 1024 * 1024;
// Texts of at most this many UTF-16 units are encoded through the session's
// kept buffer (TokenizerHost.encode), which starts at SHORT_TEXT_ROOM bytes
// and is never more than three times this.
const SHORT_TEXT = 16384;
const SHORT_TEXT_ROOM = 4096;
// How many tokens trace() counts exactly before it says "more than".
const COUNT_LIMIT = 4096;
const utf8 = new TextEncoder();
const exactUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
// Text up to this many bytes is read from memory by hand when it is ASCII.
const SHORT_TEXT_BYTES = 16;
// A display form spells a byte in at most this many characters ("<0xNN>"),
// so a text longer than that many per byte of the longest token, with some
// margin, is never one token and is not looked up.
const DISPLAY_CHARS_PER_BYTE = 6;
const TOKEN_LOOKUP_MARGIN = 16;
// tokenId() lists the pieces of a text that is not one token only up to this
// length; past it the message would be longer than the reader wants.
const LONGEST_TEXT_SPLIT_IN_MESSAGES = 1000;
const inspect = Symbol.for('nodejs.util.inspect.custom');
const tableOwners = new WeakMap();

/**
 * The rows × rows cosine map of any table: in place for a model's own
 * tables, from a copy for others.
 */
export function cosineMatrix(table) {
  const owner = tableOwners.get(table);
  return owner ? owner.cosineMatrix(table) : cosineMatrixOf(table);
}

export { defaultModelFiles };

/**
 * Loads a model's embedding tables (GPT-2, Llama, Mistral, Qwen, Gemma, Phi,
 * GPT-NeoX or OPT tensor names; a sharded checkpoint by its
 * model.safetensors.index.json) and tokenizer.
 *
 * With no argument, loads the default model shipped with the package. Each
 * file may be a URL (browser; the weights are fetched with range requests,
 * so only the two tables travel), a file path (Node), an ArrayBuffer, a
 * typed array or a Blob. `config` may also be an already-parsed object,
 * and `tokenizer` an already-loaded Model whose tokenizer is then shared
 * (training snapshots of one model load without parsing it again). A
 * Promise of any of these is awaited, a fetch() Response is read. `signal`
 * (an AbortSignal) abandons the load: it rejects with the signal's reason.
 *
 * @param {{ weights: any, config?: any, tokenizer?: any, onProgress?: (p: {loaded: number, total: number, stage: string}) => void, signal?: AbortSignal }} [files]
 */
export async function loadModel(files = defaultModelFiles) {
  if (typeof files !== 'object' || files === null || ArrayBuffer.isView(files) || files instanceof ArrayBuffer) {
    throw new TypeError(`loadModel: expected { weights, config, tokenizer }, got ${describe(files)}`);
  }
  const unknown = Object.keys(files).filter((key) => !['weights', 'config', 'tokenizer', 'onProgress', 'signal'].includes(key));
  if (unknown.length) throw new TypeError(`loadModel: unknown option ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  if (files.weights === undefined) throw new TypeError('loadModel: the weights file (a .safetensors) is required');
  const progress = typeof files.onProgress === 'function' ? files.onProgress : () => {};
  const { signal } = files;
  if (signal !== undefined && !(typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal)) {
    throw new TypeError(`loadModel: signal must be an AbortSignal, got ${describe(signal)}`);
  }
  checkSignal(signal);

  // The three files load in parallel; the weights are the slow one. The
  // tokenizer's parse (main-thread work) waits until the tables' requests
  // are on their way, so it runs while their bytes travel rather than
  // delaying the requests.
  let tablesRequested;
  const tablesInFlight = new Promise((resolve) => { tablesRequested = resolve; });
  const [tables, tokenizer] = await Promise.all([
    loadTables(files.weights, files.config, progress, tablesRequested, signal),
    files.tokenizer === undefined ? Promise.resolve(undefined)
      : settleInput(files.tokenizer, 'tokenizer', signal).then((tokenizer) => (tokenizer instanceof Model
        ? shareTokenizer(tokenizer) : loadTokenizer(tokenizer, tablesInFlight, signal))),
  ].map((promise) => promise.then((value) => ({ value }), (error) => ({ error }))))
    .then((results) => {
      const failed = results.find((result) => result.error);
      if (failed) {
        for (const result of results) result.value?.dispose();
        throw failed.error;
      }
      return results.map((result) => result.value);
    });
  if (signal?.aborted) {
    // Aborted while the last step ran: the caller no longer wants the model.
    tokenizer?.dispose();
    tables.dispose();
    checkSignal(signal);
  }
  if (tokenizer && tokenizer.vocabSize > tables.vocabSize) {
    const message = `${tokenizer.name}: the tokenizer has ${tokenizer.vocabSize} tokens but the token table ` +
      `${tables.tokenTableName} has only ${tables.vocabSize} rows`;
    tokenizer.dispose();
    tables.dispose();
    throw new Error(message);
  }
  // The rows of a padded token table past the tokenizer's last id have no token.
  if (tokenizer) tables.session.setRowsWithTokens(tokenizer.vocabSize);
  return new Model(tables, tokenizer);
}

// ---- The tables instance ------------------------------------------------------

async function loadTables(weightsInput, configInput, progress, requested = () => {}, signal = undefined) {
  try {
    return await loadTablesNow(weightsInput, configInput, progress, requested, signal);
  } finally {
    requested();  // also when loading failed first: nothing waits forever
  }
}

async function loadTablesNow(weightsInput, configInput, progress, requested, signal) {
  const opened = await openTableFiles(weightsInput, configInput, signal, requested);
  const { module, config } = opened;
  // A sharded checkpoint's index names the shard with the tables: only that one is opened.
  const { source, sizePromise, shards } = await openShardWithTables(module, opened, weightsInput, signal, requested);
  const session = new module.ModelSession();
  // The session's messages name no file; which one it was about, it says.
  const fail = () => {
    throw new Error(`${session.errorIsAboutConfig() ? config.name : source.name}: ${session.error()}`);
  };
  try {
    await readWeightsHeader(module, session, source, await sizePromise, fail);
    mark('load:header-read');
    await readTables(module, session, source, progress, requested);
    mark('load:tables-copied');
    if (config !== undefined) readConfig(module, session, config, fail);
    if (shards) session.setOneShardOfMany();
    if (!session.finish()) fail();
  } catch (error) {
    session.delete();
    throw error;
  } finally {
    await source.close();
  }
  const host = new TablesHost(module, session, source.name);
  if (config !== undefined && !host.hasPositionTable) host.rotary = rotaryOf(config.text);
  if (shards) {
    // The shard's header counts its own tensors only; the index's total_size
    // counts every shard's bytes, at the token table's bytes per number.
    const bytesPerNumber = session.tableBytes(TOKEN) / (host.vocabSize * host.width);
    if (shards.totalBytes > 0) host.parameterCount = Math.round(shards.totalBytes / bytesPerNumber);
    host.shardIndex = shards.indexName;
  }
  return host;
}

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
    const { dirname, join } = await import('node:path');
    return join(dirname(indexInput), file);
  }
  throw new Error(`${indexName}: a sharded checkpoint's index given as bytes cannot say where its shards are; ` +
    'give the index as a URL or a file path, or give the shard with the tables as the weights');
}

/**
 * The opened weights, or, when they are a sharded checkpoint's index, the
 * shard holding the token table (and the position table: both must be in
 * that one shard), opened in their place. The other shards are never asked for.
 */
async function openShardWithTables(module, opened, weightsInput, signal, requested) {
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

// Starts everything that can travel at once: the module instantiates while
// the files open and the weights' first bytes travel (one round trip fewer
// before the tables are asked for), and the tables are asked for as soon as
// those first bytes are in.
async function openTableFiles(weightsInput, configInput, signal, requested) {
  const instancePromise = instantiate('tables');
  instancePromise.catch(() => {});  // awaited below; a failure is reported there
  const configPromise = configInput === undefined ? Promise.resolve(undefined) : readText(configInput, 'config', { signal });
  configPromise.catch(() => {});
  const source = await openSource(weightsInput, 'weights', { signal });
  // The weights' first bytes (their size and header) are asked for at once,
  // beside config.json, not after it: over HTTP that is the first round trip
  // of the weights, and the tables' requests can only follow it.
  const sizePromise = source.size();
  sizePromise.catch(() => {});
  askForTablesEarly(source, sizePromise, requested);
  try {
    const config = await configPromise;
    const module = await instancePromise;
    return { module, source, config, sizePromise };
  } catch (error) {
    await source.close();
    throw error;
  }
}

// The header's length, then the header; reading it allocates everything
// the model will need.
async function readWeightsHeader(module, session, source, size, fail) {
  // The bytes before the header: its length (safetensors' 8).
  const prefixBytes = module.prefixBytes();
  const prefix = await source.read(0, Math.min(prefixBytes, size));
  module.HEAPU8.set(prefix, session.prefixBuffer());
  if (!session.begin(prefix.length, size)) fail();
  const header = await source.read(prefixBytes, session.headerLength());
  // Ask for the pointer before touching HEAPU8: allocating may grow
  // memory, which replaces the buffer behind HEAPU8.
  const headerPointer = session.headerBuffer();
  if (!headerPointer) fail();
  module.HEAPU8.set(header, headerPointer);
  if (!session.readHeader()) fail();
}

// Both tables at once (two range requests in flight); they are copied in
// only when both have settled, so a failure never writes into freed memory.
async function readTables(module, session, source, progress, requested) {
  const total = session.tableBytes(TOKEN) + session.tableBytes(POSITION);
  let loaded = 0;
  progress({ loaded, total, stage: 'weights' });
  // A model with rotary positions has no position table to read.
  const order = [POSITION, TOKEN].filter((table) => session.tableBytes(table) > 0);
  const pending = Promise.allSettled(order.map((table) =>
    source.read(session.tableOffset(table), session.tableBytes(table)).then((bytes) => {
      loaded += bytes.length;
      progress({ loaded, total, stage: 'weights' });
      return bytes;
    })));
  requested();
  const reads = await pending;
  for (const read of reads) if (read.status === 'rejected') throw read.reason;
  order.forEach((table, i) => module.HEAPU8.set(reads[i].value, session.tableBuffer(table)));
}

/**
 * What config.json says of a model's rotary positions, for the page to
 * draw them: { ropeTheta, headSize, rotaryShare }, those it names (the C++
 * loader, which has checked the text, reads only the sizes).
 */
function rotaryOf(text) {
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  const positive = (x) => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : undefined);
  const out = {};
  const theta = positive(json?.rope_theta) ?? positive(json?.rotary_emb_base) ?? positive(json?.rope_parameters?.rope_theta);
  if (theta !== undefined) out.ropeTheta = theta;
  const head = positive(json?.head_dim);
  if (head !== undefined && Number.isInteger(head)) out.headSize = head;
  const share = positive(json?.partial_rotary_factor) ?? positive(json?.rotary_pct);
  if (share !== undefined && share <= 1) out.rotaryShare = share;
  return out;
}

function readConfig(module, session, config, fail) {
  const bytes = utf8.encode(config.text);
  const pointer = session.configBuffer(bytes.length);
  if (!pointer) fail();
  module.HEAPU8.set(bytes, pointer);
  if (!session.readConfig()) fail();
}

class TablesHost {
  constructor(module, session, name) {
    this.module = module;
    this.session = session;
    this.name = name;
    this.alive = true;
    this.vocabSize = session.vocabSize();
    this.width = session.width();
    this.context = session.context();
    this.hasPositionTable = session.hasPositionTable();
    // The tables stay in the file's number format (a 16-bit table is not widened).
    this.wteDtype = DTYPES[session.wteFormat()];
    this.wpeDtype = DTYPES[session.wpeFormat()];
    this.traceCapacity = session.traceCapacity();
    this.family = session.family();
    this.tokenTableName = session.tokenTableName();
    this.positionTableName = session.positionTableName();
    this.metadata = JSON.parse(readUtf8(module, session.metadataJson(), session.metadataJsonLength()));
    this.layers = session.configLayers() || undefined;
    this.heads = session.configHeads() || undefined;
    this.parameterCount = session.parameterCount();
    // Scratch for vectors from outside this instance (see vectors.js).
    this.vectorA = session.vectorA();
    this.vectorB = session.vectorB();
    this.chunk = module.vectorChunk();
    this.sums = session.sumsBuffer();
    this.pointers = {
      wte: session.wte(),
      wpe: session.wpe(),
      ids: session.idsBuffer(),
      tokenRows: session.tokenRows(),
      positionRows: session.positionRows(),
      sumRows: session.sumRows(),
      query: session.queryBuffer(),
      resultIds: session.resultIds(),
      resultScores: session.resultScores(),
      resultCount: session.resultCountAddress(),
      mapBlock: session.mapBlock(),
    };
    this.mapBlockSize = module.mapBlockSize();
    registerHost(this);
  }

  checkAlive() {
    if (!this.alive) throw new Error('This model has been disposed; load it again with loadModel()');
  }

  /** A Float32Array view of `count` floats at `pointer`, built on the current buffer. */
  floats(pointer, count) {
    return new Float32Array(this.module.HEAPF32.buffer, pointer, count);
  }

  /** A view of `count` numbers of a table of `dtype` at `pointer`: floats, or a 16-bit table's bits. */
  numbers(pointer, count, dtype) {
    return dtype === 'float32' ? this.floats(pointer, count) : new Uint16Array(this.module.HEAPU8.buffer, pointer, count);
  }

  dispose() {
    if (!this.alive) return;
    this.alive = false;
    this.session.delete();
    this.session = undefined;
    releaseHost(this);
  }
}

/**
 * UTF-8 from an instance's memory, exactly: Emscripten's own string
 * conversion drops a leading U+FEFF (its TextDecoder reads it as a byte
 * order mark), which would break decode(encode(s)) === s.
 */
function readUtf8(module, pointer, length) {
  const bytes = module.HEAPU8.subarray(pointer, pointer + length);
  // Short ASCII (most decoded tokens) is quicker by hand than through a call to the decoder.
  if (length <= SHORT_TEXT_BYTES) {
    let text = '';
    for (let i = 0; i < length; i++) {
      if (bytes[i] >= 0x80) return exactUtf8.decode(bytes);
      text += String.fromCharCode(bytes[i]);
    }
    return text;
  }
  return exactUtf8.decode(bytes);
}

// ---- The tokenizer instance ---------------------------------------------------

const tokenizerOfModel = new WeakMap();

function shareTokenizer(model) {
  const host = tokenizerOfModel.get(model);
  if (model.disposed) throw new Error('loadModel: the model whose tokenizer was given has been disposed');
  if (!host) throw new Error('loadModel: the model whose tokenizer was given has no tokenizer');
  host.refs++;
  return host;
}

async function loadTokenizer(input, after = Promise.resolve(), signal = undefined) {
  const { name, bytes: file } = await readBytes(input, 'tokenizer', { signal });
  await after;
  checkSignal(signal);
  // The bytes go to the module as they are, without a byte order mark (as
  // TextDecoder would drop it).
  const bytes = file[0] === 0xef && file[1] === 0xbb && file[2] === 0xbf ? file.subarray(3) : file;
  const full = needsFullModule(bytes);
  let loaded = await loadTokenizerIn(await instantiate('tokenizer', { full }), bytes);
  // A file the test below misjudged: the critical module names what it leaves out.
  if (!loaded.session && !full && LEFT_OUT.test(loaded.message)) {
    loaded = await loadTokenizerIn(await instantiate('tokenizer', { full: true }), bytes);
  }
  if (!loaded.session) {
    // The core says what is wrong; the file's name is the caller's to give.
    // Text that is not UTF-8 is said first, as for every other file: the
    // module checks UTF-8 as it reads (a file it loads is valid), so only a
    // refused file needs the check.
    if (!isUtf8(bytes)) throw notUtf8(name);
    throw new Error(`${name}: ${loaded.message}`);
  }
  mark('load:tokenizer-loaded');
  return new TokenizerHost(loaded.module, loaded.session, name);
}

async function loadTokenizerIn(module, bytes) {
  const session = new module.TextSession();
  // The pointer first: allocating it may grow memory and replace HEAPU8's buffer.
  const pointer = session.inputBuffer(bytes.length);
  if (!pointer || (module.HEAPU8.set(bytes, pointer), !session.load())) {
    const message = session.error();
    session.delete();
    return { message };
  }
  return { module, session };
}

// Whether a tokenizer.json has a component only embeddings-full.wasm holds
// (runtime.js): the critical one reads GPT-2's components only (a ByteLevel
// pre-tokenizer, no normalizer, a ByteLevel decoder or none, BPE without
// byte_fallback or subword affixes; any post-processor). Any other "type",
// a null pre-tokenizer, byte_fallback or an affix needs the full one. A token
// that merely contains such words (never seen in a real file) costs a
// needless fetch, not a wrong id: the full module reads every file the
// critical one does, identically; and where this test misses, the critical
// module refuses by name and the full one is fetched then.
const FULL_MODULE_TYPE = /"type"\s*:\s*"(?!(?:ByteLevel|BPE|TemplateProcessing|BertProcessing|RobertaProcessing)")/;
const FULL_MODULE_SETTING =
  /"pre_tokenizer"\s*:\s*null|"byte_fallback"\s*:\s*true|"(?:continuing_subword_prefix|end_of_word_suffix)"\s*:\s*"[^"]/;
const LEFT_OUT = /is left out of this build|are left out of this build/;
// The two patterns are tried on the file's bytes without decoding the file:
// each member whose key is one of these (found by a byte of it that is rare
// in a vocabulary, "_" or the "y" of "type", then checked byte by byte) is
// read as `"key":` and the value after its colon, decoded alone.
const FULL_MODULE_KEYS = ['type', 'pre_tokenizer', 'byte_fallback', 'continuing_subword_prefix', 'end_of_word_suffix']
  .map((key) => {
    const quoted = utf8.encode(`"${key}"`);
    const anchor = key.includes('_') ? 0x5f : 0x79;
    return { key, quoted, anchor, offset: quoted.indexOf(anchor) };
  });
// The keys by their anchor byte: a vocabulary has hundreds of "y"s, and
// each is checked against its own anchor's keys only, byte by byte, with no
// call per byte (the scan runs once per load, before V8 has optimised it).
const FULL_MODULE_ANCHORS = [0x79, 0x5f].map((anchor) => ({ anchor, keys: FULL_MODULE_KEYS.filter((key) => key.anchor === anchor) }));
const MEMBER_VALUE_BYTES = 64;
const memberValueDecoder = new TextDecoder();
/** For the tests (web/index.js does not export it). */
export function needsFullModule(bytes) {
  const isSpace = (b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
  for (const { anchor, keys } of FULL_MODULE_ANCHORS) {
    for (let found = bytes.indexOf(anchor); found >= 0; found = bytes.indexOf(anchor, found + 1)) {
      for (let k = 0; k < keys.length; k++) {
        const { key, quoted, offset } = keys[k];
        const start = found - offset;
        if (start < 0) continue;
        let same = 0;
        while (same < quoted.length && bytes[start + same] === quoted[same]) same++;
        if (same < quoted.length) continue;
        let value = start + quoted.length;
        while (isSpace(bytes[value])) value++;
        if (bytes[value] !== 0x3a) continue;  // ':'
        value++;
        while (isSpace(bytes[value])) value++;
        const member = `"${key}":${memberValueDecoder.decode(bytes.subarray(value, value + MEMBER_VALUE_BYTES))}`;
        if (FULL_MODULE_TYPE.test(member) || FULL_MODULE_SETTING.test(member)) return true;
      }
    }
  }
  return false;
}

class TokenizerHost {
  constructor(module, session, name) {
    this.module = module;
    this.session = session;
    this.name = name;
    this.vocabSize = session.vocabSize();
    // Ids below vocabSize that no token has (gaps in the file's numbering).
    this.unusedIds = this.vocabSize - session.tokenCount();
    this.maxTokenBytes = session.maxTokenBytes();
    // Where the session says what its last encode or decode produced:
    // [address, count, over the limit], as 32-bit words (wasm32). Addresses
    // pass 2^31 in a memory near 4 GiB, so they are shifted unsigned (>>>).
    this.output = session.outputAddress() >>> 2;
    // The session's buffer for short texts (encode): its address and size.
    this.textPointer = 0;
    this.textRoom = 0;
    this.texts = new Array(this.vocabSize);
    this.allTexts = undefined;
    this.refs = 1;  // Models using this tokenizer (see shareTokenizer).
  }

  /** Every id's display text, fetched in one call and kept. */
  vocabulary() {
    if (!this.allTexts) {
      this.allTexts = Object.freeze(JSON.parse(this.session.vocabularyJson()));
      this.allTexts.forEach((text, id) => { this.texts[id] = text; });
    }
    return this.allTexts;
  }

  /**
   * Token ids of a text, or null when `maxTokens` is given and the text has
   * more tokens than that (found without encoding all of it).
   */
  encode(text, caller, maxTokens = undefined) {
    // UTF-8 has at least one byte per UTF-16 unit: a cheap first check.
    if (text.length > MAX_TEXT_BYTES) throw tooLong(caller, text.length, 'characters');
    const { session, module } = this;
    let ok;
    if (text.length <= SHORT_TEXT) {
      // Written straight into the session's buffer, kept from call to call
      // (at most three bytes of UTF-8 per UTF-16 unit): no allocation for
      // the text on either side. TextEncoder turns lone
      // surrogates into U+FFFD, as the Hugging Face tokenizers do when they
      // receive such a string.
      const room = 3 * text.length;
      if (room > this.textRoom || !this.textPointer) {
        this.textPointer = session.textBuffer(Math.max(room, SHORT_TEXT_ROOM));
        if (!this.textPointer) throw new RangeError(`${caller}: ${session.error()}`);
        this.textRoom = Math.max(room, SHORT_TEXT_ROOM);
      }
      const { written } = utf8.encodeInto(text, module.HEAPU8.subarray(this.textPointer, this.textPointer + room));
      ok = maxTokens === undefined ? session.encodeText(written) : session.encodeTextAtMost(written, maxTokens);
    } else {
      const bytes = utf8.encode(text);
      if (bytes.length > MAX_TEXT_BYTES) throw tooLong(caller, bytes.length, 'bytes of UTF-8');
      const pointer = session.inputBuffer(bytes.length);
      if (!pointer) throw new RangeError(`${caller}: ${session.error()}`);
      module.HEAPU8.set(bytes, pointer);
      ok = maxTokens === undefined ? session.encode() : session.encodeAtMost(maxTokens);
    }
    if (!ok) throw new RangeError(`${caller}: ${session.error()}`);
    const [address, count, overLimit] = module.HEAPU32.subarray(this.output, this.output + 3);
    let ids = null;
    if (!overLimit) {
      const view = new Int32Array(module.HEAP32.buffer, address, count);
      // Filled in place: twice as fast as push() for a paragraph's ids.
      ids = new Array(count);
      for (let i = 0; i < count; i++) ids[i] = view[i];
    }
    // The ids are freed at once, so that what the session holds does not
    // depend on the last text (the kept buffer is its only memory).
    session.release();
    return ids;
  }

  decode(ids) {
    if (ids.length > MAX_TEXT_BYTES) {
      throw new RangeError(`decode: ${ids.length} ids are more than the ${MAX_TEXT_BYTES} that can be decoded at once`);
    }
    const { session } = this;
    const pointer = session.idsInput(ids.length);
    if (!pointer) throw new RangeError(`decode: ${session.error()}`);
    this.module.HEAP32.set(ids, pointer >>> 2);
    if (!session.decode()) throw new RangeError(`decode: ${session.error()}`);
    const heap = this.module.HEAPU32;
    const text = readUtf8(this.module, heap[this.output], heap[this.output + 1]);
    session.release();
    return text;
  }

  text(id) {
    return (this.texts[id] ??= this.session.tokenText(id));
  }

  /**
   * A single token's id by its text, shown or raw, or -1. A text longer than
   * any token's display form is not looked up.
   */
  id(text) {
    const longest = DISPLAY_CHARS_PER_BYTE * this.maxTokenBytes + TOKEN_LOOKUP_MARGIN;
    return text.length <= longest ? this.session.tokenId(text) : -1;
  }

  dispose() {
    if (--this.refs > 0) return;
    this.session?.delete();
    this.session = undefined;
  }
}

// ---- Model --------------------------------------------------------------------

/** What trace() returns: the chapter's `trace` object. */
export class Trace {
  constructor(text, tokens, tokenEmbeddings, positionEmbeddings, embeddings, truncated) {
    /** The text that was traced. */
    this.text = text;
    /** Its tokens in order: { id, text }. */
    this.tokens = tokens;
    /** One row per token: that token's row of wte. */
    this.tokenEmbeddings = tokenEmbeddings;
    /**
     * One row per place: row i - 1 of wpe for place i; null for a model
     * without a position table (rotary positions).
     */
    this.positionEmbeddings = positionEmbeddings;
    /** tokenEmbeddings + positionEmbeddings (the token rows alone without a position table): what the first layer reads. */
    this.embeddings = embeddings;
    /** How many tokens were cut off the end ({ truncate: true } only). */
    this.truncated = truncated;
    Object.freeze(this);
  }

  toString() {
    return `Trace of ${this.tokens.length} tokens: ${this.tokens.map((t) => t.text).join(' | ')}`;
  }

  [inspect]() {
    const d = this.embeddings.cols;
    return `Trace ${JSON.stringify(this.text.length > 60 ? `${this.text.slice(0, 60)}…` : this.text)}\n` +
      `  tokens: ${this.tokens.map((t) => `${t.text} (${t.id})`).join(', ')}\n` +
      `  tokenEmbeddings: Matrix ${this.tokens.length} × ${d}\n` +
      `  positionEmbeddings: ${this.positionEmbeddings ? `Matrix ${this.tokens.length} × ${d}` : 'null (rotary positions)'}\n` +
      `  embeddings: Matrix ${this.tokens.length} × ${d}`;
  }
}

// A model's hosts and tables, kept off the object (rather than in private
// fields) so that DevTools' preview of a model shows its sizes, not its internals.
const internalsOf = new WeakMap();

/** A model's tokenizer, once it is known to be alive and to have one. */
function textHostOf(model) {
  const internals = internalsOf.get(model);
  internals.tables.checkAlive();
  if (!internals.tokenizer) throw new Error('This model was loaded without a tokenizer.json, so it cannot read text');
  return internals.tokenizer;
}

/**
 * For the widgets (web/index.js does not export it): how many ids the
 * model's tokenizer has (its table may have more rows: padding), without
 * reading the vocabulary.
 */
export function tokenizerSize(model) {
  return internalsOf.has(model) ? textHostOf(model).vocabSize : model.vocabulary().length;
}

/**
 * For the widgets: the id of a single token given as shown or raw, as
 * tokenId() finds it, or -1 where the text is no single token. A miss costs
 * one lookup: no pieces are worked out for a message nobody reads.
 */
export function findTokenId(model, text) {
  if (!internalsOf.has(model)) {
    try {
      return model.tokenId(text);
    } catch {
      return -1;
    }
  }
  const tokenizer = textHostOf(model);
  return typeof text === 'string' ? tokenizer.id(text) : -1;
}

/**
 * tokenId()'s hint for a text that is not one token: the spellings close to
 * it that are ("girl" -> '·girl', the word after a space, as it stands in
 * a sentence), or '' when none is.
 */
function suggestTokens(tokenizer, text) {
  const word = text.replace(/^[·\s]+|\s+$/g, '');
  if (!word || word.length > 100) return '';
  const cases = [word, word.toLowerCase(), word[0].toUpperCase() + word.slice(1).toLowerCase()];
  const spellings = new Set(cases.flatMap((w) => [`·${w}`, w]));
  spellings.delete(text);
  const found = [...spellings].map((w) => [w, tokenizer.id(w)]).filter(([, id]) => id >= 0).slice(0, 3);
  if (!found.length) return '';
  const spaced = found.some(([w]) => w.startsWith('·')) && !text.startsWith('·');
  const listed = found.map(([w, id]) => `'${w}' (id ${id})`);
  return `. Did you mean ${listed.length > 1 ? `${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}` : listed[0]}?` +
    (spaced ? ' "·" is the space before a word: inside a sentence a word is one token with it.' : '');
}

export class Model {
  constructor(tables, tokenizer) {
    internalsOf.set(this, { tables, tokenizer });
    // Not enumerable: DevTools' one-line preview of a model shows its sizes.
    Object.defineProperty(this, 'preview', {
      value: `${tables.vocabSize} tokens × ${tables.width} numbers, ${describePositions(tables)}, ${tables.parameterCount} learned numbers`,
    });
    if (tokenizer) tokenizerOfModel.set(this, tokenizer);
    const { width, vocabSize, context, pointers } = tables;
    // One view per table, made again only if memory was ever replaced: rowView
    // (and the chapter's cosine(rowView(..), rowView(..))) then costs a
    // subarray, not a new view of the whole table each call.
    const liveView = (pointer, count, dtype) => {
      let view;
      return () => {
        const host = this.#live();
        if (view === undefined || view.buffer !== host.module.HEAPF32.buffer) view = host.numbers(pointer, count, dtype);
        return view;
      };
    };
    const { wteDtype, wpeDtype } = tables;
    internalsOf.get(this).wte = new Matrix(liveView(pointers.wte, vocabSize * width, wteDtype), vocabSize, width, { name: 'wte', dtype: wteDtype });
    internalsOf.get(this).wpe = tables.hasPositionTable
      ? new Matrix(liveView(pointers.wpe, context * width, wpeDtype), context, width, { name: 'wpe', dtype: wpeDtype }) : null;
    tableOwners.set(internalsOf.get(this).wte, this);
    if (tables.hasPositionTable) tableOwners.set(internalsOf.get(this).wpe, this);
    /** Sizes read from the files. */
    this.config = Object.freeze({ vocabSize, width, context, layers: tables.layers, heads: tables.heads, ...tables.rotary });
    /** Learned numbers in the whole weights file, not only the two tables. */
    this.parameterCount = tables.parameterCount;
    /** The safetensors file's __metadata__ (strings). */
    this.metadata = Object.freeze(tables.metadata);
    /** Where the weights came from. */
    this.source = tables.name;
  }

  #live() {
    internalsOf.get(this).tables.checkAlive();
    return internalsOf.get(this).tables;
  }

  #text() {
    return textHostOf(this);
  }

  /**
   * The token embedding table, vocabSize × width (a live view, no copy), in
   * the file's number format: `wte.dtype` is 'float32', or 'float16' or
   * 'bfloat16' for a 16-bit table, kept in its 16 bits (`wte.data` is then a
   * Uint16Array of the bits, and rowView a float32 copy of a row).
   */
  get wte() { this.#live(); return internalsOf.get(this).wte; }
  /**
   * The position embedding table, context × width (a live view, no copy, in
   * the file's number format, as wte); null for a model without one (rotary
   * positions, as Llama has).
   */
  get wpe() { this.#live(); return internalsOf.get(this).wpe; }
  /** False for a model whose positions are not a learned table (rotary). */
  get hasPositionTable() { return internalsOf.get(this).tables.hasPositionTable; }
  // Getters rather than fields, like the sizes: DevTools' preview of a model lists only its first few fields.
  /** Which naming the weights follow: "GPT-2", "Llama, Mistral, Qwen, Gemma, Phi", "GPT-NeoX" or "OPT". */
  get family() { return internalsOf.get(this).tables.family; }
  /** Most tokens one trace() takes: the rows of wpe, or 1024 for a model without a position table. */
  get maxTraceTokens() { return internalsOf.get(this).tables.traceCapacity; }
  /** Number of rows of wte. */
  get vocabSize() { return this.config.vocabSize; }
  /** Numbers per row. */
  get width() { return this.config.width; }
  /**
   * Most tokens the model reads at once: rows of wpe, or config.json's
   * max_position_embeddings for a model without a position table (0 when unknown).
   */
  get context() { return this.config.context; }
  /** True after dispose(). */
  get disposed() { return !internalsOf.get(this).tables.alive; }

  /** Token ids of a text. */
  encode(text) {
    checkText(text, 'encode');
    return this.#text().encode(text, 'encode');
  }

  /** The text of a list of token ids, exactly (a leading U+FEFF included). */
  decode(ids) {
    const tokenizer = this.#text();
    if (!Array.isArray(ids) && !ArrayBuffer.isView(ids)) throw new TypeError(`decode: expected an array of token ids, got ${describe(ids)}`);
    for (let i = 0; i < ids.length; i++) checkIndex(ids[i], tokenizer.vocabSize, 'token id', 'decode');
    return tokenizer.decode(Array.from(ids));
  }

  /** A text's tokens as { id, text }, text in the chapter's display form ("·" for a space). */
  tokenize(text) {
    checkText(text, 'tokenize');
    return this.#text().encode(text, 'tokenize').map((id) => ({ id, text: internalsOf.get(this).tokenizer.text(id) }));
  }

  /** A token's text as the chapter shows it: "·Lily" for " Lily". */
  tokenText(id) {
    const tokenizer = this.#text();
    checkIndex(id, tokenizer.vocabSize, 'token id', 'tokenText');
    return tokenizer.text(id);
  }

  /**
   * The id of a single token, given as shown ("·girl") or raw (" girl").
   * Throws a RangeError that lists the pieces when the text is not one token.
   */
  tokenId(text) {
    checkText(text, 'tokenId');
    const tokenizer = this.#text();
    const id = tokenizer.id(text);
    if (id >= 0) return id;
    if (text.length > LONGEST_TEXT_SPLIT_IN_MESSAGES) {
      throw new RangeError(`tokenId: a text of ${text.length} characters is not a single token ` +
        `(the longest token has ${tokenizer.maxTokenBytes} bytes)`);
    }
    const raw = text.replace(/·/g, ' ');
    const pieces = raw === '' ? [] : tokenizer.encode(raw, 'tokenId').map((i) => tokenizer.text(i));
    throw new RangeError(`tokenId: ${JSON.stringify(text)} is not a single token` +
      (pieces.length ? `; it is ${pieces.length} tokens: ${pieces.join(' ')}` : '') + suggestTokens(tokenizer, text));
  }

  /** Every token's display text, by id (a new array each call). */
  vocabulary() {
    return this.#text().vocabulary().slice();
  }

  /**
   * The chapter's trace of a text: its tokens, their token and position
   * rows, and the sums the first layer reads. Text longer than the context
   * is an error unless { truncate: true }, which keeps the first tokens.
   */
  trace(text, options = {}) {
    checkText(text, 'trace');
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`trace: options must be an object such as { truncate: true }, got ${describe(options)}`);
    }
    const truncate = options.truncate ?? false;
    if (typeof truncate !== 'boolean') {
      throw new TypeError(`trace: options.truncate must be true or false, got ${describe(truncate)}`);
    }
    const tables = this.#live();
    const tokenizer = this.#text();
    // Counting stops early: a megabyte of text is refused in about the
    // time it takes to encode COUNT_LIMIT tokens.
    const capacity = tables.traceCapacity;
    const limit = Math.max(capacity, COUNT_LIMIT);
    let ids = tokenizer.encode(text, 'trace', truncate ? undefined : limit);
    let truncated = 0;
    if (ids === null || ids.length > capacity) {
      if (!truncate) {
        const length = ids === null ? `more than ${limit}` : `${ids.length}`;
        const reads = tables.hasPositionTable ? 'the model reads at most' : 'a trace of this model holds at most';
        throw new RangeError(`trace: the text is ${length} tokens long, but ${reads} ` +
          `${capacity}. Shorten it, or pass { truncate: true } to keep the first ${capacity}.`);
      }
      truncated = ids.length - capacity;
      ids = ids.slice(0, capacity);
    }
    const n = ids.length, d = tables.width, { module, pointers } = tables;
    module.HEAP32.set(ids, pointers.ids >>> 2);
    if (!tables.session.embed(n)) throw new Error(`trace: ${tables.session.error()}`);
    // new + set copies faster than slice() in V8.
    const copy = (pointer) => {
      const out = new Float32Array(n * d);
      out.set(tables.floats(pointer, n * d));
      return new Matrix(out, n, d);
    };
    return new Trace(
      text,
      ids.map((id) => Object.freeze({ id, text: tokenizer.text(id) })),
      copy(pointers.tokenRows),
      tables.hasPositionTable ? copy(pointers.positionRows) : null,
      copy(pointers.sumRows),
      truncated,
    );
  }

  /**
   * The k tokens closest to a query by cosine similarity, best first:
   * [{ id, text, score }]. The query is a token id, a token's text ("·girl")
   * or a vector of `width` numbers. A token query never lists itself; equal
   * scores list the smaller id first. Rows without a token (a padded
   * table's, or ids the tokenizer leaves unused) are never listed.
   * `options.exclude` (ids or token texts) leaves those tokens out too, as
   * analogies need.
   */
  nearest(query, k = 10, options = {}) {
    const tables = this.#live();
    const { module, pointers, vocabSize, width } = tables;
    if (typeof k !== 'number') throw new TypeError(`nearest: k must be a number, got ${describe(k)}`);
    if (!Number.isInteger(k) || k < 1 || k > vocabSize) {
      throw new RangeError(`nearest: k must be a whole number from 1 to ${vocabSize}, got ${k}`);
    }
    const excluded = this.#excluded(options);
    // Rows without a token (a padded table's, or gaps in the tokenizer's
    // numbering) are never listed: the session leaves out the padding, and
    // asking for as many more as there are gaps leaves k after the gaps go.
    // Excluded ids likewise take at most excluded.size places among the best.
    const { tokenizer } = internalsOf.get(this);
    const wanted = Math.min(vocabSize, k + (tokenizer ? tokenizer.unusedIds : 0) + excluded.size);
    const { session } = tables;
    let ok;
    if (typeof query === 'string') query = this.tokenId(query);
    if (typeof query === 'number') {
      checkIndex(query, vocabSize, 'token id', 'nearest');
      ok = session.nearestToToken(query, wanted);
    } else if (Array.isArray(query) || (ArrayBuffer.isView(query) && !(query instanceof DataView))) {
      if (query.length !== width) {
        throw new RangeError(`nearest: a query vector needs ${width} numbers, got ${query.length}`);
      }
      for (let i = 0; i < width; i++) {
        const x = query[i];
        if (typeof x !== 'number') throw new TypeError(`nearest: query[${i}] is ${describe(x)}, not a number`);
        if (!Number.isFinite(x)) throw new RangeError(`nearest: query[${i}] is ${x}; a query vector must hold finite numbers`);
        checkFloat32(x, `query[${i}]`, 'nearest');
      }
      tables.floats(pointers.query, width).set(query);
      ok = session.nearestToQuery(wanted);
    } else {
      throw new TypeError(`nearest: the query must be a token id, a token's text or a vector, got ${describe(query)}`);
    }
    if (!ok) throw new Error(`nearest: ${session.error()}`);
    const count = module.HEAPU32[pointers.resultCount >>> 2];
    const ids = new Int32Array(module.HEAP32.buffer, pointers.resultIds, count);
    const scores = tables.floats(pointers.resultScores, count);
    if ((tokenizer && tokenizer.unusedIds) || excluded.size) {
      const out = [];
      for (let i = 0; i < count && out.length < k; i++) {
        if (excluded.has(ids[i])) continue;
        const text = tokenizer ? tokenizer.text(ids[i]) : String(ids[i]);
        if (tokenizer && text === '') continue;
        out.push({ id: ids[i], text, score: scores[i] });
      }
      return out;
    }
    const out = new Array(count);
    for (let i = 0; i < count; i++) {
      out[i] = { id: ids[i], text: tokenizer ? tokenizer.text(ids[i]) : String(ids[i]), score: scores[i] };
    }
    return out;
  }


  // ---- map (web/src/map.js) ----
  #excluded(options) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`nearest: options must be an object such as { exclude: [ids] }, got ${describe(options)}`);
    }
    const unknown = Object.keys(options).filter((key) => key !== 'exclude');
    if (unknown.length) throw new TypeError(`nearest: unknown option ${unknown.map((key) => JSON.stringify(key)).join(', ')}`);
    const { exclude = [] } = options;
    if (!Array.isArray(exclude) && !ArrayBuffer.isView(exclude)) {
      throw new TypeError(`nearest: exclude must be an array of token ids or texts, got ${describe(exclude)}`);
    }
    const ids = new Set();
    for (const item of exclude) {
      if (typeof item === 'string') {
        ids.add(this.tokenId(item));
      } else {
        checkIndex(item, this.vocabSize, 'token id', 'nearest');
        ids.add(item);
      }
    }
    return ids;
  }

  /**
   * A two-dimensional map of a table's rows (default wte), one point per
   * row, by UMAP (default) or PCA; see index.d.ts for the options.
   */
  map(options = {}) {
    this.#live();
    // model.wpe of a model with rotary positions is null: mapping wte instead would be a silent surprise.
    if (options?.table === null) {
      return Promise.reject(new TypeError('map: the table is null (a model with rotary positions has no position table: model.wpe is null)'));
    }
    return mapRows(options?.table ?? internalsOf.get(this).wte, options, 'map');
  }
  // ---- end map ----

  /**
   * The rows × rows table of cosine similarities between the rows of a
   * table (model.wpe gives the position map), within checkMapSize's limits.
   * The model's own tables are read in place, as they are now; any other
   * Matrix works too.
   */
  cosineMatrix(table) {
    const tables = this.#live();
    if (table === null && !tables.hasPositionTable) {
      throw new TypeError('cosineMatrix: this model has no position table: it uses rotary positions (model.wpe is null)');
    }
    if (table !== internalsOf.get(this).wte && table !== internalsOf.get(this).wpe) return cosineMatrixOf(table);
    const n = table.rows;
    checkMapSize(n, table.cols);
    const which = table === internalsOf.get(this).wte ? TOKEN : POSITION;
    const out = new Float32Array(n * n);
    if (n * n <= tables.mapBlockSize) {
      // The whole map at once, each pair computed once (wpe).
      if (!tables.session.cosineMap(which)) throw new Error(`cosineMatrix: ${tables.session.error()}`);
      out.set(tables.floats(tables.pointers.mapBlock, n * n));
      return new Matrix(out, n, n, { name: `cosine map of ${table.name}` });
    }
    const blockRows = Math.max(1, Math.floor(tables.mapBlockSize / n));
    for (let begin = 0; begin < n; begin += blockRows) {
      const end = Math.min(n, begin + blockRows);
      if (!tables.session.cosineMapRows(which, begin, end)) throw new Error(`cosineMatrix: ${tables.session.error()}`);
      out.set(tables.floats(tables.pointers.mapBlock, (end - begin) * n), begin * n);
    }
    return new Matrix(out, n, n, { name: `cosine map of ${table.name}` });
  }

  /**
   * A row vector times the token table: vector has vocabSize numbers, the
   * result width, out[j] = Σ_i vector[i] · wte[i][j], computed by the
   * kernels over every row (zeros included, in row order, in float32). A
   * one-hot vector, all 0 but a 1 at t, gives row t number for number: the
   * chapter's lookup as a product.
   */
  vectorTimesWte(vector) {
    const tables = this.#live();
    if (!Array.isArray(vector) && !(ArrayBuffer.isView(vector) && !(vector instanceof DataView))) {
      throw new TypeError(`vectorTimesWte: the vector must be an array or typed array of numbers, got ${describe(vector)}`);
    }
    const rows = tables.vocabSize;
    if (vector.length !== rows) {
      throw new RangeError(`vectorTimesWte: the vector needs ${rows} numbers, one per row of wte, got ${vector.length}`);
    }
    for (let i = 0; i < rows; i++) {
      const x = vector[i];
      if (typeof x !== 'number') throw new TypeError(`vectorTimesWte: vector[${i}] is ${describe(x)}, not a number`);
      if (!Number.isFinite(x)) throw new RangeError(`vectorTimesWte: vector[${i}] is ${x}; the vector must hold finite numbers`);
      checkFloat32(x, `vector[${i}]`, 'vectorTimesWte');
    }
    const scratch = tables.floats(tables.vectorA, tables.chunk);
    tables.floats(tables.pointers.query, tables.width).fill(0);  // the chunks' products add up there
    for (let begin = 0; begin < rows; begin += tables.chunk) {
      const count = Math.min(tables.chunk, rows - begin);
      scratch.set(ArrayBuffer.isView(vector) ? vector.subarray(begin, begin + count) : vector.slice(begin, begin + count));
      if (!tables.session.timesWte(begin, count)) throw new Error(`vectorTimesWte: ${tables.session.error()}`);
    }
    return tables.floats(tables.pointers.query, tables.width).slice();
  }

  /** Bytes of WebAssembly memory this model holds (tables instance, tokenizer instance). */
  memoryUsage() {
    const tables = this.#live();
    return {
      tables: tables.module.HEAPU8.buffer.byteLength,
      tokenizer: internalsOf.get(this).tokenizer ? internalsOf.get(this).tokenizer.module.HEAPU8.buffer.byteLength : 0,
    };
  }

  /**
   * Frees the model's WebAssembly objects. Later calls on it throw. Views
   * already taken stay readable, and so keep the model's whole WebAssembly
   * memory alive while they are referenced: keep copies (`wte.row(i)`,
   * `rowView(..).slice()`) of what must outlive the model.
   */
  dispose() {
    if (!internalsOf.get(this).tables.alive) return;
    internalsOf.get(this).tables.dispose();
    internalsOf.get(this).tokenizer?.dispose();
  }

  /** Same as dispose(), under Embind's name. */
  delete() {
    this.dispose();
  }

  [Symbol.dispose]() {
    this.dispose();
  }

  toString() {
    return `Model ${this.vocabSize} tokens × ${this.width} numbers, ${describePositions(internalsOf.get(this).tables)}` +
      (this.disposed ? ' (disposed)' : '');
  }

  [inspect]() {
    return `${this.toString()}\n  wte: Matrix ${this.vocabSize} × ${this.width}\n  wpe: ${this.wpe ? `Matrix ${this.context} × ${this.width}` : 'null (rotary positions)'}` +
      `\n  parameters: ${this.parameterCount.toLocaleString('en-US')}\n  source: ${this.source}`;
  }
}

function describePositions(tables) {
  return tables.hasPositionTable ? `${tables.context} positions` : 'rotary positions (no position table)';
}

function checkText(text, caller) {
  if (typeof text !== 'string') throw new TypeError(`${caller}: expected a string, got ${describe(text)}`);
}

function tooLong(caller, size, unit) {
  return new RangeError(`${caller}: the text is ${size} ${unit} long; at most ${MAX_TEXT_BYTES} bytes of UTF-8 ` +
    '(8 MiB) can be encoded at once');
}

export { rowView };
