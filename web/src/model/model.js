// The Model that loadModel() gives: the token and position tables, the
// tokenizer, traces, nearest tokens and cosine maps.
import { Matrix, checkIndex, describe, markCopy } from '../matrix.js';
import { checkAsyncMatrixSize, checkAsyncOptions, checkFloat32, checkMatrixSize, cosineMatrixAsyncOf, cosineMatrixOf, slicedCosineMatrix } from '../vectors.js';
import { checkSignal } from '../sources/signals.js';
import { mapRows } from '../map/index.js';
import { POSITION, TOKEN } from './tables.js';
import { Trace } from './trace.js';
import { internalsOf, textHostOf } from './internals.js';
import { checkText } from './text.js';
import { markItself, proxySafe, unproxied } from '../proxies.js';
import { decodeArguments, encodeOptions, notOneToken, specialTokensAround } from './token-text.js';

// How many tokens trace() counts exactly before it says "more than".
const COUNT_LIMIT = 4096;

const inspect = Symbol.for('nodejs.util.inspect.custom');

const tableOwners = new WeakMap();

/**
 * The rows × rows cosine map of any table: in place for a model's own
 * tables, from a copy for others.
 */
export function cosineMatrix(table) {
  table = unproxied(table);
  const owner = tableOwners.get(table);
  return owner ? owner.cosineMatrix(table) : cosineMatrixOf(table);
}

/**
 * The same map as cosineMatrix, in slices between turns of the event loop,
 * for tables up to 2048 rows of up to 8192 numbers (cosineMatrix takes at
 * most 2^30 multiply-adds in one call). A Promise of the Matrix.
 */
export function cosineMatrixAsync(table, options) {
  table = unproxied(table);
  const owner = tableOwners.get(table);
  return owner ? owner.cosineMatrixAsync(table, options) : cosineMatrixAsyncOf(table, options);
}

export class Model {
  constructor(tables, tokenizer) {
    internalsOf.set(this, { tables, tokenizer });
    markItself(this);
    // Not enumerable: DevTools' one-line preview of a model shows its sizes.
    Object.defineProperty(this, 'preview', {
      value: `${tables.vocabSize} tokens × ${tables.width} numbers, ${describePositions(tables)}, ${tables.parameterCount} learned numbers`,
    });
    const { width, vocabSize, context, pointers } = tables;
    // One view per table, made again only if memory was ever replaced: rowView
    // (and the chapter's cosine(rowView(..), rowView(..))) then costs a
    // subarray, not a new view of the whole table each call. Dropped on
    // dispose(), with the instance.
    const liveView = (pointer, count, dtype) => {
      let view;
      tables.onDispose.push(() => { view = undefined; });
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
  /**
   * Most tokens one trace() takes: the rows of wpe; for a model without a
   * position table, its context (config.json's max_position_embeddings), but
   * at most 1024.
   */
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

  /**
   * Token ids of a text: its own tokens, as the chapter counts them. With
   * { addSpecialTokens: true }, also the special tokens the model was
   * trained to see around it (BOS, [CLS] ... [SEP]), as Hugging Face's
   * encode(text, pair, { addSpecialTokens: true }); { pair } encodes a second text after it.
   * With { offsets: true }, { ids, offsets, partial, sequenceIds }: each
   * token's [start, end) in the string, as Hugging Face's getOffsets() gives
   * it (docs/tokenizer.md#offsets).
   */
  encode(text, options = {}) {
    checkText(text, 'encode');
    const { addSpecialTokens, pair, offsets } = encodeOptions(options);
    if (offsets) return this.#text().encodeWithOffsets(text, 'encode', { addSpecialTokens, pair });
    const special = addSpecialTokens || pair !== undefined ? { addSpecialTokens, pair } : undefined;
    return this.#text().encode(text, 'encode', undefined, special);
  }

  /**
   * The text of a list of token ids, exactly (a leading U+FEFF included);
   * { skipSpecialTokens: true } leaves the special tokens out, as Hugging Face's decode.
   */
  decode(ids, options = {}) {
    const tokenizer = this.#text();
    const { checked, skipSpecialTokens } = decodeArguments(ids, options, tokenizer.vocabSize);
    return tokenizer.decode(checked, skipSpecialTokens);
  }

  /**
   * The special tokens encode() puts before and after a text with
   * { addSpecialTokens: true } (Llama 2's BOS: before [{ id: 1, text: '<s>' }]).
   */
  get specialTokensAround() {
    return specialTokensAround(this.#text());
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
    throw notOneToken(tokenizer, text);
  }

  // nearest's token of a text, refused under its own name.
  #tokenIdFor(text, what) {
    const tokenizer = this.#text();
    const id = tokenizer.id(text);
    if (id >= 0) return id;
    throw notOneToken(tokenizer, text, 'nearest', what);
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
    const encoded = tokenizer.encodeWithOffsets(text, 'trace', { maxTokens: truncate ? undefined : limit });
    let ids = encoded?.ids ?? null;
    let truncated = 0;
    if (ids === null || ids.length > capacity) {
      if (!truncate) {
        const length = ids === null ? `more than ${limit}` : `${ids.length}`;
        const reads = tables.traceIsContext ? 'the model reads at most' : 'a trace of this model holds at most';
        throw new RangeError(`trace: the text is ${length} tokens long, but ${reads} ` +
          `${capacity}. Shorten it, or pass { truncate: true } to keep the first ${capacity}.`);
      }
      truncated = ids.length - capacity;
      ids = ids.slice(0, capacity);
    }
    const n = ids.length, d = tables.width, { module, pointers } = tables;
    module.HEAP32.set(ids, pointers.ids >>> 2);
    if (!tables.session.trace(n)) throw new Error(`trace: ${tables.session.error()}`);
    // new + set copies faster than slice() in V8.
    const copy = (pointer) => {
      const out = new Float32Array(n * d);
      out.set(tables.floats(pointer, n * d));
      return new Matrix(out, n, d);
    };
    return new Trace(
      text,
      ids.map((id, i) => {
        const [start, end] = encoded.offsets[i];
        return Object.freeze({ id, text: tokenizer.text(id), start, end, partial: encoded.partial[i] });
      }),
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
    tokenizer?.checkAlive();
    const wanted = Math.min(vocabSize, k + (tokenizer ? tokenizer.unusedIds : 0) + excluded.size);
    const { session } = tables;
    let ok;
    if (typeof query === 'string') query = this.#tokenIdFor(query, 'the query ');
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


  // ---- map (web/src/map/) ----
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
    let index = 0;
    for (const item of exclude) {
      if (typeof item === 'string') {
        ids.add(this.#tokenIdFor(item, `exclude[${index++}] `));
      } else {
        index++;
        checkIndex(item, this.vocabSize, 'token id', 'nearest');
        ids.add(item);
      }
    }
    return ids;
  }

  /**
   * A two-dimensional map of a table's rows (default wte), one point per
   * row, by UMAP (default) or PCA; see index.d.ts for the options. Every
   * failure is a rejection, a disposed model's too.
   */
  async map(options = {}) {
    this.#live();
    // model.wpe of a model with rotary positions is null: mapping wte instead would be a silent surprise.
    if (options?.table === null) {
      throw new TypeError('map: the table is null (a model with rotary positions has no position table: model.wpe is null)');
    }
    return mapRows(options?.table ?? internalsOf.get(this).wte, options, 'map');
  }
  // ---- end map ----

  /**
   * The rows × rows table of cosine similarities between the rows of a
   * table (model.wpe gives the position map), within checkMatrixSize's limits.
   * The model's own tables are read in place, as they are now; any other
   * Matrix works too.
   */
  cosineMatrix(table) {
    table = unproxied(table);
    const tables = this.#live();
    if (table === null && !tables.hasPositionTable) {
      throw new TypeError('cosineMatrix: this model has no position table: it uses rotary positions (model.wpe is null)');
    }
    if (table !== internalsOf.get(this).wte && table !== internalsOf.get(this).wpe) return cosineMatrixOf(table);
    const n = table.rows;
    checkMatrixSize(n, table.cols);
    const which = table === internalsOf.get(this).wte ? TOKEN : POSITION;
    const out = new Float32Array(n * n);
    if (n * n <= tables.matrixBlockSize) {
      // The whole map at once, each pair computed once (wpe).
      if (!tables.session.cosineMatrix(which)) throw new Error(`cosineMatrix: ${tables.session.error()}`);
      out.set(tables.floats(tables.pointers.matrixBlock, n * n));
      return new Matrix(out, n, n, { name: `cosine map of ${table.name}` });
    }
    const blockRows = Math.max(1, Math.floor(tables.matrixBlockSize / n));
    for (let begin = 0; begin < n; begin += blockRows) {
      const end = Math.min(n, begin + blockRows);
      if (!tables.session.cosineMatrixRows(which, begin, end)) throw new Error(`cosineMatrix: ${tables.session.error()}`);
      out.set(tables.floats(tables.pointers.matrixBlock, (end - begin) * n), begin * n);
    }
    return new Matrix(out, n, n, { name: `cosine map of ${table.name}` });
  }

  /**
   * cosineMatrix in slices: the same numbers, for tables of up to 2048 rows
   * of up to 8192 numbers, the event loop given a turn about every 12 ms.
   * `options`: { signal, onProgress }.
   */
  async cosineMatrixAsync(table, options = {}) {
    table = unproxied(table);
    const tables = this.#live();
    if (table === null && !tables.hasPositionTable) {
      throw new TypeError('cosineMatrixAsync: this model has no position table: it uses rotary positions (model.wpe is null)');
    }
    if (table !== internalsOf.get(this).wte && table !== internalsOf.get(this).wpe) return cosineMatrixAsyncOf(table, options);
    const { signal, onProgress } = checkAsyncOptions(options);
    const n = table.rows;
    checkAsyncMatrixSize(n, table.cols);
    checkSignal(signal);
    const which = table === internalsOf.get(this).wte ? TOKEN : POSITION;
    const computeRows = (begin, end) => {
      const live = this.#live();
      if (!live.session.cosineMatrixRows(which, begin, end)) throw new Error(`cosineMatrixAsync: ${live.session.error()}`);
      return live.floats(live.pointers.matrixBlock, (end - begin) * n);
    };
    const out = await slicedCosineMatrix(n, computeRows, {
      largestCall: Math.max(1, Math.floor(tables.matrixBlockSize / n)), pairsOnce: n * n <= tables.matrixBlockSize, signal, onProgress,
    });
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
      if (!tables.session.vectorTimesWte(begin, count)) throw new Error(`vectorTimesWte: ${tables.session.error()}`);
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

markCopy(Model);
// Its methods and getters work on a Model kept in a Proxy (Vue's ref() and reactive(), say).
proxySafe(Model);
