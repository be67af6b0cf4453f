// embeddings-and-position/widgets/nearest-words: defines <ew-nearest-words> and <ew-word-pairs>.
import type { NearestWords, WordPairs } from './parts/elements.js';
export { NearestWords, WordPairs } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-nearest-words': NearestWords;
    /** The old name, kept for one version. */
    'nearest-words': NearestWords;
    'ew-word-pairs': WordPairs;
    /** The old name, kept for one version. */
    'word-pairs': WordPairs;
  }
}
