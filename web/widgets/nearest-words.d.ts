// embeddings-and-position/widgets/nearest-words: defines <nearest-words> and <word-pairs>.
import type { NearestWords, WordPairs } from './parts/elements.js';
export { NearestWords, WordPairs } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'nearest-words': NearestWords;
    'word-pairs': WordPairs;
  }
}
