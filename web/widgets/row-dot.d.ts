// embeddings-and-position/widgets/row-dot: deprecated, kept for one version;
// import embeddings-and-position/widgets/row-dot-product, which it re-exports.
import { RowDotProduct as Element } from './row-dot-product.js';

/** @deprecated The entry is embeddings-and-position/widgets/row-dot-product now; this one goes in the next version. */
export type RowDotProduct = Element;
/** @deprecated The entry is embeddings-and-position/widgets/row-dot-product now; this one goes in the next version. */
export declare const RowDotProduct: typeof Element;
