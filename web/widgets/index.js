// Every widget of the chapter "Embeddings and position". Importing this
// module defines the custom elements, each in a module named after its tag
// (<ew-word-pairs> in word-pairs.js):
//
//   <ew-embedding-table> <ew-nearest-words> <ew-word-pairs> <ew-dot-product>
//   <ew-position-map> <ew-trace-table> <ew-training-slider> <ew-chapter-code> <ew-vocabulary-map>
//   <ew-word-analogy> <ew-word-cosine> <ew-row-dot-product> <ew-one-hot-lookup>
//
// Each widget loads its model from its attributes (src, or weights, config
// and tokenizer), or takes one through its `model` property; widgets naming
// the same files share one load. See docs/embedding.md.
export { EmbeddingTable } from './embedding-table.js';
export { NearestWords } from './nearest-words.js';
export { WordPairs } from './word-pairs.js';
export { DotProduct } from './dot-product.js';
export { PositionMap } from './position-map.js';
export { TraceTable } from './trace-table.js';
export { TrainingSlider } from './training-slider.js';
export { ChapterCode } from './chapter-code.js';
export { VocabularyMap } from './vocabulary-map.js';
export { WordAnalogy } from './word-analogy.js';
export { WordCosine } from './word-cosine.js';
export { RowDotProduct } from './row-dot-product.js';
export { OneHotLookup } from './one-hot-lookup.js';
export { sharedModel, modelFilesOf } from './parts/model-source.js';
