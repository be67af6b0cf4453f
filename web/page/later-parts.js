// The parts of the chapter past its first screen, which page.css leaves out
// of the document's first layout (content-visibility): each is laid out in
// the browser's idle time, one at a time in the document's order, from when
// the first widget has shown its model, so that none waits for the reader
// to scroll to it and no task lays out many. They go before the far
// widgets are built and shown in them (an idle callback of their own, not
// the widgets' queue): a widget reading its styles in a part not laid out
// yet forces that part's layout inside its own task.

const LATER = 'main > section > .part:not(#embeddings > .story), #training, .colophon';

function idle() {
  return new Promise((resolve) => (typeof requestIdleCallback === 'function'
    ? requestIdleCallback(resolve, { timeout: 1000 }) : setTimeout(resolve, 16)));
}

let started;

/** Marks every later part laid out, one per idle period; resolves once all are (data-parts="laid-out"). */
export function layOutLaterParts() {
  started ??= (async () => {
    for (const part of document.querySelectorAll(LATER)) {
      await idle();
      part.classList.add('laid-out');
    }
    document.documentElement.dataset.parts = 'laid-out';
  })();
  return started;
}
