// <vocabulary-map>: every token of the model as a dot on a map of the token
// table, computed in the reader's browser by model.map() (UMAP or PCA).
// The picked word and its 10 closest tokens (by cosine, in all the table's
// numbers) are highlighted and labelled; the chapter's groups of words
// (vocabulary-groups.js) are marked by colour and shape, each toggled.
//
//   <vocabulary-map for="nearest" word="·girl"></vocabulary-map>
//
// With `for` naming a <nearest-words>, picking in either shows the pick in
// both. Mouse: hover names a token, click picks it, drag pans, the wheel
// zooms. Touch: tap names and picks; two fingers pan and pinch; one finger
// scrolls the page unless "Move the map" is on. Keyboard: the arrows pan,
// + and − zoom, 0 resets, when the map has focus; the word box picks. The
// list under the map says the same as the picture, in words.
import { ModelWidget, el, uniqueId } from './parts/base.js';
import { TokenPicker, tokenLabel } from './parts/token-picker.js';
import { VOCABULARY_GROUPS, groupIds, drawShape } from './parts/vocabulary-groups.js';
import { mapDetails } from '../index.js';
import { defineWidget } from './parts/definitions.js';
import { packageFile } from '../src/files.js';

const NEIGHBOURS = 10;
const maps = new WeakMap();  // model -> { umap, pca }: promises of maps, computed once per model
let stylesheetUrl;

function ensureOwnStylesheet() {
  stylesheetUrl ??= packageFile('web/widgets/vocabulary-map.css', () => new URL('./vocabulary-map.css', import.meta.url));
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((link) => link.href === stylesheetUrl.href)) return;
  document.head.append(el('link', { rel: 'stylesheet', href: stylesheetUrl.href }));
}

function mapOf(model, method, onProgress) {
  let cache = maps.get(model);
  if (!cache) maps.set(model, (cache = {}));
  cache[method] ??= model.map({ method, onProgress });
  return cache[method];
}

export class VocabularyMap extends ModelWidget {
  static get observedAttributes() {
    return [...super.observedAttributes, 'word', 'method'];
  }

  build() {
    ensureOwnStylesheet();
    this.method = this.getAttribute('method') === 'pca' ? 'pca' : 'umap';
    this.shownGroups = new Set(VOCABULARY_GROUPS.map((g) => g.key));
    this.view = { scale: 1, x: 0, y: 0 };
    this.pointers = new Map();
    this.moveMode = false;

    this.picker = new TokenPicker({
      label: 'Word', placeholder: 'e.g. ·red, ·ran', onPick: (id) => this.pick(id), onText: (text) => this.#pickText(text),
    });
    this.methodButtons = ['umap', 'pca'].map((method) => {
      const button = el('button', { type: 'button', className: 'ew-button vm-method', textContent: method.toUpperCase(), 'aria-pressed': String(method === this.method), 'data-method': method });
      button.addEventListener('click', () => this.setMethod(method));
      return button;
    });
    const methods = el('div', { className: 'vm-methods', role: 'group', 'aria-label': 'How the map is made' }, 'Map: ', ...this.methodButtons);
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
    const groups = el('fieldset', { className: 'vm-groups' }, el('legend', { textContent: 'Mark groups' }), ...this.groupBoxes);

    this.canvas = el('canvas', { className: 'vm-canvas', tabIndex: 0, role: 'img', 'aria-label': 'Map of the vocabulary' });
    this.tip = el('div', { className: 'vm-tip', hidden: true, 'aria-hidden': 'true' });
    this.hoverText = el('p', { className: 'vm-hover', 'aria-live': 'polite' });
    const zoom = (factor) => () => { this.#zoomAt(factor, this.width / 2, this.height / 2); };
    const reset = el('button', { type: 'button', className: 'ew-button', textContent: 'Reset view' });
    reset.addEventListener('click', () => this.resetView());
    const zoomIn = el('button', { type: 'button', className: 'ew-button', textContent: '+', 'aria-label': 'Zoom in' });
    zoomIn.addEventListener('click', zoom(1.5));
    const zoomOut = el('button', { type: 'button', className: 'ew-button', textContent: '−', 'aria-label': 'Zoom out' });
    zoomOut.addEventListener('click', zoom(1 / 1.5));
    this.moveButton = el('button', { type: 'button', className: 'ew-button vm-move', textContent: 'Move the map with one finger', 'aria-pressed': 'false' });
    this.moveButton.addEventListener('click', () => this.setMoveMode(!this.moveMode));
    const controls = el('div', { className: 'vm-controls' }, zoomIn, zoomOut, reset, this.moveButton);
    // Hidden until the first map is drawn: no empty box while it is computed.
    this.frame = el('div', { className: 'vm-frame', hidden: true }, this.canvas, this.tip);
    this.legend = el('p', { className: 'vm-legend' });
    this.progress = el('p', { className: 'vm-progress', role: 'status' });
    const listId = uniqueId('vm-list');
    this.listHeading = el('p', { className: 'vm-list-heading', id: listId });
    this.list = el('ol', { className: 'vm-list', 'aria-labelledby': listId });
    this.append(this.picker.element, methods, groups, this.progress, this.frame, controls, this.hoverText, this.legend, this.listHeading, this.list);
    this.#listen();
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'word') { if (this.model && after) this.#pickText(after); return; }
    // Before build, build() reads the attribute.
    if (name === 'method') { if (this.built && (after === 'pca' || after === 'umap')) this.setMethod(after); return; }
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
    this.groups = groupIds(model.vocabulary());
    this.groupOf = new Map();
    for (const group of VOCABULARY_GROUPS) for (const id of this.groups[group.key]) if (!this.groupOf.has(id)) this.groupOf.set(id, group);
    this.#linkTarget();
    const target = this.target;
    const start = this.id_ ?? target?.tokenId;
    if (start === undefined) {
      try { this.id_ = model.tokenId(this.getAttribute('word') ?? '·girl'); } catch { this.id_ = 0; }
    } else {
      this.id_ = start;
    }
    await this.setMethod(this.method, { force: true });
  }

  /** Shows the map made by 'umap' or 'pca'. */
  async setMethod(method, { force = false } = {}) {
    this.ensureBuilt();
    if (method === this.method && !force && this.map_) return;
    this.method = method;
    for (const button of this.methodButtons) button.setAttribute('aria-pressed', String(button.dataset.method === method));
    const model = this.model;
    if (!model) return;
    this.progress.hidden = false;
    this.progress.textContent = `Computing the ${method.toUpperCase()} map in your browser…`;
    const started = performance.now();
    // "embeddings:map:umap" (or pca), from the request to the drawn map, for tools/bench-map-page.mjs.
    const mark = `embeddings:map:${method}`;
    performance.mark(`${mark}:request`);
    const map = await mapOf(model, method, ({ progress }) => {
      this.progress.textContent = `Computing the ${method.toUpperCase()} map in your browser… ${Math.round(100 * progress)}%`;
    });
    if (this.model !== model || this.method !== method) return;
    this.map_ = map;
    this.dataset.method = method;
    this.computeMs = performance.now() - started;
    this.progress.textContent = '';
    this.progress.hidden = true;
    this.frame.hidden = false;
    this.#legend();
    this.resetView();
    this.pick(this.id_);
    performance.measure(mark, `${mark}:request`);
  }

  /** Picks a token: highlights it and its closest tokens, and tells the linked <nearest-words>. */
  pick(id) {
    this.id_ = id;
    const model = this.model;
    if (!model || !this.map_) return;
    this.picker.show(id);
    this.neighbours = model.nearest(id, NEIGHBOURS).map((n) => n.id);
    this.draw();
    this.#describe();
    const target = this.target;
    if (target && typeof target.pick === 'function' && target.tokenId !== id) target.pick(id);
    this.dispatchEvent(new CustomEvent('ew-map-pick', { bubbles: true, detail: { id } }));
  }

  setMoveMode(on) {
    this.ensureBuilt();
    this.moveMode = on;
    this.moveButton.setAttribute('aria-pressed', String(on));
    this.canvas.classList.toggle('vm-moving', on);
  }

  resetView() {
    this.ensureBuilt();
    this.#resize();
    this.view = { scale: 1, x: 0, y: 0 };
    this.draw();
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
    try { this.pick(this.model.tokenId(text)); } catch { this.hoverText.textContent = `“${text}” is not a single token in this model.`; }
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
    // The data's bounds, fitted with a margin, keeping the aspect ratio (PCA axes are real directions).
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
    const scale = Math.max(0.5, Math.min(60, this.view.scale * factor));
    const applied = scale / this.view.scale;
    // Keep the point under (px, py) where it is.
    this.view.x = px - this.width / 2 - (px - this.width / 2 - this.view.x) * applied;
    this.view.y = py - this.height / 2 - (py - this.height / 2 - this.view.y) * applied;
    this.view.scale = scale;
    this.draw();
  }

  #pan(dx, dy) {
    this.view.x += dx;
    this.view.y += dy;
    this.draw();
  }

  // ---- drawing ----------------------------------------------------------------------

  draw() {
    this.ensureBuilt();
    const context = this.canvas.getContext('2d');
    if (!context || !this.map_) return;
    const { ratio } = this;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, this.width, this.height);
    const map = this.map_, rows = map.rows;
    context.fillStyle = 'rgba(90, 90, 90, 0.35)';
    for (let i = 0; i < rows; i++) {
      const [x, y] = this.#toScreen(map.at(i, 0), map.at(i, 1));
      if (x < -4 || y < -4 || x > this.width + 4 || y > this.height + 4) continue;
      context.fillRect(x - 1, y - 1, 2, 2);
    }
    for (const group of VOCABULARY_GROUPS) {
      if (!this.shownGroups.has(group.key)) continue;
      context.fillStyle = group.colour;
      context.strokeStyle = '#ffffff';
      context.lineWidth = 1;
      for (const id of this.groups[group.key]) {
        const [x, y] = this.#toScreen(map.at(id, 0), map.at(id, 1));
        drawShape(context, group.shape, x, y, 4);
        context.fill();
        context.stroke();
      }
    }
    if (this.id_ === undefined || this.id_ >= rows) return;
    // The picked word and its neighbours: rings and labels, on top.
    const labelled = [...(this.neighbours ?? []), this.id_];
    context.font = '12px system-ui, sans-serif';
    context.textBaseline = 'middle';
    for (const id of labelled) {
      const picked = id === this.id_;
      const [x, y] = this.#toScreen(map.at(id, 0), map.at(id, 1));
      context.beginPath();
      context.arc(x, y, picked ? 7 : 5, 0, 2 * Math.PI);
      context.lineWidth = picked ? 3 : 2;
      context.strokeStyle = picked ? '#000000' : '#333333';
      context.stroke();
      const label = tokenLabel(this.model, id);
      context.lineWidth = 3;
      context.strokeStyle = 'rgba(255, 255, 255, 0.9)';
      context.strokeText(label, x + 9, y);
      context.fillStyle = '#111111';
      context.font = picked ? 'bold 13px system-ui, sans-serif' : '12px system-ui, sans-serif';
      context.fillText(label, x + 9, y);
    }
  }

  // ---- words --------------------------------------------------------------------------

  #legend() {
    const model = this.model;
    const details = mapDetails(this.map_);
    const count = model.vocabSize.toLocaleString('en-US');
    const seconds = `${(this.computeMs / 1000).toFixed(2)} s`;
    if (details?.method === 'pca') {
      const [a, b] = details.varianceShare.map((s) => `${(100 * s).toFixed(1)}%`);
      this.legend.textContent = `Each dot is one of the ${count} tokens. PCA: across is the direction in which the token ` +
        `lists vary most (${a} of all the variation), up is the next one (${b}). Distances along these two directions are ` +
        `real, but most of the variation lies in other directions, so tokens far apart in the table can land together here.`;
    } else {
      this.legend.textContent = `Each dot is one of the ${count} tokens, placed by UMAP so that tokens with similar lists ` +
        `land near each other. Only neighbourhoods mean something: the axes, and the distances between dots far apart, ` +
        `do not. Your browser computed this map in ${seconds}.`;
    }
    this.canvas.setAttribute('aria-label', `${this.method.toUpperCase()} map of the ${count} tokens; the list below says what it shows`);
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
      `cosine similarity, ${kept} of them also among its ${NEIGHBOURS} nearest dots on this map:`;
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

  #listen() {
    const canvas = this.canvas;
    canvas.addEventListener('pointerdown', (event) => {
      const [x, y] = this.#local(event);
      this.pointers.set(event.pointerId, { x, y, startX: x, startY: y, type: event.pointerType });
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
        // Two fingers: pan by the midpoint, zoom by the spread.
        const [a, b] = [...this.pointers.values()];
        const before = { mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
        pointer.x = x; pointer.y = y;
        const after = { mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
        this.#pan(after.mx - before.mx, after.my - before.my);
        if (before.d > 0) this.#zoomAt(after.d / before.d, after.mx, after.my);
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
        if (id >= 0) this.pick(id);
      }
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    canvas.addEventListener('pointerleave', (event) => { if (event.pointerType === 'mouse') this.tip.hidden = true; });
    canvas.addEventListener('wheel', (event) => {
      event.preventDefault();
      const [x, y] = this.#local(event);
      this.#zoomAt(Math.exp(-event.deltaY / 300), x, y);
    }, { passive: false });
    canvas.addEventListener('keydown', (event) => {
      const step = 40;
      const actions = {
        ArrowLeft: () => this.#pan(step, 0), ArrowRight: () => this.#pan(-step, 0),
        ArrowUp: () => this.#pan(0, step), ArrowDown: () => this.#pan(0, -step),
        '+': () => this.#zoomAt(1.5, this.width / 2, this.height / 2), '=': () => this.#zoomAt(1.5, this.width / 2, this.height / 2),
        '-': () => this.#zoomAt(1 / 1.5, this.width / 2, this.height / 2), 0: () => this.resetView(),
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
  }
}

defineWidget('vocabulary-map', VocabularyMap);
