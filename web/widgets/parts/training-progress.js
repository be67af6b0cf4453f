// The parts of <ew-training-slider> that show learning as it happens: the map
// of the token table at each snapshot (points moving from one snapshot's
// layout to the next), the training loss curve with the slider's step
// marked, and the figures of a pair of words across the snapshots.
//
// The slider aligns each snapshot's map (model.map()'s UMAP of its token
// table) to the map of the snapshot after it with alignMap() (rotation or
// reflection, scale, shift), so that between two snapshots the points move
// only as far as their neighbourhoods changed, and the motion is seen.
import { cosine, rowView } from '../../index.js';
import { el } from './dom.js';
import { yieldToEventLoop } from '../../src/event-loop.js';
import { int, num } from './format.js';
import { VOCABULARY_GROUPS, drawShape } from './vocabulary-groups.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Milliseconds for the points to travel from one snapshot's map to the next. */
const TRAVEL_MS = 700;
/** Every SAMPLE_EVERY-th token, for the typical distance between two tokens on a map. */
const SAMPLE_EVERY = 16;

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  element.append(...children);
  return element;
}

/** "1st", "2nd", "3rd", "11th", "42nd". */
export function ordinal(n) {
  const tens = n % 100, ones = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ones === 1 ? 'st' : ones === 2 ? 'nd' : ones === 3 ? 'rd' : 'th';
  return `${int(n)}${suffix}`;
}

/**
 * The figures of `word` and `other` in one snapshot's token table: their
 * cosine, and `other`'s rank among `word`'s closest tokens by cosine
 * (1 = the closest; the word itself and unused tokens not counted).
 */
export function pairFigures(snapshot, word, other) {
  const a = snapshot.tokenId(word), b = snapshot.tokenId(other);
  const similarity = cosine(rowView(snapshot.wte, a), rowView(snapshot.wte, b));
  const ranked = snapshot.nearest(a, snapshot.vocabSize - 1);
  const rank = ranked.findIndex((n) => n.id === b) + 1;
  return { cosine: similarity, rank };
}

/**
 * What a map shows of a group and a pair: the mean distance between the
 * group's points as a share of the mean distance between two tokens (every
 * SAMPLE_EVERY-th), and `b`'s rank among the points closest to `a`.
 */
export function mapFigures(map, groupIdsList, a, b) {
  const p = map.data;
  const meanDistance = (ids) => {
    let sum = 0, count = 0;
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        sum += Math.hypot(p[2 * ids[i]] - p[2 * ids[j]], p[2 * ids[i] + 1] - p[2 * ids[j] + 1]);
        count += 1;
      }
    }
    return sum / count;
  };
  const sample = Array.from({ length: Math.ceil(map.rows / SAMPLE_EVERY) }, (_, k) => k * SAMPLE_EVERY);
  const spread = meanDistance(groupIdsList) / meanDistance(sample);
  const distanceTo = (id) => Math.hypot(p[2 * id] - p[2 * a], p[2 * id + 1] - p[2 * a + 1]);
  const toB = distanceTo(b);
  let closer = 0;
  for (let id = 0; id < map.rows; id++) if (id !== a && id !== b && distanceTo(id) < toB) closer += 1;
  return { spread, mapRank: closer + 1 };
}

/** The loss curve: training loss (a line), validation loss (dots), the snapshots, and the shown step. */
export class LossCurve {
  constructor() {
    this.element = el('figure', { className: 'ew-curve' });
    this.caption = el('figcaption', { className: 'ew-muted' });
    this.note = el('p', { className: 'ew-note' });
    this.element.append(this.note, this.caption);
  }

  /** Draws `curve` (training-curve.json) with the snapshots (index.json's entries) marked; `vocabSize` for the caption, if known. */
  draw(curve, snapshots, vocabSize) {
    const column = (part, name) => curve.columns[part].indexOf(name);
    const points = (part) => curve[part].map((row) => ({ step: row[column(part, 'step')], loss: row[column(part, 'loss')] }));
    const train = points('train'), val = points('val');
    const all = [...train, ...val];
    const lastStep = Math.max(...all.map((p) => p.step), ...snapshots.map((s) => s.step));
    const low = Math.floor(Math.min(...all.map((p) => p.loss))), high = Math.ceil(Math.max(...all.map((p) => p.loss)));
    const [width, height, left, right, top, bottom] = [360, 190, 34, 10, 10, 34];
    // Steps on a log scale (of step + 1, so step 0 has a place): training changes most early on.
    this.x = (step) => left + (Math.log10(step + 1) / Math.log10(lastStep + 1)) * (width - left - right);
    this.y = (loss) => top + ((high - loss) / (high - low)) * (height - top - bottom);
    const axis = svg('g', { class: 'ew-curve-axis' });
    for (let loss = low; loss <= high; loss += high - low > 4 ? 2 : 1) {
      axis.append(svg('line', { x1: left, x2: width - right, y1: this.y(loss), y2: this.y(loss) }),
        svg('text', { x: left - 6, y: this.y(loss) + 4, 'text-anchor': 'end' }, String(loss)));
    }
    for (let step = 1; step <= lastStep; step *= 10) {
      axis.append(svg('text', { x: this.x(step), y: height - bottom + 16, 'text-anchor': 'middle' }, int(step)));
    }
    axis.append(svg('text', { x: (left + width - right) / 2, y: height - 4, 'text-anchor': 'middle' }, 'training step (log scale)'),
      svg('text', { x: 4, y: top + 2, 'text-anchor': 'start', 'dominant-baseline': 'hanging', transform: `rotate(-90 4 ${top + 2}) translate(-60 0)` }, 'loss'));
    const line = svg('polyline', { class: 'ew-curve-train', points: train.map((p) => `${this.x(p.step).toFixed(1)},${this.y(p.loss).toFixed(1)}`).join(' ') });
    const dots = svg('g', { class: 'ew-curve-val' }, ...val.map((p) => svg('circle', { cx: this.x(p.step), cy: this.y(p.loss), r: 2.5 })));
    const marks = svg('g', { class: 'ew-curve-snapshots' },
      ...snapshots.map((s) => svg('line', { x1: this.x(s.step), x2: this.x(s.step), y1: height - bottom, y2: height - bottom + 5 })));
    this.marker = svg('g', { class: 'ew-curve-marker' });
    this.svg = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', class: 'ew-curve-plot' },
      svg('title', {}, 'Loss during training'), axis, line, dots, marks, this.marker);
    this.svg.setAttribute('aria-label', `Loss during training, from ${num(val[0]?.loss ?? train[0].loss, 2)} to ${num(curve.summary?.final_val_loss ?? val[val.length - 1].loss, 2)} (validation) over ${int(lastStep)} steps; the table below gives each snapshot's figures`);
    this.element.replaceChildren(this.svg, this.note, this.caption);
    // A uniform guess among n tokens scores ln n: where a model starts.
    const guess = vocabSize ? ` ${num(Math.log(vocabSize), 1)} is a uniform guess among the ${int(vocabSize)} tokens.` : '';
    this.caption.textContent = `Line: training loss (mean of each 50 steps); dots: validation loss; ticks: the snapshots. Lower is better.${guess}`;
  }

  /** Marks the step of snapshot `entry` (its validation loss where the index gives one). */
  mark(entry) {
    if (!this.svg) return;
    const x = this.x(entry.step);
    const loss = entry.val_loss ?? entry.train_loss;
    this.marker.replaceChildren(svg('line', { x1: x, x2: x, y1: 6, y2: 156 }),
      ...(loss === null || loss === undefined ? [] : [svg('circle', { cx: x, cy: this.y(loss), r: 5 })]));
    this.marker.setAttribute('data-step', String(entry.step));
  }

  /** Says why there is no curve. */
  fail(message) {
    this.element.replaceChildren(this.note);
    this.note.textContent = message;
  }
}

/** The map at each snapshot, its points travelling from one snapshot's layout to the next. */
export class LearningMap {
  constructor() {
    this.canvas = el('canvas', { className: 'ew-learn-canvas', role: 'img', 'aria-label': 'Map of the token table at this step' });
    this.words = el('p', { className: 'ew-summary', 'aria-live': 'polite' });
    this.status = el('p', { className: 'ew-note', role: 'status' });
    this.legend = el('ul', { className: 'ew-learn-legend', 'aria-label': 'Marked on the map' });
    this.element = el('div', { className: 'ew-learn' }, this.status, this.canvas, this.legend, this.words);
    /** The aligned map of each snapshot (index → Matrix), once computed. */
    this.layouts = [];
    this.frames = 0;
    this.shown = undefined;   // index of the snapshot whose layout is drawn once the points stop
    this.positions = undefined;
    this.bounds = undefined;
    this.reducedMotion = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    /** Who waits for a snapshot's layout to be shown: [{ index, resolve }]. */
    this.waiting = [];
    // The first size report comes inside the frame that laid the map out:
    // its first picture (its colours read, which restyles the page, and its
    // points) is drawn in a task of its own after that frame, not in it.
    let sized = false;
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => (sized ? this.draw() : yieldToEventLoop().then(() => { sized = true; this.draw(); }))).observe(this.canvas);
    }
    // Light or dark as the reader's system is (the widgets' custom properties).
    const dark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
    dark?.addEventListener?.('change', () => { this.colours = undefined; this.draw(); });
  }

  /**
   * What the canvas shows now, as data-showing says: 'layout' (a
   * snapshot's UMAP), 'pca' (a quick map of a snapshot whose UMAP is being
   * laid out) or 'waiting' (the snapshot is not in yet: the last picture
   * is dimmed, never passed off as this step's).
   */
  set showing(what) {
    this.canvas.dataset.showing = what;
    this.canvas.classList.toggle('ew-learn-waiting', what === 'waiting');
  }

  get showing() {
    return this.canvas.dataset.showing;
  }

  /** Resolves once snapshot `index`'s own map is shown, its points come to rest. */
  whenShown(index) {
    if (this.shown === index && this.canvas.dataset.moving !== 'true') return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ index, resolve }));
  }

  /** Dims the picture until snapshot `index` has a map to show. */
  wait(index) {
    cancelAnimationFrame(this.animation);
    this.showing = 'waiting';
    this.canvas.dataset.step = String(index);
  }

  /** Shows a quick map of snapshot `index` (its PCA, aligned to the nearest map) while its UMAP is laid out. */
  showProvisional(index, map) {
    cancelAnimationFrame(this.animation);
    this.positions = Float32Array.from(map.data);
    this.bounds = boundsOf(this.positions);
    this.target = index;
    this.shown = undefined;
    this.showing = 'pca';
    this.canvas.dataset.step = String(index);
    this.canvas.dataset.moving = 'false';
    this.draw();
  }

  /** The groups to mark (VOCABULARY_GROUPS's keys → ids) and the pair of words to label. */
  setMarks(groups, labelled) {
    this.groups = groups;
    this.labelled = labelled;  // [{ id, text }]
    this.legend.replaceChildren(...VOCABULARY_GROUPS.filter((g) => groups[g.key]?.length).map((group) => {
      const swatch = el('canvas', { width: 16, height: 16, className: 'ew-learn-swatch', 'aria-hidden': 'true' });
      const c = swatch.getContext('2d');
      if (c) { c.fillStyle = group.colour; drawShape(c, group.shape, 8, 8, 5); c.fill(); }
      return el('li', {}, swatch, ` ${group.label}`);
    }));
  }

  /**
   * The points on a path through layouts (each x, y pairs of every token)
   * at t from 0 to 1: straight from each layout to the next, the bounds too.
   */
  positionsAt(path, t) {
    const legs = path.length - 1;
    const along = Math.min(legs, Math.max(0, t * legs));
    const leg = Math.min(Math.max(legs - 1, 0), Math.floor(along)), part = legs ? along - leg : 0;
    const a = path[leg], b = path[Math.min(leg + 1, legs)];
    const positions = new Float32Array(a.length);
    for (let k = 0; k < a.length; k++) positions[k] = a[k] + (b[k] - a[k]) * part;
    const ba = boundsOf(a), bb = boundsOf(b);
    return { positions, bounds: ba.map((v, k) => v + (bb[k] - v) * part) };
  }

  /**
   * Shows snapshot `to`'s layout: the points travel there from where they
   * are (snapshot `from`'s layout, or part way to it), through the layouts
   * of the snapshots between, so that each leg is one snapshot to the next.
   */
  travel(from, to) {
    cancelAnimationFrame(this.animation);
    if (!this.layouts[to]) return;
    const path = [];
    if (this.positions && from !== undefined && !this.reducedMotion) {
      path.push(this.positions);
      const step = Math.sign(to - from);
      if (step) for (let i = from + step; i !== to; i += step) if (this.layouts[i]) path.push(this.layouts[i].data);
    }
    path.push(this.layouts[to].data);
    const duration = TRAVEL_MS * Math.min(2, path.length - 1);
    const start = performance.now();
    this.showing = 'layout';
    this.canvas.dataset.step = String(to);
    this.canvas.dataset.moving = String(path.length > 1);
    const frame = (time) => {
      const t = duration ? Math.min(1, Math.max(0, (time - start) / duration)) : 1;
      // Ease in and out, so the points set off and arrive gently.
      const eased = t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) ** 2;
      ({ positions: this.positions, bounds: this.bounds } = this.positionsAt(path, eased));
      this.frames += 1;
      this.draw();
      if (t < 1) this.animation = requestAnimationFrame(frame);
      else {
        this.shown = to;
        this.canvas.dataset.shown = String(to);
        this.canvas.dataset.moving = 'false';
        for (const waiter of this.waiting) if (waiter.index === to) waiter.resolve();
        this.waiting = this.waiting.filter((waiter) => waiter.index !== to);
      }
    };
    this.animation = requestAnimationFrame(frame);
  }

  draw() {
    const { canvas } = this;
    const width = canvas.clientWidth;
    if (!width) return;
    const height = Math.round(Math.min(width, 420) * 0.85);
    const ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.height = `${height}px`;
    }
    const c = canvas.getContext('2d');
    if (!c) return;
    if (!this.colours) {
      const style = getComputedStyle(canvas);
      const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
      this.colours = { ink: read('--ew-ink', '#1d1d1f'), bg: read('--ew-bg', '#ffffff'), muted: read('--ew-muted', '#5c5c66') };
    }
    c.setTransform(ratio, 0, 0, ratio, 0, 0);
    this.drawInto(c, width, height, this.colours);
  }

  /** The size of the picture the canvas shows, in CSS pixels: { width, height }. */
  get pictureSize() {
    const width = this.canvas.clientWidth;
    return { width, height: Math.round(Math.min(width, 420) * 0.85) };
  }

  /**
   * The points as the canvas shows them now, on any 2D context `width` ×
   * `height` CSS px: the canvas's, or a figure's, in `colours` ({ ink, bg, muted }).
   */
  drawInto(c, width, height, { ink, bg, muted }) {
    const { positions, bounds } = this;
    c.clearRect(0, 0, width, height);
    if (!positions) return;
    const pad = 14;
    const [x0, y0, x1, y1] = bounds;
    const scale = Math.min((width - 2 * pad) / (x1 - x0 || 1), (height - 2 * pad) / (y1 - y0 || 1));
    const ox = (width - scale * (x1 - x0)) / 2, oy = (height - scale * (y1 - y0)) / 2;
    const at = (id) => [ox + (positions[2 * id] - x0) * scale, oy + (y1 - positions[2 * id + 1]) * scale];
    c.fillStyle = muted;
    c.globalAlpha = 0.45;
    for (let id = 0; id < positions.length / 2; id++) {
      const [x, y] = at(id);
      c.fillRect(x - 0.9, y - 0.9, 1.8, 1.8);
    }
    c.globalAlpha = 1;
    for (const group of VOCABULARY_GROUPS) {
      c.fillStyle = group.colour;
      for (const id of this.groups?.[group.key] ?? []) {
        const [x, y] = at(id);
        drawShape(c, group.shape, x, y, 3);
        c.fill();
      }
    }
    c.font = '600 13px system-ui, sans-serif';
    c.lineWidth = 3;
    // The first label above its dot, the second below: the pair often ends up side by side.
    for (const [k, { id, text }] of (this.labelled ?? []).entries()) {
      const [x, y] = at(id);
      const dy = k === 0 ? -6 : 16;
      c.fillStyle = ink;
      c.beginPath();
      c.arc(x, y, 4, 0, 2 * Math.PI);
      c.fill();
      c.strokeStyle = bg;
      c.strokeText(text, x + 6, y + dy);
      c.fillText(text, x + 6, y + dy);
    }
  }
}

/** [xmin, ymin, xmax, ymax] of interleaved x, y pairs. */
function boundsOf(data) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let k = 0; k < data.length; k += 2) {
    if (data[k] < x0) x0 = data[k];
    if (data[k] > x1) x1 = data[k];
    if (data[k + 1] < y0) y0 = data[k + 1];
    if (data[k + 1] > y1) y1 = data[k + 1];
  }
  return [x0, y0, x1, y1];
}

/** The table of figures across the snapshots: the text alternative of the curve and the map. */
export function figuresTable(snapshots, word, other) {
  const head = el('tr', {}, ...['Step', 'Validation loss', `cos(${word}, ${other})`, `${other}'s rank among ${word}'s closest tokens`,
    'Colour words\' spread on the map'].map((text) => el('th', { scope: 'col', textContent: text })));
  // Pending until the slider has laid out the step's map (its figures are '…' until then).
  const rows = snapshots.map((entry) => el('tr', { 'data-step': String(entry.step), className: 'ew-pending' },
    el('th', { scope: 'row', textContent: int(entry.step) }),
    el('td', { textContent: entry.val_loss === null || entry.val_loss === undefined ? '—' : num(entry.val_loss, 2) }),
    el('td', { textContent: '…' }), el('td', { textContent: '…' }), el('td', { textContent: '…' })));
  const table = el('table', { className: 'ew-learn-table' },
    el('caption', { textContent: `How ${word} and ${other}, and the colour words, change during training (spread: the colour words' mean distance on the map as a share of two tokens' mean distance; lower is closer together)` }),
    el('thead', {}, head), el('tbody', {}, ...rows));
  return { table, rows };
}
