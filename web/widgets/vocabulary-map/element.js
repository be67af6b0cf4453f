// <ew-vocabulary-map>: every token of the model as a dot on a map of the token
// table, computed in the reader's browser: model.map()'s UMAP or PCA, or
// the reader's own axes, the directions from one word to another
// (word-axes.js). The picked word and its 10 closest tokens (by cosine, in
// all the table's numbers) are ringed and labelled; the chapter's groups of
// words (../parts/vocabulary-groups.js) are marked by colour and shape, each
// toggled. Labels never overlap (label-placement.js): what cannot fit is left
// out, and said. "Isolate" shows the picked word and its neighbours alone,
// zoomed to them, as the Embedding Projector's isolate does.
//
//   <ew-vocabulary-map for="nearest" word="·girl"></ew-vocabulary-map>
//
// With `for` naming a <ew-nearest-words>, picking in either shows the pick in
// both. Mouse: hover names a token, click picks it, drag pans; the wheel
// zooms with Ctrl (or ⌘) held, or once the map has been clicked, and
// otherwise scrolls the page. Touch: tap names and picks; two fingers pan
// and pinch; one finger scrolls the page unless "Move the map" is on.
// Keyboard: the arrows pan, + and − zoom, 0 resets, when the map has
// focus; the word box picks. The + and − buttons, keys and a pinch zoom
// around the picked word while it is on the map. The list under the map
// says the same as the picture, in words.
//
// Its internals are in this folder: geometry.js (the view), drawing.js (the
// picture), input.js (the reader's hands), words.js (the legend and the
// list), axes-form.js (the reader's own axes' form). The package's entry,
// web/widgets/vocabulary-map.js, defines the element.
import { ModelWidget } from '../parts/model-widget.js';
import { el, linkStylesheet, uniqueId } from '../parts/dom.js';
import { settableAttributes } from '../parts/attributes.js';
import { yieldToMain } from '../../src/event-loop.js';
import { TokenPicker, hasTokenizer, modelWordForms, notOneToken, tokenLabel } from '../parts/token-picker.js';
import { VOCABULARY_GROUPS, groupIds, drawShape } from '../parts/vocabulary-groups.js';
import { axisMap } from './word-axes.js';
import { installFigures } from '../parts/figure-control.js';
import { packageFile } from '../../src/files.js';
import { buildAxesForm, defaultAxes, fillAxisExamples, fillAxisBoxes } from './axes-form.js';
import { dotNear, resizeCanvas, toScreen, setCentre, fitView, bringIntoView, zoomAnchor, zoomAt, viewChanged } from './geometry.js';
import { drawMap, drawMapInto, readColours } from './drawing.js';
import { writeLegend, describeNeighbours, NEIGHBOURS } from './words.js';
import { listenToInput } from './input.js';

// model -> { umap, pca }: { promise, ms } of maps computed once per model (ms: how long it took, once).
const maps = new WeakMap();
let stylesheetUrl;

function ensureOwnStylesheet() {
  // The stylesheet stays beside widgets.css, where the package exports it (vocabulary-map.css).
  stylesheetUrl ??= packageFile('web/widgets/vocabulary-map.css', () => new URL('../vocabulary-map.css', import.meta.url));
  linkStylesheet(stylesheetUrl);
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

export class VocabularyMap extends ModelWidget {
  static get observedAttributes() {
    return [...super.observedAttributes, 'word', 'method'];
  }

  build() {
    ensureOwnStylesheet();
    const method = this.getAttribute('method');
    this.method_ = method === 'pca' || method === 'axes' ? method : 'umap';
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
    buildAxesForm(this);
    this.groupBoxes = VOCABULARY_GROUPS.map((group) => {
      const box = el('input', { type: 'checkbox', checked: true, 'data-group': group.key });
      box.addEventListener('change', () => this.#showGroup(group.key, box.checked));
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
    // The theme's colours are read when the first map is shown (#showMap), not here: reading
    // computed styles while the page builds forced a style pass and a layout of the page.
    listenToInput(this);
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'word') { if (this.model && after) this.#pickText(after); return; }
    // Before build, build() reads the attribute.
    if (name === 'method') { if (this.built && ['pca', 'umap', 'axes'].includes(after)) this.setMethod(after).catch(() => {}); return; }
    super.attributeChangedCallback(name, before, after);
  }

  /** The token picked now. */
  get tokenId() { return this.id_; }
  /** How the map shown is made: 'umap', 'pca' or 'axes'. */
  get method() { return this.method_; }
  /** The map shown now (a Matrix of vocabSize × 2). */
  get map() { return this.map_; }
  /** Where a token's dot is drawn, in CSS pixels from the canvas's top left corner. */
  screenPosition(id) {
    return toScreen(this, this.map_.at(id, 0), this.map_.at(id, 1));
  }
  /** The token whose dot is nearest a point of the canvas, within `radius` pixels (or -1). */
  tokenAt(px, py, radius = 12) {
    return dotNear(this, px, py, radius);
  }

  async show(model) {
    // Another model: nothing of the old one's map stays on screen while the new one is made.
    this.#forgetMap();
    this.picker.setModel(model);
    this.hasText = hasTokenizer(model);
    this.groups = this.hasText ? groupIds(model.vocabulary()) : Object.fromEntries(VOCABULARY_GROUPS.map((g) => [g.key, []]));
    this.groupsBox.hidden = !this.hasText;
    this.groupOf = new Map();
    for (const group of VOCABULARY_GROUPS) for (const id of this.groups[group.key]) if (!this.groupOf.has(id)) this.groupOf.set(id, group);
    this.#linkTarget();
    this.lit = undefined;
    this.axes = undefined;
    fillAxisExamples(this);
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

  /** The map, its picture and every word said of it, gone (the model changed): the frame stays, blank, as the next is made. */
  #forgetMap() {
    this.map_ = undefined;
    this.wantedView = undefined;
    this.canvas.getContext('2d')?.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.tip.hidden = true;
    for (const part of [this.hoverText, this.legend, this.listHeading, this.fitNote]) part.textContent = '';
    this.list.replaceChildren();
    this.isolateButton.textContent = 'Isolate the word and its neighbours';
  }

  /** Shows a group's marks or not (its box is the reader's; setViewState sets it too). */
  #showGroup(key, shown) {
    const box = this.groupBoxes.find((label) => label.querySelector('input').dataset.group === key)?.querySelector('input');
    if (box) box.checked = shown;
    if (shown) this.shownGroups.add(key); else this.shownGroups.delete(key);
    if (!this.map_) return;
    this.draw();
    describeNeighbours(this);
    viewChanged(this, { now: true });
  }

  /**
   * Shows the map made by 'umap', 'pca' or 'axes' (the reader's own; ·man →
   * ·woman until they pick others), as a whole, unless a view of that
   * method was asked for (setViewState) and not shown yet.
   */
  async setMethod(method, { force = false } = {}) {
    this.ensureBuilt();
    if (method === this.method && !force && this.map_) return;
    // A view asked for another method is not shown on this one.
    if (this.wantedView && this.wantedView.method !== method) this.wantedView = undefined;
    this.method_ = method;
    for (const button of this.methodButtons) button.setAttribute('aria-pressed', String(button.dataset.method === method));
    this.axesForm.hidden = method !== 'axes';
    const model = this.model;
    if (!model) return;
    if (method === 'axes') {
      await this.setAxes(this.axes ?? defaultAxes(this));
      return;
    }
    this.progress.hidden = false;
    this.progress.textContent = `Computing the ${method.toUpperCase()} map in your browser…`;
    // "embeddings:map:umap" (or pca), from the request to the drawn map, for tools/bench/map-page.mjs.
    const mark = `embeddings:map:${method}`;
    performance.mark(`${mark}:request`);
    const entry = mapOf(model, method, ({ progress }) => {
      if (this.method === method) this.progress.textContent = `Computing the ${method.toUpperCase()} map in your browser… ${Math.round(100 * progress)}%`;
    });
    const map = await entry.promise;
    if (this.model !== model || this.method !== method) return;
    await this.#showMap(map, { ms: entry.ms });
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
    this.method_ = 'axes';
    for (const button of this.methodButtons) button.setAttribute('aria-pressed', String(button.dataset.method === 'axes'));
    this.axesForm.hidden = false;
    const axes = { from, to, ...(upFrom !== undefined && upTo !== undefined ? { upFrom, upTo } : {}) };
    this.axes = axes;
    fillAxisBoxes(this, axes);
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
    await this.#showMap(made.map, {});
  }

  /** Draws the map as the view is now: the dots, the groups' marks, the rings and the labels that fit. */
  draw() {
    drawMap(this);
  }

  /** The same picture on any 2D context of the canvas's CSS size (a figure's), in `colours` ({ ink, bg, muted, accent }). */
  drawInto(context, colours) {
    drawMapInto(this, context, colours);
  }

  // In a task of its own, not in the one that received the map (the Worker's message).
  async #showMap(map, { ms }) {
    const method = this.method;
    await yieldToMain();
    if (this.method !== method) return;
    readColours(this);
    this.map_ = map;
    this.dataset.method = this.method;
    this.computeMs = ms;
    this.progress.textContent = '';
    this.progress.hidden = true;
    this.frame.hidden = false;
    writeLegend(this);
    const wanted = this.wantedView;
    this.wantedView = undefined;
    resizeCanvas(this);
    // A new map starts whole (the old map's zoom and offsets mean nothing on it), then shows the view asked for, if any.
    fitView(this);
    this.pick(this.id_, { keepView: true });
    if (wanted && wanted.method === this.method) this.#showView(wanted);
    else fitView(this);
    this.draw();
    viewChanged(this, { now: true });
  }

  /**
   * Picks a token: rings and labels it and its closest tokens, brings it
   * into view (and, isolated, zooms to them), and tells the linked <ew-nearest-words>.
   */
  pick(id, { keepView = false } = {}) {
    this.id_ = id;
    const model = this.model;
    if (!model || !this.map_) return;
    this.picker.show(id);
    this.neighbours = model.nearest(id, NEIGHBOURS).map((n) => n.id);
    this.isolateButton.textContent = `Isolate ${tokenLabel(model, id)} and its ${this.neighbours.length} closest tokens`;
    if (!keepView) {
      if (this.isolated) fitView(this);
      else bringIntoView(this, id);
    }
    this.draw();
    describeNeighbours(this);
    viewChanged(this, { now: true });
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
    if (fit) fitView(this);
    this.draw();
    describeNeighbours(this);
    viewChanged(this, { now: true });
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
    resizeCanvas(this);
    fitView(this);
    this.draw();
    viewChanged(this);
  }

  /** Zooms by `factor` around the picked word while its dot is on the map, else around the middle. */
  zoomBy(factor) {
    this.ensureBuilt();
    if (!this.map_) return;
    const [x, y] = zoomAnchor(this);
    zoomAt(this, factor, x, y);
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
      whole: this.fitted === true, hidden: VOCABULARY_GROUPS.map((g) => g.key).filter((key) => !this.shownGroups.has(key)) };
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
    viewChanged(this, { now: true });
  }

  #showView(state) {
    for (const { key } of VOCABULARY_GROUPS) {
      const shown = !state.hidden?.includes(key);
      if (this.shownGroups.has(key) !== shown) this.#showGroup(key, shown);
    }
    const fitted = state.whole || !state.centre;
    this.setIsolated(Boolean(state.isolated), { fit: fitted });
    if (!fitted) setCentre(this, state.scale, state.centre);
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

  // ---- geometry -----------------------------------------------------------------

  // ---- words --------------------------------------------------------------------------

}

// Its figures for a book: element.figure({ format, which }) and a control under it.
installFigures(VocabularyMap, { names: (map) => (map.map ? ['vocabulary-map'] : []), load: () => import('../parts/figure-maps.js') });

settableAttributes(VocabularyMap, ['method']);
