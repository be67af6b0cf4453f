// embeddings-and-position/widgets/word-analogy: defines <ew-word-analogy>
// (and, deprecated for one version, <ew-word-cosine>: see ./word-cosine.js).
import type { WordAnalogy } from './parts/elements.js';
import { WordCosine as CosineElement } from './word-cosine.js';
export { WordAnalogy } from './parts/elements.js';

/** @deprecated The entry is embeddings-and-position/widgets/word-cosine now; this re-export goes in the next version. */
export type WordCosine = CosineElement;
/** @deprecated The entry is embeddings-and-position/widgets/word-cosine now; this re-export goes in the next version. */
export declare const WordCosine: typeof CosineElement;

declare global {
  interface HTMLElementTagNameMap {
    'ew-word-analogy': WordAnalogy;
    /** The old name, kept for one version. */
    'word-analogy': WordAnalogy;
  }
}
