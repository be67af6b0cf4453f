// embeddings-and-position/widgets/word-pairs: defines <ew-word-pairs>.
import type { WordPairs } from './parts/elements.js';
export { WordPairs } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-word-pairs': WordPairs;
    /** The old name, kept for one version. */
    'word-pairs': WordPairs;
  }
}
