// embeddings-and-position/widgets/embedding-table: defines <ew-embedding-table>.
import type { EmbeddingTable } from './parts/elements.js';
export { EmbeddingTable } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-embedding-table': EmbeddingTable;
    /** The old name, kept for one version. */
    'embedding-table': EmbeddingTable;
  }
}
