// <ew-one-hot-lookup>: the chapter's "the lookup is the same as multiplying a
// one-hot vector by W_E", computed. The one-hot vector of a token (all 0 but
// a 1 at its id) times the whole token table, by the kernels
// (model.vectorTimesWte: every row multiplied, zeros included), drawn as
// its terms, row by row: each row times its number of the vector. The sum
// is checked against the token's row, number for number.
//
//   <ew-one-hot-lookup src="model/" token="Lily"></ew-one-hot-lookup>
import { rowView } from '../index.js';
import { ModelWidget } from './parts/model-widget.js';
import { el, uniqueId } from './parts/dom.js';
import { stripImage, legend, tableLimit } from './parts/color.js';
import { int, num } from './parts/format.js';
import { TokenPicker, tokenLabel } from './parts/token-picker.js';
import { installFigures } from './parts/figure-control.js';
import { defineWidget } from './parts/definitions.js';
import { cssPixelContext, watchCanvas } from './parts/canvas.js';
import { keepInView } from './parts/in-view.js';

// Rows drawn on each side of the token's: the others are counted, not drawn.
const AROUND = 2;
// A table of more numbers than this is multiplied when the reader asks, not at once.
const AUTOMATIC_NUMBERS = 1 << 24;

/** The rows the figure draws: the first, a few around the token's, the last; in order, without repeats. */
export function drawnRows(id, rows) {
  const wanted = new Set([0, rows - 1]);
  for (let r = id - AROUND; r <= id + AROUND; r++) if (r >= 0 && r < rows) wanted.add(r);
  return [...wanted].sort((a, b) => a - b);
}

export class OneHotLookup extends ModelWidget {
  static get observedAttributes() {
    return [...super.observedAttributes, 'token'];
  }

  build() {
    this.picker = new TokenPicker({ label: 'Whose one-hot vector?', placeholder: 'e.g. Lily, girl or a row id such as 665', rowIds: true, onPick: (id) => this.pick(id) });
    this.summary = el('p', { className: 'ew-summary' });
    this.bar = el('canvas', { className: 'ew-onehot-bar', 'aria-hidden': 'true' });
    this.barLabels = el('div', { className: 'ew-onehot-bar-labels', 'aria-hidden': 'true' });
    const helpId = uniqueId('ew-onehot-help');
    this.rowsBox = el('div', { className: 'ew-onehot', role: 'table', tabIndex: 0, 'aria-describedby': helpId });
    this.check = el('p', { className: 'ew-onehot-check', role: 'status', 'aria-live': 'polite' });
    this.work = el('p', { className: 'ew-help ew-onehot-work' });
    this.multiply = el('button', { type: 'button', className: 'ew-button', textContent: 'Multiply', hidden: true });
    this.multiply.addEventListener('click', () => this.#compute());
    this.legendHost = el('div');
    this.append(this.picker.element, this.summary, this.bar, this.barLabels, this.rowsBox,
      el('p', { className: 'ew-grid-help', id: helpId, textContent: 'Tap a row to move the 1 there, or focus the rows and use the up and down arrow keys.' }),
      el('div', { className: 'ew-buttons' }, this.multiply), this.check, this.work, this.legendHost);
    this.rowsBox.addEventListener('click', (event) => {
      const row = event.target.closest?.('[data-row]');
      if (!row) return;
      this.pick(Number(row.dataset.row));
      // The check of the product the tap made, often under a phone's bottom edge.
      keepInView(this.check);
    });
    this.rowsBox.addEventListener('keydown', (event) => this.#key(event));
    watchCanvas(this.bar, () => this.#drawBar());
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'token') {
      if (this.model && after) this.picker.pickText(after);
      return;
    }
    super.attributeChangedCallback(name, before, after);
  }

  show(model) {
    this.picker.setModel(model);
    this.limit = tableLimit(model);
    this.legendHost.replaceChildren(legend(this.limit, { label: 'Colours of the rows' }));
    const [first] = this.picker.resolve(this.getAttribute('token') ?? 'Lily');
    this.pick(first?.id ?? 0);
  }

  /** The rows the figure draws, in order: the first, those around the token's, the last. */
  get drawnRows() {
    return this.model && this.current !== undefined ? drawnRows(this.current, this.model.vocabSize) : [];
  }

  /** The token whose one-hot vector is multiplied (an id; not `id`, the element's own attribute). */
  get tokenId() {
    return this.current;
  }

  /** Multiplies the one-hot vector of token `id` by the table. */
  pick(id) {
    const model = this.model;
    if (!model) return;
    const rows = model.vocabSize;
    this.current = Math.max(0, Math.min(rows - 1, id));
    this.picker.show(this.current);
    this.product = undefined;
    const automatic = rows * model.width <= AUTOMATIC_NUMBERS;
    this.multiply.hidden = automatic;
    this.multiply.textContent = `Multiply: ${int(rows * model.width)} multiply-adds over the whole table`;
    if (automatic) this.#compute();
    else {
      this.#render();
      // Not multiplied yet, but another token: said as a product is (ew-change), with no result.
      this.dispatchEvent(new CustomEvent('ew-change', { bubbles: true, detail: undefined }));
    }
  }

  #compute() {
    const model = this.model;
    const oneHot = new Float32Array(model.vocabSize);
    oneHot[this.current] = 1;
    const start = performance.now();
    this.product = model.vectorTimesWte(oneHot);
    this.milliseconds = performance.now() - start;
    this.#render();
  }

  #render() {
    const model = this.model;
    const t = this.current, rows = model.vocabSize, cols = model.width;
    const label = tokenLabel(model, t);
    this.summary.textContent = `The one-hot vector of ${label} (id ${int(t)}) has ${int(rows)} numbers, one per row of W_E: ` +
      `all 0 but a 1 at place ${int(t)} (counting from 0, as rows do).`;
    const strip = (data, name) => {
      const image = stripImage(data, cols, this.limit);
      image.className = 'ew-strip ew-onehot-strip';
      image.setAttribute('aria-hidden', 'true');
      image.dataset.name = name;
      return image;
    };
    const zeros = new Float32Array(cols);
    const cell = (text, className = '') => el('span', { role: 'cell', className, textContent: text });
    const header = el('div', { role: 'row', className: 'ew-onehot-row ew-onehot-head' },
      ...['Row of W_E', 'One-hot', '× the row', '= term'].map((text) => el('span', { role: 'columnheader', textContent: text })));
    const lines = [header];
    let previous = -1;
    for (const r of drawnRows(t, rows)) {
      const skipped = r - previous - 1;
      if (skipped > 0) {
        lines.push(el('div', { role: 'row', className: 'ew-onehot-row ew-onehot-gap' },
          el('span', { role: 'cell', textContent: `⋮ ${int(skipped)} more ${skipped === 1 ? 'row' : 'rows'}, each × 0 = ${int(cols)} zeros` })));
      }
      previous = r;
      const one = r === t;
      const row = rowView(model.wte, r);
      lines.push(el('div', {
        role: 'row',
        className: `ew-onehot-row${one ? ' ew-onehot-one' : ''}`,
        'data-row': String(r),
        'aria-label': `Row ${r}, ${tokenLabel(model, r)}: times ${one ? 1 : 0}`,
      },
      el('span', { role: 'rowheader', className: 'ew-onehot-token' }, el('span', { className: 'ew-muted', textContent: `${r} ` }), el('span', { className: 'ew-token', textContent: tokenLabel(model, r) })),
      cell(one ? '1' : '0', 'ew-onehot-x'),
      el('span', { role: 'cell' }, strip(row, 'row')),
      el('span', { role: 'cell' }, strip(one ? row : zeros, 'term'))));
    }
    const product = this.product;
    lines.push(el('div', { role: 'row', className: 'ew-onehot-row ew-onehot-sum' },
      el('span', { role: 'rowheader', textContent: `Sum of all ${int(rows)} terms` }),
      cell(''), cell('computed by the kernels', 'ew-muted'),
      el('span', { role: 'cell' }, product ? strip(product, 'product') : el('span', { className: 'ew-muted', textContent: 'not multiplied yet' }))));
    this.rowsBox.replaceChildren(...lines);
    this.rowsBox.setAttribute('aria-label', `One-hot vector of ${label} times W_E, row by row`);
    this.#drawBar();

    if (!product) {
      this.check.textContent = `Press Multiply: this table is large (${int(rows)} rows of ${int(cols)}), so the product waits for you.`;
      this.work.textContent = '';
      this.result = undefined;
      return;
    }
    const row = rowView(model.wte, t);
    let equal = 0;
    for (let j = 0; j < cols; j++) if (product[j] === row[j]) equal++;
    this.result = { id: t, equal, width: cols, product: Array.from(product) };
    this.check.classList.toggle('ew-onehot-differs', equal !== cols);
    this.check.textContent = equal === cols
      ? `✓ The product is row ${int(t)} of W_E, ${label}, number for number: all ${int(cols)} of its ${int(cols)} numbers are equal ` +
        `(the first: ${num(product[0])} and ${num(row[0])}). The lookup and the product are the same.`
      : `Only ${int(equal)} of ${int(cols)} numbers equal row ${int(t)}: the table holds numbers that are not finite (0 × ∞ is not 0).`;
    this.work.textContent = `The kernels multiplied every row, ${int(rows - 1)} of them by 0 and row ${int(t)} by 1, and added them up: ` +
      `${int(rows * cols)} multiply-adds, in ${this.milliseconds < 1 ? this.milliseconds.toFixed(2) : Math.round(this.milliseconds)} ms here. ` +
      'Looking the row up reads only its own numbers: that is why the model looks it up.';
    this.dispatchEvent(new CustomEvent('ew-change', { bubbles: true, detail: this.result }));
  }

  /** The whole one-hot vector: a thin bar of one cell per row, the 1 marked. */
  #drawBar() {
    const model = this.model;
    if (!model || this.current === undefined) return;
    const rows = model.vocabSize;
    this.barLabels.replaceChildren(el('span', { textContent: '0' }),
      el('span', { textContent: `the 1 at ${int(this.current)}`, className: 'ew-onehot-bar-one' }),
      el('span', { textContent: int(rows - 1) }));
    const canvas = this.bar;
    const { context, width, height } = cssPixelContext(canvas, 300, 16);
    if (!context) return;
    const style = getComputedStyle(this);
    context.clearRect(0, 0, width, height);
    context.fillStyle = style.getPropertyValue('--ew-soft').trim() || '#f3f3f6';
    context.fillRect(0, 0, width, height);
    context.fillStyle = style.color || '#222';
    // At least 3 px wide, so the single 1 among thousands of zeros shows.
    const x = (this.current / model.vocabSize) * width;
    context.fillRect(Math.min(width - 3, Math.max(0, x - 1)), 0, Math.max(3, width / model.vocabSize), height);
  }

  #key(event) {
    if (this.current === undefined) return;
    const step = { ArrowUp: -1, ArrowDown: 1, PageUp: -16, PageDown: 16 }[event.key];
    if (event.key === 'Home') this.pick(0);
    else if (event.key === 'End') this.pick(this.model.vocabSize - 1);
    else if (step) this.pick(this.current + step);
    else return;
    event.preventDefault();
  }
}

// Its figures for a book: element.figure({ format, which }) and a control under it.
installFigures(OneHotLookup, { names: (lookup) => (lookup.current === undefined ? [] : ['one-hot-product']), load: () => import('./parts/figure-strips.js') });

defineWidget('ew-one-hot-lookup', OneHotLookup);
