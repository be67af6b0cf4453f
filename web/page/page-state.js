// The reader's place in the chapter, kept in the address's fragment so that
// a view can be shared, restored on load, and gone back to with Back:
//
//   #similar&word=·red&map=umap&zoom=6.2&at=4.31,7.02&isolate=1
//   #position&text=Max+saw+Lily
//   #training&step=160
//
// The first part, when it has no "=", is the section the reader was in (the
// page scrolls there on load; a plain "#similar" is the section link it
// always was). Then, each only when it differs from the page as written:
// word (Similar words' word, and the map's pick), text and compare (the
// trace's two texts), step (the training slider's step), and the map's
// view: map (umap, pca or axes), zoom, at (the map's point in the middle of
// the view), isolate, axes (the axes' words, comma-separated).
//
// History: a choice (a word, a step, a method, isolate) is a new entry, so
// Back undoes it; typing goes on replacing the entry its first key made
// until the reader does something else, and so does moving the map, so
// Back never steps through keystrokes or frames: it undoes the typing, or
// the moving, whole.

const MAP_KEYS = ['map', 'zoom', 'at', 'isolate', 'axes'];
const KEYS = ['word', 'text', 'compare', 'step', ...MAP_KEYS];
/** A change of these is a choice: a new history entry. */
const CHOICES = new Set(['word', 'step', 'map', 'isolate', 'axes']);
/** Typing and moving are written this long after they stop, not on every key or frame. */
const SETTLE_MS = 300;

/** { section, state: { word, text, … } } of a fragment ("#similar&word=·red", "", "#word=·red"). */
export function parseFragment(hash) {
  const raw = hash.replace(/^#/, '');
  if (!raw) return { section: undefined, state: {} };
  const [head, ...rest] = raw.split('&');
  const named = !head.includes('=');
  const params = new URLSearchParams(named ? rest.join('&') : raw);
  const state = {};
  for (const key of KEYS) if (params.has(key)) state[key] = params.get(key);
  return { section: named ? decodeURIComponent(head) : undefined, state };
}

/** The fragment of a state (keys in a fixed order; a section first, if any). */
export function fragmentOf(section, state) {
  const params = new URLSearchParams();
  for (const key of KEYS) if (state[key] !== undefined && state[key] !== '') params.set(key, state[key]);
  const query = params.toString();
  if (!query) return section ? `#${section}` : '';
  return `#${section ? `${encodeURIComponent(section)}&` : ''}${query}`;
}

/** The map's keys of a view (viewState of <ew-vocabulary-map>), none for the whole UMAP map as the page opens it. */
export function mapKeys(view) {
  if (!view) return {};
  const whole = Boolean(view.whole);
  if (whole && !view.isolated && view.method === 'umap') return {};
  const keys = { map: view.method };
  if (!whole) {
    keys.zoom = String(Number(view.scale.toPrecision(4)));
    keys.at = view.centre.map((x) => String(Number(x.toPrecision(6)))).join(',');
  }
  if (view.isolated) keys.isolate = '1';
  if (view.axes?.length) keys.axes = view.axes.join(',');
  return keys;
}

/** A view for <ew-vocabulary-map>'s setViewState from the map's keys. */
export function viewOf(state) {
  const centre = state.at?.split(',').map(Number);
  const scale = Number(state.zoom);
  return {
    method: ['umap', 'pca', 'axes'].includes(state.map) ? state.map : 'umap',
    ...(Number.isFinite(scale) && scale > 0 && centre?.length === 2 && centre.every(Number.isFinite) ? { scale, centre } : { whole: true }),
    isolated: state.isolate === '1',
    ...(state.axes ? { axes: state.axes.split(',') } : {}),
  };
}

/**
 * Keeps the address's fragment and the page's widgets in step. `parts` are
 * the page's widgets: { nearest, map, trace, slider }; any may be missing.
 */
export class PageState {
  constructor({ nearest, map, trace, slider }) {
    this.parts = { nearest, map, trace, slider };
    // The page as written: a key equal to its default is left out of the address.
    this.defaults = {
      word: nearest?.getAttribute('word') ?? undefined,
      text: trace?.getAttribute('text') ?? undefined,
      compare: trace?.getAttribute('compare') ?? undefined,
    };
    /** Keys asked for (by the address) and not yet shown by their widget: written as asked meanwhile. */
    this.pending = {};
    this.section = undefined;
    this.kinds = new Set();
    this.lastKinds = new Set();
    this.timer = 0;
  }

  /** Starts: restores the address's state, then follows the widgets and Back. */
  start() {
    const { section, state } = parseFragment(location.hash);
    this.section = section;
    this.apply(state, { scroll: Object.keys(state).length > 0 });
    const { nearest, map, trace, slider } = this.parts;
    nearest?.addEventListener('ew-token', () => this.changed('word', nearest));
    trace?.addEventListener('ew-trace', () => this.changed('text', trace));
    slider?.addEventListener('ew-step', () => this.changed('step', slider));
    map?.addEventListener('ew-map-view', (event) => this.changed(this.#mapKind(event.detail), map));
    window.addEventListener('popstate', () => {
      // After Back or Forward, the next typing or moving starts an entry of its own.
      this.lastKinds = new Set();
      const parsed = parseFragment(location.hash);
      this.section = parsed.section;
      this.apply(parsed.state, { everything: true });
    });
  }

  /** What kind of change a map view is, against the address: a choice (method, isolate, axes) or a move. */
  #mapKind(view) {
    const keys = mapKeys(view);
    const { state: written } = parseFragment(location.hash);
    return ['map', 'isolate', 'axes'].some((key) => keys[key] !== written[key]) ? 'map' : 'zoom';
  }

  /**
   * Shows a state in the widgets. With `everything` (Back and Forward),
   * a key left out means the page as written.
   */
  apply(state, { everything = false, scroll = false } = {}) {
    const { nearest, map, trace, slider } = this.parts;
    const wanted = { ...state };
    if (everything) {
      for (const key of ['word', 'text', 'compare']) wanted[key] ??= this.defaults[key];
    }
    const has = (key) => wanted[key] !== undefined;
    // What a widget does while it shows the state is not the reader's doing: nothing is written for it.
    const when = (widget, show) => {
      if (!widget) return;
      const run = () => {
        this.quiet = true;
        try { show(); } finally { this.quiet = false; }
      };
      if (widget.model && widget.dataset.state === 'ready') run(); else widget.updated.then(run);
    };
    if (has('word') && nearest) {
      this.pending.word = wanted.word;
      when(nearest, () => {
        if (nearest.word !== wanted.word) nearest.pickText(wanted.word);
        delete this.pending.word;
      });
    }
    if ((has('text') || has('compare')) && trace) {
      if (has('text')) this.pending.text = wanted.text;
      if (has('compare')) this.pending.compare = wanted.compare;
      when(trace, () => {
        if (has('text') && trace.text !== wanted.text) trace.text = wanted.text;
        if (has('compare') && trace.compareText !== undefined && trace.compareText !== wanted.compare) trace.compareText = wanted.compare;
        delete this.pending.text;
        delete this.pending.compare;
      });
    }
    if (slider && (has('step') || everything)) {
      // The last step unless one is named; the slider lists its steps only once it comes near the screen,
      // and until then says the step asked for.
      this.quiet = true;
      slider.step = has('step') ? Number(wanted.step) : Infinity;
      this.quiet = false;
    }
    const mapWanted = MAP_KEYS.some(has);
    if (map && (mapWanted || everything)) {
      for (const key of MAP_KEYS) this.pending[key] = wanted[key];
      when(map, () => {
        map.setViewState(viewOf(wanted)).finally(() => { for (const key of MAP_KEYS) delete this.pending[key]; });
      });
    }
    if (scroll && this.section) {
      const target = document.getElementById(this.section);
      if (target) when(nearest ?? map ?? trace, () => target.scrollIntoView());
    }
  }

  /** The state the widgets show now, with the keys still to be shown as asked. */
  #current() {
    const { nearest, map, trace, slider } = this.parts;
    const state = {};
    const differs = (key, value) => { if (value !== undefined && value !== this.defaults[key]) state[key] = value; };
    if (nearest?.model && nearest.tokenId !== undefined) differs('word', nearest.word);
    if (trace?.model) {
      differs('text', trace.text);
      differs('compare', trace.compareText);
    }
    if (slider) {
      const snapshots = slider.snapshots;
      const step = snapshots ? (slider.index === snapshots.length - 1 ? undefined : snapshots[slider.index]?.step) : slider.step;
      if (step !== undefined) state.step = String(step);
    }
    if (map?.map) Object.assign(state, mapKeys(map.viewState));
    for (const [key, value] of Object.entries(this.pending)) {
      if (value === undefined) delete state[key]; else state[key] = value;
    }
    return state;
  }

  /** A widget changed: the address follows, after a moment for typing and moving. */
  changed(kind, widget) {
    if (this.quiet) return;
    this.kinds.add(kind);
    this.section = widget.closest('section[id]')?.id ?? this.section;
    clearTimeout(this.timer);
    const choice = [...this.kinds].some((k) => CHOICES.has(k));
    this.timer = setTimeout(() => this.#write(), choice ? 0 : SETTLE_MS);
  }

  #write() {
    const kinds = new Set(this.kinds);
    const choice = [...kinds].some((k) => CHOICES.has(k));
    this.kinds.clear();
    const { state: before } = parseFragment(location.hash);
    const now = this.#current();
    const fragment = fragmentOf(this.section, now);
    if (fragmentOf(undefined, now) === fragmentOf(undefined, before)) return;
    const url = `${location.pathname}${location.search}${fragment}`;
    // More of the same typing or moving: the same entry. Anything else: a new one.
    const same = [...kinds].every((k) => this.lastKinds.has(k)) && [...this.lastKinds].every((k) => kinds.has(k));
    if (!choice && same) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    this.lastKinds = kinds;
  }
}
