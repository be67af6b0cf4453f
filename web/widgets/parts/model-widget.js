// What every widget shares: finding its model (attributes, a shared load, or
// a model handed to it), a progress bar while the model loads, a visible
// error when it cannot, and a "ready" signal.
import { modelFilesOf, sharedModel } from './model-source.js';
import { mark } from '../../src/runtime.js';
import { unproxied } from '../../src/proxies.js';
import { yieldToMain } from '../../src/event-loop.js';
import { ElementBase } from './element-base.js';
import { el, ensureStylesheet, uniqueId } from './dom.js';
import { NEAR_MARGIN, buildFarWidgetWhenIdle, holdBuild, measureNearness, releaseBuild, whenIdle } from './scheduler.js';

/** What a widget says where there is no canvas (ModelWidget's #sayIfNoCanvas). */
export const NO_CANVAS = 'The picture needs a canvas, which this browser does not give; the numbers and words are all here.';

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
 * (docs/page.md).
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
    releaseBuild(this);
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
      holdBuild(this);
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
      buildFarWidgetWhenIdle();
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
