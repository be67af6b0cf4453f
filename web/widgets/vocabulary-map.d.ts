// embeddings-and-position/widgets/vocabulary-map: defines <vocabulary-map>.
import type { VocabularyMap } from './parts/elements.js';
export { VocabularyMap } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'vocabulary-map': VocabularyMap;
  }
}
