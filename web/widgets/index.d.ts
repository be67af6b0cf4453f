// embeddings-and-position/widgets: defines every element of the chapter
// (docs/embedding.md). Each element's own module is
// embeddings-and-position/widgets/<name>.
import './chapter-code.js';
import './dot-product.js';
import './embedding-table.js';
import './nearest-words.js';
import './one-hot-lookup.js';
import './position-map.js';
import './row-dot-product.js';
import './trace-table.js';
import './training-slider.js';
import './vocabulary-map.js';
import './word-analogy.js';
import './word-cosine.js';
import './word-pairs.js';

export {
  ChapterCode, DotProduct, EmbeddingTable, NearestWords, OneHotLookup, PositionMap, RowDotProduct, TraceTable, TrainingSlider,
  VocabularyMap, WordAnalogy, WordCosine, WordPairs, sharedModel, modelFilesOf,
} from './parts/elements.js';
export type { CodeLine, FigureOptions, HeatGrid, LoadProgress, MapViewState, WidgetFiles } from './parts/elements.js';
