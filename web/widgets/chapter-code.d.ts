// embeddings-and-position/widgets/chapter-code: defines <ew-chapter-code>.
import type { ChapterCode } from './parts/elements.js';
export { ChapterCode } from './parts/elements.js';

declare global {
  interface HTMLElementTagNameMap {
    'ew-chapter-code': ChapterCode;
    /** The old name, kept for one version. */
    'chapter-code': ChapterCode;
  }
}
