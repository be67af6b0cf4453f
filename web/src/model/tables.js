// The tables' instance: the weights' header and the two tables read into a
// ModelSession, checked against config.json (TablesHost is what a Model
// keeps of it).
import { instantiate, mark } from '../runtime.js';
import { checkInstance, guardOf, instanceFailed, nameInstance } from '../instance-guard.js';
import { DTYPES } from '../matrix.js';
import { openSource, readText } from '../sources/index.js';
import { askForTablesEarly } from '../early-requests.js';
import { registerHost, releaseHost } from '../vectors.js';
import { openShardWithTables } from './shards.js';
import { readUtf8 } from './text.js';
import { yieldToMain } from '../event-loop.js';

/** The session's numbers for the two tables. */
export const TOKEN = 0;
export const POSITION = 1;
const utf8 = new TextEncoder();

export async function loadTables(weightsInput, configInput, progress, requested = () => {}, signal = undefined) {
  try {
    return await loadTablesNow(weightsInput, configInput, progress, requested, signal);
  } finally {
    requested();  // also when loading failed first: nothing waits forever
  }
}

async function loadTablesNow(weightsInput, configInput, progress, requested, signal) {
  const opened = await openTableFiles(weightsInput, configInput, signal, requested);
  // Each step a task of its own: the bytes are often all in by the time
  // the instance is up, and the steps would otherwise run as one long task
  // (docs/page.md).
  await yieldToMain();
  const { module, config } = opened;
  // A sharded checkpoint's index names the shard with the tables: only that one is opened.
  const { source, sizePromise, shards } = await openShardWithTables(module, opened, weightsInput, signal, requested);
  nameInstance(module, source.name);
  const session = new module.ModelSession();
  // The session's messages name no file; which one it was about, it says.
  const fail = () => {
    throw new Error(`${session.errorIsAboutConfig() ? config.name : source.name}: ${session.error()}`);
  };
  try {
    await readWeightsHeader(module, session, source, await sizePromise, fail);
    mark('load:header-read');
    await yieldToMain();
    shards?.checkTables(session.tableBytes(TOKEN) + session.tableBytes(POSITION));
    await readTables(module, session, source, progress, requested);
    mark('load:tables-copied');
    await yieldToMain();
    if (config !== undefined) readConfig(module, session, config, fail);
    if (shards) session.setOneShardOfMany();
    if (!session.finish()) fail();
  } catch (error) {
    // (A failed instance refuses delete() too; it goes as a whole.)
    if (!instanceFailed(module)) session.delete();
    throw error;
  } finally {
    await source.close();
  }
  const host = new TablesHost(module, session, source.name);
  if (config !== undefined && !host.hasPositionTable) host.rotary = rotaryOf(config.text);
  if (shards) {
    // The shard's header counts its own tensors only; the index's total_size
    // counts every shard's bytes, at the token table's bytes per number.
    // Without one, the count is this shard's (docs/design.md).
    const bytesPerNumber = session.tableBytes(TOKEN) / (host.vocabSize * host.width);
    if (shards.totalBytes !== undefined) host.parameterCount = Math.round(shards.totalBytes / bytesPerNumber);
    host.shardIndex = shards.indexName;
  }
  return host;
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

export class TablesHost {
  constructor(module, session, name) {
    this.module = module;
    this.session = session;
    this.name = name;
    this.alive = true;
    this.guard = guardOf(module);
    this.vocabSize = session.vocabSize();
    this.width = session.width();
    this.context = session.context();
    this.hasPositionTable = session.hasPositionTable();
    // The tables stay in the file's number format (a 16-bit table is not widened).
    this.wteDtype = DTYPES[session.wteFormat()];
    this.wpeDtype = DTYPES[session.wpeFormat()];
    // A trace holds the rows of wpe; without one, the workspace's rows, and never more tokens than the
    // model reads at once (config.json's max_position_embeddings, when it is smaller).
    const rows = session.traceCapacity();
    this.traceCapacity = this.hasPositionTable || !(this.context > 0) ? rows : Math.min(rows, this.context);
    /** Whether that is the most the model reads (else the most a trace holds, below the model's context). */
    this.traceIsContext = this.hasPositionTable || this.traceCapacity === this.context;
    this.family = session.family();
    this.wteName = session.wteName();
    this.wpeName = session.wpeName();
    this.metadata = JSON.parse(readUtf8(module, session.metadataJson(), session.metadataJsonLength()));
    this.layers = session.configLayers() || undefined;
    this.heads = session.configHeads() || undefined;
    this.parameterCount = session.parameterCount();
    // The scale each table's colours take (robust_limit, read by the module
    // as the load finished): the same number the widgets' robustLimit()
    // reads, without its cold JavaScript on the first widget's path.
    this.robustLimits = [session.robustLimit(TOKEN), session.robustLimit(POSITION)];
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
      matrixBlock: session.matrixBlock(),
    };
    this.matrixBlockSize = module.matrixBlockSize();
    // What lets go of references into the instance on dispose() (the Model's views).
    this.onDispose = [];
    registerHost(this);
  }

  /** Throws unless the model is usable: not disposed, and its instance has not failed. */
  checkAlive() {
    if (!this.alive) throw new Error('This model has been disposed; load it again with loadModel()');
    if (this.guard.failure !== undefined) checkInstance(this.module);
  }

  /** A Float32Array view of `count` floats at `pointer`, built on the current buffer. */
  floats(pointer, count) {
    return new Float32Array(this.module.HEAPF32.buffer, pointer, count);
  }

  /** A view of `count` numbers of a table of `dtype` at `pointer`: floats, or a 16-bit table's bits. */
  numbers(pointer, count, dtype) {
    return dtype === 'float32' ? this.floats(pointer, count) : new Uint16Array(this.module.HEAPU8.buffer, pointer, count);
  }

  /**
   * Frees the session and lets go of the instance: a disposed model that is
   * still referenced keeps no WebAssembly memory (views taken before do:
   * each holds its instance's memory).
   */
  dispose() {
    if (!this.alive) return;
    this.alive = false;
    // A failed instance refuses every call, delete() too; it goes as a whole.
    if (!instanceFailed(this.module)) this.session.delete();
    releaseHost(this);
    for (const drop of this.onDispose) drop();
    this.session = this.module = this.onDispose = undefined;
  }
}
