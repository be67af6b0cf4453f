// <ew-dot-product>: two small vectors you can edit, their products place by
// place and the sum, computed by the module's dot(). Needs no model.
//
//   <ew-dot-product a="1 2 3" b="4 0 -1"></ew-dot-product>
import { dot } from '../src/vectors.js';
import { kernelsReady } from '../src/kernels.js';
import { el, ensureStylesheet, uniqueId } from './parts/dom.js';
import { mark } from '../src/runtime.js';
import { defineWidget } from './parts/definitions.js';
import { ElementBase } from './parts/element-base.js';

const MAX_PLACES = 8;
// The module computes in float32: numbers beyond this become Infinity.
const FLOAT32_MAX = 3.4028234663852886e38;

function parseVector(text, fallback) {
  if (text === null) return fallback;
  const numbers = text.trim().split(/[\s,]+/).filter(Boolean).map(Number);
  return numbers.length && numbers.every(Number.isFinite) ? numbers : fallback;
}

/** A number as typed in code: 4, -1, 0.5 (what the console line shows). */
function plain(x) {
  return Object.is(x, -0) ? '0' : String(Number(x.toPrecision(7)));
}

/** A number for reading, with a real minus sign; overflow said in words, never a bare NaN or Infinity. */
function pretty(x) {
  if (Number.isNaN(x)) return 'undefined (∞ − ∞)';
  if (!Number.isFinite(x)) return x > 0 ? 'too large (∞)' : 'too large (−∞)';
  return plain(x).replace(/^-/, '\u2212');
}

function parseEntry(text) {
  const cleaned = text.trim().replace(/^[\u2212\u2013]/, '-');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned)) return NaN;
  return Number(cleaned);
}

export class DotProduct extends ElementBase {
  // The two vectors, kept off the `a` and `b` a framework sets: those are the attributes.
  #a;
  #b;

  connectedCallback() {
    if (this.built) return;
    this.built = true;
    ensureStylesheet();
    this.classList.add('ew');
    this.#a = parseVector(this.getAttribute('a'), [1, 2, 3]);
    this.#b = parseVector(this.getAttribute('b'), [4, 0, -1]);
    /** The boxes that hold no number ("a0", "b2"), whose places have no product. */
    this.invalid = new Set();
    while (this.#b.length < this.#a.length) this.#b.push(0);
    this.#b.length = this.#a.length;
    this.tableBody = el('tbody');
    this.captionId = uniqueId('ew-dot');
    this.table = el('table', { className: 'ew-dot-table', 'aria-describedby': this.captionId },
      el('thead', {}, el('tr', {},
        el('th', { scope: 'col', textContent: 'Place k' }),
        el('th', { scope: 'col', textContent: 'a' }),
        el('th', { scope: 'col', textContent: 'b' }),
        el('th', { scope: 'col', textContent: 'a × b' }))),
      this.tableBody,
      el('tfoot', {}, el('tr', {},
        el('th', { scope: 'row', colSpan: 3, textContent: 'Sum: the dot product' }),
        this.sumCell = el('td', { className: 'ew-dot-sum' }))));
    this.add = el('button', { type: 'button', className: 'ew-button', textContent: 'Add a place' });
    this.removeButton = el('button', { type: 'button', className: 'ew-button', textContent: 'Remove the last place' });
    // Until the module is up nothing can be computed: the buttons wait with it.
    this.reset = el('button', { type: 'button', className: 'ew-button', textContent: 'Back to the example', disabled: true });
    this.add.disabled = this.removeButton.disabled = true;
    this.limitNote = el('p', { className: 'ew-help ew-dot-limit', id: uniqueId('ew-dot-limit'), textContent: `${MAX_PLACES} places is this editor’s limit: enough to see how the sum grows. The model’s own lists have many more.` });
    this.add.setAttribute('aria-describedby', this.limitNote.id);
    this.add.addEventListener('click', () => { this.#a.push(0); this.#b.push(0); this.#rows(); this.#focusLast(); });
    this.removeButton.addEventListener('click', () => { this.#a.pop(); this.#b.pop(); this.#rows(); });
    this.reset.addEventListener('click', () => {
      this.#a = parseVector(this.getAttribute('a'), [1, 2, 3]);
      this.#b = parseVector(this.getAttribute('b'), [4, 0, -1]);
      this.#rows();
    });
    this.sentence = el('p', { className: 'ew-dot-sentence', id: this.captionId, role: 'status', 'aria-live': 'polite' });
    this.code = el('pre', { className: 'ew-console' });
    this.append(
      el('p', { className: 'ew-help', textContent: 'Change any number; the products and their sum follow.' }),
      this.table,
      el('div', { className: 'ew-buttons' }, this.add, this.removeButton, this.reset),
      this.limitNote,
      this.sentence,
      this.code);
    this.dataset.state = 'loading';
    kernelsReady.then(() => {
      this.reset.disabled = false;
      this.#rows();
      this.dataset.state = 'ready';
      mark(`ready:${this.localName}`);
      this.dispatchEvent(new CustomEvent('ew-ready', { bubbles: true }));
    }, (error) => {
      this.dataset.state = 'error';
      this.sentence.textContent = error.message;
      this.dispatchEvent(new CustomEvent('ew-error', { bubbles: true, detail: { error } }));
    });
  }

  /** The vectors as numbers, [a, b]. */
  get vectors() {
    return [this.#a.slice(), this.#b.slice()];
  }

  #rows() {
    this.invalid.clear();
    const vectors = { a: this.#a, b: this.#b };
    this.tableBody.replaceChildren(...this.#a.map((_, k) => {
      const cells = ['a', 'b'].map((name) => {
        const input = el('input', {
          type: 'text',
          inputMode: 'decimal',
          className: 'ew-input ew-number',
          value: plain(vectors[name][k]),
          'aria-label': `${name}, place ${k + 1}`,
        });
        input.addEventListener('input', () => {
          // An emptied box counts as 0, said in the sentence; a box that is not
          // a number (yet) leaves its place without a product and the sum
          // waiting, rather than showing the numbers it held before.
          const empty = input.value.trim() === '';
          const value = empty ? 0 : parseEntry(input.value);
          const valid = Number.isFinite(value) && Math.abs(value) <= FLOAT32_MAX;
          input.setAttribute('aria-invalid', valid ? 'false' : 'true');
          this.invalid.delete(`${name}${k}`);
          if (valid) {
            vectors[name][k] = value;
            this.#compute();
            return;
          }
          this.invalid.add(`${name}${k}`);
          this.#compute();
        });
        return el('td', {}, input);
      });
      return el('tr', {}, el('th', { scope: 'row', textContent: String(k + 1) }), ...cells, el('td', { className: 'ew-dot-product' }));
    }));
    this.add.disabled = this.#a.length >= MAX_PLACES;
    this.limitNote.hidden = !this.add.disabled;
    this.removeButton.disabled = this.#a.length <= 1;
    this.#compute();
  }

  #focusLast() {
    const inputs = this.tableBody.querySelectorAll('input');
    inputs[inputs.length - 2]?.focus();
  }

  /** Sets both vectors (the same length, at most 8 places), as if typed. */
  setVectors(a, b) {
    const fits = (v) => Array.isArray(v) && v.length >= 1 && v.length <= MAX_PLACES && v.every(Number.isFinite);
    if (!fits(a) || !fits(b) || a.length !== b.length) {
      throw new RangeError(`setVectors: two arrays of 1 to ${MAX_PLACES} finite numbers, the same length, are needed`);
    }
    const [x, y] = [a, b].map((v) => v.map((n) => Math.fround(n)));
    if (!this.built) {
      this.setAttribute('a', x.join(' '));
      this.setAttribute('b', y.join(' '));
      return;
    }
    this.#a = x;
    this.#b = y;
    this.#rows();
  }

  #compute() {
    const rows = [...this.tableBody.children];
    // A box that is not a number: its place has no product and the sum waits.
    const waiting = [...this.invalid].map((key) => ({ name: key[0], k: Number(key.slice(1)) })).filter(({ k }) => k < this.#a.length);
    if (waiting.length) {
      const blank = new Set(waiting.map(({ k }) => k));
      rows.forEach((row, k) => { if (blank.has(k)) row.children[3].textContent = '—'; });
      this.sumCell.textContent = '—';
      const { name, k } = waiting[0];
      const text = rows[k].querySelectorAll('input')[name === 'a' ? 0 : 1].value;
      const cleaned = parseEntry(text);
      this.sentence.textContent = Number.isNaN(cleaned)
        ? `“${text}” in ${name}, place ${k + 1}, is not a number: that place has no product, and the sum waits for it.`
        : `“${text}” in ${name}, place ${k + 1}, is too large: the module computes with float32 numbers, which stop near 3.4 × 10³⁸. ` +
          'That place has no product, and the sum waits for a number that fits.';
      this.result = undefined;
      return;
    }
    // Each product is the dot product of one place, so the module does every sum.
    const products = this.#a.map((x, k) => dot([x], [this.#b[k]]));
    const sum = dot(this.#a, this.#b);
    [...this.tableBody.children].forEach((row, k) => { row.children[3].textContent = pretty(products[k]); });
    this.sumCell.textContent = pretty(sum);
    this.result = { products, sum };
    const terms = products.map((p, k) => (k && p < 0 ? `(${pretty(p)})` : pretty(p))).join(' + ');
    const overflow = !Number.isFinite(sum) || products.some((p) => !Number.isFinite(p))
      ? ' That is past the largest float32 number (about 3.4 × 10³⁸), so the module’s result is not a number you can use.' : '';
    const emptied = rows.flatMap((row, k) => [...row.querySelectorAll('input')]
      .flatMap((input, i) => (input.value.trim() === '' ? [`${i ? 'b' : 'a'}, place ${k + 1}`] : [])));
    const emptyNote = emptied.length ? ` An empty box counts as 0 (${emptied.join('; ')}).` : '';
    this.sentence.textContent = `Multiply place by place: ${products.map(pretty).join(', ')}. Add them up: ${terms} = ${pretty(sum)}.${overflow}${emptyNote}`;
    // Each number written as the table shows it (7 significant digits: what was typed, not its float32
    // widened to a double); the comment is the sum as the table shows it, "≈" where a console prints more digits.
    const shown = plain(sum);
    const comment = !Number.isFinite(sum) || String(sum) === shown ? String(sum) : `≈ ${shown}`;
    this.code.textContent = `dot([${this.#a.map(plain).join(', ')}], [${this.#b.map(plain).join(', ')}]); // ${comment}`;
    this.dispatchEvent(new CustomEvent('ew-change', { bubbles: true, detail: this.result }));
  }
}

defineWidget('ew-dot-product', DotProduct);
