// Keeps the address's fragment (read and written by address.js) and the
// page's widgets in step, so that a link restores the whole view: every
// reader choice (the token table's row, the one-hot vector's token, Similar
// words' word, the map's view, the analogy's and the cosine's words, the
// rows compared, the dot editor's numbers, the trace's texts, the two places
// of the position map, the training step and the word followed there), and
// the section the reader is in. A key is written only where the widget shows
// something other than the page as written.
//
// The section is where the reader is, not where the last change was: the
// section of the widget the reader changed when that widget is on screen,
// else the section in view; scrolling settles it again (replacing the entry,
// never adding one). A link inside the page (the contents, "the two real
// rows above") moves to its section and keeps the state.
//
// History: a choice (a word, a step, a method, isolate) is a new entry, so
// Back undoes it; typing goes on replacing the entry its first key made
// until the reader does something else, and so do moving the map, the
// table's cursor and the like, so Back never steps through keystrokes or
// frames: it undoes the typing, or the moving, whole.
import { fragmentOf, joinList, mapKeys, parseFragment, splitList, viewOf } from './address.js';
import { modelWordForms } from '../widgets/parts/word-forms.js';
import { afterNextPaint } from '../src/event-loop.js';

const MAP_KEYS = ['map', 'zoom', 'at', 'isolate', 'axes', 'hide'];
/** Typing and moving are written this long after they stop, not on every key or frame; so is a scroll. */
const SETTLE_MS = 300;

const idText = (id) => (id === undefined || id === null ? undefined : String(id));
const numbersOf = (value) => value.split(',').map(Number);

/** The token a widget's attribute names in its model (as the widget reads it), for the page as written. */
function attributeId(widget, name) {
  const text = widget.getAttribute(name);
  if (!text || !widget.model) return undefined;
  return modelWordForms(widget.model, text, { rowIds: true, rows: widget.model.vocabSize })[0]?.id;
}

/**
 * What the page keeps of each widget: its keys; the events that say it
 * changed and whether such a change is a choice (a history entry of its
 * own) or a move; how to read its state as the keys' values, and how to
 * show values (undefined: leave it). `written` gives the page as written,
 * for keys whose value depends on the model (token ids); the others take
 * what the widget first showed.
 */
const PARTS = {
  table: {
    keys: ['row'], events: ['ew-token'],
    read: (w) => ({ row: idText(w.row) }),
    show: (w, { row }) => { if (row !== undefined && Number(row) !== w.row) w.row = Number(row); },
    written: (w) => ({ row: idText(attributeId(w, 'token')) }),
  },
  onehot: {
    keys: ['onehot'], events: ['ew-change'],
    read: (w) => ({ onehot: idText(w.tokenId) }),
    show: (w, { onehot }) => { if (onehot !== undefined && Number(onehot) !== w.tokenId) w.pick(Number(onehot)); },
    written: (w) => ({ onehot: idText(attributeId(w, 'token')) }),
  },
  nearest: {
    keys: ['word'], events: ['ew-token'], choice: true,
    read: (w) => ({ word: w.tokenId === undefined ? undefined : w.word }),
    show: (w, { word }) => { if (word !== undefined && w.word !== word) w.pickText(word); },
  },
  analogy: {
    keys: ['analogy'], events: ['ew-change'], choice: true,
    read: (w) => ({ analogy: w.words && joinList(w.words) }),
    show: (w, { analogy }) => { if (analogy !== undefined && joinList(w.words ?? []) !== analogy) w.words = splitList(analogy); },
  },
  cosine: {
    keys: ['cosine'], events: ['ew-change'], choice: true,
    read: (w) => ({ cosine: w.words && joinList(w.words) }),
    show: (w, { cosine }) => { if (cosine !== undefined && joinList(w.words ?? []) !== cosine) w.words = splitList(cosine); },
  },
  rowDot: {
    keys: ['pair'], events: ['ew-change'], choice: true,
    read: (w) => ({ pair: w.pair?.join(',') }),
    show: (w, { pair }) => { if (pair !== undefined && w.pair?.join(',') !== pair) w.compare(...numbersOf(pair)); },
    written: (w) => {
      const [a, b] = [attributeId(w, 'a'), attributeId(w, 'b')];
      return { pair: a === undefined || b === undefined ? undefined : `${a},${b}` };
    },
  },
  dot: {
    keys: ['dot'], events: ['ew-change'],
    read: (w) => ({ dot: w.vectors?.map((v) => v.map((x) => String(Number(x.toPrecision(7)))).join(',')).join(';') }),
    show: (w, { dot }) => {
      if (dot === undefined || PARTS.dot.read(w).dot === dot) return;
      const [a, b] = dot.split(';').map(numbersOf);
      w.setVectors(a, b);
    },
  },
  trace: {
    keys: ['text', 'compare'], events: ['ew-trace'],
    read: (w) => ({ text: w.text, compare: w.compareText }),
    show: (w, { text, compare }) => {
      if (text !== undefined && w.text !== text) w.text = text;
      if (compare !== undefined && w.compareText !== undefined && w.compareText !== compare) w.compareText = compare;
    },
  },
  positions: {
    keys: ['places'], events: ['ew-change'],
    read: (w) => ({ places: w.places?.join(',') }),
    show: (w, { places }) => { if (places !== undefined && w.places?.join(',') !== places) w.compare(...numbersOf(places)); },
  },
};

/** Whether a widget shows its model now (or, for one that needs none, is up). */
function isReady(widget) {
  return widget.dataset.state === 'ready' && (widget.model !== undefined || !('updated' in widget));
}

/** Resolves when a widget has shown its model or failed to (or, for one that needs none, is up). */
function whenReady(widget) {
  if ('updated' in widget) return widget.updated;
  return new Promise((resolve) => {
    const done = () => resolve();
    widget.addEventListener('ew-ready', done, { once: true });
    widget.addEventListener('ew-error', done, { once: true });
  });
}

/** The page's sections, in order: the reader is "in" one of them. */
function sections() {
  return [...document.querySelectorAll('main section[id]')].filter((s) => !s.parentElement.closest('section[id]'));
}

/** The section in view: the one across the upper third of the window, or the last one begun above it. */
export function sectionInView() {
  const line = innerHeight / 3;
  let found;
  for (const section of sections()) {
    const box = section.getBoundingClientRect();
    if (box.top <= line && box.bottom > 0) found = section.id;
  }
  return found;
}

function onScreen(element) {
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < innerHeight && box.height > 0;
}

/**
 * Keeps the address's fragment and the page's widgets in step. `parts` are
 * the page's widgets by name (PARTS, and map and slider); any may be missing.
 */
export class PageState {
  constructor(parts) {
    this.parts = Object.fromEntries(Object.entries(parts).filter(([, widget]) => widget));
    /** The page as written, by key: a key equal to its default is left out of the address. */
    this.defaults = {};
    this.captured = {};
    /** Keys asked for (by the address) and not yet shown by their widget: written as asked meanwhile. */
    this.pending = {};
    this.section = undefined;
    this.kinds = new Set();
    this.lastKinds = new Set();
    this.timer = 0;
    /** What parseFragment left out of the address the page opened on ({ key, value, reason }). */
    this.ignored = [];
  }

  /** Starts: restores the address's state, then follows the widgets, the scrolling and Back. */
  start() {
    const { section, state, ignored } = parseFragment(location.hash);
    this.section = section;
    this.ignored = ignored;
    for (const name of Object.keys(PARTS)) this.#watch(name);
    this.apply(state, { scroll: Object.keys(state).length > 0 });
    const { map, slider } = this.parts;
    map?.addEventListener('ew-map-view', (event) => { if (event.target === map) this.changed(this.#mapKind(event.detail), map); });
    slider?.addEventListener('ew-step', (event) => { if (event.target === slider) this.changed('step', slider); });
    // The word followed in Watch it learn: its nested closest tokens say so.
    slider?.addEventListener('ew-token', (event) => { if (event.target === slider.nearest) this.changed('learn', slider); });
    this.#followScrolling();
    this.#followLinks();
    window.addEventListener('popstate', () => this.#traversed());
    // The address's state is shown as it was asked: a bad key, left out, was never the page's (and is not written back).
    if (ignored.length) this.#write({ replace: true });
  }

  /** Follows a part's events, and takes the page as written from it the first time it is ready (and again for a new model). */
  #watch(name) {
    const widget = this.parts[name];
    if (!widget) return;
    const part = PARTS[name];
    const capture = () => {
      if (!isReady(widget)) return;
      const captured = this.captured[name];
      if (captured && !(part.written && captured.model !== widget.model)) return;
      this.captured[name] = { model: widget.model };
      Object.assign(this.defaults, part.written ? part.written(widget) : part.read(widget));
    };
    capture();
    widget.addEventListener('ew-ready', (event) => { if (event.target === widget) capture(); });
    for (const type of part.events) {
      widget.addEventListener(type, (event) => { if (event.target === widget) this.changed(part.keys[0], widget, part.choice); });
    }
  }

  /** What kind of change a map view is, against the address: a choice (method, isolate, axes, groups) or a move. */
  #mapKind(view) {
    const keys = mapKeys(view);
    const { state: written } = parseFragment(location.hash);
    return ['map', 'isolate', 'axes', 'hide'].some((key) => keys[key] !== written[key]) ? 'map' : 'zoom';
  }

  /** After Back or Forward: the entry's state, whole (a key left out is the page as written). */
  #traversed() {
    if (this.#tookLink()) return;
    // The next typing or moving starts an entry of its own.
    this.lastKinds = new Set();
    const parsed = parseFragment(location.hash);
    this.section = parsed.section;
    this.apply(parsed.state, { everything: true });
  }

  /**
   * Shows a state in the widgets. With `everything` (Back and Forward),
   * a key left out means the page as written.
   */
  apply(state, { everything = false, scroll = false } = {}) {
    const wanted = { ...state };
    const has = (key) => wanted[key] !== undefined;
    // What a widget does while it shows the state is not the reader's doing: nothing is written for it.
    const when = (widget, show) => {
      const run = () => {
        this.quiet = true;
        try { show(); } catch { /* a widget that failed shows nothing: its own status line says why */ } finally { this.quiet = false; }
      };
      if (isReady(widget)) run(); else whenReady(widget).then(run);
    };
    for (const [name, part] of Object.entries(PARTS)) {
      const widget = this.parts[name];
      if (!widget) continue;
      if (everything) for (const key of part.keys) wanted[key] ??= this.defaults[key];
      const keys = part.keys.filter(has);
      if (!keys.length) continue;
      for (const key of keys) this.pending[key] = wanted[key];
      when(widget, () => {
        try {
          part.show(widget, Object.fromEntries(keys.map((key) => [key, wanted[key]])));
        } finally {
          // Shown, or refused by the widget (a row past its table): from now on the widget says what it shows.
          for (const key of keys) delete this.pending[key];
        }
      });
    }
    this.#applySlider(wanted, everything);
    this.#applyMap(wanted, everything, when);
    if (scroll && this.section) {
      const target = document.getElementById(this.section);
      const { nearest, map, trace } = this.parts;
      const first = nearest ?? map ?? trace;
      if (target && first) when(first, () => target.scrollIntoView());
      else target?.scrollIntoView();
    }
  }

  #applySlider(wanted, everything) {
    const { slider } = this.parts;
    if (!slider) return;
    this.quiet = true;
    try {
      // The last step unless one is named; the slider lists its steps only once it comes near the screen,
      // and until then says the step asked for.
      if (wanted.step !== undefined || everything) slider.step = wanted.step !== undefined ? Number(wanted.step) : Infinity;
      // The word is that of the slider's closest tokens, not its attribute (which also names the
      // word its table of figures follows, as written).
      const word = wanted.learn ?? (everything ? this.defaults.learn : undefined);
      if (word !== undefined && slider.word !== word) slider.nearest.word = word;
    } finally {
      this.quiet = false;
    }
  }

  #applyMap(wanted, everything, when) {
    const { map } = this.parts;
    if (!map || !(MAP_KEYS.some((key) => wanted[key] !== undefined) || everything)) return;
    for (const key of MAP_KEYS) this.pending[key] = wanted[key];
    when(map, () => {
      map.setViewState(viewOf(wanted)).finally(() => { for (const key of MAP_KEYS) delete this.pending[key]; });
    });
  }

  /** The state the widgets show now, with the keys still to be shown as asked. */
  #current() {
    const state = {};
    const differs = (key, value) => { if (value !== undefined && value !== this.defaults[key]) state[key] = value; };
    for (const [name, part] of Object.entries(PARTS)) {
      const widget = this.parts[name];
      if (!widget || !isReady(widget)) continue;
      for (const [key, value] of Object.entries(part.read(widget))) differs(key, value);
    }
    const { map, slider } = this.parts;
    if (slider) {
      const snapshots = slider.snapshots;
      const step = snapshots ? (slider.index === snapshots.length - 1 ? undefined : snapshots[slider.index]?.step) : slider.step;
      if (step !== undefined) state.step = String(step);
      this.defaults.learn ??= slider.getAttribute('word') ?? undefined;
      if (slider.built) differs('learn', slider.word);
    }
    if (map?.map) Object.assign(state, mapKeys(map.viewState));
    for (const [key, value] of Object.entries(this.pending)) {
      if (value === undefined) delete state[key]; else state[key] = value;
    }
    return state;
  }

  /** A widget changed: the address follows, after a moment for typing and moving. */
  changed(kind, widget, choice = ['word', 'step', 'map', 'learn'].includes(kind)) {
    if (this.quiet) return;
    this.kinds.add(kind);
    if (choice) this.choice = true;
    this.changedWidget = widget;
    clearTimeout(this.timer);
    this.cancelWrite?.();
    // Said on the root element while a change waits to be written (what a test or a tool waits on).
    document.documentElement.dataset.address = 'settling';
    // Written once a frame has been painted: where the reader is comes from the layout, which
    // is then fresh (read before, it would lay out what the changes left undone, in this task).
    this.timer = setTimeout(() => {
      this.cancelWrite = afterNextPaint(() => {
        this.cancelWrite = undefined;
        this.#write();
      });
    }, this.choice ? 0 : SETTLE_MS);
  }

  #write({ replace = false } = {}) {
    delete document.documentElement.dataset.address;
    const kinds = new Set(this.kinds);
    const choice = Boolean(this.choice);
    this.kinds.clear();
    this.choice = false;
    // Where the reader is: the section of the widget they changed if they can see it (a linked
    // view may change one off screen), else the section in view. Read once, when writing.
    const widget = this.changedWidget;
    this.changedWidget = undefined;
    if (widget) this.section = (onScreen(widget) && widget.closest('section[id]')?.id) || sectionInView() || this.section;
    const { state: before } = parseFragment(location.hash);
    const now = this.#current();
    if (!replace && fragmentOf(undefined, now) === fragmentOf(undefined, before)) return;
    const url = `${location.pathname}${location.search}${fragmentOf(this.section, now)}`;
    // More of the same typing or moving: the same entry. Anything else: a new one.
    const same = [...kinds].every((k) => this.lastKinds.has(k)) && [...this.lastKinds].every((k) => kinds.has(k));
    if (replace || (!choice && same)) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    if (!replace) this.lastKinds = kinds;
  }

  /**
   * The section follows the scrolling: once it settles, the entry is
   * rewritten with the section in view and its state as it was (a change
   * not written yet is written by its own timer, as its own entry).
   */
  #followScrolling() {
    let timer = 0;
    window.addEventListener('scroll', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const section = sectionInView();
        if (section === this.section) return;
        this.section = section;
        const { state } = parseFragment(location.hash);
        const url = `${location.pathname}${location.search}${fragmentOf(section, state)}`;
        if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', url);
      }, SETTLE_MS);
    }, { passive: true });
  }

  /**
   * A link to a section of the page (the contents, "the rows above") goes
   * there as a link does, and its entry keeps the state: without this the
   * new entry ("#similar") would have none, and the widgets would go back
   * to the page as written.
   */
  #followLinks() {
    document.addEventListener('click', (event) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target.closest?.('a[href^="#"]');
      const id = link?.hash.slice(1);
      if (!id || !document.getElementById(decodeURIComponentSafely(id))) return;
      this.link = `#${id}`;
      clearTimeout(this.linkTimer);
      this.linkTimer = setTimeout(() => { this.link = undefined; }, 1000);
    });
    window.addEventListener('hashchange', () => this.#tookLink());
  }

  /** After a link's navigation: its entry gets the state and the link's section. True when it was one. */
  #tookLink() {
    if (!this.link || location.hash !== this.link) return false;
    this.link = undefined;
    const target = decodeURIComponentSafely(location.hash.slice(1));
    this.section = document.getElementById(target)?.closest('main section[id]')?.id ?? sectionInView();
    history.replaceState(null, '', `${location.pathname}${location.search}${fragmentOf(this.section, this.#current())}`);
    return true;
  }
}

function decodeURIComponentSafely(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
