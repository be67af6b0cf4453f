// The elements in the JSX and templates of React, Vue and Svelte: each
// element with its attributes, its `model` property and its events, for
// React's JSX (`react`'s JSX.IntrinsicElements), Vue's templates (`vue`'s
// GlobalComponents, read by vue-tsc) and Svelte's (`svelte/elements`'
// SvelteHTMLElements, which svelteHTML.IntrinsicElements extends). Every
// widget's typings import this file, so an app that imports the widgets has
// them with no configuration.
//
// An app has one of these frameworks, or none: an augmentation of a module
// that is not there is dropped, but the names used inside it must still
// resolve, so they have stand-ins below, which the framework's own names
// hide wherever the framework is there. Checked with tsc (React, and a
// program with no framework), vue-tsc and svelte-check in tests/consumers.
import type { Model, Trace } from '../../index.js';
import type {
  ChapterCode, CodeLine, DotProduct, EmbeddingTable, NearestWords, OneHotLookup, PositionMap, RowDotProduct, TraceTable,
  TrainingSlider, VocabularyMap, WordAnalogy, WordCosine, WordPairs,
} from './elements.js';

/** Where a model widget's model comes from (docs/embedding.md, "Where a widget gets its model"). */
export interface ModelAttributes {
  /** A folder holding model.safetensors, config.json and tokenizer.json. */
  src?: string;
  /** The weights file (a .safetensors), which wins over `src`. */
  weights?: string;
  /** config.json, which wins over `src`. */
  config?: string;
  /** tokenizer.json, which wins over `src`. */
  tokenizer?: string;
  /** Loads no files: the page hands the model over through the `model` property. */
  'external-model'?: boolean;
  /**
   * The model to show, a Model or a Promise of one, set as a property (an
   * element must be defined before a framework renders it for the framework
   * to set a property rather than an attribute).
   */
  model?: Model | PromiseLike<Model>;
}

/** What every model widget says: ready (it answers input) or failed to load its model. */
export interface ModelEvents {
  'ew-ready': { model: Model };
  'ew-error': { error: unknown };
}

/** Each element: its class, its attributes and properties, its events (name → the event's `detail`). */
export interface WidgetElements {
  'ew-embedding-table': { element: EmbeddingTable; attributes: ModelAttributes & { token?: string }; events: ModelEvents & { 'ew-token': { id: number } } };
  'ew-nearest-words': { element: NearestWords; attributes: ModelAttributes & { word?: string; k?: number | string }; events: ModelEvents & { 'ew-token': { id: number } } };
  'ew-word-pairs': { element: WordPairs; attributes: ModelAttributes & { pairs?: string; for?: string }; events: ModelEvents };
  'ew-dot-product': {
    element: DotProduct; attributes: { a?: string; b?: string };
    events: { 'ew-ready': null; 'ew-error': { error: unknown }; 'ew-change': { products: number[]; sum: number } | undefined };
  };
  'ew-position-map': { element: PositionMap; attributes: ModelAttributes & { place?: number | string; other?: number | string; waves?: boolean }; events: ModelEvents };
  'ew-trace-table': {
    element: TraceTable; attributes: ModelAttributes & { text?: string; compare?: string };
    events: ModelEvents & { 'ew-trace': { trace: Trace | undefined }; 'ew-trace-row': { text: 1 | 2; row: number; id: number; token: string } };
  };
  'ew-training-slider': {
    element: TrainingSlider; attributes: ModelAttributes & { word?: string; pair?: string; snapshots?: string; curve?: string; keep?: number | string };
    events: ModelEvents & { 'ew-step': { index: number; step: number; model: Model } };
  };
  'ew-chapter-code': { element: ChapterCode; attributes: { lines?: CodeLine[] }; events: {} };
  'ew-vocabulary-map': {
    element: VocabularyMap; attributes: ModelAttributes & { word?: string; method?: 'umap' | 'pca'; for?: string };
    events: ModelEvents & {
      'ew-map-pick': { id: number };
      'ew-map-view': { method: string; scale: number; centre: [number, number]; isolated: boolean; whole: boolean; axes?: string[] } | undefined;
    };
  };
  'ew-word-analogy': { element: WordAnalogy; attributes: ModelAttributes & { a?: string; b?: string; c?: string }; events: ModelEvents };
  'ew-word-cosine': { element: WordCosine; attributes: ModelAttributes & { a?: string; b?: string }; events: ModelEvents };
  'ew-row-dot-product': {
    element: RowDotProduct; attributes: ModelAttributes & { a?: string; b?: string; editor?: string };
    events: ModelEvents & { 'ew-change': { a: number; b: number; dot: number; cosine: number } };
  };
  'ew-one-hot-lookup': {
    element: OneHotLookup; attributes: ModelAttributes & { token?: string };
    events: ModelEvents & { 'ew-change': { id: number; equal: boolean; width: number; product: number[] } };
  };
}

type Tag = keyof WidgetElements;
type EventsOf<T extends Tag> = WidgetElements[T]['events'];

/**
 * An element's own attributes and properties, and a listener per event as
 * React 19 and Svelte 5 name them: `on` and the event's name
 * (`onew-ready={…}`), as a property of the element.
 */
export type WidgetProps<T extends Tag> = WidgetElements[T]['attributes'] & {
  [Name in keyof EventsOf<T> & string as `on${Name}`]?: (event: CustomEvent<EventsOf<T>[Name]>) => void;
};

type Overloads<Union> = (Union extends unknown ? (each: Union) => void : never) extends (all: infer All) => void ? All : never;

/**
 * An element's events as vue-tsc reads them from `$emit` (`@ew-ready="…"`
 * in a template): one overload per event, the shape of Vue's own EmitFn.
 * Written here rather than with Vue's names: a `declare module 'vue'`
 * block sees none of them (vue re-exports them with `export *`).
 */
export type VueEmit<T extends Tag> = Overloads<{
  [Name in keyof EventsOf<T> & string]: (event: Name, detail: CustomEvent<EventsOf<T>[Name]>) => void;
}[keyof EventsOf<T> & string]>;

/** An element as a component of Vue's GlobalComponents: the element, and its props and events for vue-tsc. */
export type VueElement<T extends Tag> = new () => WidgetElements[T]['element'] & {
  /** For template type checking only. */
  $props: WidgetElements[T]['attributes'] & { class?: unknown; style?: unknown; id?: string };
  /** For template type checking only. */
  $emit: VueEmit<T>;
};

// Stand-ins for the frameworks' names, used only where a framework is not there.
type DetailedHTMLProps<Attributes, Element> = Attributes;
interface HTMLAttributes<Element = unknown> {}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'ew-embedding-table': DetailedHTMLProps<HTMLAttributes<EmbeddingTable>, EmbeddingTable> & WidgetProps<'ew-embedding-table'>;
      'ew-nearest-words': DetailedHTMLProps<HTMLAttributes<NearestWords>, NearestWords> & WidgetProps<'ew-nearest-words'>;
      'ew-word-pairs': DetailedHTMLProps<HTMLAttributes<WordPairs>, WordPairs> & WidgetProps<'ew-word-pairs'>;
      'ew-dot-product': DetailedHTMLProps<HTMLAttributes<DotProduct>, DotProduct> & WidgetProps<'ew-dot-product'>;
      'ew-position-map': DetailedHTMLProps<HTMLAttributes<PositionMap>, PositionMap> & WidgetProps<'ew-position-map'>;
      'ew-trace-table': DetailedHTMLProps<HTMLAttributes<TraceTable>, TraceTable> & WidgetProps<'ew-trace-table'>;
      'ew-training-slider': DetailedHTMLProps<HTMLAttributes<TrainingSlider>, TrainingSlider> & WidgetProps<'ew-training-slider'>;
      'ew-chapter-code': DetailedHTMLProps<HTMLAttributes<ChapterCode>, ChapterCode> & WidgetProps<'ew-chapter-code'>;
      'ew-vocabulary-map': DetailedHTMLProps<HTMLAttributes<VocabularyMap>, VocabularyMap> & WidgetProps<'ew-vocabulary-map'>;
      'ew-word-analogy': DetailedHTMLProps<HTMLAttributes<WordAnalogy>, WordAnalogy> & WidgetProps<'ew-word-analogy'>;
      'ew-word-cosine': DetailedHTMLProps<HTMLAttributes<WordCosine>, WordCosine> & WidgetProps<'ew-word-cosine'>;
      'ew-row-dot-product': DetailedHTMLProps<HTMLAttributes<RowDotProduct>, RowDotProduct> & WidgetProps<'ew-row-dot-product'>;
      'ew-one-hot-lookup': DetailedHTMLProps<HTMLAttributes<OneHotLookup>, OneHotLookup> & WidgetProps<'ew-one-hot-lookup'>;
    }
  }
}

declare module 'vue' {
  interface GlobalComponents {
    'ew-embedding-table': VueElement<'ew-embedding-table'>;
    'ew-nearest-words': VueElement<'ew-nearest-words'>;
    'ew-word-pairs': VueElement<'ew-word-pairs'>;
    'ew-dot-product': VueElement<'ew-dot-product'>;
    'ew-position-map': VueElement<'ew-position-map'>;
    'ew-trace-table': VueElement<'ew-trace-table'>;
    'ew-training-slider': VueElement<'ew-training-slider'>;
    'ew-chapter-code': VueElement<'ew-chapter-code'>;
    'ew-vocabulary-map': VueElement<'ew-vocabulary-map'>;
    'ew-word-analogy': VueElement<'ew-word-analogy'>;
    'ew-word-cosine': VueElement<'ew-word-cosine'>;
    'ew-row-dot-product': VueElement<'ew-row-dot-product'>;
    'ew-one-hot-lookup': VueElement<'ew-one-hot-lookup'>;
  }
}

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'ew-embedding-table': HTMLAttributes<EmbeddingTable> & WidgetProps<'ew-embedding-table'>;
    'ew-nearest-words': HTMLAttributes<NearestWords> & WidgetProps<'ew-nearest-words'>;
    'ew-word-pairs': HTMLAttributes<WordPairs> & WidgetProps<'ew-word-pairs'>;
    'ew-dot-product': HTMLAttributes<DotProduct> & WidgetProps<'ew-dot-product'>;
    'ew-position-map': HTMLAttributes<PositionMap> & WidgetProps<'ew-position-map'>;
    'ew-trace-table': HTMLAttributes<TraceTable> & WidgetProps<'ew-trace-table'>;
    'ew-training-slider': HTMLAttributes<TrainingSlider> & WidgetProps<'ew-training-slider'>;
    'ew-chapter-code': HTMLAttributes<ChapterCode> & WidgetProps<'ew-chapter-code'>;
    'ew-vocabulary-map': HTMLAttributes<VocabularyMap> & WidgetProps<'ew-vocabulary-map'>;
    'ew-word-analogy': HTMLAttributes<WordAnalogy> & WidgetProps<'ew-word-analogy'>;
    'ew-word-cosine': HTMLAttributes<WordCosine> & WidgetProps<'ew-word-cosine'>;
    'ew-row-dot-product': HTMLAttributes<RowDotProduct> & WidgetProps<'ew-row-dot-product'>;
    'ew-one-hot-lookup': HTMLAttributes<OneHotLookup> & WidgetProps<'ew-one-hot-lookup'>;
  }
}
