// The parts of the chapter past its first screen, which page.css leaves out
// of the document's first layout (content-visibility): each is laid out in
// the browser's idle time, one at a time in the document's order, so that
// none waits for the reader to scroll to it and no task lays out many.
import { whenIdle } from '../widgets/parts/base.js';

const LATER = 'main > section > .part:not(#embeddings > .story), #training, .colophon';

/** Marks every later part laid out, one per idle period; resolves once all are. */
export async function layOutLaterParts() {
  for (const part of document.querySelectorAll(LATER)) {
    await whenIdle();
    part.classList.add('laid-out');
  }
  document.documentElement.dataset.parts = 'laid-out';
}
