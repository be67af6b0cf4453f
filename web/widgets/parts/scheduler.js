// When the widgets' work runs: the one idle queue (work between frames,
// after the page has painted, never all at once), nearness to the viewport,
// and the far widgets' builds held back until idle time, their coming near,
// or a Tab (ModelWidget, model-widget.js).
// Each entry: { run, small }. A small entry runs inside the idle callback
// itself, so the callback can tell how much of the idle period is left.
const idleQueue = [];
const requestIdle = typeof requestIdleCallback === 'function'
  ? (callback) => requestIdleCallback(callback, { timeout: 500 })
  : (callback) => setTimeout(() => callback({ timeRemaining: () => 0 }), 16);

// Whether an idle callback is asked for: one at a time, however entries are queued meanwhile.
let idleAsked = false;

function runIdleQueue() {
  if (idleAsked) return;
  idleAsked = true;
  requestIdle((deadline) => {
    idleAsked = false;
    let entry, took;
    // Small jobs share an idle period while it lasts: one per period put
    // eight far widgets' builds eight frames apart, and every widget's show
    // behind them. The next starts while more time is left than the last
    // took (a far widget's build: 0.1–7 ms, up to 25 ms with the CPU 4× slower).
    do {
      entry = idleQueue.shift();
      const start = performance.now();
      entry.run();
      took = performance.now() - start;
    } while (entry.small && idleQueue[0]?.small && deadline.timeRemaining() > Math.max(1, took));
    if (idleQueue.length) runIdleQueue();
  });
}

// The far widgets' builds go before the shows queued meanwhile (each widget
// waiting for the model shows in a task of its own, so its show may be
// queued before a build): each build builds the first widget waiting in the
// document's order, and a show then finds its widget built in that order.
export function queueIdle(entry) {
  const firstShow = entry.small ? idleQueue.findIndex((queued) => !queued.small) : -1;
  if (firstShow >= 0) idleQueue.splice(firstShow, 0, entry);
  else idleQueue.push(entry);
  runIdleQueue();
}

/**
 * Resolves in the browser's next idle time, one caller at a time in the
 * order they asked, each in a task of its own: work queued here runs
 * between frames, after the page has painted, and never all at once.
 */
export function whenIdle() {
  return new Promise((resolve) => queueIdle({ run: resolve }));
}

/** Resolves when the element first comes near the viewport. */
export function whenVisible(element, margin = '300px') {
  return new Promise((resolve) => {
    if (typeof IntersectionObserver === 'undefined') return resolve();
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        resolve();
      }
    }, { rootMargin: margin });
    observer.observe(element);
  });
}

/**
 * The widgets connected but not built yet. A Tab builds them all before the
 * browser moves the focus, so the keyboard meets every part in its place.
 */
const unbuilt = new Set();
let tabWatched = false;

/** Holds a widget's build back: it waits for buildFarWidgetWhenIdle, its coming near, or a Tab. */
export function holdBuild(widget) {
  unbuilt.add(widget);
  buildAllOnTab();
}

/** A widget built (ensureBuilt): no longer waiting. */
export function releaseBuild(widget) {
  unbuilt.delete(widget);
}

/** Queues one far widget's build for idle time: the first waiting in the document's order, when it comes. */
export function buildFarWidgetWhenIdle() {
  queueIdle({ run: buildFirstWaiting, small: true });
}

/**
 * Builds the waiting widget that comes first in the document. (They connect
 * in the order their classes are defined, each class's in the document's.)
 */
function buildFirstWaiting() {
  let first;
  for (const widget of unbuilt) {
    if (!first || widget.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING) first = widget;
  }
  first?.ensureBuilt();
}

// How far beyond the viewport, above and below, a widget counts as near: a share of the viewport's height.
export const NEAR_MARGIN = 0.5;
let measuring;

/**
 * Says whether a widget is near the viewport by its box, for a model that
 * arrived before the browser's first IntersectionObserver answer (a fast
 * load on a desktop: the answer comes with the next frame). Every widget
 * asking in the same turn is measured in one batch, all boxes read before
 * any widget builds, so this costs one layout, however many ask.
 */
export function measureNearness(widget, learn) {
  return new Promise((resolve) => {
    if (!measuring) {
      measuring = [];
      queueMicrotask(() => {
        const batch = measuring;
        measuring = undefined;
        const margin = innerHeight * NEAR_MARGIN;
        const near = batch.map(({ widget: w }) => {
          const box = w.getBoundingClientRect();
          return w.isConnected && box.bottom >= -margin && box.top <= innerHeight + margin;
        });
        batch.forEach((entry, i) => {
          entry.learn(near[i]);
          entry.resolve();
        });
      });
    }
    measuring.push({ widget, learn, resolve });
  });
}

function buildAllOnTab() {
  if (tabWatched) return;
  tabWatched = true;
  // Capture, on the window: before any handler that might stop the event, and before the focus moves.
  window.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    for (const widget of [...unbuilt]) widget.ensureBuilt();
  }, { capture: true });
}
