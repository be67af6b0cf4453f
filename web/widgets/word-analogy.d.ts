// embeddings-and-position/widgets/word-analogy: defines <word-analogy> and <word-cosine>.
import type { WordAnalogy, WordCosine } from './parts/elements.js';
export { WordAnalogy, WordCosine } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'word-analogy': WordAnalogy;
    'word-cosine': WordCosine;
  }
}
