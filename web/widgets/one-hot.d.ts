// embeddings-and-position/widgets/one-hot: defines <one-hot-lookup>.
import type { OneHotLookup } from './parts/elements.js';
export { OneHotLookup } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'one-hot-lookup': OneHotLookup;
  }
}
