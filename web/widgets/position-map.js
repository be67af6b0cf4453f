// <ew-position-map>: how alike the position lists are, place by place: the
// context × context cosine map of the position table,
// model.cosineMatrix(model.wpe), and beside it, on the same colour scale,
// the map of the fixed sine and cosine waves the original transformer used
// (Vaswani et al., 2017) for as many places and numbers. Places count from
// 1, as the chapter does: place i is row i − 1 of a table. A model without
// a position table (rotary positions) gets the map of how a turned
// vector's similarity depends on the distance between two places.
//
//   <ew-position-map src="model/" place="2" other="3"></ew-position-map>
import { ModelWidget } from './parts/model-widget.js';
import { el } from './parts/dom.js';
import { settableAttributes } from './parts/attributes.js';
import { HeatGrid } from './parts/heat-grid.js';
import { legend, tableImage } from './parts/color.js';
import { int, num } from './parts/format.js';
import { Matrix, cosineMatrix } from '../index.js';
import { installFigures } from './parts/figure-control.js';
import { defineWidget } from './parts/definitions.js';
import { cssPixelContext, watchCanvas } from './parts/canvas.js';

/** What the widgets say of a model whose positions are not a learned table. */
export const NO_POSITION_TABLE = 'This model has no position table: it uses rotary positions, which turn each token’s ' +
  'numbers by an angle that grows with its place inside attention, rather than adding a learned list per place. ' +
  'So there is no position map to show.';

const maps = new WeakMap();
/** The position map of a model, computed once. */
export function positionMap(model) {
  let map = maps.get(model);
  if (!map) {
    map = model.cosineMatrix(model.wpe);
    maps.set(model, map);
  }
  return map;
}

/** The wave length base of the original transformer (Vaswani et al., 2017). */
export const SINUSOID_BASE = 10000;
/** RoPE's base where config.json names none: Su et al. (2021) and Llama 1 and 2 use 10,000. */
export const DEFAULT_ROPE_THETA = 10000;
/** Places the rotary map shows (their similarity depends only on the distance). */
export const ROTARY_PLACES = 128;

/**
 * The original transformer's position table: `places` rows of `width`
 * numbers, PE(pos, 2i) = sin(pos / base^(2i / width)), PE(pos, 2i + 1) =
 * cos(pos / base^(2i / width)), pos counted from 0 (place pos + 1).
 */
export function sinusoidTable(places, width, base = SINUSOID_BASE) {
  const data = new Float32Array(places * width);
  for (let pos = 0; pos < places; pos++) {
    for (let k = 0; k < width; k++) {
      const angle = pos / base ** ((2 * Math.floor(k / 2)) / width);
      data[pos * width + k] = k % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
  }
  return new Matrix(data, places, width, { name: 'sinusoidal positions' });
}

const waveMaps = new WeakMap();
/**
 * The cosine map of the sine and cosine table as wide and as long as a
 * model's position table (128 places for a model without one), by the kernels.
 */
export function sinusoidMap(model) {
  let entry = waveMaps.get(model);
  if (!entry) {
    const table = sinusoidTable(model.hasPositionTable ? model.context : ROTARY_PLACES, model.width);
    entry = { table, map: cosineMatrix(table) };
    waveMaps.set(model, entry);
  }
  return entry;
}

/**
 * A model's rotary positions as the page draws them: the base (config.json's
 * rope_theta, else DEFAULT_ROPE_THETA), the numbers of a head that turn
 * (head_dim, or width / heads, times the rotary share), and which of them
 * are defaults rather than the config's.
 */
export function rotaryOf(model) {
  const { ropeTheta, headSize, rotaryShare, heads } = model.config;
  const head = headSize ?? (heads ? model.width / heads : undefined);
  const defaults = [];
  if (ropeTheta === undefined) defaults.push(`base ${int(DEFAULT_ROPE_THETA)}`);
  if (head === undefined) defaults.push('the whole row as one head');
  const turned = Math.max(2, 2 * Math.floor(((head ?? model.width) * (rotaryShare ?? 1)) / 2));
  return { theta: ropeTheta ?? DEFAULT_ROPE_THETA, head: head ?? model.width, dims: turned, defaults };
}

/**
 * How alike the same vector is to itself turned for two places `distance`
 * apart, its numbers spread evenly over the dims / 2 pairs that turn: the
 * mean over pairs of cos(distance · theta^(−2i / dims)). (Turned for places m
 * and n, pair i's angles differ by (m − n) · theta^(−2i / dims).)
 */
export function rotarySimilarity(distance, dims, theta) {
  let sum = 0;
  const pairs = dims / 2;
  for (let i = 0; i < pairs; i++) sum += Math.cos(distance * theta ** ((-2 * i) / dims));
  return sum / pairs;
}

/** The places × places map of rotarySimilarity(|m − n|). */
export function rotaryMap(places, dims, theta) {
  const byDistance = Float32Array.from({ length: places }, (_, d) => rotarySimilarity(d, dims, theta));
  const data = new Float32Array(places * places);
  for (let m = 0; m < places; m++) for (let n = 0; n < places; n++) data[m * places + n] = byDistance[Math.abs(m - n)];
  return new Matrix(data, places, places, { name: 'rotary similarity by distance' });
}

function ticks(n) {
  const out = new Set([0, n - 1]);
  const step = n >= 96 ? 32 : n >= 24 ? 8 : n >= 8 ? 4 : 1;
  for (let place = step; place < n; place += step) out.add(place - 1);
  return [...out].sort((a, b) => a - b);
}

/** A square map of places as a HeatGrid, with the chapter's labels. */
function placeGrid({ map, label, describe, onSelect }) {
  const n = map.rows;
  return new HeatGrid({
    rows: n,
    cols: n,
    image: tableImage(map.data, n, n, 1),
    square: true,
    value: (r, c) => map.data[r * n + c],
    describe,
    rowLabel: (r) => String(r + 1),
    colLabel: (c) => String(c + 1),
    loupeRowLabel: (r) => `place ${r + 1}`,
    loupeColLabel: (c) => `${c + 1}`,
    limit: 1,
    // Cosines of places, to 2 decimals as the map's readout and the chapter write them.
    digits: 2,
    rowTicks: ticks(n),
    colTicks: ticks(n),
    label,
    prompt: 'Tap or click a cell, or focus the map and use the arrow keys, to compare two places.',
    onSelect,
  });
}

export class PositionMap extends ModelWidget {
  build() {
    this.summary = el('p', { className: 'ew-summary' });
    this.gridHost = el('div', { className: 'ew-grid-host ew-map-host' });
    this.learnedTitle = el('h4', { textContent: 'Learned by this model' });
    this.wavesTitle = el('h4', { textContent: 'Sine and cosine waves' });
    this.wavesHost = el('div', { className: 'ew-grid-host ew-map-host' });
    this.wavesNote = el('p', { className: 'ew-help' });
    this.wavesPicture = el('div', { className: 'ew-waves-picture' });
    this.wavesColumn = el('div', { className: 'ew-position-column' }, this.wavesTitle, this.wavesHost);
    this.maps = el('div', { className: 'ew-position-maps' },
      el('div', { className: 'ew-position-column' }, this.learnedTitle, this.gridHost), this.wavesColumn);
    this.wavesDetails = el('div', { className: 'ew-waves-details' }, this.wavesNote, this.wavesPicture);
    this.scores = el('div', { className: 'ew-position-scores', 'aria-live': 'polite' });
    this.profile = el('canvas', { className: 'ew-profile', 'aria-hidden': 'true' });
    this.profileText = el('p', { className: 'ew-profile-text' });
    this.legendHost = el('div');
    this.append(this.summary, this.maps, this.legendHost, this.scores, this.profileText, this.profile, this.wavesDetails);
    watchCanvas(this.profile, () => this.#drawProfile());
  }

  show(model) {
    this.profile.hidden = false;
    this.legendHost.replaceChildren(legend(1, { label: 'Colours of the position maps', digits: 0 }));
    if (!model.hasPositionTable) return this.#showRotary(model);
    const n = model.context;
    const map = positionMap(model);
    this.map = map;
    this.rotary = undefined;
    // The waves beside the learned map where the page asks for them (the chapter does; the training slider's maps do not).
    const withWaves = this.hasAttribute('waves');
    const waves = withWaves ? sinusoidMap(model) : undefined;
    this.wavesMap = waves?.map;
    this.summary.textContent = `${int(n)} places, so the model reads at most ${int(n)} tokens at a time. ` +
      'Each cell is the cosine similarity of two places’ lists: 1 means they point the same way.' +
      (withWaves ? ` With it, on the same colours, the map of the fixed waves of the original transformer for ${int(n)} places of ${int(model.width)} numbers.` : '');
    this.learnedTitle.textContent = 'Learned by this model';
    this.learnedTitle.hidden = !withWaves;
    this.wavesColumn.hidden = !withWaves;
    this.wavesDetails.hidden = !withWaves;
    this.maps.classList.toggle('ew-position-pair', withWaves);
    const describe = (what, table) => (r, c, v) => `${what}${what ? 'places' : 'Places'} ${r + 1} and ${c + 1} (rows ${r} and ${c} of ${table}): cosine ${num(v, 2)}`;
    // A map of the same size takes the new numbers (the training slider moves through snapshots); another is built anew.
    if (this.grid && this.gridKind === 'learned' && this.grid.rows === n) {
      this.grid.setImage(tableImage(map.data, n, n, 1), (r, c) => this.map.data[r * n + c]);
    } else {
      this.grid = placeGrid({
        map,
        label: `Position map: cosine similarity between the lists of places 1 to ${n}`,
        describe: describe('', 'the position table'),
        onSelect: (r, c) => this.#select(r, c, 'learned'),
      });
      this.gridKind = 'learned';
      this.gridHost.replaceChildren(this.grid.element);
      this.grid.layout();
    }
    if (withWaves) {
      this.wavesNote.textContent = 'The waves, as the original transformer has them (Vaswani et al., 2017): row pos (place pos + 1), ' +
        `numbers 2i and 2i + 1 are the sine and the cosine of pos ÷ ${int(SINUSOID_BASE)}^(2i ÷ ${int(model.width)}). ` +
        'Nothing is learned: each pair of numbers is a wave, slower from left to right, and the map above is their cosine, place by place.';
      const picture = tableImage(waves.table.data, n, model.width, 1);
      picture.className = 'ew-waves-table';
      picture.style.aspectRatio = `${model.width} / ${n}`;
      picture.setAttribute('role', 'img');
      picture.setAttribute('aria-label', `The sine and cosine table: ${int(n)} places (rows) × ${int(model.width)} numbers (columns)`);
      this.wavesPicture.replaceChildren(picture);
      this.wavesGrid = placeGrid({
        map: waves.map,
        label: `The sine and cosine waves' map: cosine similarity between places 1 to ${n}`,
        describe: describe('Waves: ', 'the waves’ table'),
        onSelect: (r, c) => this.#select(r, c, 'waves'),
      });
      this.wavesHost.replaceChildren(this.wavesGrid.element);
      this.wavesGrid.layout();
    } else {
      this.wavesGrid = undefined;
      this.wavesHost.replaceChildren();
    }
    if (this.grid.cursor) return this.#select(this.grid.cursor.r, this.grid.cursor.c, 'learned');
    const place = this.#place('place', 2), other = this.#place('other', 3);
    this.grid.select(place - 1, other - 1, { scroll: false });
  }

  /** Rotary positions: no list per place, but a similarity that depends on the distance alone. */
  #showRotary(model) {
    const rotary = rotaryOf(model);
    this.rotary = rotary;
    const n = Math.min(ROTARY_PLACES, model.context || ROTARY_PLACES);
    const map = rotaryMap(n, rotary.dims, rotary.theta);
    this.map = map;
    this.wavesMap = undefined;
    this.wavesGrid = undefined;
    this.wavesColumn.hidden = true;
    this.wavesDetails.hidden = true;
    this.wavesHost.replaceChildren();
    const stated = rotary.defaults.length ? ` (config.json does not say; this map takes ${rotary.defaults.join(' and ')})` : '';
    this.summary.textContent = 'This model has no position table: it uses rotary positions (RoPE), which turn each pair of a ' +
      'head’s numbers by an angle that grows with the place, inside attention, rather than adding a learned list per place. ' +
      `So two places are alike by how far apart they are, not by where they are. The map shows it for the first ${int(n)} places: ` +
      `the cosine of a vector turned for each of two places, its numbers spread evenly over the ${int(rotary.dims / 2)} pairs that turn in a head of ` +
      `${int(rotary.head)}, with base ${int(rotary.theta)}${stated}. Every diagonal has one colour: only the distance counts.`;
    this.learnedTitle.textContent = `Rotary positions: similarity by distance (base ${int(rotary.theta)}, ${int(rotary.dims)} numbers turn)`;
    this.grid = placeGrid({
      map,
      label: `Rotary positions: how alike a turned vector is at places 1 to ${n}`,
      describe: (r, c, v) => `Places ${r + 1} and ${c + 1}, ${Math.abs(r - c)} apart: cosine ${num(v, 2)}`,
      onSelect: (r, c) => this.#select(r, c, 'learned'),
    });
    this.gridKind = 'rotary';
    this.maps.classList.remove('ew-position-pair');
    this.learnedTitle.hidden = false;
    this.gridHost.replaceChildren(this.grid.element);
    this.grid.layout();
    const place = this.#place('place', 2, n), other = this.#place('other', 3, n);
    this.grid.select(place - 1, other - 1, { scroll: false });
  }

  #place(name, fallback, n = this.model.context) {
    const value = Number(this.getAttribute(name) ?? fallback);
    return Number.isInteger(value) && value >= 1 && value <= n ? value : Math.min(fallback, n);
  }

  /** The sine and cosine waves' map shown beside the learned one (the `waves` attribute), once shown. */
  get waves() {
    return this.wavesMap;
  }

  /** Compares two places (counted from 1), in every map shown. */
  compare(place, other) {
    if (!this.map || !Number.isFinite(place) || !Number.isFinite(other)) return;
    this.grid?.select(place - 1, other - 1);
  }

  /** The two places compared now (counted from 1), once shown. */
  get places() {
    return this.selected ? [this.selected.r + 1, this.selected.c + 1] : undefined;
  }

  #select(r, c, from) {
    // The other map's answer to this very choice: the choice is said once, below.
    const echo = Boolean(this.syncing);
    this.selected = { r, c };
    // The other map follows, without calling back.
    if (!this.syncing) {
      this.syncing = true;
      try {
        if (from === 'learned') this.wavesGrid?.select(r, c, { scroll: false });
        else this.grid?.select(r, c, { scroll: false });
      } finally {
        this.syncing = false;
      }
    }
    const n = this.map.rows;
    const row = this.map.data.subarray(r * n, (r + 1) * n);
    let best = -1, worst = -1;
    for (let j = 0; j < n; j++) {
      if (j === r) continue;
      if (best < 0 || row[j] > row[best]) best = j;
      if (worst < 0 || row[j] < row[worst]) worst = j;
    }
    const what = this.rotary ? 'In this model’s rotary map, place' : 'Place';
    this.profileText.textContent = n > 1
      ? `${what} ${r + 1} is most like place ${best + 1} (${num(row[best], 2)}) and least like place ${worst + 1} (${num(row[worst], 2)}). ` +
        `The line below is its row of the map${this.wavesMap ? '; the dashed line, the waves’' : ''}.`
      : '';
    this.#scores(r, c);
    this.#drawProfile();
    if (!echo) this.dispatchEvent(new CustomEvent('ew-change', { bubbles: true, detail: { place: r + 1, other: c + 1 } }));
  }

  /** The chapter's two pairs, and the pair chosen, scored in each map (beside the waves, or of rotary positions). */
  #scores(r, c) {
    this.scores.hidden = !(this.wavesMap || this.rotary);
    if (this.scores.hidden) return;
    const n = this.map.rows;
    const pairs = [[2, 3], [2, 51], [r + 1, c + 1]].filter(([p, q], i, all) => p <= n && q <= n &&
      all.findIndex(([x, y]) => x === p && y === q) === i);
    const at = (map, p, q) => num(map.data[(p - 1) * n + (q - 1)], 2);
    const columns = this.rotary ? ['Places', 'Rotary (by distance)'] : ['Places', 'Learned', 'Sine and cosine waves'];
    const table = el('table', { className: 'ew-position-table' },
      el('caption', { textContent: this.rotary ? 'Two places scored' : 'Two places scored in both maps' }),
      el('thead', {}, el('tr', {}, ...columns.map((text) => el('th', { scope: 'col', textContent: text })))),
      el('tbody', {}, ...pairs.map(([p, q]) => el('tr', {},
        el('th', { scope: 'row', textContent: `${p} and ${q}` }),
        el('td', { textContent: at(this.map, p, q) }),
        ...(this.wavesMap ? [el('td', { textContent: at(this.wavesMap, p, q) })] : [])))));
    this.scores.replaceChildren(table);
  }

  #drawProfile() {
    const canvas = this.profile;
    if (!this.map || !this.selected) return;
    const { context, width, height } = cssPixelContext(canvas, 300, 90);
    if (!context) return;
    const style = getComputedStyle(this);
    this.drawProfileInto(context, width, height, { ink: style.color || '#222', font: style.fontFamily || 'sans-serif' });
  }

  /**
   * The selected place's row of the map as a line (the waves' dashed), on
   * any 2D context `width` × `height` CSS px: the canvas's, or a figure's.
   */
  drawProfileInto(context, width, height, { ink, font }) {
    const n = this.map.rows, { r, c } = this.selected;
    const row = this.map.data.subarray(r * n, (r + 1) * n);
    const left = 30, right = 8, top = 6, bottom = 16;
    const x = (j) => left + (n > 1 ? (j / (n - 1)) * (width - left - right) : 0);
    const y = (v) => top + ((1 - v) / 2) * (height - top - bottom);
    context.clearRect(0, 0, width, height);
    context.font = `12px ${font}`;
    context.fillStyle = ink;
    context.strokeStyle = ink;
    context.globalAlpha = 0.35;
    context.lineWidth = 1;
    for (const v of [1, 0, -1]) {
      context.beginPath();
      context.moveTo(left, y(v));
      context.lineTo(width - right, y(v));
      context.stroke();
    }
    context.globalAlpha = 1;
    context.textAlign = 'right';
    context.textBaseline = 'middle';
    for (const v of [1, 0, -1]) context.fillText(v === -1 ? '\u22121' : String(v), left - 4, y(v));
    context.textAlign = 'center';
    context.textBaseline = 'alphabetic';
    // Each tick's number kept whole inside the canvas (the last one, 128, would lose its last digit).
    for (const j of ticks(n)) {
      const text = String(j + 1), half = context.measureText(text).width / 2;
      context.fillText(text, Math.min(width - half - 1, Math.max(half + 1, x(j))), height - 3);
    }
    context.lineWidth = 2;
    const line = (values) => {
      context.beginPath();
      for (let j = 0; j < n; j++) {
        if (j === 0) context.moveTo(x(j), y(values[j]));
        else context.lineTo(x(j), y(values[j]));
      }
      context.stroke();
    };
    line(row);
    if (this.wavesMap) {
      context.setLineDash([5, 4]);
      context.globalAlpha = 0.7;
      line(this.wavesMap.data.subarray(r * n, (r + 1) * n));
      context.setLineDash([]);
      context.globalAlpha = 1;
    }
    // The compared place: a ring on the line.
    context.beginPath();
    context.arc(x(c), y(row[c]), 4.5, 0, Math.PI * 2);
    context.lineWidth = 2;
    context.stroke();
  }
}

// Its figures for a book: element.figure({ format, which }) and a control under it.
installFigures(PositionMap, {
  names: (map) => [...(map.grid ? ['position-map'] : []), ...(map.wavesGrid ? ['waves-map'] : []), ...(map.selected ? ['place-line'] : [])],
  load: () => import('./parts/figure-grids.js'),
});

settableAttributes(PositionMap, ['waves']);
defineWidget('ew-position-map', PositionMap);
