// embeddings-and-position/widgets/trace-table: defines <trace-table>.
import type { TraceTable } from './parts/elements.js';
export { TraceTable } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'trace-table': TraceTable;
  }
}
