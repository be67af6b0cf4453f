// embeddings-and-position/widgets/vocabulary-map: defines <ew-vocabulary-map>.
import type { VocabularyMap } from './parts/elements.js';
export { VocabularyMap } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-vocabulary-map': VocabularyMap;
    /** The old name, kept for one version. */
    'vocabulary-map': VocabularyMap;
  }
}
