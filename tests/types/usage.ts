// Compiled (not run) by `tsc --noEmit`: the chapter's code and the public
// API as a TypeScript user writes them, so index.d.ts (and the widgets' typings) stay complete.
import {
  loadModel, rowView, dot, cosine, cosineMatrix, cosineMatrixAsync, Matrix, Model, Trace, backend, defaultModelFiles,
  type Neighbour, type Token, type TracedToken, type EncodingWithOffsets, type ModelConfig, type Vector, type DType,
  mapDetails, alignMap, type MapDetails, type MapOptions, type NearestOptions, ready, locateFiles,
} from 'embeddings-and-position';
import { sharedModel, WordCosine, type FigureOptions, type NearestWords, type TrainingSlider, type MapViewState } from 'embeddings-and-position/widgets';
import { deferWidgetDefinitions, defineDeferredWidgets } from 'embeddings-and-position/widgets/definitions';
import 'embeddings-and-position/widgets/nearest-words';
// Each element's own entry, named after its tag, and the previous version's names for two of them (deprecated).
import { WordPairs } from 'embeddings-and-position/widgets/word-pairs';
import { OneHotLookup } from 'embeddings-and-position/widgets/one-hot-lookup';
import type { RowDotProduct } from 'embeddings-and-position/widgets/row-dot-product';
import { WordPairs as OldWordPairs } from 'embeddings-and-position/widgets/nearest-words';
import { RowDotProduct as OldRowDotProduct } from 'embeddings-and-position/widgets/row-dot';

async function chapter(): Promise<void> {
  const model: Model = await loadModel();
  const lily: Float32Array = rowView(model.wte, 665);
  const trace: Trace = model.trace('Lily saw Max');
  const rows: Matrix = trace.tokenEmbeddings;
  const similarity: number = cosine(rowView(model.wte, 477), rowView(model.wte, 497));
  const one: number = dot([1, 2, 3], [4, 0, -1]);
  const sum: Matrix = trace.embeddings;
  // null for a model without a position table (rotary positions).
  const positions: Matrix | null = trace.positionEmbeddings;
  const neighbours: Neighbour[] = model.nearest('·girl', 10);
  const byVector: Neighbour[] = model.nearest(lily);
  const tokens: readonly Token[] = trace.tokens;
  const wpe: Matrix | null = model.wpe;
  const rotary: boolean = !model.hasPositionTable;
  const family: string = model.family;
  const maxTokens: number = model.maxTraceTokens;
  const map: Matrix | null = wpe && cosineMatrix(wpe);
  const map2: Matrix | null = wpe && model.cosineMatrix(wpe);
  const config: ModelConfig = model.config;
  const theta: number | undefined = config.ropeTheta ?? config.headSize ?? config.rotaryShare;
  // The chapter's one-hot lookup as a product: a row of wte.
  const oneHot = new Float32Array(model.vocabSize);
  oneHot[665] = 1;
  const product: Float32Array = model.vectorTimesWte(oneHot);
  const id: number = model.tokenId('·girl');
  const text: string = model.tokenText(id);
  const ids: number[] = model.encode('Lily');
  const back: string = model.decode(ids);
  // Offsets: each token's [start, end) in the string, and the trace's tokens' spans.
  const placed: EncodingWithOffsets = model.encode('Lily saw 😀', { offsets: true });
  const [start, end]: [number, number] = placed.offsets[0];
  const piece: string = 'Lily saw 😀'.slice(start, end) + String(placed.partial[0]) + String(placed.sequenceIds[0] ?? 'special');
  const first: TracedToken = model.trace('Lily').tokens[0];
  const spans: number = first.end - first.start + (first.partial ? 1 : 0) + piece.length;
  const copy: Float32Array = model.wte.row(0);
  const arrays: number[][] = positions ? positions.toArray() : [];
  const mine = new Matrix(new Float32Array(6), 2, 3, { name: 'mine' });
  const v: Vector = new Float64Array(3);
  for (const row of mine) row.fill(1);
  const usage: { tables: number; tokenizer: number } = model.memoryUsage();
  const cut: number = model.trace('x', { truncate: true }).truncated;
  // A model's tables keep the file's format; their rows always read as float32.
  const dtype: DType = model.wte.dtype;
  const bits: Float32Array | Uint16Array = model.wte.data;
  const half = new Matrix(new Uint16Array(6), 2, 3, { dtype: 'float16' });
  const halfBits: Uint16Array = half.data;
  const halfRow: Float32Array = rowView(half, 1);
  const traced: Float32Array = trace.embeddings.data;
  void [similarity, one, sum, neighbours, byVector, tokens, map, map2, config, text, back, copy, arrays, v, usage, cut, rows, backend, rotary, family, maxTokens, dtype, bits, halfBits, halfRow, traced, spans];
  model.dispose();
}

async function custom(bytes: ArrayBuffer, file: Blob): Promise<void> {
  using model = await loadModel({
    weights: bytes,
    config: { n_embd: 128 },
    tokenizer: file,
    onProgress: ({ loaded, total }) => console.log(loaded / total),
  });
  const url: URL = defaultModelFiles.weights;
  void url;
  void model.parameterCount;
}

// A forgotten await, a fetch() Response, and a load that can be abandoned.
async function kinds(tokenizerResponse: Response, snapshotOf: Promise<Model>): Promise<void> {
  const controller = new AbortController();
  using model = await loadModel({
    weights: fetch('model/model.safetensors'),
    config: Promise.resolve({ n_embd: 128 }),
    tokenizer: tokenizerResponse,
    signal: controller.signal,
  });
  using snapshot = await loadModel({ weights: 'step-100.safetensors', tokenizer: snapshotOf, signal: AbortSignal.timeout(30000) });
  controller.abort();
  void [model.width, snapshot.width];
}

// The vocabulary map and analogies.
async function maps(): Promise<void> {
  using model = await loadModel();
  const controller = new AbortController();
  const umap: Matrix = await model.map({
    method: 'umap', seed: 3, neighbours: 15, minDist: 0.1, epochs: 0, signal: controller.signal,
    onProgress: ({ stage, progress }) => console.log(stage, progress),
  });
  // model.wpe is null for a model with rotary positions.
  const pca: Matrix = await model.map({ method: 'pca', table: model.wpe ?? model.wte });
  const details: MapDetails | undefined = mapDetails(pca);
  if (details?.method === 'pca') console.log(details.varianceShare[0], details.solver === 'krylov' ? details.passes : 0);
  const wide: Matrix = await cosineMatrixAsync(model.wte, { signal: controller.signal, onProgress: ({ progress }) => console.log(progress) });
  const wide2: Matrix = await model.cosineMatrixAsync(model.wte);
  void [wide, wide2];
  if (details?.method === 'umap') console.log(details.neighbours, details.epochs);
  const options: MapOptions = { method: 'pca' };
  const aligned: Matrix = alignMap(umap, await model.map({ seed: 4 }));
  const warm: Matrix = await model.map({ init: umap, epochs: 30 });
  const near: Neighbour[] = model.nearest('·king', 5, { exclude: ['·king', 1] });
  const exclude: NearestOptions = { exclude: [1, 2] };
  void [umap.rows, aligned.rows, warm.rows, options, near, exclude, await model.map()];
}

void chapter;
void custom;
void kinds;
void maps;

// Start-up: the module starts as the package is imported; ready says when
// plain arrays can be computed on without a model, and where files are served from.
async function startUp(): Promise<void> {
  locateFiles('/embeddings-and-position/');
  locateFiles((path: string) => new URL(path, 'https://cdn.example/embeddings-and-position/'));
  await ready;
  const kernels: string = backend;
  void [kernels, dot([1, 2], [3, 4])];
}

// The widgets by name: each element's class, and querySelector typed by tag.
function widgets(): void {
  const nearest: NearestWords | null = document.querySelector('ew-nearest-words');
  if (nearest) {
    nearest.word = '·boy';
    const k: number = nearest.k;
    void k;
  }
  const trace = document.createElement('ew-trace-table');
  const tokens: number | undefined = trace.trace?.tokens.length;
  trace.text = 'Lily saw Max';
  trace.model = loadModel();
  const code = document.querySelector('ew-chapter-code');
  if (code) code.lines = [{ code: 'dot([1, 2, 3], [4, 0, -1]);', comment: '1', run: () => dot([1, 2, 3], [4, 0, -1]) }];
  const slider: TrainingSlider | null = document.querySelector('ew-training-slider');
  const dotProduct = document.querySelector('ew-dot-product');
  const sum: number | undefined = dotProduct?.result?.sum;
  const model: Promise<Model> = sharedModel({ weights: 'model/model.safetensors' }, ({ loaded, total }) => console.log(loaded / total));
  deferWidgetDefinitions({ except: ['ew-embedding-table'] });
  defineDeferredWidgets();
  const map = document.querySelector('ew-vocabulary-map');
  void [tokens, slider?.keep, sum, model, map?.setMethod('pca'), new WordCosine().score];
  // The names without the prefix, kept for one version, are typed as the new ones.
  const oldTrace: HTMLElementTagNameMap['ew-trace-table'] | null = document.querySelector('trace-table');
  const oneHot = document.querySelector('ew-one-hot-lookup');
  const rowDot = document.querySelector('ew-row-dot-product');
  void [oldTrace?.text, oneHot?.result?.equal, rowDot?.pair];
  // The reader's state of each widget, as the page keeps it in its address.
  const table = document.querySelector('ew-embedding-table');
  if (table) {
    const row: number | undefined = table.row;
    table.row = 477;
    table.pick(665, { from: 'the trace (place 2 of text 1)' });
    void row;
  }
  const places: [number, number] | undefined = document.querySelector('ew-position-map')?.places;
  const analogy = document.querySelector('ew-word-analogy');
  if (analogy) analogy.words = ['·queen', '·man', '·woman'];
  const step: number | undefined = slider?.step;
  if (slider) slider.step = 160;
  trace.sayLinked(1, 'Shown in ', document.createElement('a'), '.');
  const view: MapViewState | undefined = map?.viewState;
  if (map && view) void map.setViewState({ ...view, hidden: ['colours'] });
  map?.lightUp(477, '·girl (place 2 of text 1)');
  void [places, analogy?.words, step];
}

// A widget's figures for a book: SVG markup, or a PNG at a scale or at 300 dpi for a width in millimetres.
async function figures(): Promise<void> {
  const table = document.querySelector('ew-embedding-table');
  if (!table) return;
  const names: string[] = table.figureNames;
  const svg: string = await table.figure({ format: 'svg', which: names[0] });
  const twice: Blob = await table.figure({ format: 'png', scale: 2 });
  const forPrint: Blob = await table.figure({ format: 'png', dpi: 300, widthMm: 120, caption: true });
  const options: FigureOptions = { which: 'loss-curve' };
  const curve: string | Blob | undefined = await document.querySelector('ew-training-slider')?.figure(options);
  await document.querySelector('ew-training-slider')?.prepareForPrint();
  void [svg, twice, forPrint, curve];
}
void figures;

void startUp;
void widgets;

// Each element's entry types its element; a deprecated entry's class is the same class.
function entries(): void {
  const pairs: WordPairs | null = document.querySelector('ew-word-pairs');
  const lookup: OneHotLookup = new OneHotLookup();
  const rowDot: RowDotProduct | null = document.querySelector('ew-row-dot-product');
  const samePairs: OldWordPairs | null = pairs;
  const sameRowDot: OldRowDotProduct | null = rowDot;
  const isRowDot: boolean = document.body instanceof OldRowDotProduct;
  void [samePairs?.pairs, lookup.tokenId, sameRowDot?.pair, isRowDot];
}
void entries;
