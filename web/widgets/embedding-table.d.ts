// embeddings-and-position/widgets/embedding-table: defines <embedding-table>.
import type { EmbeddingTable } from './parts/elements.js';
export { EmbeddingTable } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'embedding-table': EmbeddingTable;
  }
}
