// <ew-row-dot-product>: the dot product of two real rows of the token table,
// place by place. Pick two tokens and see their numbers, the product at
// each place (red where the signs agree and the product adds, blue where
// they disagree and it takes away), the running sum, both lengths and the
// cosine as the dot product divided by the lengths. Three presets show the
// chapter's cases, big, near zero and below zero: the pairs are found from
// the model, among everyday words, by their dot products.
//
//   <ew-row-dot-product a="·girl" b="·boy" editor="dot-widget"></ew-row-dot-product>
//
// `editor` names a <ew-dot-product> on the page: a button puts the rows' first
// three places into it.
import { dot, cosine, rowView } from '../index.js';
import { ModelWidget } from './parts/model-widget.js';
import { el, uniqueId } from './parts/dom.js';
import { stripImage, legend, tableLimit } from './parts/color.js';
import { int, num } from './parts/format.js';
import { TokenPicker, hasTokenizer, tokenLabel } from './parts/token-picker.js';
import { findTokenId } from '../src/model/for-widgets.js';
import { installFigures } from './parts/figure-control.js';
import { defineWidget } from './parts/definitions.js';
import { cssPixelContext, watchCanvas } from './parts/canvas.js';
import { Loupe, neighbourhood } from './parts/loupe.js';
import { keepInView } from './parts/in-view.js';

/**
 * Everyday words of the chapter's stories: the presets' pairs are found
 * among those that are one token ("·" + word) in the model shown.
 */
export const PRESET_WORDS = ('boy girl dog cat bird tree ball park house car boat sun moon sky rain water cake apple flower ' +
  'garden toy book box door hat mom dad friend king queen man woman baby teacher happy sad big little red blue green ' +
  'yellow ran run walked jumped played saw said went came looked ate slept sang and the but very then when where ' +
  'because quickly slowly loud quiet soft hard hot cold one two three ten day night morning yes no').split(' ');

/** The chapter's three cases, by the cosine (the dot product with the lengths divided out). */
export function caseOf(cos) {
  if (cos >= 0.2) return 'big';
  if (Math.abs(cos) < 0.05) return 'near zero';
  if (cos <= -0.05) return 'below zero';
  return 'small';
}

/**
 * The presets for a first token: among PRESET_WORDS (other than it), the
 * one with the largest dot product, the one closest to zero and the one
 * with the most negative (null when no dot product is below zero).
 */
export function presetsFor(model, id) {
  if (!hasTokenizer(model)) return [];  // the words are texts: without a tokenizer.json there are none
  const a = rowView(model.wte, id);
  const scored = [];
  for (const word of PRESET_WORDS) {
    const other = findTokenId(model, `·${word}`);
    if (other < 0 || other === id) continue;
    scored.push({ id: other, dot: dot(a, rowView(model.wte, other)) });
  }
  if (!scored.length) return [];
  const by = (better) => scored.reduce((best, s) => (better(s, best) ? s : best));
  const big = by((s, best) => s.dot > best.dot);
  const near = by((s, best) => Math.abs(s.dot) < Math.abs(best.dot));
  const below = by((s, best) => s.dot < best.dot);
  return [
    { name: 'big', ...big },
    { name: 'near zero', ...near },
    ...(below.dot < 0 ? [{ name: 'below zero', ...below }] : []),
  ];
}

/** Everything the widget shows of a pair, computed from the two rows. */
export function pairNumbers(a, b) {
  const n = a.length;
  const products = new Float32Array(n), running = new Float64Array(n);
  let sum = 0, agree = 0, disagree = 0, plus = 0, minus = 0;
  for (let k = 0; k < n; k++) {
    products[k] = a[k] * b[k];
    sum += products[k];
    running[k] = sum;
    if (products[k] > 0) { agree++; plus += products[k]; } else if (products[k] < 0) { disagree++; minus += products[k]; }
  }
  // The ten largest products by size: where the big numbers meet.
  const largest = Array.from(products.keys()).sort((i, j) => Math.abs(products[j]) - Math.abs(products[i])).slice(0, Math.min(10, n));
  const aa = dot(a, a), bb = dot(b, b), ab = dot(a, b);
  return {
    products, running, agree, disagree, plus, minus, largest,
    dot: ab, aa, bb, lengthA: Math.sqrt(aa), lengthB: Math.sqrt(bb), cosine: cosine(a, b),
  };
}

/** The verdict in words for a pair's numbers. */
export function verdict(p) {
  const agreeing = p.largest.filter((k) => p.products[k] > 0);
  const ofLargest = (k) => `${k.length} of the ${p.largest.length} largest products`;
  const counts = `${int(p.agree)} places agree in sign (they add ${num(p.plus)}) and ${int(p.disagree)} disagree (they take away ${num(-p.minus)})`;
  switch (caseOf(p.cosine)) {
    case 'big':
      return `Big: the two lists have large numbers in the same places with the same signs. ${ofLargest(agreeing)} come from places that agree. ` +
        `In all, ${counts}, so the dot product is ${num(p.dot)}.`;
    case 'near zero':
      return `Near zero: the lists have nothing in common. ${counts}: they cancel, and the dot product is ${num(p.dot)}.`;
    case 'below zero':
      return `Below zero: the signs disagree. ${ofLargest(p.largest.filter((k) => p.products[k] < 0))} come from places whose signs disagree. ` +
        `In all, ${counts}, so the dot product is ${num(p.dot)}.`;
    default:
      return `A little above zero: ${counts}, so the dot product is ${num(p.dot)}, small for lists this long.`;
  }
}

export class RowDotProduct extends ModelWidget {
  static get observedAttributes() {
    return [...super.observedAttributes, 'a', 'b'];
  }

  build() {
    this.pickerA = new TokenPicker({ label: 'First word', rowIds: true, onPick: (id) => this.#set(id, this.ids?.[1]) });
    this.pickerB = new TokenPicker({ label: 'Second word', rowIds: true, onPick: (id) => this.#set(this.ids?.[0], id) });
    this.presets = el('div', { className: 'ew-buttons ew-rowdot-presets', role: 'group', 'aria-label': 'The chapter’s three cases, on real rows' });
    this.verdict = el('p', { className: 'ew-rowdot-verdict', role: 'status', 'aria-live': 'polite' });
    this.place = 0;
    const helpId = uniqueId('ew-rowdot-help');
    this.strips = el('div', {
      className: 'ew-rowdot-strips',
      tabIndex: 0,
      role: 'group',
      'aria-describedby': helpId,
    });
    this.readout = el('p', { className: 'ew-grid-readout ew-rowdot-readout', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.chart = el('canvas', { className: 'ew-rowdot-chart', 'aria-hidden': 'true' });
    this.chartText = el('p', { className: 'ew-help ew-rowdot-chart-text' });
    this.lengths = el('p', { className: 'ew-rowdot-lengths' });
    this.cosineLine = el('p', { className: 'ew-rowdot-cosine' });
    this.legendHost = el('div');
    this.toEditor = el('button', { type: 'button', className: 'ew-button', textContent: 'Put the first three places into the three-number editor', hidden: true });
    this.toEditor.addEventListener('click', () => this.#sendToEditor());
    this.append(
      el('div', { className: 'ew-rowdot-pickers' }, this.pickerA.element, this.pickerB.element),
      this.presets, this.verdict, this.strips, this.readout,
      el('p', { className: 'ew-grid-help', id: helpId, textContent: 'Tap or point at a place, or focus the strips and use the arrow keys, to read one product.' }),
      this.legendHost, this.chart, this.chartText, this.lengths, this.cosineLine,
      el('div', { className: 'ew-buttons' }, this.toEditor));
    // A place is a few pixels wide: a tap opens a loupe with the numbers around it, each a button to tap.
    this.loupe = new Loupe({ label: 'The numbers around the tapped place', onPick: (part, k) => this.#loupeAt(k) });
    this.strips.addEventListener('pointerdown', (event) => { this.lastPointer = event.pointerType; }, { passive: true });
    this.strips.addEventListener('click', (event) => this.#pointer(event, true));
    this.strips.addEventListener('pointermove', (event) => { if (event.pointerType === 'mouse') this.#pointer(event, false); });
    this.strips.addEventListener('keydown', (event) => this.#key(event));
    watchCanvas(this.chart, () => this.#drawChart());
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'a' || name === 'b') {
      if (this.model && after) (name === 'a' ? this.pickerA : this.pickerB).pickText(after);
      return;
    }
    super.attributeChangedCallback(name, before, after);
  }

  show(model) {
    this.pickerA.setModel(model);
    this.pickerB.setModel(model);
    this.limit = tableLimit(model);
    this.toEditor.hidden = !this.#editor();
    const [a] = this.pickerA.resolve(this.getAttribute('a') ?? '·girl');
    const [b] = this.pickerB.resolve(this.getAttribute('b') ?? '·boy');
    this.#set(a?.id ?? 0, b?.id ?? Math.min(1, model.vocabSize - 1));
  }

  /** The two token ids compared. */
  get pair() {
    return this.ids ? [...this.ids] : undefined;
  }

  /** Compares two tokens, given by id (ids that are no rows of the table are ignored). */
  compare(a, b) {
    this.ensureBuilt();
    const row = (id) => Number.isInteger(id) && id >= 0 && id < this.model.vocabSize;
    if (this.model && row(a) && row(b)) this.#set(a, b);
  }

  #set(a, b) {
    const model = this.model;
    if (!model || a === undefined || b === undefined) return;
    const presetsChanged = !this.ids || this.ids[0] !== a;
    this.ids = [a, b];
    this.pickerA.show(a);
    this.pickerB.show(b);
    const rowA = rowView(model.wte, a), rowB = rowView(model.wte, b);
    this.rows = [rowA, rowB];
    this.numbers = pairNumbers(rowA, rowB);
    if (presetsChanged) this.#presets(a);
    for (const button of this.presets.querySelectorAll('button')) {
      button.setAttribute('aria-pressed', String(Number(button.dataset.id) === b));
    }
    this.#render();
    this.dispatchEvent(new CustomEvent('ew-change', { bubbles: true, detail: { a, b, dot: this.numbers.dot, cosine: this.numbers.cosine } }));
  }

  #presets(a) {
    const model = this.model;
    this.presetList = presetsFor(model, a);
    const label = tokenLabel(model, a);
    if (!hasTokenizer(model)) {
      this.presets.replaceChildren(el('span', { className: 'ew-muted', textContent: 'The three cases are found among everyday words, ' +
        'which this model’s rows cannot be matched to: it came without its tokenizer.json. Pick two rows by id instead.' }));
      return;
    }
    const considered = PRESET_WORDS.filter((word) => findTokenId(model, `·${word}`) >= 0).length;
    this.presets.replaceChildren(el('span', { className: 'ew-muted', textContent: `Found among ${considered} everyday words (each one token here), against ${label}: ` }),
      ...this.presetList.map((preset) => {
        const button = el('button', {
          type: 'button',
          className: 'ew-button',
          'data-case': preset.name,
          'data-id': String(preset.id),
          textContent: `${preset.name[0].toUpperCase()}${preset.name.slice(1)}: ${tokenLabel(model, preset.id)}`,
        });
        button.addEventListener('click', () => this.#set(this.ids[0], preset.id));
        return button;
      }));
  }

  #render() {
    const model = this.model;
    const [a, b] = this.ids;
    const [rowA, rowB] = this.rows;
    const p = this.numbers;
    const n = rowA.length;
    const names = [tokenLabel(model, a), tokenLabel(model, b)];
    this.verdict.textContent = verdict(p);
    const productLimit = Math.max(1e-30, ...Array.from(p.products, Math.abs));
    this.productLimit = productLimit;
    this.loupe.close();
    const strip = (data, limit, name, what) => {
      const image = stripImage(data, n, limit);
      image.className = 'ew-strip ew-rowdot-strip';
      image.setAttribute('aria-hidden', 'true');
      return el('div', { className: 'ew-rowdot-line' },
        el('span', { className: 'ew-rowdot-name' }, el('span', { className: 'ew-token', textContent: name }), el('span', { className: 'ew-muted', textContent: ` ${what}` })),
        el('span', { className: 'ew-strip-box' }, image, el('span', { className: 'ew-strip-marker', hidden: true })));
    };
    this.strips.setAttribute('aria-label', `The ${int(n)} numbers of ${names[0]} and ${names[1]} and their products, place by place`);
    this.strips.replaceChildren(
      strip(rowA, this.limit, names[0], `id ${a}`),
      strip(rowB, this.limit, names[1], `id ${b}`),
      strip(p.products, productLimit, 'a × b', 'red: signs agree, blue: they disagree'));
    this.legendHost.replaceChildren(legend(this.limit, { label: 'Colours of the two rows' }),
      el('p', { className: 'ew-help', textContent: `The products’ strip has its own scale: full red is +${num(productLimit)}, full blue is −${num(productLimit)}.` }));
    this.lengths.textContent = `Lengths: |a| = √(a · a) = √${num(p.aa)} = ${num(p.lengthA)}, |b| = √(b · b) = √${num(p.bb)} = ${num(p.lengthB)}.`;
    this.cosineLine.replaceChildren(
      el('strong', { textContent: 'Cosine = ' }),
      `a · b ÷ (|a| × |b|) = ${num(p.dot)} ÷ (${num(p.lengthA)} × ${num(p.lengthB)}) = ${num(p.dot / (p.lengthA * p.lengthB))}`,
      el('span', { className: 'ew-muted', textContent: ` (the module’s cosine(a, b): ${num(p.cosine)})` }));
    this.chartText.textContent = `The running sum, place by place: it ends at the dot product, ${num(p.dot)}, after ${int(n)} places.`;
    this.#select(Math.min(this.place, n - 1));
  }

  #select(k) {
    const p = this.numbers;
    const [rowA, rowB] = this.rows;
    this.place = k;
    for (const marker of this.strips.querySelectorAll('.ew-strip-marker')) {
      marker.hidden = false;
      marker.style.left = `${(k / rowA.length) * 100}%`;
      marker.style.width = `${100 / rowA.length}%`;
    }
    const product = p.products[k];
    const sign = product > 0 ? 'the signs agree: it adds' : product < 0 ? 'the signs disagree: it takes away' : 'zero: it changes nothing';
    const text = `Place ${k + 1}: ${num(rowA[k])} × ${num(rowB[k])} = ${num(product, 4)} (${sign}). ` +
      `Running sum after ${int(k + 1)} ${k ? 'places' : 'place'}: ${num(p.running[k])}.`;
    this.readout.textContent = text;
    this.#drawChart();
  }

  #pointer(event, click) {
    // A strip's whole line reads it: a finger gets the line's height, not the strip's.
    const strip = event.target.closest?.('.ew-rowdot-line')?.querySelector('.ew-rowdot-strip');
    if (!strip || !this.rows) return;
    const box = strip.getBoundingClientRect();
    const n = this.rows[0].length;
    const k = Math.max(0, Math.min(n - 1, Math.floor(((event.clientX - box.left) / box.width) * n)));
    this.#select(k);
    if (!click) return;
    if ((event.pointerType || this.lastPointer) === 'touch') this.#openLoupe(strip, event.clientY);
    keepInView(this.readout);
  }

  /**
   * The loupe of the place read now: its neighbours' numbers in the two rows
   * and their products; beside the finger at `y` (client pixels), over the
   * place's middle on `strip` where it is when placed; with `stay`, where it stands.
   */
  #openLoupe(strip, y, stay = false) {
    const [rowA, rowB] = this.rows;
    const n = rowA.length, k = this.place;
    const places = neighbourhood(k, 2, n);
    const names = this.ids.map((id) => tokenLabel(this.model, id));
    const line = (label, values, limit, digits, r) => ({
      label, limit, digits, cells: places.map((c) => ({ r, c, value: values[c], current: c === k })),
    });
    this.loupe.show({
      point: () => {
        const box = strip.getBoundingClientRect();
        return { x: box.left + ((k + 0.5) / n) * box.width, y };
      },
      stay,
      host: this,
      anchor: this.strips,
      title: this.readout.textContent,
      limit: this.limit,
      colLabels: places.map((c) => `place ${c + 1}`),
      rows: [line(names[0], rowA, this.limit, 3, 0), line(names[1], rowB, this.limit, 3, 1), line('a × b', this.numbers.products, this.productLimit, 4, 2)],
    });
  }

  #loupeAt(k) {
    this.#select(k);
    this.#openLoupe(null, 0, true);
  }

  #key(event) {
    if (!this.rows) return;
    const n = this.rows[0].length;
    let k = this.place;
    switch (event.key) {
      case 'ArrowLeft': k -= 1; break;
      case 'ArrowRight': k += 1; break;
      case 'Home': k = 0; break;
      case 'End': k = n - 1; break;
      case 'PageUp': k -= 16; break;
      case 'PageDown': k += 16; break;
      default: return;
    }
    event.preventDefault();
    this.#select(Math.max(0, Math.min(n - 1, k)));
  }

  #drawChart() {
    const canvas = this.chart;
    if (!this.numbers) return;
    const { context, width, height } = cssPixelContext(canvas, 300, 110);
    if (!context) return;
    const style = getComputedStyle(this);
    this.drawChartInto(context, width, height, { ink: style.color || '#222', font: style.fontFamily || 'sans-serif' });
  }

  /** The running sum, place by place, on any 2D context `width` × `height` CSS px: the canvas's, or a figure's. */
  drawChartInto(context, width, height, { ink, font }) {
    const { running } = this.numbers;
    const n = running.length;
    const top = Math.max(0, ...running), bottom = Math.min(0, ...running);
    const span = top - bottom || 1;
    const left = 40, right = 8, above = 8, below = 16;
    const x = (k) => left + (n > 1 ? (k / (n - 1)) * (width - left - right) : 0);
    const y = (v) => above + ((top - v) / span) * (height - above - below);
    context.clearRect(0, 0, width, height);
    context.font = `12px ${font}`;
    context.fillStyle = ink;
    context.strokeStyle = ink;
    context.globalAlpha = 0.35;
    context.beginPath();
    context.moveTo(left, y(0));
    context.lineTo(width - right, y(0));
    context.stroke();
    context.globalAlpha = 1;
    context.textAlign = 'right';
    context.textBaseline = 'middle';
    for (const v of new Set([top, 0, bottom])) context.fillText(num(v, 2), left - 4, y(v));
    context.textAlign = 'center';
    context.textBaseline = 'alphabetic';
    for (const k of [0, n - 1]) context.fillText(String(k + 1), Math.min(width - 10, Math.max(left, x(k))), height - 3);
    context.lineWidth = 2;
    context.beginPath();
    for (let k = 0; k < n; k++) {
      if (k === 0) context.moveTo(x(k), y(running[k]));
      else context.lineTo(x(k), y(running[k]));
    }
    context.stroke();
    context.beginPath();
    context.arc(x(this.place), y(running[this.place]), 4.5, 0, Math.PI * 2);
    context.stroke();
  }

  #editor() {
    const id = this.getAttribute('editor');
    const editor = id ? document.getElementById(id) : null;
    return editor && typeof editor.setVectors === 'function' ? editor : null;
  }

  #sendToEditor() {
    const editor = this.#editor();
    if (!editor || !this.rows) return;
    const [rowA, rowB] = this.rows;
    // Three decimals, as the page writes them: the editor's products are of the numbers it shows.
    const three = (row) => Array.from(row.subarray(0, 3), (x) => Number(x.toFixed(3)));
    editor.setVectors(three(rowA), three(rowB));
    editor.scrollIntoView?.({ block: 'nearest' });
    editor.querySelector('input')?.focus({ preventScroll: true });
  }
}

// Its figures for a book: element.figure({ format, which }) and a control under it.
installFigures(RowDotProduct, { names: (pair) => (pair.numbers ? ['row-strips', 'running-sum'] : []), load: () => import('./parts/figure-strips.js') });

defineWidget('ew-row-dot-product', RowDotProduct);
