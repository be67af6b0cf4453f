// embeddings-and-position/widgets/dot-product: defines <ew-dot-product>.
import type { DotProduct } from './parts/elements.js';
export { DotProduct } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-dot-product': DotProduct;
    /** The old name, kept for one version. */
    'dot-product': DotProduct;
  }
}
