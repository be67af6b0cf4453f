// Deprecated: <ew-one-hot-lookup>'s module is one-hot-lookup.js, named
// after its tag (embeddings-and-position/widgets/one-hot-lookup). This
// entry, embeddings-and-position/widgets/one-hot, re-exports it for one
// version and goes in the next (docs/embedding.md).
export * from './one-hot-lookup.js';
