// embeddings-and-position/widgets/row-dot-product: defines <ew-row-dot-product>.
import type { RowDotProduct } from './parts/elements.js';
export { RowDotProduct } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-row-dot-product': RowDotProduct;
    /** The old name, kept for one version. */
    'row-dot-product': RowDotProduct;
  }
}
