// The rows of one text's trace in <ew-trace-table>: a colour strip per
// token for its token list, its position list and their sum, which reads
// out the numbers of the column under the pointer, finger or arrow keys.
import { rowView } from '../../index.js';
import { el, uniqueId } from './dom.js';
import { stripImage } from './color.js';
import { int, num } from './format.js';
import { Loupe, neighbourhood } from './loupe.js';
import { byteNote } from './token-picker.js';

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
export class TraceView {
  constructor({ label, onSelect, onHover = () => {} }) {
    this.label = label;
    this.onSelect = onSelect;
    this.onHover = onHover;
    this.litRows = [];
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
    this.table.addEventListener('pointerleave', () => {
      this.tip.hidden = true;
      this.onHover(null);
    });
    // A mouse over a row lights its token's characters in the text (a finger taps the row: onSelect).
    this.table.addEventListener('pointerover', (event) => {
      if (event.pointerType !== 'mouse') return;
      const row = event.target.closest?.('[data-row]');
      this.onHover(row ? Number(row.dataset.row) : null);
    });
  }

  /** Marks the rows of these tokens (those whose characters the reader points at in the text). */
  light(rows) {
    this.litRows = rows;
    for (const row of this.body.querySelectorAll('.ew-lit')) row.classList.remove('ew-lit');
    for (const r of rows) this.body.children[r]?.classList.add('ew-lit');
  }

  /** Shows a trace. */
  set(model, trace, limit) {
    this.model = model;
    this.trace = trace;
    this.width = model.width;
    this.limit = limit;
    this.litRows = [];
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
    if (this.cursor && this.cursor.r < trace.tokens.length) {
      this.select(this.cursor.r, this.cursor.c);
    } else {
      this.cursor = null;
      // A kept row keeps its marker: none is on now.
      for (const marker of this.body.querySelectorAll('.ew-strip-marker:not([hidden])')) marker.hidden = true;
    }
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

  // Rows are built only when shown: a 200-token trace collapsed costs 12 rows of strips, not 200.
  // A row whose place keeps its token (the same model, colours and parts) is
  // kept as it is: its three lists are the same numbers, so a key typed at
  // the end of a text builds the row or two it changed, not every row.
  #rows() {
    const { trace, limit } = this;
    const shown = this.shownRows;
    const same = this.built?.model === this.model && this.built.limit === limit && this.built.parts === this.parts;
    const kept = same ? this.built : { rows: [], ids: [] };
    const ids = trace.tokens.slice(0, shown).map((token) => token.id);
    const rows = trace.tokens.slice(0, shown).map((token, i) => {
      if (kept.rows[i] && kept.ids[i] === token.id) return kept.rows[i];
      const strips = this.parts.map(([part, name]) => {
        const strip = stripImage(rowView(trace[part], i), this.width, limit);
        strip.className = 'ew-strip';
        strip.setAttribute('aria-hidden', 'true');
        strip.dataset.row = String(i);
        const marker = el('span', { className: 'ew-strip-marker', hidden: true });
        return el('span', { role: 'cell', className: 'ew-trace-part', 'data-part': name },
          el('span', { className: 'ew-trace-part-name', textContent: name }),
          el('span', { className: 'ew-strip-box' }, strip, marker));
      });
      return el('div', { role: 'row', className: 'ew-trace-row', 'data-row': String(i) },
        el('span', { role: 'rowheader', className: 'ew-trace-place', textContent: String(i + 1) }),
        el('span', { role: 'cell', className: 'ew-trace-token' },
          el('span', { className: 'ew-token', textContent: token.text }), el('span', { className: 'ew-muted', textContent: ` id ${token.id}` })),
        ...strips);
    });
    this.built = { model: this.model, limit, parts: this.parts, rows, ids };
    // Only the rows that changed are put in or taken out.
    rows.forEach((row, i) => {
      const now = this.body.children[i];
      if (now !== row) {
        if (now) now.replaceWith(row);
        else this.body.append(row);
      }
    });
    while (this.body.children.length > rows.length) this.body.lastElementChild.remove();
    this.light(this.litRows.filter((r) => r < shown));
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
    // A part's whole line reads its strip: a finger gets the line's height, not the strip's 14 px.
    const strip = event.target.closest?.('.ew-trace-part')?.querySelector('.ew-strip');
    if (!strip || !this.trace) {
      if (!click) this.tip.hidden = true;
      return;
    }
    const box = strip.getBoundingClientRect();
    const left = box.left + strip.clientLeft;
    const c = Math.max(0, Math.min(this.width - 1, Math.floor(((event.clientX - left) / strip.clientWidth) * this.width)));
    const r = Number(strip.dataset.row);
    const touch = (event.pointerType || this.lastPointer) === 'touch';
    if (click || touch) {
      this.select(r, c);
      // A click or tap is the reader choosing a row (a finger passing over the strips is not).
      if (click) this.onSelect?.(r, c);
      // A strip gives a finger a pixel or two a number: the loupe opens beside it with numbers to tap.
      if (click && touch) this.#openLoupe(strip);
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

  /**
   * The loupe beside strip `near`, where the strip is when the loupe is
   * placed (read in the tap's task, after its changes, it would lay the page
   * out there).
   */
  #openLoupe(near, stay = false) {
    if (!this.cursor) return;
    const { r, c } = this.cursor;
    const cols = neighbourhood(c, 2, this.width);
    this.loupe.show({
      point: () => {
        const box = near.getBoundingClientRect();
        return { x: box.left + ((c + 0.5) / this.width) * box.width, y: box.top + box.height / 2 };
      },
      stay,
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
  }

  /** A tap in the loupe: the cursor moves there, and the loupe stays where it is, under the finger. */
  #loupeAt(c) {
    this.select(this.cursor.r, c);
    this.#openLoupe(null, true);
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
    this.body.children[this.cursor.r]?.scrollIntoView?.({ block: 'nearest' });
  }
}
