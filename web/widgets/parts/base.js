// What every widget shares: finding its model (attributes, a shared load, or
// a model handed to it), a progress bar while the model loads, a visible
// error when it cannot, and a "ready" signal.
import { modelFilesOf, sharedModel } from './model-source.js';
import { mark } from '../../src/runtime.js';
import { unproxied } from '../../src/proxies.js';
import { yieldToMain } from '../../src/event-loop.js';
import { int } from './format.js';
import { ElementBase } from './element-base.js';

import { packageFile } from '../../src/files.js';

let stylesheetUrl;

/**
 * Links the stylesheet at `url` into the document's head once: not when a
 * link to the same address is there already, the page's own or one a widget
 * added. Addresses are compared resolved, as the link's `href` reads: a
 * bundler may give the package's URL relative (Turbopack's `new URL(…)` has
 * the href "/_next/static/media/…"), which no resolved href equals.
 */
export function linkStylesheet(url) {
  const href = new URL(String(url), document.baseURI).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((link) => link.href === href)) return;
  document.head.append(el('link', { rel: 'stylesheet', href }));
}

/** Adds the widgets' stylesheet to the document once, unless the page links it already. */
export function ensureStylesheet() {
  stylesheetUrl ??= packageFile('web/widgets/widgets.css', () => new URL('../widgets.css', import.meta.url));
  linkStylesheet(stylesheetUrl);
}

let uniqueCount = 0;
/** An id unique on the page, for aria-labelledby and friends. */
export function uniqueId(prefix) {
  uniqueCount += 1;
  return `${prefix}-${uniqueCount}`;
}

/** Creates an element: el('p', { className: 'x', textContent: 'y' }, child...). */
export function el(tag, properties = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(properties)) {
    if (value === undefined || value === null) continue;
    if (key.startsWith('aria-') || key.startsWith('data-') || key === 'role' || key === 'for') element.setAttribute(key, value);
    else element[key] = value;
  }
  element.append(...children.filter((child) => child !== undefined && child !== null));
  return element;
}

/**
 * A tap into a filled box selects its text, so that typing replaces it: a
 * finger would otherwise leave the caret wherever it landed, often in the
 * middle of the word. The mouse and the keyboard keep their own caret.
 * Selected on the click, after the browser has placed its caret.
 */
export function selectAllOnTap(input) {
  let tapped = false;
  input.addEventListener('pointerdown', (event) => {
    tapped = event.pointerType === 'touch' && document.activeElement !== input;
  });
  input.addEventListener('click', () => {
    if (tapped && input.value) input.select();
    tapped = false;
  });
}

/**
 * A box that scrolls sideways (a wide table on a phone) says so when its
 * content is cut off: a shadow at its right edge, a line under it, and,
 * for the keyboard, a focusable region that names itself. Checked again
 * when the box or its content changes width. Returns the cue's element, to
 * put after the box.
 */
export function scrollCue(box, { label = 'Table', text = 'The table goes on: swipe it sideways →' } = {}) {
  const cue = el('span', { className: 'ew-scroll-cue', textContent: text, hidden: true });
  const check = () => {
    const wide = box.scrollWidth > box.clientWidth + 1;
    if (box.classList.contains('ew-scrolls') === wide) return;
    box.classList.toggle('ew-scrolls', wide);
    cue.hidden = !wide;
    if (wide) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', `${label} (scrolls sideways)`);
    } else {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  };
  if (typeof ResizeObserver === 'function') {
    const watcher = new ResizeObserver(check);
    watcher.observe(box);
    new MutationObserver(() => {
      for (const child of box.children) watcher.observe(child);
      check();
    }).observe(box, { childList: true });
  }
  return cue;
}

/** What a widget says where there is no canvas (ModelWidget's #sayIfNoCanvas). */
export const NO_CANVAS = 'The picture needs a canvas, which this browser does not give; the numbers and words are all here.';

// Marks a moment for the page's timing (performance.mark('embeddings:…')), as the package's loader does.
export { mark };

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
function queueIdle(entry) {
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
const NEAR_MARGIN = 0.5;
let measuring;

/**
 * Says whether a widget is near the viewport by its box, for a model that
 * arrived before the browser's first IntersectionObserver answer (a fast
 * load on a desktop: the answer comes with the next frame). Every widget
 * asking in the same turn is measured in one batch, all boxes read before
 * any widget builds, so this costs one layout, however many ask.
 */
function measureNearness(widget, learn) {
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

/**
 * A widget that shows something of a model. Subclasses implement build()
 * (the parts that need no model) and show(model).
 *
 * The model comes from, in order: the `model` property (a Model or a
 * Promise of one), or the files its attributes name (src, weights, config,
 * tokenizer), or the default model. With the `external-model` attribute it
 * loads nothing and waits for the property. Widgets naming the same files share one
 * load. `data-state` is "loading", "ready" or "error"; an "ew-ready" event
 * fires when the widget answers input.
 *
 * A widget far from the viewport is built later (`data-built` says when it
 * is): when it comes near, or in the browser's idle time after the page has
 * painted, whichever is first. Building every widget of a long page at once,
 * when the elements are defined, filled the main thread and cost a second
 * layout of the whole page before the first screen could answer
 * (docs/benchmarks.md).
 * Until then only its status line is there; every public member that reads
 * a part calls ensureBuilt() first, so nothing outside sees the difference.
 */
export class ModelWidget extends ElementBase {
  static get observedAttributes() {
    return ['src', 'weights', 'config', 'tokenizer'];
  }

  #given;
  #model;
  #loadCount = 0;
  #updated;
  // Connected once: the status line is up and the model on its way.
  #started = false;
  #built = false;
  #shown = false;
  // Whether the widget is near the viewport: undefined until the browser has said.
  #near;
  #nearObserver;
  #wake;

  connectedCallback() {
    ensureStylesheet();
    if (this.#started) return;
    this.#started = true;
    this.#prepare();
    this.#watchViewport();
    this.#load();
  }

  /** The class and the status line, which come before any part. */
  #prepare() {
    if (this.statusElement) return;
    this.classList.add('ew');
    this.statusElement = el('div', { className: 'ew-status', role: 'status' });
    this.prepend(this.statusElement);
  }

  /** Whether build() has run. */
  get built() {
    return this.#built;
  }

  /** Builds the parts now if they are not yet (a far widget's are built later). */
  ensureBuilt() {
    if (this.#built) return;
    this.#built = true;
    unbuilt.delete(this);
    this.#prepare();
    this.build();
    this.dataset.built = '';
  }

  /**
   * Follows whether the widget is near the viewport, from the start: the
   * first answer builds a near widget at once and queues a far one's build
   * for idle time; a far one that comes near is built then. The browser
   * answers after its own next layout, so nothing here reads geometry while
   * other widgets are still adding parts (and asking when the model arrives
   * would force a layout of the whole page).
   */
  #watchViewport() {
    if (typeof IntersectionObserver === 'undefined') {
      this.ensureBuilt();
      return;
    }
    if (!this.#built) {
      unbuilt.add(this);
      buildAllOnTab();
    }
    this.#nearObserver = new IntersectionObserver((entries) => {
      this.#learnNear(entries[entries.length - 1].isIntersecting);
    }, { rootMargin: `${NEAR_MARGIN * 100}% 0px` });
    this.#nearObserver.observe(this);
  }

  #learnNear(near) {
    const first = this.#near === undefined;
    this.#near = near;
    if (near) {
      this.ensureBuilt();
      this.#wake?.();
    } else if (first && !this.#built) {
      // One build per entry of the one idle queue; each builds the first
      // widget still waiting, so they go in the document's order whatever
      // order the browser answered in.
      queueIdle({ run: buildFirstWaiting, small: true });
    }
  }

  /**
   * Waits before the first show of a widget far from the viewport: it is
   * shown when it comes near, or in the browser's idle time after the page
   * has painted, whichever is first. So a long page shows what is on screen
   * first; every widget is still ready soon after, without scrolling.
   */
  #whenWorthShowing() {
    if (this.#shown || !this.#nearObserver) return undefined;
    // The model came before the browser's first answer: ask now rather than wait a frame for it.
    if (this.#near === undefined) return measureNearness(this, (near) => this.#learnNear(near)).then(() => this.#whenWorthShowing());
    if (this.#near) return undefined;
    return new Promise((resolve) => {
      this.#wake = resolve;
      whenIdle().then(resolve);
    });
  }

  // The subclasses' own attributes need no parts before build: build() and show() read them.
  attributeChangedCallback(name, before, after) {
    if (this.#started && before !== after && this.#given === undefined) this.#load();
  }

  /** The model shown, once loaded. */
  get model() {
    return this.#model;
  }

  /** Shows this model (or the model a promise gives) instead of loading files. */
  set model(model) {
    this.#given = model;
    if (this.#started) this.#load();
  }

  /** The files this widget loads when no model is given. */
  get files() {
    return modelFilesOf(this);
  }

  /** Resolves when the current model is shown (or failed to load). */
  get updated() {
    return this.#updated ?? Promise.resolve();
  }

  #load() {
    this.#updated = this.#loadAndShow();
    return this.#updated;
  }

  async #loadAndShow() {
    const count = ++this.#loadCount;
    this.dataset.state = 'loading';
    // A model handed over ready (a training snapshot) shows at once: no progress bar to flash.
    const ready = this.#given !== undefined && typeof this.#given?.then !== 'function';
    if (!ready) this.#showProgress(undefined);
    // external-model: the page hands the model over by script; load no files meanwhile.
    if (this.#given === undefined && this.hasAttribute('external-model')) return;
    let model;
    try {
      model = await (this.#given ?? sharedModel(this.files, (progress) => {
        if (count === this.#loadCount) this.#showProgress(progress);
      }));
    } catch (error) {
      if (count === this.#loadCount) this.#showError(error);
      return;
    }
    if (count !== this.#loadCount) return;
    // Every widget of a page waits for the same load: each shows in a task
    // of its own, not all of them in the one that resolved it. (A model
    // handed over shows in the same turn.)
    if (this.#given === undefined) {
      await yieldToMain();
      if (count !== this.#loadCount) return;
    }
    // A model kept in a framework's Proxy (Vue's ref()): the widget keeps the model itself.
    model = unproxied(model);
    const wait = this.#whenWorthShowing();
    if (wait) {
      await wait;
      this.#wake = undefined;
      if (count !== this.#loadCount) return;
    }
    this.ensureBuilt();
    this.#model = model;
    this.classList.remove('ew-failed');
    this.statusElement.replaceChildren();
    this.statusElement.hidden = true;
    try {
      this.#shown = true;
      this.#nearObserver?.disconnect();
      mark(`showing:${this.localName}`);
      await this.show(model);
    } catch (error) {
      if (error && typeof error === 'object') error.heading ??= 'This widget could not show the model.';
      this.#showError(error);
      return;
    }
    if (count !== this.#loadCount) return;
    this.#sayIfNoCanvas();
    this.dataset.state = 'ready';
    mark(`ready:${this.localName}`);
    this.dispatchEvent(new CustomEvent('ew-ready', { bubbles: true, detail: { model } }));
  }

  /**
   * One line, once, where the browser gives no canvas to draw on (jsdom,
   * happy-dom, a locked-down browser): the widget's numbers and words are
   * all there (every draw leaves its canvas blank then), its picture is not.
   */
  #sayIfNoCanvas() {
    const canvas = this.querySelector('canvas');
    if (!canvas || canvas.getContext('2d') || this.querySelector(':scope > .ew-no-canvas')) return;
    this.statusElement.after(el('p', { className: 'ew-no-canvas ew-muted', textContent: NO_CANVAS }));
  }

  #showProgress(progress) {
    const status = this.statusElement;
    status.hidden = false;
    status.classList.remove('ew-error');
    status.removeAttribute('role');
    status.setAttribute('role', 'status');
    let bar = status.querySelector('progress');
    let text = status.querySelector('.ew-status-text');
    if (!bar) {
      bar = el('progress', { max: 1 });
      text = el('span', { className: 'ew-status-text' });
      const label = uniqueId('ew-progress');
      text.id = label;
      bar.setAttribute('aria-labelledby', label);
      status.replaceChildren(bar, text);
    }
    if (progress && progress.total > 0) {
      bar.max = progress.total;
      bar.value = progress.loaded;
      const mb = (bytes) => (bytes / 1048576).toFixed(1);
      text.textContent = `Loading the model: ${mb(progress.loaded)} of ${mb(progress.total)} MB`;
    } else {
      bar.removeAttribute('value');
      text.textContent = 'Loading the model…';
    }
  }

  #showError(error) {
    this.dataset.state = 'error';
    this.classList.add('ew-failed');
    const status = this.statusElement;
    status.hidden = false;
    status.classList.add('ew-error');
    status.setAttribute('role', 'alert');
    const message = error && error.message ? error.message : String(error);
    status.replaceChildren(
      el('strong', { textContent: `${error?.heading ?? 'The model could not be loaded.'} ` }),
      el('span', { className: 'ew-error-message', textContent: message }),
    );
    this.dispatchEvent(new CustomEvent('ew-error', { bubbles: true, detail: { error } }));
  }

  /** Builds the parts that need no model. */
  build() {}

  /** Shows a model; may be async. */
  show() {}
}

/** Sizes of a table in words: "4,096 × 128". */
export function shape(rows, cols) {
  return `${int(rows)} × ${int(cols)}`;
}
