// embeddings-and-position/widgets/trace-table: defines <ew-trace-table>.
import type { TraceTable } from './parts/elements.js';
export { TraceTable } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-trace-table': TraceTable;
    /** The old name, kept for one version. */
    'trace-table': TraceTable;
  }
}
