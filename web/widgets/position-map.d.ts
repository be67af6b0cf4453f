// embeddings-and-position/widgets/position-map: defines <ew-position-map>.
import type { PositionMap } from './parts/elements.js';
export { PositionMap } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-position-map': PositionMap;
    /** The old name, kept for one version. */
    'position-map': PositionMap;
  }
}
