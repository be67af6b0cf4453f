// embeddings-and-position/widgets/chapter-code: defines <chapter-code>.
import type { ChapterCode } from './parts/elements.js';
export { ChapterCode } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'chapter-code': ChapterCode;
  }
}
