// embeddings-and-position/widgets/one-hot: deprecated, kept for one version;
// import embeddings-and-position/widgets/one-hot-lookup, which it re-exports.
import { OneHotLookup as Element } from './one-hot-lookup.js';

/** @deprecated The entry is embeddings-and-position/widgets/one-hot-lookup now; this one goes in the next version. */
export type OneHotLookup = Element;
/** @deprecated The entry is embeddings-and-position/widgets/one-hot-lookup now; this one goes in the next version. */
export declare const OneHotLookup: typeof Element;
