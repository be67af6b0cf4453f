// embeddings-and-position/widgets/one-hot-lookup: defines <ew-one-hot-lookup>.
import type { OneHotLookup } from './parts/elements.js';
export { OneHotLookup } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-one-hot-lookup': OneHotLookup;
    /** The old name, kept for one version. */
    'one-hot-lookup': OneHotLookup;
  }
}
