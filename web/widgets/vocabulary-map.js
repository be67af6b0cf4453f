// <vocabulary-map>: every token of the model as a dot on a map of the token
// table, computed in the reader's browser: model.map()'s UMAP or PCA, or
// the reader's own axes, the directions from one word to another
// (word-axes.js). The picked word and its 10 closest tokens (by cosine, in
// all the table's numbers) are ringed and labelled; the chapter's groups of
// words (vocabulary-groups.js) are marked by colour and shape, each toggled.
// Labels never overlap (label-placement.js): what cannot fit is left out,
// and said. "Isolate" shows the picked word and its neighbours alone,
// zoomed to them, as the Embedding Projector's isolate does.
//
//   <vocabulary-map for="nearest" word="·girl"></vocabulary-map>
//
// With `for` naming a <nearest-words>, picking in either shows the pick in
// both. Mouse: hover names a token, click picks it, drag pans; the wheel
// zooms with Ctrl (or ⌘) held, or once the map has been clicked, and
// otherwise scrolls the page. Touch: tap names and picks; two fingers pan
// and pinch; one finger scrolls the page unless "Move the map" is on.
// Keyboard: the arrows pan, + and − zoom, 0 resets, when the map has
// focus; the word box picks. The + and − buttons, keys and a pinch zoom
// around the picked word while it is on the map. The list under the map
// says the same as the picture, in words.
import { ModelWidget, el, uniqueId } from './parts/base.js';
import { TokenPicker, hasTokenizer, modelWordForms, notOneToken, tokenLabel } from './parts/token-picker.js';
import { VOCABULARY_GROUPS, groupIds, drawShape } from './parts/vocabulary-groups.js';
import { placeLabels } from './parts/label-placement.js';
import { axisMap } from './parts/word-axes.js';
import { mapDetails } from '../index.js';
import { num } from './parts/format.js';
import { defineWidget } from './parts/definitions.js';
import { packageFile } from '../src/files.js';

const NEIGHBOURS = 10;
/** The zoom's range: from half the whole map to close enough to part the tightest clusters' dots. */
const MIN_SCALE = 0.5, MAX_SCALE = 400;
/** Other tokens' labels are tried once no more than this many dots are in view (zoomed in). */
const OTHER_LABELS = 250;
/** The axes offered as examples, when the model has their words. */
const AXIS_EXAMPLES = [['·man', '·woman'], ['·walk', '·walked'], ['·boy', '·girl']];
// model -> { umap, pca }: { promise, ms } of maps computed once per model (ms: how long it took, once).
const maps = new WeakMap();
let stylesheetUrl;

function ensureOwnStylesheet() {
  stylesheetUrl ??= packageFile('web/widgets/vocabulary-map.css', () => new URL('./vocabulary-map.css', import.meta.url));
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((link) => link.href === stylesheetUrl.href)) return;
  document.head.append(el('link', { rel: 'stylesheet', href: stylesheetUrl.href }));
}

function mapOf(model, method, onProgress) {
  let cache = maps.get(model);
  if (!cache) maps.set(model, (cache = {}));
  if (!cache[method]) {
    const started = performance.now();
    const entry = (cache[method] = {});
    entry.promise = model.map({ method, onProgress }).then((map) => {
      entry.ms = performance.now() - started;
      return map;
    });
    entry.promise.catch(() => { if (cache[method] === entry) delete cache[method]; });
  }
  return cache[method];
}

const FONT = '12px system-ui, sans-serif';
const BOLD = 'bold 13px system-ui, sans-serif';

export class VocabularyMap extends ModelWidget {
  static get observedAttributes() {
    return [...super.observedAttributes, 'word', 'method'];
  }

  build() {
    ensureOwnStylesheet();
    const method = this.getAttribute('method');
    this.method = method === 'pca' || method === 'axes' ? method : 'umap';
    this.shownGroups = new Set(VOCABULARY_GROUPS.map((g) => g.key));
    this.view = { scale: 1, x: 0, y: 0 };
    this.pointers = new Map();
    this.moveMode = false;
    this.isolated = false;
    this.wheelArmed = false;
    this.widths = new Map();

    this.picker = new TokenPicker({
      label: 'Word', placeholder: 'e.g. ·red, ·ran', onPick: (id) => this.pick(id),
    });
    this.methodButtons = [['umap', 'UMAP'], ['pca', 'PCA'], ['axes', 'Your own axes']].map(([key, text]) => {
      const button = el('button', { type: 'button', className: 'ew-button vm-method', textContent: text, 'aria-pressed': String(key === this.method), 'data-method': key });
      button.addEventListener('click', () => this.setMethod(key).catch(() => {}));
      return button;
    });
    const methods = el('div', { className: 'vm-methods', role: 'group', 'aria-label': 'How the map is made' }, 'Map: ', ...this.methodButtons);
    this.#buildAxesForm();
    this.groupBoxes = VOCABULARY_GROUPS.map((group) => {
      const box = el('input', { type: 'checkbox', checked: true, 'data-group': group.key });
      box.addEventListener('change', () => {
        if (box.checked) this.shownGroups.add(group.key); else this.shownGroups.delete(group.key);
        this.draw();
        this.#describe();
      });
      const swatch = el('canvas', { className: 'vm-swatch', width: 16, height: 16, 'aria-hidden': 'true' });
      const c = swatch.getContext('2d');
      if (c) { c.fillStyle = group.colour; drawShape(c, group.shape, 8, 8, 5); c.fill(); }
      return el('label', { className: 'vm-group' }, box, swatch, ` ${group.label}`);
    });
    this.groupsBox = el('fieldset', { className: 'vm-groups' }, el('legend', { textContent: 'Mark groups' }), ...this.groupBoxes);

    this.canvas = el('canvas', { className: 'vm-canvas', tabIndex: 0, role: 'img', 'aria-label': 'Map of the vocabulary' });
    this.tip = el('div', { className: 'vm-tip', hidden: true, 'aria-hidden': 'true' });
    this.wheelHint = el('div', { className: 'vm-wheel-hint', hidden: true, 'aria-hidden': 'true',
      textContent: 'Hold Ctrl (or ⌘) to zoom with the wheel, or click the map first' });
    this.hoverText = el('p', { className: 'vm-hover', 'aria-live': 'polite' });
    const button = (text, label, action) => {
      const b = el('button', { type: 'button', className: 'ew-button', textContent: text, 'aria-label': label });
      b.addEventListener('click', action);
      return b;
    };
    const zoomIn = button('+', 'Zoom in, around the picked word', () => this.zoomBy(1.5));
    const zoomOut = button('−', 'Zoom out, around the picked word', () => this.zoomBy(1 / 1.5));
    const reset = button('Reset view', undefined, () => this.resetView());
    this.isolateButton = el('button', { type: 'button', className: 'ew-button vm-isolate', 'aria-pressed': 'false', textContent: 'Isolate the word and its neighbours' });
    this.isolateButton.addEventListener('click', () => this.setIsolated(!this.isolated));
    this.moveButton = el('button', { type: 'button', className: 'ew-button vm-move', textContent: 'Move the map with one finger', 'aria-pressed': 'false' });
    this.moveButton.addEventListener('click', () => this.setMoveMode(!this.moveMode));
    const controls = el('div', { className: 'vm-controls' }, zoomIn, zoomOut, reset, this.isolateButton, this.moveButton);
    // Said for the reader's pointer: a phone has no wheel, a desktop often no pinch.
    const touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
    this.zoomHelp = el('p', { className: 'ew-help vm-zoom-help', textContent: touch
      ? 'Zoom with + and − or a pinch, around the picked word; two fingers move the map, one finger scrolls the page.'
      : 'Zoom with + and −, a pinch, or the wheel while holding Ctrl (⌘ on a Mac); after a click into the map the wheel zooms ' +
        'alone, until the pointer leaves it. Otherwise the wheel scrolls the page. Drag to move the map.' });
    // Hidden until the first map is drawn: no empty box while it is computed.
    this.frame = el('div', { className: 'vm-frame', hidden: true }, this.canvas, this.tip, this.wheelHint);
    this.fitNote = el('p', { className: 'ew-help vm-fit' });
    this.legend = el('p', { className: 'vm-legend' });
    this.progress = el('p', { className: 'vm-progress', role: 'status' });
    const listId = uniqueId('vm-list');
    this.listHeading = el('p', { className: 'vm-list-heading', id: listId });
    this.list = el('ol', { className: 'vm-list', 'aria-labelledby': listId });
    this.append(this.picker.element, methods, this.axesForm, this.groupsBox, this.progress, this.frame, this.fitNote, controls, this.zoomHelp,
      this.hoverText, this.legend, this.listHeading, this.list);
    this.#readColours();
    this.#listen();
  }

  #buildAxesForm() {
    const box = (label, name) => {
      const id = uniqueId('vm-axis');
      const input = el('input', { id, type: 'text', className: 'ew-input vm-axis-word', autocomplete: 'off', spellcheck: false, 'data-axis': name });
      input.setAttribute('autocapitalize', 'off');
      return { input, element: el('span', { className: 'ew-word-box' }, el('label', { for: id, textContent: label }), ' ', input) };
    };
    this.axisBoxes = { from: box('from', 'from'), to: box('to', 'to'), upFrom: box('from', 'upFrom'), upTo: box('to', 'upTo') };
    const draw = el('button', { type: 'submit', className: 'ew-button', textContent: 'Draw' });
    this.axisExamples = el('p', { className: 'vm-axis-examples' });
    this.axisNote = el('p', { className: 'ew-note vm-axis-note', role: 'status' });
    this.axesForm = el('form', { className: 'vm-axes', hidden: this.method !== 'axes', 'aria-label': 'Your own axes' },
      el('p', { className: 'vm-axis-line' }, el('strong', { textContent: 'Across: ' }), this.axisBoxes.from.element, ' ', this.axisBoxes.to.element),
      el('p', { className: 'vm-axis-line' }, el('strong', { textContent: 'Up: ' }), this.axisBoxes.upFrom.element, ' ', this.axisBoxes.upTo.element, ' ', draw),
      el('p', { className: 'ew-help', textContent: 'Leave Up empty for the direction in which the tokens vary most at right angles to Across.' }),
      this.axisExamples, this.axisNote);
    this.axesForm.addEventListener('submit', (event) => { event.preventDefault(); this.#axesFromBoxes(); });
    // A word typed and left is drawn, as the button would: the boxes say what the map shows.
    this.axesForm.addEventListener('change', () => this.#axesFromBoxes());
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'word') { if (this.model && after) this.#pickText(after); return; }
    // Before build, build() reads the attribute.
    if (name === 'method') { if (this.built && ['pca', 'umap', 'axes'].includes(after)) this.setMethod(after).catch(() => {}); return; }
    super.attributeChangedCallback(name, before, after);
  }

  /** The token picked now. */
  get tokenId() { return this.id_; }
  /** The map shown now (a Matrix of vocabSize × 2). */
  get map() { return this.map_; }
  /** Where a token's dot is drawn, in CSS pixels from the canvas's top left corner. */
  screenPosition(id) {
    return this.#toScreen(this.map_.at(id, 0), this.map_.at(id, 1));
  }

  async show(model) {
    this.picker.setModel(model);
    this.hasText = hasTokenizer(model);
    this.groups = this.hasText ? groupIds(model.vocabulary()) : Object.fromEntries(VOCABULARY_GROUPS.map((g) => [g.key, []]));
    this.groupsBox.hidden = !this.hasText;
    this.groupOf = new Map();
    for (const group of VOCABULARY_GROUPS) for (const id of this.groups[group.key]) if (!this.groupOf.has(id)) this.groupOf.set(id, group);
    this.#linkTarget();
    this.lit = undefined;
    this.axes = undefined;
    this.#fillAxisExamples();
    const target = this.target;
    const start = this.id_ ?? target?.tokenId;
    if (start === undefined || start >= model.vocabSize) {
      const [form] = modelWordForms(model, this.getAttribute('word') ?? '·girl');
      this.id_ = form ? form.id : 0;
    } else {
      this.id_ = start;
    }
    await this.setMethod(this.method, { force: true });
  }

  /** Shows the map made by 'umap', 'pca' or 'axes' (the reader's own; ·man → ·woman until they pick others). */
  async setMethod(method, { force = false } = {}) {
    this.ensureBuilt();
    if (method === this.method && !force && this.map_) return;
    this.method = method;
    for (const button of this.methodButtons) button.setAttribute('aria-pressed', String(button.dataset.method === method));
    this.axesForm.hidden = method !== 'axes';
    const model = this.model;
    if (!model) return;
    if (method === 'axes') {
      await this.setAxes(this.axes ?? this.#defaultAxes());
      return;
    }
    this.progress.hidden = false;
    this.progress.textContent = `Computing the ${method.toUpperCase()} map in your browser…`;
    // "embeddings:map:umap" (or pca), from the request to the drawn map, for tools/bench-map-page.mjs.
    const mark = `embeddings:map:${method}`;
    performance.mark(`${mark}:request`);
    const entry = mapOf(model, method, ({ progress }) => {
      if (this.method === method) this.progress.textContent = `Computing the ${method.toUpperCase()} map in your browser… ${Math.round(100 * progress)}%`;
    });
    const map = await entry.promise;
    if (this.model !== model || this.method !== method) return;
    this.#showMap(map, { ms: entry.ms });
    performance.measure(mark, `${mark}:request`);
  }

  /**
   * Shows the map along the reader's own axes: across from token `from` to
   * token `to`; up from `upFrom` to `upTo`, or without them the most varied
   * direction at right angles to across (word-axes.js).
   */
  async setAxes({ from, to, upFrom, upTo }) {
    this.ensureBuilt();
    const model = this.model;
    if (!model) return;
    this.method = 'axes';
    for (const button of this.methodButtons) button.setAttribute('aria-pressed', String(button.dataset.method === 'axes'));
    this.axesForm.hidden = false;
    const axes = { from, to, ...(upFrom !== undefined && upTo !== undefined ? { upFrom, upTo } : {}) };
    this.axes = axes;
    this.#fillAxisBoxes(axes);
    this.axisNote.textContent = '';
    let made;
    try {
      made = await axisMap(model, axes);
    } catch (error) {
      this.axisNote.textContent = error.message;
      throw error;
    }
    if (this.model !== model || this.axes !== axes || this.method !== 'axes') return;
    this.axisDetails = made;
    this.#showMap(made.map, {});
  }

  #showMap(map, { ms }) {
    this.#readColours();
    this.map_ = map;
    this.dataset.method = this.method;
    this.computeMs = ms;
    this.progress.textContent = '';
    this.progress.hidden = true;
    this.frame.hidden = false;
    this.#legend();
    const wanted = this.wantedView;
    this.wantedView = undefined;
    this.#resize();
    if (wanted && wanted.method === this.method) {
      this.pick(this.id_, { keepView: true });
      this.#showView(wanted);
    } else {
      this.pick(this.id_, { keepView: true });
      this.#fitView();
    }
    this.#viewChanged({ now: true });
  }

  /**
   * Picks a token: rings and labels it and its closest tokens, brings it
   * into view (and, isolated, zooms to them), and tells the linked <nearest-words>.
   */
  pick(id, { keepView = false } = {}) {
    this.id_ = id;
    const model = this.model;
    if (!model || !this.map_) return;
    this.picker.show(id);
    this.neighbours = model.nearest(id, NEIGHBOURS).map((n) => n.id);
    this.isolateButton.textContent = `Isolate ${tokenLabel(model, id)} and its ${this.neighbours.length} closest tokens`;
    if (!keepView) {
      if (this.isolated) this.#fitView();
      else this.#bringIntoView(id);
    }
    this.draw();
    this.#describe();
    this.#viewChanged({ now: true });
    const target = this.target;
    if (target && typeof target.pick === 'function' && target.tokenId !== id) target.pick(id);
    this.dispatchEvent(new CustomEvent('ew-map-pick', { bubbles: true, detail: { id } }));
  }

  /**
   * Lights up a token's dot without picking it (the trace's row the reader
   * is on, say): a ring of its own and `label` beside it; undefined turns it off.
   */
  lightUp(id, label) {
    this.ensureBuilt();
    this.lit = id === undefined || id === null ? undefined : { id, label: label ?? (this.model ? tokenLabel(this.model, id) : String(id)) };
    this.draw();
    if (this.lit && this.model) this.hoverText.textContent = `Lit up: ${this.lit.label} (id ${id}).`;
  }

  /** Shows the picked word and its neighbours alone, zoomed to them (or every token again). */
  setIsolated(on, { fit = true } = {}) {
    this.ensureBuilt();
    this.isolated = on;
    this.isolateButton.setAttribute('aria-pressed', String(on));
    if (!this.map_) return;
    if (fit) this.#fitView();
    this.draw();
    this.#describe();
    this.#viewChanged({ now: true });
  }

  setMoveMode(on) {
    this.ensureBuilt();
    this.moveMode = on;
    this.moveButton.setAttribute('aria-pressed', String(on));
    this.canvas.classList.toggle('vm-moving', on);
  }

  /** The whole map again (isolated: the word and its neighbours, fitted). */
  resetView() {
    this.ensureBuilt();
    if (!this.map_) return;
    this.#resize();
    this.#fitView();
    this.draw();
    this.#viewChanged();
  }

  /** Zooms by `factor` around the picked word while its dot is on the map, else around the middle. */
  zoomBy(factor) {
    this.ensureBuilt();
    if (!this.map_) return;
    const [x, y] = this.#anchor();
    this.#zoomAt(factor, x, y);
  }

  /**
   * What the reader sees, to be kept or shared (the page puts it in its
   * address): the method, the zoom, the map's point in the middle of the
   * view, whether the word is isolated, and the axes' words; `whole` when
   * the view is the map as first shown (the whole of it, or the isolated words fitted).
   */
  get viewState() {
    if (!this.map_ || !this.base) return undefined;
    const { fit, cx, cy } = this.base, { scale, x, y } = this.view;
    const state = { method: this.method, scale, centre: [cx - x / (fit * scale), cy + y / (fit * scale)], isolated: this.isolated,
      whole: this.fitted === true };
    if (this.method === 'axes' && this.axes && this.model) {
      state.axes = [this.axes.from, this.axes.to, this.axes.upFrom, this.axes.upTo].filter((id) => id !== undefined).map((id) => tokenLabel(this.model, id));
    }
    return state;
  }

  /** Shows a view given as viewState gives it (once its map is made, if it is not yet); `whole` (or no centre) fits the map. */
  async setViewState(state) {
    this.ensureBuilt();
    if (!state) return;
    this.wantedView = state;
    if (state.method === 'axes' && state.axes?.length >= 2 && this.model) {
      const ids = state.axes.map((text) => modelWordForms(this.model, text)[0]?.id);
      if (ids.slice(0, 2).every((id) => id !== undefined)) {
        const [from, to, upFrom, upTo] = ids;
        await this.setAxes({ from, to, upFrom, upTo }).catch(() => {});
        return;
      }
    }
    if (state.method !== this.method || !this.map_) {
      await this.setMethod(state.method ?? this.method).catch(() => {});
      return;
    }
    this.wantedView = undefined;
    this.#showView(state);
    this.#viewChanged({ now: true });
  }

  #showView(state) {
    const fitted = state.whole || !state.centre;
    this.setIsolated(Boolean(state.isolated), { fit: fitted });
    if (!fitted) this.#setCentre(state.scale, state.centre);
  }

  get target() {
    const name = this.getAttribute('for');
    return name ? document.getElementById(name) : null;
  }

  #linkTarget() {
    if (this.linked) return;
    this.linked = true;
    document.addEventListener('ew-token', (event) => {
      if (event.target !== this.target) return;
      const id = event.detail?.id;
      if (typeof id === 'number' && id !== this.id_) this.pick(id);
    });
  }

  #pickText(text) {
    const [form] = modelWordForms(this.model, text);
    if (form) this.pick(form.id);
    else this.hoverText.textContent = notOneToken(this.model, text).message;
  }

  // ---- axes ---------------------------------------------------------------------

  #defaultAxes() {
    for (const [a, b] of AXIS_EXAMPLES) {
      const [from, to] = [a, b].map((w) => modelWordForms(this.model, w)[0]?.id);
      if (from !== undefined && to !== undefined) return { from, to };
    }
    return { from: 0, to: Math.min(1, this.model.vocabSize - 1) };
  }

  #fillAxisExamples() {
    const model = this.model;
    const examples = AXIS_EXAMPLES.map(([a, b]) => [a, b].map((w) => modelWordForms(model, w)[0]?.id))
      .filter(([a, b]) => a !== undefined && b !== undefined);
    this.axisExamples.replaceChildren(...(examples.length ? ['Try: '] : []), ...examples.flatMap(([from, to], i) => {
      const b = el('button', { type: 'button', className: 'ew-button vm-axis-example', textContent: `${tokenLabel(model, from)} → ${tokenLabel(model, to)}` });
      b.addEventListener('click', () => this.setAxes({ from, to }).catch(() => {}));
      return i ? [' ', b] : [b];
    }));
  }

  #fillAxisBoxes({ from, to, upFrom, upTo }) {
    const text = (id) => (id === undefined ? '' : tokenLabel(this.model, id));
    this.axisBoxes.from.input.value = text(from);
    this.axisBoxes.to.input.value = text(to);
    this.axisBoxes.upFrom.input.value = text(upFrom);
    this.axisBoxes.upTo.input.value = text(upTo);
  }

  /** Reads the four boxes (a word by the page's search rule, or a row id without a tokenizer) and draws their map. */
  #axesFromBoxes() {
    const model = this.model;
    if (!model) return;
    const ids = {};
    for (const [name, { input }] of Object.entries(this.axisBoxes)) {
      const text = input.value.trim();
      input.removeAttribute('aria-invalid');
      if (!text) continue;
      const [form] = modelWordForms(model, text);
      if (!form) {
        input.setAttribute('aria-invalid', 'true');
        this.axisNote.textContent = notOneToken(model, text).message;
        return;
      }
      ids[name] = form.id;
    }
    if (ids.from === undefined || ids.to === undefined) {
      this.axisNote.textContent = 'Across needs two words: from one, to the other.';
      return;
    }
    if ((ids.upFrom === undefined) !== (ids.upTo === undefined)) {
      this.axisNote.textContent = 'Up needs two words, or none (for the most varied direction at right angles to Across).';
      return;
    }
    const same = (a, b) => a?.from === b?.from && a?.to === b?.to && a?.upFrom === b?.upFrom && a?.upTo === b?.upTo;
    if (same(ids, this.axes) && this.method === 'axes') return;
    this.setAxes(ids).catch(() => {});
  }

  // ---- geometry -----------------------------------------------------------------

  #resize() {
    const width = Math.max(200, Math.round(this.frame.clientWidth || 320));
    const height = Math.round(Math.min(520, Math.max(260, width * 0.8)));
    const ratio = window.devicePixelRatio || 1;
    this.width = width;
    this.height = height;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.ratio = ratio;
    // The data's bounds, fitted with a margin. UMAP keeps its aspect ratio; the
    // axes of PCA and the reader's own are real directions, and keep it too.
    const data = this.map_.data;
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (let i = 0; i < data.length; i += 2) {
      minX = Math.min(minX, data[i]); maxX = Math.max(maxX, data[i]);
      minY = Math.min(minY, data[i + 1]); maxY = Math.max(maxY, data[i + 1]);
    }
    const margin = 16;
    const fit = Math.min((width - 2 * margin) / (maxX - minX || 1), (height - 2 * margin) / (maxY - minY || 1));
    this.base = { fit, cx: (minX + maxX) / 2, cy: (minY + maxY) / 2 };
  }

  #toScreen(x, y) {
    const { fit, cx, cy } = this.base, { scale, x: ox, y: oy } = this.view;
    return [this.width / 2 + ((x - cx) * fit * scale) + ox, this.height / 2 - ((y - cy) * fit * scale) + oy];
  }

  /** Puts the map's point (x, y) in the middle of the view at `scale`. */
  #setCentre(scale, [x, y]) {
    this.fitted = false;
    // The tip named a dot where it was: the view moving leaves it behind.
    this.tip.hidden = true;
    const { fit, cx, cy } = this.base;
    const s = Math.max(MIN_SCALE, Math.min(MAX_SCALE, Number(scale) || 1));
    this.view = { scale: s, x: -(x - cx) * fit * s, y: (y - cy) * fit * s };
    this.draw();
  }

  /** The whole map, or (isolated) the picked word and its neighbours, with room for their labels. */
  #fitView() {
    if (!this.isolated || this.id_ === undefined || !this.neighbours) {
      this.tip.hidden = true;
      this.view = { scale: 1, x: 0, y: 0 };
      this.fitted = true;
      return;
    }
    const ids = [this.id_, ...this.neighbours];
    const xs = ids.map((id) => this.map_.at(id, 0)), ys = ids.map((id) => this.map_.at(id, 1));
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const { fit } = this.base;
    // Room beside the dots for labels: about a label's width across, two lines up and down.
    const across = (this.width - 2 * Math.min(90, this.width / 4)) / ((x1 - x0) * fit || 1e-9);
    const up = (this.height - 2 * 36) / ((y1 - y0) * fit || 1e-9);
    this.#setCentre(Math.min(across, up), [(x0 + x1) / 2, (y0 + y1) / 2]);
    this.fitted = true;
  }

  /** Pans so that a token's dot is on the map, when it is off it or at its very edge. */
  #bringIntoView(id) {
    const [x, y] = this.screenPosition(id);
    const edge = 24;
    if (x >= edge && y >= edge && x <= this.width - edge && y <= this.height - edge) return;
    this.#setCentre(this.view.scale, [this.map_.at(id, 0), this.map_.at(id, 1)]);
  }

  /** Where zooming keeps still: the picked word's dot while it is on the map, else the middle. */
  #anchor() {
    if (this.id_ !== undefined && this.id_ < this.map_.rows) {
      const [x, y] = this.screenPosition(this.id_);
      if (x >= 0 && y >= 0 && x <= this.width && y <= this.height) return [x, y];
    }
    return [this.width / 2, this.height / 2];
  }

  /** The token whose dot is nearest a point of the canvas, within `radius` pixels (or -1). */
  tokenAt(px, py, radius = 12) {
    if (!this.map_) return -1;
    let best = -1, bestDistance = radius * radius;
    for (let i = 0; i < this.map_.rows; i++) {
      const [sx, sy] = this.#toScreen(this.map_.at(i, 0), this.map_.at(i, 1));
      const d = (sx - px) ** 2 + (sy - py) ** 2;
      if (d < bestDistance) { bestDistance = d; best = i; }
    }
    return best;
  }

  #zoomAt(factor, px, py) {
    const scale = Math.max(MIN_SCALE, Math.min(MAX_SCALE, this.view.scale * factor));
    const applied = scale / this.view.scale;
    // Keep the point under (px, py) where it is.
    this.view.x = px - this.width / 2 - (px - this.width / 2 - this.view.x) * applied;
    this.view.y = py - this.height / 2 - (py - this.height / 2 - this.view.y) * applied;
    this.view.scale = scale;
    this.fitted = false;
    this.tip.hidden = true;
    this.draw();
    this.#viewChanged();
  }

  #pan(dx, dy) {
    this.fitted = false;
    this.tip.hidden = true;
    this.view.x += dx;
    this.view.y += dy;
    this.draw();
    this.#viewChanged();
  }

  /**
   * Says the view changed ("ew-map-view", its detail the viewState): at
   * once for a pick or a choice (`now`), so that it comes with the choice's
   * own events; a move's, one a frame at most, however many moves the frame had.
   */
  #viewChanged({ now = false } = {}) {
    if (now) cancelAnimationFrame(this.viewFrame);
    else if (this.viewFrame) return;
    const send = () => {
      this.viewFrame = 0;
      this.dispatchEvent(new CustomEvent('ew-map-view', { bubbles: true, detail: this.viewState }));
    };
    if (now) send(); else this.viewFrame = requestAnimationFrame(send);
  }

  // ---- drawing ----------------------------------------------------------------------

  /** The colours of the widget's theme (light, dark, or a book's own custom properties). */
  #readColours() {
    const style = getComputedStyle(this);
    const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    this.colours = {
      ink: read('--ew-ink', '#1d1d1f'), bg: read('--ew-bg', '#ffffff'), muted: read('--ew-muted', '#5c5c66'), accent: read('--ew-accent', '#2458a6'),
    };
  }

  /** "across: ·man → ·woman" at the bottom right and what up is at the top left, as boxes to keep labels off. */
  #axisCaptions(context) {
    const word = (id) => tokenLabel(this.model, id);
    const { from, to, upFrom, upTo } = this.axes;
    const across = `across → from ${word(from)} to ${word(to)}`;
    const up = upFrom === undefined ? 'up ↑ most varied at right angles' : `up ↑ from ${word(upFrom)} to ${word(upTo)}`;
    const a = this.#textWidth(context, FONT, across), u = this.#textWidth(context, FONT, up);
    return [
      { text: across, left: Math.max(4, this.width - a - 6), top: this.height - 20, right: this.width - 2, bottom: this.height - 4 },
      { text: up, left: 6, top: 4, right: Math.min(this.width - 2, u + 10), bottom: 20 },
    ];
  }

  #textWidth(context, font, text) {
    const key = `${font}\n${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      context.font = font;
      width = context.measureText(text).width;
      this.widths.set(key, width);
    }
    return width;
  }

  draw() {
    this.ensureBuilt();
    const context = this.canvas.getContext('2d');
    if (!context || !this.map_) return;
    const { ratio, width, height } = this;
    const { ink, bg, muted, accent } = this.colours;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    const map = this.map_, rows = map.rows;
    const picked = this.id_ !== undefined && this.id_ < rows ? this.id_ : undefined;
    const isolatedSet = this.isolated && picked !== undefined ? new Set([picked, ...(this.neighbours ?? [])]) : undefined;
    const onMap = (x, y) => x >= -4 && y >= -4 && x <= width + 4 && y <= height + 4;
    const visible = [];
    context.fillStyle = muted;
    context.globalAlpha = isolatedSet ? 0.12 : 0.45;
    for (let i = 0; i < rows; i++) {
      const [x, y] = this.#toScreen(map.at(i, 0), map.at(i, 1));
      if (!onMap(x, y)) continue;
      visible.push(i);
      context.fillRect(x - 1, y - 1, 2, 2);
    }
    context.globalAlpha = 1;
    for (const group of VOCABULARY_GROUPS) {
      if (!this.shownGroups.has(group.key)) continue;
      context.fillStyle = group.colour;
      context.strokeStyle = bg;
      context.lineWidth = 1;
      for (const id of this.groups[group.key]) {
        const [x, y] = this.#toScreen(map.at(id, 0), map.at(id, 1));
        if (!onMap(x, y)) continue;
        context.globalAlpha = isolatedSet && !isolatedSet.has(id) ? 0.15 : 1;
        drawShape(context, group.shape, x, y, 4);
        context.fill();
        context.stroke();
      }
    }
    context.globalAlpha = 1;
    const rings = [];
    // The reader's own axes: their words, and what each direction is, in the picture's corners.
    const captions = this.method === 'axes' && this.axes ? this.#axisCaptions(context) : [];
    if (captions.length) {
      const { from, to, upFrom, upTo } = this.axes;
      for (const id of [from, to, upFrom, upTo]) {
        if (id !== undefined && id < rows && !rings.some((r) => r.id === id)) {
          rings.push({ id, text: tokenLabel(this.model, id), font: BOLD, radius: 6, colour: accent, line: 2, leaders: true, lit: true });
        }
      }
    }
    if (this.lit && this.lit.id < rows) rings.push({ id: this.lit.id, text: this.lit.label, font: BOLD, radius: 10, colour: accent, line: 3, leaders: true, lit: true });
    if (picked !== undefined) {
      rings.push({ id: picked, text: tokenLabel(this.model, picked), font: BOLD, radius: 7, colour: ink, line: 3, leaders: true });
      for (const id of this.neighbours ?? []) rings.push({ id, text: tokenLabel(this.model, id), font: FONT, radius: 5, colour: ink, line: 2, leaders: true });
    }
    // Zoomed in, other tokens are labelled too where there is room, those nearest the middle first.
    const ringed = new Set(rings.map((r) => r.id));
    const others = visible.length <= OTHER_LABELS
      ? visible.filter((id) => !ringed.has(id) && (!isolatedSet || isolatedSet.has(id))).map((id) => {
        const [x, y] = this.#toScreen(map.at(id, 0), map.at(id, 1));
        return { id, x, y, far: (x - width / 2) ** 2 + (y - height / 2) ** 2 };
      }).sort((a, b) => a.far - b.far) : [];
    const labels = [
      ...rings.map((ring) => {
        const [x, y] = this.#toScreen(map.at(ring.id, 0), map.at(ring.id, 1));
        return { ...ring, x, y, width: this.#textWidth(context, ring.font, ring.text), height: ring.font === BOLD ? 16 : 15 };
      }),
      ...others.map(({ id, x, y }) => {
        const text = tokenLabel(this.model, id);
        return { id, text, font: FONT, x, y, radius: 2, width: this.#textWidth(context, FONT, text), height: 15, leaders: false, other: true };
      }),
    ];
    const boxes = placeLabels(labels, { width, height, padding: 1, taken: captions });
    context.font = FONT;
    context.textBaseline = 'middle';
    for (const caption of captions) {
      context.fillStyle = muted;
      context.fillText(caption.text, caption.left, (caption.top + caption.bottom) / 2);
    }
    for (const ring of labels.slice(0, rings.length)) {
      context.beginPath();
      context.arc(ring.x, ring.y, ring.radius, 0, 2 * Math.PI);
      context.lineWidth = ring.line;
      context.strokeStyle = ring.colour;
      context.stroke();
    }
    context.textBaseline = 'middle';
    context.lineJoin = 'round';
    labels.forEach((label, k) => {
      const box = boxes[k];
      if (!box) return;
      if (box.leader) {
        const tx = Math.max(box.left, Math.min(box.right, label.x)), ty = Math.max(box.top, Math.min(box.bottom, label.y));
        context.beginPath();
        context.moveTo(label.x, label.y);
        context.lineTo(tx, ty);
        context.lineWidth = 1;
        context.strokeStyle = muted;
        context.stroke();
      }
      context.font = label.font;
      const ty = (box.top + box.bottom) / 2;
      context.lineWidth = 3;
      context.strokeStyle = bg;
      context.strokeText(label.text, box.left, ty);
      context.fillStyle = label.lit ? accent : label.other ? muted : ink;
      context.fillText(label.text, box.left, ty);
    });
    /** For the tests and the text below: each label drawn, { id, left, top, right, bottom }, and the ringed ones left out. */
    this.labelBoxes = labels.flatMap((label, k) => (boxes[k] ? [{ id: label.id, ...boxes[k] }] : []));
    const leftOut = labels.slice(0, rings.length).filter((label, k) => !boxes[k] && label.x >= 0 && label.y >= 0 && label.x <= width && label.y <= height);
    this.leftOut = leftOut.map((label) => label.id);
    const note = leftOut.length
      ? `${leftOut.length} of the ringed words ${leftOut.length === 1 ? 'has' : 'have'} no room for a label here (${leftOut.map((l) => l.text).join(', ')}): zoom in, or isolate them.`
      : '';
    if (this.fitNote.textContent !== note) this.fitNote.textContent = note;
  }

  // ---- words --------------------------------------------------------------------------

  #legend() {
    const model = this.model;
    const details = mapDetails(this.map_);
    const count = model.vocabSize.toLocaleString('en-US');
    if (this.method === 'axes' && this.axisDetails) {
      const { acrossShare, upShare, upKind } = this.axisDetails;
      const { from, to, upFrom, upTo } = this.axes;
      const word = (id) => tokenLabel(model, id);
      const pct = (share) => `${(100 * share).toFixed(1)}%`;
      const across = `Across: the direction from ${word(from)} to ${word(to)} (the difference of their rows); each token lies as far ` +
        `across as its row goes that way (its dot product with that direction, of length 1), so ${word(from)} and ${word(to)} are ` +
        `as far apart across as their rows are. It holds ${pct(acrossShare)} of the table's variation.`;
      const up = upKind === 'words'
        ? ` Up: the direction from ${word(upFrom)} to ${word(upTo)}, made at right angles to across (its part along across taken out), ${pct(upShare)} of the variation.`
        : ` Up: the direction in which the tokens vary most at right angles to across (the first principal component of the table once ` +
          `the across direction is taken out of every row), ${pct(upShare)} of the variation.`;
      this.legend.textContent = `Each dot is one of the ${count} tokens. ${across}${up} Both are straight lines through the ${model.width} numbers, ` +
        'so distances along them are real; everything else about the rows is flattened away.';
    } else if (details?.method === 'pca') {
      const [a, b] = details.varianceShare.map((s) => `${(100 * s).toFixed(1)}%`);
      this.legend.textContent = `Each dot is one of the ${count} tokens. PCA: across is the direction in which the token ` +
        `lists vary most (${a} of all the variation), up is the next one (${b}). Distances along these two directions are ` +
        `real, but most of the variation lies in other directions, so tokens far apart in the table can land together here.`;
    } else {
      this.legend.textContent = `Each dot is one of the ${count} tokens, placed by UMAP so that tokens with similar lists ` +
        `land near each other. Only neighbourhoods mean something: the axes, and the distances between dots far apart, ` +
        `do not.${this.computeMs === undefined ? '' : ` Your browser computed this map in ${num(this.computeMs / 1000, 2)} s.`}`;
    }
    const name = this.method === 'axes' ? 'Map along your own axes' : `${this.method.toUpperCase()} map`;
    this.canvas.setAttribute('aria-label', `${name} of the ${count} tokens; the list below says what it shows`);
  }

  /** The text alternative: the picked word's closest tokens, and whether the map keeps each near it. */
  #describe() {
    const model = this.model;
    if (!model || !this.map_ || this.id_ === undefined) return;
    const map = this.map_, id = this.id_;
    const distance = (j) => Math.hypot(map.at(id, 0) - map.at(j, 0), map.at(id, 1) - map.at(j, 1));
    // The picked word's 10 nearest dots on the map.
    const order = [];
    for (let j = 0; j < map.rows; j++) if (j !== id) order.push([distance(j), j]);
    order.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    const nearOnMap = new Set(order.slice(0, NEIGHBOURS).map(([, j]) => j));
    const word = tokenLabel(model, id);
    const group = this.groupOf.get(id);
    const kept = this.neighbours.filter((j) => nearOnMap.has(j)).length;
    this.listHeading.textContent = `${word}${group ? ` (${group.label.toLowerCase()})` : ''}: its ${this.neighbours.length} closest tokens by ` +
      `cosine similarity, ${kept} of them also among its ${NEIGHBOURS} nearest dots on this map` +
      `${this.isolated ? ' (shown alone on the map, the other tokens faded)' : ''}:`;
    this.list.replaceChildren(...this.neighbours.map((j) => {
      const button = el('button', { type: 'button', className: 'ew-token ew-link', textContent: tokenLabel(model, j) });
      button.addEventListener('click', () => this.pick(j));
      const g = this.groupOf.get(j);
      return el('li', { 'data-id': String(j) }, button,
        el('span', { className: 'ew-muted', textContent: ` ${nearOnMap.has(j) ? 'near it on the map' : 'farther away on the map'}${g && this.shownGroups.has(g.key) ? `; ${g.label.toLowerCase()}` : ''}` }));
    }));
  }

  // ---- input --------------------------------------------------------------------------

  #local(event) {
    const box = this.canvas.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  }

  #hover(id, px, py) {
    if (id < 0) { this.tip.hidden = true; return; }
    const text = tokenLabel(this.model, id);
    this.tip.textContent = text;
    this.tip.hidden = false;
    this.tip.style.left = `${Math.min(this.width - 60, px + 12)}px`;
    this.tip.style.top = `${Math.max(0, py - 28)}px`;
    this.hoverText.textContent = `Under the pointer: ${text} (id ${id}).`;
  }

  /** Says, over the map, how to zoom with the wheel: the page scrolled instead. */
  #hintWheel() {
    this.wheelHint.hidden = false;
    clearTimeout(this.wheelHintTimer);
    this.wheelHintTimer = setTimeout(() => { this.wheelHint.hidden = true; }, 1500);
  }

  #listen() {
    const canvas = this.canvas;
    canvas.addEventListener('pointerdown', (event) => {
      const [x, y] = this.#local(event);
      this.pointers.set(event.pointerId, { x, y, startX: x, startY: y, type: event.pointerType });
      // A click into the map lets the wheel zoom it until the pointer leaves.
      if (event.pointerType === 'mouse') {
        this.wheelArmed = true;
        this.wheelHint.hidden = true;
      }
      if (event.pointerType === 'mouse' || this.moveMode || this.pointers.size > 1) canvas.setPointerCapture?.(event.pointerId);
    });
    canvas.addEventListener('pointermove', (event) => {
      const [x, y] = this.#local(event);
      const pointer = this.pointers.get(event.pointerId);
      if (!pointer) {
        if (event.pointerType === 'mouse') this.#hover(this.tokenAt(x, y), x, y);
        return;
      }
      if (this.pointers.size === 2) {
        // Two fingers: pan by the midpoint, zoom by the spread, around the picked word while it is on the map.
        const [a, b] = [...this.pointers.values()];
        const before = { mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
        pointer.x = x; pointer.y = y;
        const after = { mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
        this.#pan(after.mx - before.mx, after.my - before.my);
        if (before.d > 0) {
          const [ax, ay] = this.#anchor();
          this.#zoomAt(after.d / before.d, ax, ay);
        }
        return;
      }
      const dragging = pointer.type === 'mouse' ? (event.buttons & 1) === 1 : this.moveMode;
      if (dragging) this.#pan(x - pointer.x, y - pointer.y);
      pointer.x = x; pointer.y = y;
    });
    const end = (event) => {
      const pointer = this.pointers.get(event.pointerId);
      this.pointers.delete(event.pointerId);
      if (!pointer || event.type === 'pointercancel') return;
      const [x, y] = this.#local(event);
      // A tap or click, not a drag: names and picks the token under it.
      if (Math.hypot(x - pointer.startX, y - pointer.startY) < 8 && this.pointers.size === 0) {
        const id = this.tokenAt(x, y, pointer.type === 'mouse' ? 10 : 20);
        this.#hover(id, x, y);
        // The dot is under the finger already; isolated, the view follows the new word's neighbours.
        if (id >= 0) this.pick(id, { keepView: !this.isolated });
      }
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    canvas.addEventListener('pointerleave', (event) => {
      if (event.pointerType !== 'mouse') return;
      this.tip.hidden = true;
      this.wheelArmed = false;
    });
    canvas.addEventListener('blur', () => { this.wheelArmed = false; });
    // The wheel scrolls the page, as everywhere else on it, unless Ctrl or ⌘ is held (a
    // trackpad's pinch comes as a wheel with Ctrl) or the reader has clicked into the map.
    canvas.addEventListener('wheel', (event) => {
      if (!(event.ctrlKey || event.metaKey || this.wheelArmed)) {
        this.#hintWheel();
        return;
      }
      event.preventDefault();
      const [x, y] = this.#local(event);
      this.#zoomAt(Math.exp(-event.deltaY / 300), x, y);
    }, { passive: false });
    canvas.addEventListener('keydown', (event) => {
      const step = 40;
      const actions = {
        ArrowLeft: () => this.#pan(step, 0), ArrowRight: () => this.#pan(-step, 0),
        ArrowUp: () => this.#pan(0, step), ArrowDown: () => this.#pan(0, -step),
        '+': () => this.zoomBy(1.5), '=': () => this.zoomBy(1.5), '-': () => this.zoomBy(1 / 1.5), 0: () => this.resetView(),
      };
      const action = actions[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    });
    if (typeof ResizeObserver === 'function') {
      let lastWidth = 0;
      new ResizeObserver(() => {
        const width = this.frame.clientWidth;
        if (this.map_ && Math.abs(width - lastWidth) > 1) { lastWidth = width; const view = { ...this.view }; this.#resize(); this.view = view; this.draw(); }
      }).observe(this.frame);
    }
    // Light or dark as the reader's system is, from the widgets' custom properties.
    const dark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
    dark?.addEventListener?.('change', () => { this.#readColours(); this.draw(); });
  }
}

defineWidget('vocabulary-map', VocabularyMap);
