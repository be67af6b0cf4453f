// embeddings-and-position/widgets/training-slider: defines <training-slider>, and the
// <nearest-words>, <word-pairs> and <position-map> it shows.
import type { TrainingSlider } from './parts/elements.js';
import './nearest-words.js';
import './position-map.js';
export { TrainingSlider } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'training-slider': TrainingSlider;
  }
}
