// embeddings-and-position/widgets/word-cosine: defines <ew-word-cosine>.
import type { WordCosine } from './parts/elements.js';
export { WordCosine } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-word-cosine': WordCosine;
    /** The old name, kept for one version. */
    'word-cosine': WordCosine;
  }
}
