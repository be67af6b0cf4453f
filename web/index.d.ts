// Public API of the "Embeddings and position" module. Hand-written; checked
// by `tsc --noEmit` against tests/types/usage.ts in the test suite.

/**
 * Anything the vector functions accept: a Float32Array (a rowView), another
 * typed array, or plain numbers. Numbers are used as float32, the model's
 * precision; a finite number beyond float32's range (about ±3.4e38, such as
 * 1e39) is a RangeError that names it.
 */
export type Vector = Float32Array | Float64Array | Int8Array | Uint8Array | Int16Array | Uint16Array |
  Int32Array | Uint32Array | Uint8ClampedArray | readonly number[];

/**
 * How a table's numbers are stored: float32, or IEEE half ('float16') or
 * bfloat16 ('bfloat16') kept in their 16 bits, as a model's F16 or BF16
 * safetensors file has them (half the memory of float32).
 */
export type DType = 'float32' | 'float16' | 'bfloat16';

/** A table's `data`: a Float32Array of float32 numbers, a Uint16Array of a 16-bit table's bits. */
export type NumbersOf<D extends DType> = D extends 'float32' ? Float32Array : Uint16Array;

/**
 * A row-major table of numbers, rows × cols, float32 unless a model's file
 * holds 16-bit tables. For model.wte and model.wpe, `data` is a view of the
 * model's WebAssembly memory (no copy), valid for the life of the model; a
 * view kept after dispose() keeps all of that memory alive (see
 * Model.dispose). Printing one shows its shape, not its numbers. Rows read
 * as float32 whatever the dtype: rowView, row, at, toArray and iteration
 * widen a 16-bit table's numbers exactly (every 16-bit number is a float32).
 */
export class Matrix<D extends DType = DType> implements Iterable<Float32Array> {
  constructor(data: NumbersOf<D>, rows: number, cols: number, options?: { name?: string; dtype?: D });
  readonly rows: number;
  readonly cols: number;
  /** What the table is, e.g. "wte"; may be empty. */
  readonly name: string;
  /** How the numbers are stored: 'float32', or 'float16' or 'bfloat16' (`data` then holds their bits). */
  readonly dtype: D;
  /**
   * "4096 × 128 wte: [0.238, 0.167, …]": the shape, name and first numbers as
   * made with the table (not enumerable), for DevTools' one-line preview;
   * `data` holds the numbers themselves.
   */
  readonly preview: string;
  /**
   * All numbers, row after row; no copy: a Float32Array, or for a 16-bit
   * table a Uint16Array of the numbers' bits (writing bits writes the table).
   */
  readonly data: NumbersOf<D>;
  /** Row i, as rowView(this, i): a view (no copy) of a float32 table, a float32 copy of a 16-bit one. */
  rowView(i: number): Float32Array;
  /** Row i as a copy. */
  row(i: number): Float32Array;
  /** The number at row r, column c. */
  at(r: number, c: number): number;
  /** All rows as plain arrays (a copy). */
  toArray(): number[][];
  [Symbol.iterator](): Iterator<Float32Array>;
  toString(): string;
}

/** One token of a text: its id and its text as the chapter shows it ("·" for a space). */
export interface Token {
  readonly id: number;
  readonly text: string;
}

/**
 * A token of a trace, with the characters of the text it stands for:
 * trace.text.slice(start, end), as model.encode(text, { offsets: true }) gives them.
 */
export interface TracedToken extends Token {
  /** Where its characters start in the text, in UTF-16 code units (a JavaScript string's indices). */
  readonly start: number;
  /** Where they end (exclusive). */
  readonly end: number;
  /**
   * True when the token holds some of a character's bytes but not all (a
   * byte-level token of an emoji, a byte_fallback "<0xNN>" token): then
   * [start, end) is the whole character, shared with the other tokens of it.
   */
  readonly partial: boolean;
}

/**
 * model.encode(text, { offsets: true }): the ids with each token's place in
 * the text, equal to Hugging Face's Rust tokenizers' Encoding
 * (getIds(), getOffsets() turned from code points into UTF-16 units, and
 * getSequenceIds()). docs/tokenizer.md#offsets says how they are found.
 */
export interface EncodingWithOffsets {
  readonly ids: number[];
  /**
   * Each token's [start, end) in the string it came from (the text, or the
   * pair for sequenceIds[i] === 1), in UTF-16 code units: text.slice(start,
   * end) is what it stands for, through every normalizer (a token of "é" that
   * NFD made "e" + U+0301 has the span of "é"). [0, 0] for a special token
   * the post-processor added. Where Rust's post-processor trims offsets
   * (ByteLevel's or RobertaProcessing's trim_offsets), the spaces a token
   * starts or ends with are left out, as there.
   */
  readonly offsets: [number, number][];
  /**
   * Whether each token holds some of a character's bytes but not all (a
   * byte-level token of part of an emoji, a byte_fallback "<0xNN>" token of
   * a character of several bytes); its span is then the whole character, as
   * Rust gives every such token of it. Rust's Encoding has no such flag.
   */
  readonly partial: boolean[];
  /** 0 for the text's tokens, 1 for the pair's, null for a special token the post-processor added. */
  readonly sequenceIds: (0 | 1 | null)[];
}

/** A token found by nearest(), with its cosine similarity to the query. */
export interface Neighbour extends Token {
  readonly score: number;
}

/** The chapter's `trace` object: what the first layer reads for a text. */
export class Trace {
  readonly text: string;
  /** Its tokens in order, each with the characters of the text it stands for. */
  readonly tokens: readonly TracedToken[];
  /** One row per token: that token's row of wte (n × width). */
  readonly tokenEmbeddings: Matrix<'float32'>;
  /**
   * One row per place: place i uses row i − 1 of wpe (n × width); null for a
   * model without a position table (rotary positions, as Llama has).
   */
  readonly positionEmbeddings: Matrix<'float32'> | null;
  /**
   * tokenEmbeddings + positionEmbeddings, computed by the C++ kernel; for a
   * model without a position table, the token rows themselves.
   */
  readonly embeddings: Matrix<'float32'>;
  /** Tokens cut off the end; only non-zero with { truncate: true }. */
  readonly truncated: number;
}

/** Sizes read from the model files. */
export interface ModelConfig {
  readonly vocabSize: number;
  readonly width: number;
  /** Rows of wpe; for a model without one, config.json's max_position_embeddings (0 when unknown). */
  readonly context: number;
  readonly layers?: number;
  readonly heads?: number;
  /**
   * A model without a position table: what config.json says of its rotary
   * positions, where it says it: rope_theta (or rotary_emb_base), head_dim,
   * and the share of each head's numbers that turn (partial_rotary_factor
   * or rotary_pct).
   */
  readonly ropeTheta?: number;
  readonly headSize?: number;
  readonly rotaryShare?: number;
}

/**
 * A model file given as a URL (browser), a file path (Node), bytes, a Blob
 * or a fetch() Response (its body is read once). A path must name a regular
 * file: a folder or a FIFO is an Error naming it; a detached ArrayBuffer
 * (or a view of one) is a TypeError.
 */
export type ModelFileSource = string | URL | ArrayBuffer | ArrayBufferView | Blob | Response;

/** A model file, or a Promise of one (awaited, so a forgotten `await` still works). */
export type ModelFile = ModelFileSource | PromiseLike<ModelFileSource>;

export interface ModelFiles {
  /**
   * model.safetensors with the token table under one of the common
   * families' names: GPT-2's wte and wpe (with or without "transformer."),
   * Llama/Mistral/Qwen/Gemma/Phi's model.embed_tokens.weight, GPT-NeoX's
   * gpt_neox.embed_in.weight, OPT's model.decoder.embed_tokens.weight and
   * embed_positions (whose first two rows come before position 0). Families
   * with rotary positions have no position table. A sharded checkpoint's
   * model.safetensors.index.json (a URL or a path) opens only the shard that
   * holds the tables; both tables must be in that one shard, named by a
   * plain file name beside the index (no URL scheme, folder, percent escape
   * or control character: refused by name before any request or file open).
   * The index is at most 16 MiB, 8 levels deep and 1,024 objects and arrays.
   */
  weights: ModelFile;
  /**
   * Hugging Face config.json (GPT-2's n_embd/n_positions/n_layer/n_head or
   * the other families' hidden_size/max_position_embeddings/
   * num_hidden_layers/num_attention_heads, vocab_size, tie_word_embeddings), or the parsed object (a plain
   * object: a Map or a class instance is a TypeError); checked against the
   * tensors. An object JSON cannot hold (a cycle, a BigInt, nesting deeper
   * than 64 levels) is a one-line Error naming config.json and where. At
   * most 4 MiB and 65,536 JSON values (GPT-2's is under a kilobyte), so that
   * it cannot grow the memory the tables live in.
   */
  config?: ModelFile | Record<string, unknown> | PromiseLike<Record<string, unknown>>;
  /**
   * Hugging Face tokenizer.json with a BPE model (GPT-2's byte-level kind;
   * Llama 3's, GPT-4o's and Qwen 3's Split and NFC; Llama 2's and Gemma 3's
   * byte_fallback, Prepend and Replace; the other normalizers,
   * pre-tokenizers and decoders docs/tokenizer.md lists), needed for
   * text; or a loaded Model (or a Promise of one) whose tokenizer is shared
   * (e.g. training snapshots of it). encode() adds no special tokens, no BOS,
   * unless asked ({ addSpecialTokens: true } runs the post-processor). A file
   * with components other than GPT-2's fetches a second WebAssembly module,
   * web/dist/embeddings-full.wasm.
   */
  tokenizer?: ModelFile | Model | PromiseLike<Model>;
  /** Called as the weights arrive. */
  onProgress?: (progress: { loaded: number; total: number; stage: string }) => void;
  /**
   * Abandons the load when it fires (a server that never answers, a reader
   * who left): requests in flight are aborted and loadModel rejects with
   * the signal's reason (an AbortError unless abort() was given another).
   */
  signal?: AbortSignal;
}

/**
 * A loaded model, with WebAssembly instances of its own. An instance that
 * fails inside WebAssembly (a trap: memory access out of bounds, a stack
 * overflow, an abort) is stopped, as its memory may be left inconsistent:
 * the failing call and every later call that needs it throw an Error that
 * names the file and the failure (its `cause` is the RuntimeError). Other
 * models are not touched; load this one again to go on. Disposable, so
 * `using model = await loadModel()` frees it at the end of the block where
 * the TypeScript lib has Disposable (esnext.disposable); where it has not,
 * Symbol.dispose is declared below.
 */
export class Model {
  /**
   * The token embedding table, vocabSize × width, in the weights file's
   * format: `wte.dtype` is 'float32' (the default model), or 'float16' or
   * 'bfloat16' for an F16 or BF16 file, whose table stays in its 16 bits
   * (`wte.data` a Uint16Array of the bits, rowView a float32 copy of a row).
   * nearest, trace and cosineMatrix read a 16-bit table as it is stored and
   * give, bit for bit, what they give for the same numbers in float32.
   */
  readonly wte: Matrix;
  /**
   * The position embedding table, context × width (OPT's two leading rows
   * left out), in the file's format as wte; null for a model without one
   * (rotary positions).
   */
  readonly wpe: Matrix | null;
  /** False for a model whose positions are not a learned table (rotary). */
  readonly hasPositionTable: boolean;
  /** Which naming the weights follow: "GPT-2", "Llama, Mistral, Qwen, Gemma, Phi", "GPT-NeoX" or "OPT". */
  readonly family: string;
  /**
   * Most tokens one trace() takes: the rows of wpe; without a position table,
   * the model's context (config.json's max_position_embeddings), at most 1024.
   */
  readonly maxTraceTokens: number;
  readonly config: ModelConfig;
  readonly vocabSize: number;
  readonly width: number;
  readonly context: number;
  /**
   * Learned numbers in the whole weights file, not only the two tables. For
   * a sharded checkpoint, the index's metadata.total_size over the token
   * table's bytes per number (an index whose total_size is not a whole
   * number of bytes holding the tables is refused), or the shard's own
   * count where the index gives no total_size.
   */
  readonly parameterCount: number;
  /** The weights file's safetensors __metadata__. */
  readonly metadata: Readonly<Record<string, string>>;
  /** "4096 tokens × 128 numbers, 128 positions, …" (not enumerable), for DevTools' one-line preview. */
  readonly preview: string;
  /** Where the weights came from. */
  readonly source: string;
  readonly disposed: boolean;

  /**
   * Token ids of a text. "<|endoftext|>" typed in the text is the special
   * token, as Hugging Face tokenizers' encode() has it. Lone surrogates
   * become U+FFFD first. Throws a RangeError for text over 8 MiB of UTF-8.
   * By default only the text's own tokens, as the chapter counts them; with
   * { addSpecialTokens: true } also those the post-processor puts around
   * it (a BOS, [CLS] ... [SEP]), as Hugging Face's encode(text, pair,
   * { addSpecialTokens: true }); { pair } encodes a second text after it.
   * With { offsets: true }, also each token's [start, end) in the string,
   * as Rust's getOffsets() (converted to UTF-16 units), with which tokens
   * hold part of a character (EncodingWithOffsets).
   */
  encode(text: string, options: { addSpecialTokens?: boolean; pair?: string; offsets: true }): EncodingWithOffsets;
  encode(text: string, options?: { addSpecialTokens?: boolean; pair?: string; offsets?: false }): number[];
  /**
   * The text of token ids, exactly: decode(encode(s)) === s for any string
   * without lone surrogates, a leading U+FEFF included. { skipSpecialTokens:
   * true } leaves the special tokens out, as Hugging Face's decode does.
   */
  decode(ids: readonly number[] | Int32Array, options?: { skipSpecialTokens?: boolean }): string;
  /**
   * The special tokens encode() puts before and after a text with
   * { addSpecialTokens: true }: Llama 2's { before: [{ id: 1, text: '<s>' }], after: [] }.
   */
  readonly specialTokensAround: { before: Token[]; after: Token[] };
  /** A text's tokens with their display texts. */
  tokenize(text: string): Token[];
  /** A token's text as the chapter shows it: "·Lily" for " Lily". */
  tokenText(id: number): string;
  /**
   * The id of a single token given as shown ("·girl") or raw (" girl");
   * throws a RangeError otherwise, naming the text's pieces and the close
   * spellings that are one token ("girl" suggests '·girl', the word after a
   * space).
   */
  tokenId(text: string): number;
  /** Every token's display text, by id. */
  vocabulary(): string[];
  /**
   * Tokens, token rows, position rows and their sums for a text. Throws a
   * RangeError for text longer than the context unless { truncate: true };
   * it stops counting past 4096 tokens (or the context, if larger), so a
   * megabyte of text is refused in milliseconds. The rows are copies: a
   * Trace holds no WebAssembly memory.
   */
  trace(text: string, options?: { truncate?: boolean }): Trace;
  /**
   * The k tokens closest by cosine (default 10, from 1 to vocabSize), best
   * first; a token never lists itself; equal scores list the smaller id
   * first. A query vector must hold `width` finite float32 numbers. wte is
   * read as it is now, so writes through rowView or wte.data count. Scores
   * are right over float32's whole range (a query of 1e-25s ranks as its
   * direction does); a zero query has no direction, scores 0 against every
   * token and so gives the k smallest ids. Rows of wte that have no token
   * (the padding of a table padded past the tokenizer's vocabulary, as
   * nanoGPT and llm.c pad GPT-2 to 50,304 rows, or ids the tokenizer leaves
   * unused) are never listed, so fewer than k may come back when k is close
   * to vocabSize.
   */
  nearest(query: number | string | Vector, k?: number, options?: NearestOptions): Neighbour[];
  /**
   * A two-dimensional map of a table's rows (default wte): a Matrix of
   * rows × 2, one point per row, computed in a WebAssembly module of its
   * own (web/dist/layout.wasm, loaded on the first call). In a browser a
   * UMAP map is laid out in a Worker (web/src/map/map-worker.js), off the
   * main thread, and `signal` ends it; in Node (or where no Worker can start)
   * the work goes in slices of about 12 ms with the event loop's turn
   * between them, so a page never freezes, and `signal` cancels between
   * two slices.
   *
   * UMAP: only neighbourhoods mean something, not the axes or the distance
   * between points far apart. Deterministic: the same options give the same
   * numbers, bit for bit, in every browser, in Node and in the native build.
   * PCA: the first two principal components of the centred rows (see
   * mapDetails for their share of the variance): from the covariance up to
   * 128 columns, by randomized block Krylov iteration past them (a few
   * passes over the table; each axis within residual / gap of the exact one,
   * the residual at most 1e-5 of the largest variance; docs/map.md).
   *
   * Any size: the table is read in its own numbers (a 16-bit table stays
   * 16-bit); UMAP's neighbours are exact up to 8,192 rows and found by
   * NN-descent past them (as umap-learn does; recall@15 at least 0.95 on
   * the tests' tables). In a browser the work is done in a Worker, on one
   * thread per core when the page is cross-origin isolated (served with
   * Cross-Origin-Opener-Policy: same-origin and
   * Cross-Origin-Embedder-Policy: require-corp), else on one; in Node, on
   * worker threads. The result is the same bits however many threads.
   */
  map(options?: MapOptions): Promise<Matrix<'float32'>>;
  /**
   * The rows × rows cosine map of a table (model.wpe: the position map), from
   * the table as it is now. At most 2048 rows and 2^30 multiply-adds
   * (rows × rows × cols), so one call never holds the page for long; above
   * that, a RangeError (cosineMatrixAsync takes more; nearest() or cosine()
   * give the rows you need).
   */
  cosineMatrix(table: Matrix): Matrix<'float32'>;
  /**
   * The same map, bit for bit, computed in slices between turns of the
   * event loop (about 12 ms each), for tables of up to 2048 rows of up to
   * 8192 numbers. The signal cancels it between two slices (it rejects with
   * the signal's reason); onProgress hears the share of rows done.
   */
  cosineMatrixAsync(table: Matrix, options?: CosineMatrixOptions): Promise<Matrix<'float32'>>;
  /**
   * A row vector times the token table: `vector` holds vocabSize finite
   * float32 numbers, the result width, result[j] = Σ_i vector[i] · wte[i][j].
   * The kernels multiply every row, zeros included, in row order, in
   * float32: a one-hot vector (all 0 but a 1 at t) gives row t number for
   * number, the chapter's "the lookup is the same as multiplying a one-hot
   * vector by W_E". It reads the whole table (a 16-bit one widened exactly).
   * The result is a copy.
   */
  vectorTimesWte(vector: Vector): Float32Array;
  /** Bytes of WebAssembly memory held by the model. */
  memoryUsage(): { tables: number; tokenizer: number };
  /**
   * Frees the model; later calls on it throw. The model object itself keeps
   * none of its WebAssembly memory after it, however long it is referenced.
   * Views taken before (wte.data,
   * rowView of wte or wpe) stay readable, but each one keeps the model's
   * whole WebAssembly memory alive for as long as it is referenced (for
   * GPT-2, about 240 MiB for a 3 KiB row). To keep numbers past dispose(),
   * keep a copy: `model.wte.row(i)` or `rowView(model.wte, i).slice()`.
   * A model whose instance failed inside WebAssembly (every call then throws
   * an Error that says so) is disposed all the same.
   */
  dispose(): void;
  /** Same as dispose(). */
  delete(): void;
  /** Same as dispose(): what `using` calls. */
  [Symbol.dispose](): void;
}

declare global {
  // Symbol.dispose, for a program whose TypeScript lib has no
  // esnext.disposable (lib: ["es2022", "dom"]); the same declaration as the lib's.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** nearest()'s options. */
export interface NearestOptions {
  /** Token ids or texts to leave out of the results (the inputs of an analogy, say). */
  exclude?: ReadonlyArray<number | string>;
}

export interface MapOptions {
  /** 'umap' (default) or 'pca'. */
  method?: 'umap' | 'pca';
  /** The table whose rows are mapped; default the model's wte. At least 3 rows, finite numbers. */
  table?: Matrix;
  /** UMAP's random seed, a whole number (default 1). */
  seed?: number;
  /** UMAP's n_neighbors, counting the point itself as umap-learn does: 2 to 200 (default 15). */
  neighbours?: number;
  /** UMAP's min_dist, 0 to 1 (default 0.1). */
  minDist?: number;
  /**
   * UMAP's epochs; 0 (default) picks by size: 120 up to 10,000 rows, 50 past
   * (the learning rate falls as (1 − t)², so 120 keep as many neighbours as
   * umap-learn's 500 with its linear fall; docs/map.md).
   */
  epochs?: number;
  /**
   * UMAP only: the layout to start from instead of the table's first two
   * principal components, a Matrix of rows × 2 (each coordinate is scaled to
   * [0, 10] as the PCA start is), such as the map of a nearby table (an
   * earlier snapshot of it), so that points start where they were there.
   */
  init?: Matrix;
  /**
   * Called as the work goes (between slices, or about every 50 ms from the
   * Worker) and at the end: for UMAP, stage is initialise (the PCA start),
   * neighbours, graph, optimise or done; for PCA, pca or done. progress
   * rises from 0 to 1, each stage's share its estimated work.
   */
  onProgress?: (progress: { stage: string; progress: number }) => void;
  /** Cancels the map: it rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What model.map() made: how it was computed. */
export type MapDetails =
  | {
    readonly method: 'pca';
    /** Each axis's share of the total variance. */
    readonly varianceShare: readonly [number, number];
    /** 'covariance' (up to 128 columns) or 'krylov' (randomized block Krylov iteration). */
    readonly solver: 'covariance' | 'krylov';
    /** The Krylov method's passes over the table (0 for the covariance). */
    readonly passes: number;
  }
  | { readonly method: 'umap'; readonly neighbours: number; readonly minDist: number; readonly epochs: number; readonly seed: number };

/** cosineMatrixAsync's options. */
export interface CosineMatrixOptions {
  /** Cancels the map between two slices: it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called between slices with the share of rows done, and with stage 'done' at the end. */
  onProgress?: (progress: { stage: string; progress: number }) => void;
}

/** How a map from model.map() was computed; undefined for any other Matrix. */
export function mapDetails(map: Matrix): MapDetails | undefined;

/**
 * `map` (rows × 2) moved onto `reference` (the same rows × 2) by the one
 * rotation or reflection, uniform scale and shift that bring it closest in
 * least squares (orthogonal Procrustes): a new Matrix with the same
 * neighbourhoods, and map's mapDetails. A TypeError for a table that is not
 * rows × 2, a RangeError when the rows differ or all points coincide.
 */
export function alignMap(map: Matrix, reference: Matrix): Matrix;

/** Loads a model; with no argument, the default model shipped with the package. */
export function loadModel(files?: ModelFiles): Promise<Model>;

/** The files of the default model. */
export const defaultModelFiles: Readonly<{ weights: URL; config: URL; tokenizer: URL }>;

/**
 * Row i of a table as a Float32Array view (no copy). Throws for a bad index.
 * A view of a model's table keeps the model's memory alive even after
 * dispose(); `.slice()` it to keep only the numbers. Of a 16-bit table
 * (dtype 'float16' or 'bfloat16') it is instead a new Float32Array, the row
 * widened exactly: a copy, so writing into it leaves the table unchanged.
 */
export function rowView(table: Matrix, i: number): Float32Array;

/** Dot product, in float32 (±Infinity beyond its range). Throws a RangeError for vectors of different lengths. */
export function dot(a: Vector, b: Vector): number;

/**
 * Cosine similarity in [-1, 1]; 0 when either vector is all zeros; NaN when
 * either holds NaN or an infinity. Right over float32's whole range:
 * cosine([1e20, 1], [1e20, 1]) is 1.
 */
export function cosine(a: Vector, b: Vector): number;

/**
 * The rows × rows cosine map of any table, with Model.cosineMatrix's limits;
 * a table outside a model also holds at most 2^24 numbers (it is copied).
 */
export function cosineMatrix(table: Matrix): Matrix<'float32'>;

/** cosineMatrix in slices, with Model.cosineMatrixAsync's limits; a table outside a model holds at most 2^24 numbers. */
export function cosineMatrixAsync(table: Matrix, options?: CosineMatrixOptions): Promise<Matrix<'float32'>>;

/**
 * Which kernels this build runs, e.g. "wasm-simd128", once `ready` has
 * resolved (after `await loadModel()` too); '' until then.
 */
export let backend: string;

/**
 * Resolves once the WebAssembly module is up, which the package starts as
 * it is imported: from then on dot(), cosine() and cosineMatrix() take
 * plain arrays and tables outside any model (before, they throw). Rejects,
 * as loadModel() then does, with the reason the module cannot start (a
 * .wasm not found, say). loadModel() waits for it.
 */
export const ready: Promise<void>;

/**
 * Where the package's own files are served from (its .wasm modules, the
 * map's Worker, the widgets' stylesheets, the default model and its
 * training snapshots), for a bundler that does not copy the files named by
 * `new URL('…', import.meta.url)` into its output (esbuild): the URL of a
 * folder holding a copy of the package's `web/dist/`, `web/widgets/` and
 * `model/` as they lie in the package (`FOLDER/web/dist/embeddings.wasm`),
 * or a function from a file's path in the package
 * (`"web/dist/embeddings.wasm"`) to its URL. A relative folder is read
 * against the page's address. Vite, webpack, a page with an import map and
 * Node need none of this. Call it before the package needs its first file,
 * at the top of a module imported before the widgets' modules; later, it
 * throws. docs/embedding.md has the copy step.
 */
export function locateFiles(where: string | URL | ((path: string) => string | URL)): void;
