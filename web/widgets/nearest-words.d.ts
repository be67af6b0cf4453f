// embeddings-and-position/widgets/nearest-words: defines <ew-nearest-words>
// (and, deprecated for one version, <ew-word-pairs>: see ./word-pairs.js).
import type { NearestWords } from './parts/elements.js';
import { WordPairs as PairsElement } from './word-pairs.js';
export { NearestWords } from './parts/elements.js';

/** @deprecated The entry is embeddings-and-position/widgets/word-pairs now; this re-export goes in the next version. */
export type WordPairs = PairsElement;
/** @deprecated The entry is embeddings-and-position/widgets/word-pairs now; this re-export goes in the next version. */
export declare const WordPairs: typeof PairsElement;

declare global {
  interface HTMLElementTagNameMap {
    'ew-nearest-words': NearestWords;
    /** The old name, kept for one version. */
    'nearest-words': NearestWords;
  }
}
