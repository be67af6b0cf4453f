// <position-map>: how alike the position lists are, place by place: the
// context × context cosine map of the position table,
// model.cosineMatrix(model.wpe). Places count from 1, as the chapter does:
// place i is row i − 1 of the table.
//
//   <position-map src="model/" place="2" other="3"></position-map>
import { ModelWidget, el } from './parts/base.js';
import { HeatGrid } from './parts/heat-grid.js';
import { legend, tableImage } from './parts/color.js';
import { int, num } from './parts/format.js';
import { defineWidget } from './parts/definitions.js';

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

function ticks(n) {
  const out = new Set([0, n - 1]);
  const step = n >= 96 ? 32 : n >= 24 ? 8 : n >= 8 ? 4 : 1;
  for (let place = step; place < n; place += step) out.add(place - 1);
  return [...out].sort((a, b) => a - b);
}

export class PositionMap extends ModelWidget {
  build() {
    this.summary = el('p', { className: 'ew-summary' });
    this.gridHost = el('div', { className: 'ew-grid-host ew-map-host' });
    this.profile = el('canvas', { className: 'ew-profile', 'aria-hidden': 'true' });
    this.profileText = el('p', { className: 'ew-profile-text' });
    this.legendHost = el('div');
    this.append(this.summary, this.gridHost, this.legendHost, this.profileText, this.profile);
    this.resizeObserver = new ResizeObserver(() => this.#drawProfile());
    this.resizeObserver.observe(this.profile);
  }

  show(model) {
    if (!model.hasPositionTable) {
      // Rotary positions turn the numbers inside attention: there is no list per place to compare.
      this.summary.textContent = NO_POSITION_TABLE;
      this.map = undefined;
      this.grid = undefined;
      this.gridHost.replaceChildren();
      this.legendHost.replaceChildren();
      this.profileText.textContent = '';
      this.profile.hidden = true;
      return;
    }
    this.profile.hidden = false;
    const n = model.context;
    const map = positionMap(model);
    this.map = map;
    const image = tableImage(map.data, n, n, 1);
    this.summary.textContent = `${int(n)} places, so the model reads at most ${int(n)} tokens at a time. ` +
      `Each cell is the cosine similarity of two places’ lists: 1 means they point the same way.`;
    if (this.grid && this.grid.rows === n) {
      this.grid.setImage(image, (r, c) => this.map.data[r * n + c]);
      if (this.grid.cursor) this.#select(this.grid.cursor.r, this.grid.cursor.c);
      return;
    }
    this.grid = new HeatGrid({
      rows: n,
      cols: n,
      image,
      square: true,
      value: (r, c) => this.map.data[r * n + c],
      describe: (r, c, v) => `Places ${r + 1} and ${c + 1} (rows ${r} and ${c} of the position table): cosine ${num(v, 2)}`,
      rowLabel: (r) => String(r + 1),
      colLabel: (c) => String(c + 1),
      loupeRowLabel: (r) => `place ${r + 1}`,
      loupeColLabel: (c) => `${c + 1}`,
      limit: 1,
      rowTicks: ticks(n),
      colTicks: ticks(n),
      label: `Position map: cosine similarity between the lists of places 1 to ${n}`,
      prompt: 'Tap or click a cell, or focus the map and use the arrow keys, to compare two places.',
      onSelect: (r, c) => this.#select(r, c),
    });
    this.gridHost.replaceChildren(this.grid.element);
    this.legendHost.replaceChildren(legend(1, { label: 'Colours of the position map', digits: 0 }));
    this.grid.layout();
    const place = this.#place('place', 2), other = this.#place('other', 3);
    this.grid.select(place - 1, other - 1, { scroll: false });
  }

  #place(name, fallback) {
    const n = this.model.context;
    const value = Number(this.getAttribute(name) ?? fallback);
    return Number.isInteger(value) && value >= 1 && value <= n ? value : Math.min(fallback, n);
  }

  /** Compares two places (counted from 1). */
  compare(place, other) {
    if (!this.map) return;
    this.grid?.select(place - 1, other - 1);
  }

  #select(r, c) {
    this.selected = { r, c };
    const n = this.map.rows;
    const row = this.map.data.subarray(r * n, (r + 1) * n);
    let best = -1, worst = -1;
    for (let j = 0; j < n; j++) {
      if (j === r) continue;
      if (best < 0 || row[j] > row[best]) best = j;
      if (worst < 0 || row[j] < row[worst]) worst = j;
    }
    this.profileText.textContent = n > 1
      ? `Place ${r + 1} is most like place ${best + 1} (${num(row[best], 2)}) and least like place ${worst + 1} (${num(row[worst], 2)}). The line below is its row of the map.`
      : '';
    this.#drawProfile();
  }

  #drawProfile() {
    const canvas = this.profile;
    if (!this.map || !this.selected) return;
    const width = canvas.clientWidth || 300, height = canvas.clientHeight || 90;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const context = canvas.getContext('2d');
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    const style = getComputedStyle(this);
    const ink = style.color || '#222';
    const n = this.map.rows, { r, c } = this.selected;
    const row = this.map.data.subarray(r * n, (r + 1) * n);
    const left = 30, right = 8, top = 6, bottom = 16;
    const x = (j) => left + (n > 1 ? (j / (n - 1)) * (width - left - right) : 0);
    const y = (v) => top + ((1 - v) / 2) * (height - top - bottom);
    context.clearRect(0, 0, width, height);
    context.font = `11px ${style.fontFamily || 'sans-serif'}`;
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
    context.beginPath();
    for (let j = 0; j < n; j++) {
      if (j === 0) context.moveTo(x(j), y(row[j]));
      else context.lineTo(x(j), y(row[j]));
    }
    context.stroke();
    // The compared place: a ring on the line.
    context.beginPath();
    context.arc(x(c), y(row[c]), 4.5, 0, Math.PI * 2);
    context.lineWidth = 2;
    context.stroke();
  }
}

defineWidget('position-map', PositionMap);
