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
// The element keeps the map's state in one object (state.js), through which
// its internals in this folder work: geometry.js (the view), drawing.js
// (the picture), input.js (the reader's hands), words.js (the legend and the
// list), axes-form.js (the reader's own axes' form); maps.js keeps each
// model's maps. The package's entry, web/widgets/vocabulary-map.js, defines
// the element.
import { ModelWidget } from '../parts/model-widget.js';
import { el, linkStylesheet, uniqueId } from '../parts/dom.js';
import { settableAttributes } from '../parts/attributes.js';
import { yieldToMain } from '../../src/event-loop.js';
import { TokenPicker, hasTokenizer, modelWordForms, notOneToken, tokenLabel } from '../parts/token-picker.js';
import { VOCABULARY_GROUPS, groupIds, drawShape } from '../parts/vocabulary-groups.js';
import { installFigures } from '../parts/figure-control.js';
import { packageFile } from '../../src/files.js';
import { MapState } from './state.js';
import { axisMap } from './word-axes.js';
import { buildAxesForm, defaultAxes, fillAxisExamples, fillAxisBoxes } from './axes-form.js';
import { dotNear, resizeCanvas, screenPosition, setCentre, fitView, bringIntoView, zoomAnchor, zoomAt, viewChanged, viewStateOf } from './geometry.js';
import { drawMap, drawMapInto, readColours } from './drawing.js';
import { drawWhenNear, watchNearness } from '../parts/canvas.js';
import { writeLegend, describeNeighbours, NEIGHBOURS } from './words.js';
import { listenToInput } from './input.js';
import { mapOf } from './maps.js';
import { TargetFollower } from './follow.js';

let stylesheetUrl;

function ensureOwnStylesheet() {
  // The stylesheet stays beside widgets.css, where the package exports it (vocabulary-map.css).
  stylesheetUrl ??= packageFile('web/widgets/vocabulary-map.css', () => new URL('../vocabulary-map.css', import.meta.url));
  linkStylesheet(stylesheetUrl);
}

export class VocabularyMap extends ModelWidget {
  static get observedAttributes() {
    return [...super.observedAttributes, 'word', 'method'];
  }

  /** What the map shows and how it is seen: the one object the internals work through. */
  #state = new MapState(this);
  // The element's own controls and bookkeeping, which no internal reads.
  #picker;
  #methodButtons;
  #groupBoxes;
  #groupsBox;
  #isolateButton;
  #moveButton;
  #progress;
  #wantedView;
  #follower;

  build() {
    ensureOwnStylesheet();
    const state = this.#state;
    const method = this.getAttribute('method');
    state.method = method === 'pca' || method === 'axes' ? method : 'umap';
    this.#picker = new TokenPicker({
      label: 'Word', placeholder: 'e.g. ·red, ·ran', onPick: (id) => this.pick(id),
    });
    const methods = this.#methodChoice();
    buildAxesForm(state);
    this.#groupsBox = this.#groupChoice();
    const parts = state.parts;
    parts.canvas = el('canvas', { className: 'vm-canvas', tabIndex: 0, role: 'img', 'aria-label': 'Map of the vocabulary' });
    // Watched from now: its first picture, often ready while the reader is screens away, is drawn when it comes near.
    watchNearness(parts.canvas);
    parts.tip = el('div', { className: 'vm-tip', hidden: true, 'aria-hidden': 'true' });
    parts.wheelHint = el('div', { className: 'vm-wheel-hint', hidden: true, 'aria-hidden': 'true',
      textContent: 'Hold Ctrl (or ⌘) to zoom with the wheel, or click the map first' });
    parts.hoverText = el('p', { className: 'vm-hover', 'aria-live': 'polite' });
    const controls = this.#viewControls();
    // Said for the reader's pointer: a phone has no wheel, a desktop often no pinch.
    const touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
    const zoomHelp = el('p', { className: 'ew-help vm-zoom-help', textContent: touch
      ? 'Zoom with + and − or a pinch, around the picked word; two fingers move the map, one finger scrolls the page.'
      : 'Zoom with + and −, a pinch, or the wheel while holding Ctrl (⌘ on a Mac); after a click into the map the wheel zooms ' +
        'alone, until the pointer leaves it. Otherwise the wheel scrolls the page. Drag to move the map.' });
    // Hidden until the first map is drawn: no empty box while it is computed.
    parts.frame = el('div', { className: 'vm-frame', hidden: true }, parts.canvas, parts.tip, parts.wheelHint);
    parts.fitNote = el('p', { className: 'ew-help vm-fit' });
    parts.legend = el('p', { className: 'vm-legend' });
    this.#progress = el('p', { className: 'vm-progress', role: 'status' });
    const listId = uniqueId('vm-list');
    parts.listHeading = el('p', { className: 'vm-list-heading', id: listId });
    parts.list = el('ol', { className: 'vm-list', 'aria-labelledby': listId });
    this.append(this.#picker.element, methods, parts.axesForm, this.#groupsBox, this.#progress, parts.frame, parts.fitNote, controls, zoomHelp,
      parts.hoverText, parts.legend, parts.listHeading, parts.list);
    // The theme's colours are read when the first map is shown (#showMap), not here: reading
    // computed styles while the page builds forced a style pass and a layout of the page.
    listenToInput(state);
  }

  /** The buttons that choose how the map is made. */
  #methodChoice() {
    this.#methodButtons = [['umap', 'UMAP'], ['pca', 'PCA'], ['axes', 'Your own axes']].map(([key, text]) => {
      const button = el('button', { type: 'button', className: 'ew-button vm-method', textContent: text, 'aria-pressed': String(key === this.method), 'data-method': key });
      button.addEventListener('click', () => this.setMethod(key).catch(() => {}));
      return button;
    });
    return el('div', { className: 'vm-methods', role: 'group', 'aria-label': 'How the map is made' }, 'Map: ', ...this.#methodButtons);
  }

  /** A box per group of words, with its mark in its colour, that shows its marks or not. */
  #groupChoice() {
    this.#groupBoxes = VOCABULARY_GROUPS.map((group) => {
      const box = el('input', { type: 'checkbox', checked: true, 'data-group': group.key });
      box.addEventListener('change', () => this.#showGroup(group.key, box.checked));
      const swatch = el('canvas', { className: 'vm-swatch', width: 16, height: 16, 'aria-hidden': 'true' });
      const c = swatch.getContext('2d');
      if (c) { c.fillStyle = group.colour; drawShape(c, group.shape, 8, 8, 5); c.fill(); }
      return el('label', { className: 'vm-group' }, box, swatch, ` ${group.label}`);
    });
    return el('fieldset', { className: 'vm-groups' }, el('legend', { textContent: 'Mark groups' }), ...this.#groupBoxes);
  }

  /** Zoom in and out, reset, isolate, and move with one finger. */
  #viewControls() {
    const button = (text, label, action) => {
      const b = el('button', { type: 'button', className: 'ew-button', textContent: text, 'aria-label': label });
      b.addEventListener('click', action);
      return b;
    };
    const zoomIn = button('+', 'Zoom in, around the picked word', () => this.zoomBy(1.5));
    const zoomOut = button('−', 'Zoom out, around the picked word', () => this.zoomBy(1 / 1.5));
    const reset = button('Reset view', undefined, () => this.resetView());
    this.#isolateButton = el('button', { type: 'button', className: 'ew-button vm-isolate', 'aria-pressed': 'false', textContent: 'Isolate the word and its neighbours' });
    this.#isolateButton.addEventListener('click', () => this.setIsolated(!this.#state.isolated));
    this.#moveButton = el('button', { type: 'button', className: 'ew-button vm-move', textContent: 'Move the map with one finger', 'aria-pressed': 'false' });
    this.#moveButton.addEventListener('click', () => this.setMoveMode(!this.#state.moveMode));
    return el('div', { className: 'vm-controls' }, zoomIn, zoomOut, reset, this.#isolateButton, this.#moveButton);
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'word') { if (this.model && after) this.#pickText(after); return; }
    // Before build, build() reads the attribute.
    if (name === 'method') { if (this.built && ['pca', 'umap', 'axes'].includes(after)) this.setMethod(after).catch(() => {}); return; }
    super.attributeChangedCallback(name, before, after);
  }

  /** The token picked now. */
  get tokenId() { return this.#state.picked; }
  /** How the map shown is made: 'umap', 'pca' or 'axes'. */
  get method() { return this.#state.method; }
  /** The map shown now (a Matrix of vocabSize × 2). */
  get map() { return this.#state.map; }
  /** Where a token's dot is drawn, in CSS pixels from the canvas's top left corner. */
  screenPosition(id) {
    return screenPosition(this.#state, id);
  }
  /** The token whose dot is nearest a point of the canvas, within `radius` pixels (or -1). */
  tokenAt(px, py, radius = 12) {
    return dotNear(this.#state, px, py, radius);
  }

  // What the map shows, read-only, for its figure, the print path and the tests.
  /** The canvas, and its size in CSS pixels and pixels per CSS pixel. */
  get canvas() { return this.#state.parts.canvas; }
  get width() { return this.#state.width; }
  get height() { return this.#state.height; }
  get ratio() { return this.#state.ratio; }
  /** The zoom and offsets: { scale, x, y }. */
  get view() { return this.#state.view; }
  /** The theme's colours the map is drawn in: { ink, bg, muted, accent }. */
  get colours() { return this.#state.colours; }
  /** The token lit up ({ id, label }), and the picked word's closest tokens (ids). */
  get lit() { return this.#state.lit; }
  get neighbours() { return this.#state.neighbours; }
  /** Each label drawn ({ id, left, top, right, bottom }), and the ringed tokens with no room for one. */
  get labelBoxes() { return this.#state.labelBoxes; }
  get leftOut() { return this.#state.leftOut; }
  /** The groups marked now: shown, and with tokens in this model. */
  get markedGroups() { return VOCABULARY_GROUPS.filter((group) => this.#state.shownGroups.has(group.key) && this.#state.groups[group.key]?.length); }
  /** The words under the map: the legend, the note on labels left out, the list's heading and the list. */
  get legend() { return this.#state.parts.legend; }
  get fitNote() { return this.#state.parts.fitNote; }
  get listHeading() { return this.#state.parts.listHeading; }
  get list() { return this.#state.parts.list; }

  async show(model) {
    const state = this.#state;
    // Another model: nothing of the old one's map stays on screen while the new one is made.
    this.#forgetMap();
    this.#picker.setModel(model);
    const hasText = hasTokenizer(model);
    state.groups = hasText ? groupIds(model.vocabulary()) : Object.fromEntries(VOCABULARY_GROUPS.map((g) => [g.key, []]));
    this.#groupsBox.hidden = !hasText;
    state.groupOf = new Map();
    for (const group of VOCABULARY_GROUPS) for (const id of state.groups[group.key]) if (!state.groupOf.has(id)) state.groupOf.set(id, group);
    this.#follower ??= new TargetFollower(this);
    state.lit = undefined;
    state.axes = undefined;
    fillAxisExamples(state);
    const target = this.target;
    const start = state.picked ?? target?.tokenId;
    if (start === undefined || start >= model.vocabSize) {
      const [form] = modelWordForms(model, this.getAttribute('word') ?? '·girl');
      state.picked = form ? form.id : 0;
    } else {
      state.picked = start;
    }
    await this.setMethod(this.method, { force: true });
  }

  /** The map, its picture and every word said of it, gone (the model changed): the frame stays, blank, as the next is made. */
  #forgetMap() {
    const state = this.#state, { canvas, tip, hoverText, legend, listHeading, fitNote, list } = state.parts;
    state.map = undefined;
    this.#wantedView = undefined;
    canvas.getContext('2d')?.clearRect(0, 0, canvas.width, canvas.height);
    tip.hidden = true;
    for (const part of [hoverText, legend, listHeading, fitNote]) part.textContent = '';
    list.replaceChildren();
    this.#isolateButton.textContent = 'Isolate the word and its neighbours';
  }

  /** Shows a group's marks or not (its box is the reader's; setViewState sets it too). */
  #showGroup(key, shown) {
    const state = this.#state;
    const box = this.#groupBoxes.find((label) => label.querySelector('input').dataset.group === key)?.querySelector('input');
    if (box) box.checked = shown;
    if (shown) state.shownGroups.add(key); else state.shownGroups.delete(key);
    if (!state.map) return;
    this.draw();
    describeNeighbours(state);
    viewChanged(state, { now: true });
  }

  /** The method buttons and the axes' form as `method` is shown. */
  #showMethod(method) {
    for (const button of this.#methodButtons) button.setAttribute('aria-pressed', String(button.dataset.method === method));
    this.#state.parts.axesForm.hidden = method !== 'axes';
  }

  /**
   * Shows the map made by 'umap', 'pca' or 'axes' (the reader's own; ·man →
   * ·woman until they pick others), as a whole, unless a view of that
   * method was asked for (setViewState) and not shown yet.
   */
  async setMethod(method, { force = false } = {}) {
    this.ensureBuilt();
    const state = this.#state;
    if (method === this.method && !force && state.map) return;
    // A view asked for another method is not shown on this one.
    if (this.#wantedView && this.#wantedView.method !== method) this.#wantedView = undefined;
    state.method = method;
    this.#showMethod(method);
    const model = this.model;
    if (!model) return;
    if (method === 'axes') {
      await this.setAxes(state.axes ?? defaultAxes(state));
      return;
    }
    const progress = this.#progress;
    progress.hidden = false;
    progress.textContent = `Computing the ${method.toUpperCase()} map in your browser…`;
    // "embeddings:map:umap" (or pca), from the request to the drawn map, for tools/bench/map-page.mjs.
    const mark = `embeddings:map:${method}`;
    performance.mark(`${mark}:request`);
    const entry = mapOf(model, method, ({ progress: done }) => {
      if (this.method === method) progress.textContent = `Computing the ${method.toUpperCase()} map in your browser… ${Math.round(100 * done)}%`;
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
    const state = this.#state;
    const model = this.model;
    if (!model) return;
    state.method = 'axes';
    this.#showMethod('axes');
    const axes = { from, to, ...(upFrom !== undefined && upTo !== undefined ? { upFrom, upTo } : {}) };
    state.axes = axes;
    fillAxisBoxes(state, axes);
    state.parts.axisNote.textContent = '';
    let made;
    try {
      made = await axisMap(model, axes);
    } catch (error) {
      state.parts.axisNote.textContent = error.message;
      throw error;
    }
    if (this.model !== model || state.axes !== axes || this.method !== 'axes') return;
    state.axisDetails = made;
    await this.#showMap(made.map, {});
  }

  /** Draws the map as the view is now: the dots, the groups' marks, the rings and the labels that fit. */
  draw() {
    this.ensureBuilt();
    const state = this.#state;
    drawWhenNear(state.parts.canvas, () => drawMap(state));
  }

  /** The same picture on any 2D context of the canvas's CSS size (a figure's), in `colours` ({ ink, bg, muted, accent }). */
  drawInto(context, colours) {
    drawMapInto(this.#state, context, colours);
  }

  // In a task of its own, not in the one that received the map (the Worker's message).
  async #showMap(map, { ms }) {
    const state = this.#state;
    const method = this.method;
    await yieldToMain();
    if (this.method !== method) return;
    readColours(state);
    state.map = map;
    this.dataset.method = this.method;
    state.computeMs = ms;
    this.#progress.textContent = '';
    this.#progress.hidden = true;
    state.parts.frame.hidden = false;
    writeLegend(state);
    const wanted = this.#wantedView;
    this.#wantedView = undefined;
    resizeCanvas(state);
    // A new map starts whole (the old map's zoom and offsets mean nothing on it), then shows the view asked for, if any.
    fitView(state);
    this.pick(state.picked, { keepView: true });
    if (wanted && wanted.method === this.method) this.#showView(wanted);
    else fitView(state);
    this.draw();
    viewChanged(state, { now: true });
  }

  /**
   * Picks a token: rings and labels it and its closest tokens, brings it
   * into view (and, isolated, zooms to them), and tells the linked <ew-nearest-words>.
   */
  pick(id, { keepView = false } = {}) {
    this.#follower?.drop();
    const state = this.#state;
    state.picked = id;
    const model = this.model;
    if (!model || !state.map) return;
    this.#picker.show(id);
    state.neighbours = model.nearest(id, NEIGHBOURS).map((n) => n.id);
    this.#isolateButton.textContent = `Isolate ${tokenLabel(model, id)} and its ${state.neighbours.length} closest tokens`;
    if (!keepView) {
      if (state.isolated) fitView(state);
      else bringIntoView(state, id);
    }
    this.draw();
    describeNeighbours(state);
    viewChanged(state, { now: true });
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
    const state = this.#state;
    state.lit = id === undefined || id === null ? undefined : { id, label: label ?? (this.model ? tokenLabel(this.model, id) : String(id)) };
    this.draw();
    if (state.lit && this.model) state.parts.hoverText.textContent = `Lit up: ${state.lit.label} (id ${id}).`;
  }

  /** Shows the picked word and its neighbours alone, zoomed to them (or every token again). */
  setIsolated(on, { fit = true } = {}) {
    this.ensureBuilt();
    const state = this.#state;
    state.isolated = on;
    this.#isolateButton.setAttribute('aria-pressed', String(on));
    if (!state.map) return;
    if (fit) fitView(state);
    this.draw();
    describeNeighbours(state);
    viewChanged(state, { now: true });
  }

  setMoveMode(on) {
    this.ensureBuilt();
    this.#state.moveMode = on;
    this.#moveButton.setAttribute('aria-pressed', String(on));
    this.#state.parts.canvas.classList.toggle('vm-moving', on);
  }

  /** The whole map again (isolated: the word and its neighbours, fitted). */
  resetView() {
    this.ensureBuilt();
    const state = this.#state;
    if (!state.map) return;
    resizeCanvas(state);
    fitView(state);
    this.draw();
    viewChanged(state);
  }

  /** Zooms by `factor` around the picked word while its dot is on the map, else around the middle. */
  zoomBy(factor) {
    this.ensureBuilt();
    const state = this.#state;
    if (!state.map) return;
    const [x, y] = zoomAnchor(state);
    zoomAt(state, factor, x, y);
  }

  /**
   * What the reader sees, to be kept or shared (the page puts it in its
   * address): the method, the zoom, the map's point in the middle of the
   * view, whether the word is isolated, and the axes' words; `whole` when
   * the view is the map as first shown (the whole of it, or the isolated words fitted).
   */
  get viewState() {
    return viewStateOf(this.#state);
  }

  /** Shows a view given as viewState gives it (once its map is made, if it is not yet); `whole` (or no centre) fits the map. */
  async setViewState(view) {
    this.ensureBuilt();
    if (!view) return;
    this.#follower?.flush();
    this.#wantedView = view;
    if (view.method === 'axes' && view.axes?.length >= 2 && this.model) {
      const ids = view.axes.map((text) => modelWordForms(this.model, text)[0]?.id);
      if (ids.slice(0, 2).every((id) => id !== undefined)) {
        const [from, to, upFrom, upTo] = ids;
        await this.setAxes({ from, to, upFrom, upTo }).catch(() => {});
        return;
      }
    }
    if (view.method !== this.method || !this.#state.map) {
      await this.setMethod(view.method ?? this.method).catch(() => {});
      return;
    }
    this.#wantedView = undefined;
    this.#showView(view);
    viewChanged(this.#state, { now: true });
  }

  #showView(view) {
    for (const { key } of VOCABULARY_GROUPS) {
      const shown = !view.hidden?.includes(key);
      if (this.#state.shownGroups.has(key) !== shown) this.#showGroup(key, shown);
    }
    const fitted = view.whole || !view.centre;
    this.setIsolated(Boolean(view.isolated), { fit: fitted });
    if (!fitted) setCentre(this.#state, view.scale, view.centre);
  }

  get target() {
    const name = this.getAttribute('for');
    return name ? document.getElementById(name) : null;
  }

  #pickText(text) {
    const [form] = modelWordForms(this.model, text);
    if (form) this.pick(form.id);
    else this.#state.parts.hoverText.textContent = notOneToken(this.model, text).message;
  }
}

// Its figures for a book: element.figure({ format, which }) and a control under it.
installFigures(VocabularyMap, { names: (map) => (map.map ? ['vocabulary-map'] : []), load: () => import('../parts/figure-maps.js') });

settableAttributes(VocabularyMap, ['method']);
