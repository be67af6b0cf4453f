// embeddings-and-position/widgets/row-dot: defines <row-dot-product>.
import type { RowDotProduct } from './parts/elements.js';
export { RowDotProduct } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'row-dot-product': RowDotProduct;
  }
}
