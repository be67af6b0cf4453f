// embeddings-and-position/widgets/word-analogy: defines <ew-word-analogy> and <ew-word-cosine>.
import type { WordAnalogy, WordCosine } from './parts/elements.js';
export { WordAnalogy, WordCosine } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-word-analogy': WordAnalogy;
    /** The old name, kept for one version. */
    'word-analogy': WordAnalogy;
    'ew-word-cosine': WordCosine;
    /** The old name, kept for one version. */
    'word-cosine': WordCosine;
  }
}
