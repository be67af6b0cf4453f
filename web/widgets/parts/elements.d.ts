// The widgets' element classes, as the package's typings see them. Each
// element's module (web/widgets/<name>.d.ts) exports its class and adds
// its tag to HTMLElementTagNameMap; web/widgets/index.d.ts has them all.
// Hand-written; compiled by tsc in tests/types and tests/consumers.
import type { Matrix, Model, Neighbour, Trace } from '../../index.js';
// The elements in React's JSX, Vue's and Svelte's templates, typed wherever the widgets are.
import './frameworks.js';

/** The files a widget names: the weights, and config.json and tokenizer.json beside them. */
export interface WidgetFiles {
  weights: URL | string;
  config?: URL | string;
  tokenizer?: URL | string;
}

/** How much of a model's weights has arrived. */
export interface LoadProgress {
  loaded: number;
  total: number;
  stage: string;
}

/** A heat map of <ew-embedding-table> or <ew-position-map>. */
export interface HeatGrid {
  /** Moves the cursor to row r, column c (and scrolls there). */
  select(row: number, col: number, options?: { scroll?: boolean }): void;
  /** Highlights one row. */
  highlightRow(row: number): void;
}

/**
 * What every model widget has: its model, from its `model` property, its
 * attributes (`src`, or `weights`, `config` and `tokenizer`) or the
 * package's default model; `data-state` (`loading`, `ready`, `error`) and
 * the `ew-ready` and `ew-error` events.
 */
declare class ModelWidget extends HTMLElement {
  /** The model shown, once loaded. */
  get model(): Model | undefined;
  /** Shows this model (or the one a Promise gives) instead of loading files. */
  set model(model: Model | PromiseLike<Model>);
  /** The files the widget loads when no model is given. */
  get files(): { weights: URL | string; config?: URL | string; tokenizer?: URL | string };
  /** Resolves when the current model is shown (or has failed to load). */
  get updated(): Promise<void>;
  /** Whether the widget has built its parts (a far widget builds them later). */
  get built(): boolean;
  /** Builds the parts now if they are not yet. */
  ensureBuilt(): void;
}

/**
 * What a figure for a book is made as: SVG (vector shapes, text as text),
 * or PNG at `scale` device pixels a CSS pixel (default 2), or at `dpi` for a
 * printed width of `widthMm` millimetres (the PNG records the resolution).
 * `which` names one of the widget's figures (figureNames; the first by
 * default); `caption: false` leaves out the title, caption and model line.
 */
export interface FigureOptions {
  format?: 'svg' | 'png';
  which?: string;
  scale?: number;
  dpi?: number;
  widthMm?: number;
  caption?: boolean;
}

/**
 * A widget whose pictures export as figures for a book, with their caption
 * and the model's name: from its API and from a control under it ("Save a
 * figure for a book"). The figure is the widget's own drawing, in paper's
 * colours (ink on white) whatever the page's scheme.
 */
declare class FigureWidget extends ModelWidget {
  /** The names of the figures it shows now ('token-table', 'position-map', …); empty before its model is shown. */
  readonly figureNames: string[];
  /** One figure as SVG markup. */
  figure(options?: FigureOptions & { format?: 'svg' }): Promise<string>;
  /** One figure as a PNG. */
  figure(options: FigureOptions & { format: 'png' }): Promise<Blob>;
  /** One figure, SVG markup or a PNG as `format` says. */
  figure(options?: FigureOptions): Promise<string | Blob>;
}

/** <ew-embedding-table>: the whole token table as a heat map, a window of rows at a time. Figure: 'token-table'. */
export declare class EmbeddingTable extends FigureWidget {
  /** The token highlighted, as text; setting it is the same as setting the attribute. */
  get token(): string | undefined;
  set token(text: string);
  /** The heat map, once shown. */
  readonly grid: HeatGrid | undefined;
  /**
   * The row read now (a token id): the cursor's row, else the row picked;
   * setting it picks that row. Another model keeps the row (its numbers and
   * token read again in that model).
   */
  get row(): number | undefined;
  set row(id: number);
  /**
   * Highlights a token's row and scrolls to it. With `from` (words such as
   * "the trace (place 2 of text 1)"), another part of the page shows its
   * token here: the table says so, with a button back to the row it read before.
   */
  pick(id: number, options?: { from?: string }): void;
}

/** <ew-nearest-words>: a word's closest tokens by cosine. */
export declare class NearestWords extends ModelWidget {
  /** The word shown (its token's text); setting it finds the word as the search box does. */
  get word(): string;
  set word(text: string);
  /** How many tokens are listed (the `k` attribute, default 10). */
  get k(): number;
  /** Sets the `k` attribute. */
  set k(count: number | string);
  /** The id of the token shown. */
  readonly tokenId: number | undefined;
  /** Shows the closest tokens of token `id`. */
  pick(id: number): void;
  /** Shows the closest tokens of a typed word. */
  pickText(text: string): void;
}

/** <ew-word-pairs>: the cosine of given pairs of tokens. */
export declare class WordPairs extends ModelWidget {
  /** The pairs of the `pairs` attribute, with the book's figure where it gives one. */
  get pairs(): { a: string; b: string; book: number | undefined }[];
  /** Sets the `pairs` attribute: "·girl ·boy 0.74; ·three ·3". */
  set pairs(pairs: string);
  /** What is shown: each pair's ids and cosine (null, with why in `missing`, where a word is no single token). */
  readonly results: { a: string; b: string; ids: number[]; score: number | null; missing: string[] }[];
}

/** <ew-dot-product>: two small editable vectors, their products and their sum. Needs no model. */
export declare class DotProduct extends HTMLElement {
  /** The vectors as numbers, [a, b]. */
  readonly vectors: [number[], number[]];
  /** The products place by place and their sum, once computed. */
  readonly result: { products: number[]; sum: number } | undefined;
}

/**
 * <ew-position-map>: the context × context cosine map of the position table.
 * Figures: 'position-map' (or the rotary map), 'waves-map' (with `waves`), 'place-line'.
 */
export declare class PositionMap extends FigureWidget {
  /** The heat map, once shown (none for a model without a position table). */
  readonly grid: HeatGrid | undefined;
  /** The sine and cosine waves' map shown beside the learned one (the `waves` attribute), once shown. */
  get waves(): Matrix | undefined;
  /** Sets the `waves` attribute (true) or removes it (false). */
  set waves(shown: boolean);
  /** Selects the cell of places `place` and `other` (counted from 1). */
  compare(place: number, other: number): void;
  /** The two places compared now (counted from 1), once shown; an `ew-change` event says when they change. */
  readonly places: [number, number] | undefined;
}

/** <ew-trace-table>: a text's trace, token by token. Figures: 'trace-1', and 'trace-2' with `compare`. */
export declare class TraceTable extends FigureWidget {
  /** The text traced; setting it traces the new text. */
  get text(): string;
  set text(value: string);
  /** The second text, with the `compare` attribute. */
  get compareText(): string | undefined;
  set compareText(value: string);
  /** The current trace (of the text's first tokens when it is longer than the context). */
  readonly trace: Trace | undefined;
  /** The second text's trace. */
  readonly compareTrace: Trace | undefined;
  /**
   * Says under text `text`'s trace (1 or 2) what the reader's row did
   * elsewhere on the page, in words and links (strings or elements); no
   * nodes clears it. The `ew-trace-row` event says which row the reader is on.
   */
  sayLinked(text: 1 | 2, ...nodes: (string | Node)[]): void;
}

/**
 * <ew-one-hot-lookup>: a token's one-hot vector times the token table,
 * computed as a real product and checked against the row. Figure: 'one-hot-product'.
 */
export declare class OneHotLookup extends FigureWidget {
  /** The token whose one-hot vector is multiplied (an id), once shown. */
  readonly tokenId: number | undefined;
  /** The last product: the token, whether it equals the row number by number, the width and the product. */
  readonly result: { id: number; equal: boolean; width: number; product: number[] } | undefined;
  /** Multiplies the one-hot vector of token `id` by the table. */
  pick(id: number): void;
}

/**
 * <ew-row-dot-product>: two tokens' rows, their place-by-place products, the
 * dot product, the lengths and the cosine. Figures: 'row-strips', 'running-sum'.
 */
export declare class RowDotProduct extends FigureWidget {
  /** The two token ids compared, once shown. */
  readonly pair: [number, number] | undefined;
  /** Compares two tokens, given by id. */
  compare(a: number, b: number): void;
}

/**
 * <ew-training-slider>: the model from random numbers to trained, snapshot
 * by snapshot. Figures: 'training-map', 'loss-curve'.
 */
export declare class TrainingSlider extends FigureWidget {
  /** The word whose closest tokens are shown; setting it is the same as setting the attribute. */
  get word(): string;
  set word(text: string);
  /**
   * The training step shown (a step of the snapshots' index); setting it goes
   * to that step's snapshot, or the last before it, once they are listed.
   */
  get step(): number | undefined;
  set step(value: number);
  /** How many snapshots stay loaded (the `keep` attribute, default 4); setting it sets the attribute. */
  get keep(): number;
  set keep(count: number | string);
  /** The training snapshots, once their index is read: each one's file, step, tokens read, losses and URL. */
  get snapshots(): { file: string; step: number; tokens_seen: number; train_loss: number | null; val_loss: number | null; url: URL | string }[] | undefined;
  /** Sets the `snapshots` attribute: the URL of the snapshots' index. */
  set snapshots(url: string);
  /** Snapshot i, loaded (or found loaded). */
  snapshot(i: number): Promise<Model>;
  /**
   * Loads and draws the step shown (its snapshot, map and loss curve) whether
   * or not the slider has come near the screen, for a print; resolves when drawn.
   */
  prepareForPrint(): Promise<void>;
}

/** A line of <ew-chapter-code>: its code, a comment, and a function that does what the line says. */
export interface CodeLine {
  code: string;
  comment?: string;
  /** A declaration's name: its result prints as `name = …`. */
  name?: string;
  run?: () => unknown;
}

/** <ew-chapter-code>: code lines with a Run button and console-style results. */
export declare class ChapterCode extends HTMLElement {
  get lines(): CodeLine[];
  set lines(lines: CodeLine[]);
  /** Runs every line in order; returns the results (an Error for a line that threw). */
  execute(): unknown[];
}

/** <ew-vocabulary-map>: every token as a dot on a map computed in the browser. Figure: 'vocabulary-map'. */
export declare class VocabularyMap extends FigureWidget {
  /** The token picked now. */
  readonly tokenId: number | undefined;
  /** How the map shown is made; setting it sets the `method` attribute, which switches the map. */
  get method(): 'umap' | 'pca' | 'axes';
  set method(method: 'umap' | 'pca');
  /** The map shown now (vocabulary × 2). */
  readonly map: Matrix | undefined;
  /** Shows the map made by 'umap' or 'pca'. */
  setMethod(method: 'umap' | 'pca', options?: { force?: boolean }): Promise<void>;
  /** Picks a token: highlights it and its closest tokens. */
  pick(id: number): void;
  /** Back to the whole map. */
  resetView(): void;
  /** What the reader sees, to keep or share; undefined until a map is drawn. */
  readonly viewState: MapViewState | undefined;
  /** Shows a view as viewState gives it (once its map is made); `whole` (or no centre) fits the map. */
  setViewState(view: Partial<MapViewState>): Promise<void>;
  /** Rings a token's dot without picking it, with `label` beside it; undefined turns it off. */
  lightUp(id: number | undefined, label?: string): void;
}

/** <ew-vocabulary-map>'s view: what its `ew-map-view` event carries. */
export interface MapViewState {
  method: 'umap' | 'pca' | 'axes';
  /** The zoom (1: the whole map) and the map's point in the middle of the view, in the map's units. */
  scale: number;
  centre: [number, number];
  isolated: boolean;
  /** The map as first shown: the whole of it, or the isolated words fitted. */
  whole: boolean;
  /** The axes' words, for 'axes'. */
  axes?: string[];
  /** The groups whose marks are off ('colours', 'numbers', 'names', 'family', 'motion'). */
  hidden: string[];
}

/** <ew-word-analogy>: a − b + c and its closest tokens. */
export declare class WordAnalogy extends ModelWidget {
  /** The closest tokens of the last query, its three inputs left out. */
  readonly answer: Neighbour[] | undefined;
  /** The three words the answer is about, as typed; setting them fills the boxes and computes (an `ew-change` event follows). */
  get words(): string[] | undefined;
  set words(texts: string[]);
}

/** <ew-word-cosine>: the cosine of two typed words. */
export declare class WordCosine extends ModelWidget {
  /** The cosine of the last two words. */
  readonly score: number | undefined;
  /** The two words the score is about, as typed; setting them fills the boxes and computes (an `ew-change` event follows). */
  get words(): string[] | undefined;
  set words(texts: string[]);
}

/**
 * The model of these files, loaded once however many widgets ask (the
 * loader the widgets use); `onProgress` follows the weights. A failed load
 * is forgotten, so the next call tries again.
 */
export function sharedModel(files?: WidgetFiles, onProgress?: (progress: LoadProgress) => void): Promise<Model>;

/** The model files an element names (`src`, `weights`, `config`, `tokenizer`), or the default model's. */
export function modelFilesOf(element: Element): { weights: URL | string; config?: URL | string; tokenizer?: URL | string };
