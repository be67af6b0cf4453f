// embeddings-and-position/widgets/dot-product: defines <dot-product>.
import type { DotProduct } from './parts/elements.js';
export { DotProduct } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'dot-product': DotProduct;
  }
}
