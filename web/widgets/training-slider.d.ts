// embeddings-and-position/widgets/training-slider: defines <ew-training-slider>, and the
// <ew-nearest-words>, <ew-word-pairs> and <ew-position-map> it shows.
import type { TrainingSlider } from './parts/elements.js';
import './nearest-words.js';
import './position-map.js';
export { TrainingSlider } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-training-slider': TrainingSlider;
    /** The old name, kept for one version. */
    'training-slider': TrainingSlider;
  }
}
