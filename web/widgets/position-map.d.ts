// embeddings-and-position/widgets/position-map: defines <position-map>.
import type { PositionMap } from './parts/elements.js';
export { PositionMap } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'position-map': PositionMap;
  }
}
