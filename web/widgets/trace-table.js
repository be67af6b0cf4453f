// <trace-table>: type a text and see what the first layer reads, row by row:
// each token, its row of the token table, its place's row of the position
// table, and their sum (model.trace). Hover, tap or arrow along a row to read
// the three numbers of one column and how they add up.
//
//   <trace-table src="model/" text="One day Lily saw Max." compare="One day Max saw Lily."></trace-table>
//
// With `compare`, a second box traces another text and a table compares the
// two: the same word keeps its token row wherever it stands, but its sum
// changes with its place.
import { rowView, cosine } from '../index.js';
import { ModelWidget, el, uniqueId } from './parts/base.js';
import { tableImage, legend } from './parts/color.js';
import { tableLimit } from './embedding-table.js';
import { int, num } from './parts/format.js';
import { Loupe, neighbourhood } from './parts/loupe.js';
import { byteNote, isByteToken } from './parts/token-picker.js';
import { defineWidget } from './parts/definitions.js';

// Six tokens, as the chapter's 6 × 128 says; the same tokens swap places in
// the two (·Lily and ·Max, a word before them), so only the positions differ.
export const DEFAULT_TEXT = 'One day Lily saw Max.';
export const DEFAULT_COMPARE = 'One day Max saw Lily.';

/** Rows a long trace shows until the reader asks for all of them. */
export const COLLAPSED_ROWS = 12;

const PARTS = [
  ['tokenEmbeddings', 'Token list', 'row of the token table'],
  ['positionEmbeddings', 'Position list', 'row of the position table'],
  ['embeddings', 'Sum', 'token + position'],
];
// A model without a position table (rotary positions): what the first layer reads is the token list.
const ROTARY_PARTS = [
  ['tokenEmbeddings', 'Token list', 'row of the token table'],
  ['embeddings', 'What the first layer reads', 'the token list: no position list is added'],
];
const partsOf = (trace) => (trace.positionEmbeddings ? PARTS : ROTARY_PARTS);
const headerCells = (parts) => parts.map(([, name, what]) => el('span', { role: 'columnheader', className: 'ew-trace-part' },
  name, el('span', { className: 'ew-muted', textContent: ` (${what})` })));

/** One text's trace as rows of colour strips that read out their numbers. */
class TraceView {
  constructor({ label, onSelect }) {
    this.label = label;
    this.onSelect = onSelect;
    this.cursor = null;
    const helpId = uniqueId('ew-trace-help');
    this.body = el('div', { role: 'rowgroup', className: 'ew-trace-body' });
    this.table = el('div', {
      className: 'ew-trace',
      role: 'table',
      tabIndex: 0,
      'aria-label': label,
      'aria-describedby': helpId,
    },
    el('div', { role: 'rowgroup', className: 'ew-trace-head' }, this.head = el('div', { role: 'row', className: 'ew-trace-row' },
      el('span', { role: 'columnheader', className: 'ew-trace-place', textContent: 'Place' }),
      el('span', { role: 'columnheader', className: 'ew-trace-token', textContent: 'Token' }),
      ...headerCells(PARTS))),
    this.body);
    this.parts = PARTS;
    this.rotaryNote = el('p', { className: 'ew-note ew-trace-rotary', hidden: true });
    this.tip = el('div', { className: 'ew-grid-tip', 'aria-hidden': 'true', hidden: true });
    this.readout = el('p', { className: 'ew-grid-readout', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.more = el('button', { type: 'button', className: 'ew-button ew-trace-more', hidden: true, 'aria-expanded': 'false' });
    this.more.addEventListener('click', () => this.#expand(!this.expanded));
    this.bytes = el('p', { className: 'ew-help ew-trace-bytes' });
    this.loupe = new Loupe({ label: `${label}: the numbers around the tapped place`, onPick: (part, c) => this.#loupeAt(c) });
    this.element = el('div', { className: 'ew-trace-view' }, this.rotaryNote, this.table, this.more, this.tip, this.readout, this.bytes,
      el('p', { className: 'ew-grid-help', id: helpId, textContent: 'Keys: focus the rows, then up and down move between tokens, left and right along the numbers.' }));
    this.expanded = false;
    this.table.addEventListener('keydown', (event) => this.#key(event));
    this.table.addEventListener('pointermove', (event) => this.#pointer(event, false));
    this.table.addEventListener('pointerdown', (event) => { this.lastPointer = event.pointerType; }, { passive: true });
    this.table.addEventListener('click', (event) => this.#pointer(event, true));
    this.table.addEventListener('pointerleave', () => { this.tip.hidden = true; });
  }

  /** Shows a trace. */
  set(model, trace, limit) {
    this.model = model;
    this.trace = trace;
    this.width = model.width;
    this.limit = limit;
    this.loupe.close();
    const parts = partsOf(trace);
    if (parts !== this.parts) {
      this.parts = parts;
      this.head.replaceChildren(...[...this.head.children].slice(0, 2), ...headerCells(parts));
    }
    this.rotaryNote.hidden = parts === PARTS;
    this.rotaryNote.textContent = parts === PARTS ? '' : 'This model has no position table: it uses rotary positions, ' +
      'applied inside attention. So nothing is added here: what the first layer reads is the token list itself.';
    this.#rows();
    if (this.cursor && this.cursor.r < trace.tokens.length) this.select(this.cursor.r, this.cursor.c);
    else this.cursor = null;
    if (!this.cursor) {
      this.readout.classList.add('ew-prompt');
      // One line for pointers and fingers; the keys have theirs under it, said once.
      this.readout.textContent = trace.tokens.length ? 'Tap or point at a strip to read its numbers.' : '';
    }
    this.bytes.textContent = byteNote(trace.tokens.map((token) => token.text));
  }

  /** How many rows are built and shown: all, or the first few of a long trace. */
  get shownRows() {
    const n = this.trace?.tokens.length ?? 0;
    return this.expanded || n <= COLLAPSED_ROWS + 2 ? n : COLLAPSED_ROWS;
  }

  #expand(open) {
    this.expanded = open;
    this.#rows();
    if (this.cursor) this.select(this.cursor.r, this.cursor.c);
  }

  // Rows are built only when shown: a 200-token trace collapsed costs 12 rows of canvases, not 200.
  #rows() {
    const { trace, limit } = this;
    const shown = this.shownRows;
    const rows = trace.tokens.slice(0, shown).map((token, i) => {
      const strips = this.parts.map(([part, name]) => {
        const canvas = tableImage(rowView(trace[part], i), 1, this.width, limit);
        canvas.className = 'ew-strip';
        canvas.setAttribute('aria-hidden', 'true');
        canvas.dataset.row = String(i);
        const marker = el('span', { className: 'ew-strip-marker', hidden: true });
        return el('span', { role: 'cell', className: 'ew-trace-part', 'data-part': name },
          el('span', { className: 'ew-trace-part-name', textContent: name }),
          el('span', { className: 'ew-strip-box' }, canvas, marker));
      });
      return el('div', { role: 'row', className: 'ew-trace-row', 'data-row': String(i) },
        el('span', { role: 'rowheader', className: 'ew-trace-place', textContent: String(i + 1) }),
        el('span', { role: 'cell', className: 'ew-trace-token' },
          el('span', { className: 'ew-token', textContent: token.text }), el('span', { className: 'ew-muted', textContent: ` id ${token.id}` })),
        ...strips);
    });
    this.body.replaceChildren(...rows);
    if (!trace.tokens.length) {
      this.body.append(el('div', { role: 'row', className: 'ew-trace-empty' },
        el('span', { role: 'cell', textContent: 'No tokens yet: type some text.' })));
    }
    const n = trace.tokens.length;
    this.more.hidden = n <= COLLAPSED_ROWS + 2;
    this.more.setAttribute('aria-expanded', String(shown === n));
    this.more.textContent = shown === n ? `Show only the first ${COLLAPSED_ROWS} rows` : `Show all ${int(n)} rows (${int(n - shown)} more)`;
  }

  describe(r, c) {
    const t = this.trace.tokenEmbeddings.at(r, c);
    const token = this.trace.tokens[r];
    if (!this.trace.positionEmbeddings) {
      return `Place ${r + 1}, ${token.text} (id ${token.id}), column ${c}: token ${num(t)} (no position table: rotary positions)`;
    }
    const p = this.trace.positionEmbeddings.at(r, c);
    const s = this.trace.embeddings.at(r, c);
    return `Place ${r + 1}, ${token.text} (id ${token.id}), column ${c}: token ${num(t)} + position ${num(p)} = sum ${num(s)}`;
  }

  select(r, c) {
    const n = this.trace.tokens.length;
    if (!n) return;
    r = Math.max(0, Math.min(n - 1, r));
    c = Math.max(0, Math.min(this.width - 1, c));
    this.cursor = { r, c };
    if (r >= this.shownRows) this.#expand(true);
    for (const marker of this.body.querySelectorAll('.ew-strip-marker')) marker.hidden = true;
    const row = this.body.children[r];
    for (const marker of row.querySelectorAll('.ew-strip-marker')) {
      marker.hidden = false;
      marker.style.left = `${(c / this.width) * 100}%`;
      marker.style.width = `${100 / this.width}%`;
    }
    this.readout.classList.remove('ew-prompt');
    this.readout.textContent = this.describe(r, c);
  }

  #pointer(event, click) {
    const canvas = event.target.closest?.('canvas.ew-strip');
    if (!canvas || !this.trace) {
      if (!click) this.tip.hidden = true;
      return;
    }
    const box = canvas.getBoundingClientRect();
    const left = box.left + canvas.clientLeft;
    const c = Math.max(0, Math.min(this.width - 1, Math.floor(((event.clientX - left) / canvas.clientWidth) * this.width)));
    const r = Number(canvas.dataset.row);
    const touch = (event.pointerType || this.lastPointer) === 'touch';
    if (click || touch) {
      this.select(r, c);
      // A click or tap is the reader choosing a row (a finger passing over the strips is not).
      if (click) this.onSelect?.(r, c);
      // A strip gives a finger a pixel or two a number: the loupe opens beside it with numbers to tap.
      if (click && touch) this.#openLoupe(canvas);
      return;
    }
    const host = this.element.getBoundingClientRect();
    this.tip.textContent = this.describe(r, c);
    this.tip.hidden = false;
    const x = event.clientX - host.left, y = event.clientY - host.top;
    const width = this.tip.offsetWidth;
    this.tip.style.left = `${x + 14 + width > host.width ? Math.max(0, x - 14 - width) : x + 14}px`;
    this.tip.style.top = `${y + 16}px`;
  }

  #openLoupe(near) {
    if (!this.cursor) return;
    const { r, c } = this.cursor;
    const cols = neighbourhood(c, 2, this.width);
    const box = near.getBoundingClientRect();
    const marker = this.body.children[r]?.querySelector('.ew-strip-marker');
    const x = marker ? marker.getBoundingClientRect().left : box.left + ((c + 0.5) / this.width) * box.width;
    this.loupe.show({
      x,
      y: box.top + box.height / 2,
      host: this.element,
      anchor: this.table,
      title: this.describe(r, c),
      limit: this.limit,
      colLabels: cols.map((col) => `col ${col}`),
      rows: this.parts.map(([part, name], k) => ({
        label: name,
        cells: cols.map((col) => ({ r: k, c: col, value: this.trace[part].at(r, col), current: col === c })),
      })),
    });
    this.loupeNear = near;
  }

  #loupeAt(c) {
    const top = this.loupe.element.style.top;
    this.select(this.cursor.r, c);
    this.#openLoupe(this.loupeNear);
    this.loupe.element.style.top = top;
  }

  #key(event) {
    if (!this.trace?.tokens.length) return;
    let { r, c } = this.cursor ?? { r: 0, c: 0 };
    const had = Boolean(this.cursor);
    switch (event.key) {
      case 'ArrowUp': if (had) r -= 1; break;
      case 'ArrowDown': if (had) r += 1; break;
      case 'ArrowLeft': if (had) c -= 1; break;
      case 'ArrowRight': if (had) c += 1; break;
      case 'Home': c = 0; if (event.ctrlKey) r = 0; break;
      case 'End': c = this.width - 1; if (event.ctrlKey) r = this.trace.tokens.length - 1; break;
      case 'PageUp': c -= 16; break;
      case 'PageDown': c += 16; break;
      default: return;
    }
    event.preventDefault();
    this.select(r, c);
    this.onSelect?.(this.cursor.r, this.cursor.c);
    this.body.children[this.cursor.r]?.scrollIntoView({ block: 'nearest' });
  }
}

/** One text box with its token count against the context. */
class TextBox {
  constructor({ label, value, onInput }) {
    const id = uniqueId('ew-text');
    this.input = el('textarea', { id, className: 'ew-input ew-textarea', rows: 2, value, spellcheck: false });
    this.meter = el('meter', { min: 0, max: 128, value: 0 });
    this.count = el('span', { className: 'ew-count' });
    const countId = uniqueId('ew-count');
    this.count.id = countId;
    this.meter.setAttribute('aria-labelledby', countId);
    this.input.setAttribute('aria-describedby', countId);
    this.message = el('p', { className: 'ew-note ew-warning', role: 'alert' });
    this.element = el('div', { className: 'ew-textbox' },
      el('label', { className: 'ew-label', for: id, textContent: label }),
      this.input,
      el('div', { className: 'ew-count-line' }, this.meter, this.count),
      this.message);
    this.input.addEventListener('input', onInput);
  }

  /** Traces the box's text; too long a text shows the API's message and keeps the first tokens. */
  trace(model) {
    const text = this.input.value;
    let trace;
    this.message.textContent = '';
    try {
      trace = model.trace(text);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      trace = model.trace(text, { truncate: true });
      const length = trace.tokens.length + trace.truncated;
      // Said for a reader: the API's message speaks to programmers (its option to cut the text).
      const most = model.maxTraceTokens;
      const reads = model.hasPositionTable ? 'the model reads at most' : 'this page traces at most';
      this.message.textContent = `This text is ${int(length)} tokens long, but ${reads} ${int(most)} tokens at a time. ` +
        `Below are its first ${int(most)}; the last ${int(trace.truncated)} ${trace.truncated === 1 ? 'is' : 'are'} left out.`;
    }
    const n = trace.tokens.length + trace.truncated;
    const most = model.maxTraceTokens;
    this.meter.max = most;
    this.meter.value = Math.min(n, most);
    this.count.textContent = `${int(n)} ${n === 1 ? 'token' : 'tokens'} of at most ${int(most)}` +
      (trace.truncated ? `: ${int(trace.truncated)} too many` : '');
    this.count.classList.toggle('ew-over', trace.truncated > 0);
    return trace;
  }
}

function looseWord(text) {
  return text.replace(/^·/, '');
}

function listInWords(items) {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A number as a term after "+": (−0.0123) in brackets when negative. */
function signed(x) {
  return x < 0 ? `(${num(x, 4)})` : num(x, 4);
}

/** "2 of 3 shared words are", "1 of 3 shared words is", "All 3 shared words are", with the verb the count needs. */
export function sharedWords(same, shared) {
  if (shared === 1) return same ? 'The shared word is' : 'The shared word is not';
  if (same === shared) return shared === 2 ? 'Both shared words are' : `All ${int(shared)} shared words are`;
  if (same === 0) return `None of the ${int(shared)} shared words is`;
  return `${int(same)} of ${int(shared)} shared words ${same === 1 ? 'is' : 'are'}`;
}

/**
 * Compares two traces word by word: [{ word, a, b, sameToken, tokenCosine, sameSum, sumCosine }].
 * Byte tokens (<0xF0>) are pieces of a character, not words, so they are left out.
 */
export function compareTraces(first, second) {
  const used = new Set(second.tokens.flatMap((token, k) => (isByteToken(token.text) ? [k] : [])));
  const rows = [];
  first.tokens.forEach((token, i) => {
    if (isByteToken(token.text)) return;
    let j = second.tokens.findIndex((other, k) => !used.has(k) && other.id === token.id);
    if (j < 0) j = second.tokens.findIndex((other, k) => !used.has(k) && looseWord(other.text) === looseWord(token.text));
    if (j < 0) {
      rows.push({ word: looseWord(token.text), a: i, b: -1 });
      return;
    }
    used.add(j);
    const sumA = rowView(first.embeddings, i), sumB = rowView(second.embeddings, j);
    rows.push({
      word: looseWord(token.text),
      a: i,
      b: j,
      sameToken: token.id === second.tokens[j].id,
      tokenCosine: cosine(rowView(first.tokenEmbeddings, i), rowView(second.tokenEmbeddings, j)),
      sameSum: sumA.every((x, k) => x === sumB[k]),
      sumCosine: cosine(sumA, sumB),
    });
  });
  second.tokens.forEach((token, j) => {
    if (!used.has(j)) rows.push({ word: looseWord(token.text), a: -1, b: j });
  });
  return rows;
}

export class TraceTable extends ModelWidget {
  static get observedAttributes() {
    return [...super.observedAttributes, 'text', 'compare'];
  }

  build() {
    const update = () => this.#schedule();
    this.boxA = new TextBox({ label: this.hasAttribute('compare') ? 'Text 1' : 'Text', value: this.getAttribute('text') ?? DEFAULT_TEXT, onInput: update });
    this.viewA = new TraceView({ label: 'Trace of text 1: one row per token', onSelect: (r) => this.#rowSelected(1, this.trace, r) });
    this.legendHost = el('div');
    this.append(this.boxA.element, this.viewA.element);
    if (this.hasAttribute('compare')) {
      this.boxB = new TextBox({ label: 'Text 2', value: this.getAttribute('compare') || DEFAULT_COMPARE, onInput: update });
      this.viewB = new TraceView({ label: 'Trace of text 2: one row per token', onSelect: (r) => this.#rowSelected(2, this.compareTrace, r) });
      this.comparison = el('div', { className: 'ew-compare', 'aria-live': 'polite' });
      this.append(this.boxB.element, this.viewB.element, this.comparison);
    }
    this.append(this.legendHost);
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'text' || name === 'compare') {
      const box = name === 'text' ? this.boxA : this.boxB;
      if (box && after !== null && box.input.value !== after) {
        box.input.value = after;
        this.#schedule();
      }
      return;
    }
    super.attributeChangedCallback(name, before, after);
  }

  /** The text in the first box. Setting it traces the new text. */
  get text() {
    this.ensureBuilt();
    return this.boxA.input.value;
  }

  set text(value) {
    this.ensureBuilt();
    this.boxA.input.value = value;
    this.#update();
  }

  get compareText() {
    this.ensureBuilt();
    return this.boxB?.input.value;
  }

  set compareText(value) {
    this.ensureBuilt();
    if (!this.boxB) return;
    this.boxB.input.value = value;
    this.#update();
  }

  /**
   * The reader is on a row of a trace (a tap, a click, the arrow keys):
   * "ew-trace-row" says which, { text: 1 or 2, row (from 0), id, token },
   * so that a page can light up the token elsewhere (its row of the token table, its dot on a map).
   */
  #rowSelected(text, trace, row) {
    const token = trace?.tokens[row];
    if (!token) return;
    this.dispatchEvent(new CustomEvent('ew-trace-row', { bubbles: true, detail: { text, row, id: token.id, token: token.text } }));
  }

  show(model) {
    this.limit = tableLimit(model);
    this.legendHost.replaceChildren(legend(this.limit, { label: 'Colours of the token, position and sum lists' }));
    this.#update();
  }

  #schedule() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.#update();
    });
  }

  #update() {
    const model = this.model;
    if (!model) return;
    /** The trace of the first box (cut to the context when the text is longer). */
    this.trace = this.boxA.trace(model);
    this.viewA.set(model, this.trace, this.limit);
    if (this.boxB) {
      this.compareTrace = this.boxB.trace(model);
      this.viewB.set(model, this.compareTrace, this.limit);
      this.#compare();
    }
    this.dispatchEvent(new CustomEvent('ew-trace', { bubbles: true, detail: { trace: this.trace } }));
  }

  #compare() {
    const rows = compareTraces(this.trace, this.compareTrace);
    this.comparisonRows = rows;
    const matched = rows.filter((row) => row.a >= 0 && row.b >= 0);
    const tokenOf = (trace, i) => trace.tokens[i].text;
    const table = el('table', { className: 'ew-compare-table' },
      el('caption', { textContent: 'The same words in the two texts' }),
      el('thead', {}, el('tr', {}, ...['Word', 'Text 1', 'Text 2', 'Token lists', 'Sums'].map((h) => el('th', { scope: 'col', textContent: h })))),
      el('tbody', {}, ...rows.slice(0, this.compareOpen || rows.length <= COLLAPSED_ROWS + 2 ? rows.length : COLLAPSED_ROWS).map((row) => {
        const where = (trace, i) => (i < 0 ? '—' : `place ${i + 1}, ${tokenOf(trace, i)}`);
        let tokens = 'only in one text', sums = '—';
        if (row.a >= 0 && row.b >= 0) {
          tokens = row.sameToken ? 'the same list' : `two tokens, cosine ${num(row.tokenCosine, 2)}`;
          if (row.sameSum) sums = 'the same (same place)';
          else if (row.sameToken) sums = `differ only by the position rows, cosine ${num(row.sumCosine, 2)}`;
          else sums = `differ by the token${row.a === row.b ? '' : ' and the place'}, cosine ${num(row.sumCosine, 2)}`;
        }
        // data-label: on a narrow screen each row stacks as a small card that names its cells.
        return el('tr', {},
          el('th', { scope: 'row', className: 'ew-token', textContent: row.word }),
          el('td', { 'data-label': 'Text 1', textContent: where(this.trace, row.a) }),
          el('td', { 'data-label': 'Text 2', textContent: where(this.compareTrace, row.b) }),
          el('td', { 'data-label': 'Token lists', textContent: tokens }),
          el('td', { 'data-label': 'Sums', textContent: sums }));
      })));
    const moved = matched.filter((row) => row.a !== row.b);
    const sameTokens = matched.filter((row) => row.sameToken);
    const movedSame = moved.filter((row) => row.sameToken);
    const split = matched.filter((row) => !row.sameToken);
    const sentences = [];
    const named = (rows) => listInWords(rows.map((row) => `“${row.word}”`));
    if (matched.length) {
      const k = sameTokens.length;
      sentences.push(`${sharedWords(k, matched.length)} the same token in both texts` +
        (k ? `, so ${k === 1 ? 'it gets' : 'they get'} the same token list in both.` : '.'));
      if (moved.length && !this.trace.positionEmbeddings) {
        sentences.push(`${moved.length} ${moved.length === 1 ? 'word stands' : 'words stand'} at another place, but this model has no position table: ` +
          'its sums are the token lists, the same at every place, and it tells the two texts apart inside attention (rotary positions).');
      } else if (movedSame.length) {
        // The same token at two places: the token lists are the same numbers, so the sums differ by the position lists alone.
        const row = movedSame[0];
        const four = (x) => num(x, 4);
        const place = (trace, i) => `${four(trace.tokenEmbeddings.at(i, 0))} + ${signed(trace.positionEmbeddings.at(i, 0))} = ` +
          `${four(trace.embeddings.at(i, 0))} at place ${i + 1}`;
        sentences.push(`${named(movedSame.map((r) => ({ word: tokenOf(this.trace, r.a) })))} ` +
          `${movedSame.length === 1 ? 'is the same token at another place' : 'are the same tokens at other places'}, ` +
          `so ${movedSame.length === 1 ? 'its sum differs' : 'their sums differ'} only by the position rows: that is how the model tells the two texts apart. ` +
          `Column 0 of ${tokenOf(this.trace, row.a)}, token + position (to 4 decimals): ${place(this.trace, row.a)} in text 1, ` +
          `${place(this.compareTrace, row.b)} in text 2.`);
      }
    }
    const bytes = [this.trace, this.compareTrace].reduce((sum, trace) => sum + trace.tokens.filter((token) => isByteToken(token.text)).length, 0);
    if (bytes) sentences.push(`${int(bytes)} byte ${bytes === 1 ? 'token is' : 'tokens are'} left out of the table: ${bytes === 1 ? 'it is a piece' : 'they are pieces'} of a character, not a word.`);
    if (split.length) {
      const where = (trace, i) => `${tokenOf(trace, i)} at place ${i + 1}`;
      const one = split.length === 1;
      const moved = this.trace.positionEmbeddings && split.some((row) => row.a !== row.b);
      const why = moved
        ? `so ${one ? 'its sum differs' : 'their sums differ'} for two reasons, another token list and another position list, ` +
          `not only because ${one ? 'it' : 'they'} moved`
        : `so ${one ? 'its token list differs' : 'their token lists differ'}`;
      sentences.push(`${split.map((row) => `“${row.word}” is ${where(this.trace, row.a)} in text 1 and ${where(this.compareTrace, row.b)} in text 2`).join('; ')}: ` +
        `${one ? 'two different tokens' : 'different tokens each'} (a word at the start has no space before it, as the Tokens chapter showed), ${why}.`);
    }
    // A long text's table collapses like its trace.
    const more = el('button', { type: 'button', className: 'ew-button ew-trace-more', 'aria-expanded': String(Boolean(this.compareOpen)),
      textContent: this.compareOpen ? `Show only the first ${COLLAPSED_ROWS} words` : `Show all ${int(rows.length)} words` });
    more.hidden = rows.length <= COLLAPSED_ROWS + 2;
    more.addEventListener('click', () => {
      this.compareOpen = !this.compareOpen;
      this.#compare();
      this.comparison.querySelector('.ew-trace-more')?.focus();
    });
    this.comparison.replaceChildren(el('p', { textContent: sentences.join(' ') }), el('div', { className: 'ew-table-scroll' }, table), more);
  }
}

defineWidget('trace-table', TraceTable);
