// Deprecated: <ew-row-dot-product>'s module is row-dot-product.js, named
// after its tag (embeddings-and-position/widgets/row-dot-product). This
// entry, embeddings-and-position/widgets/row-dot, re-exports it for one
// version and goes in the next (docs/embedding.md).
export * from './row-dot-product.js';
