// <ew-embedding-table>: the whole token table (vocab × width) as a heat map.
// Find a token to highlight its row; tap, click or arrow to a cell for its
// number.
//
//   <ew-embedding-table src="model/" token="Lily"></ew-embedding-table>
import { ModelWidget } from './parts/model-widget.js';
import { el } from './parts/dom.js';
import { shape } from './parts/format.js';
import { HeatGrid } from './parts/heat-grid.js';
import { TokenPicker, tokenLabel } from './parts/token-picker.js';
import { legend, tableLimit, RowImage } from './parts/color.js';
import { int, num } from './parts/format.js';
import { rowView } from '../src/matrix.js';
import { installFigures } from './parts/figure-control.js';
import { defineWidget } from './parts/definitions.js';

// The picture is painted a block of rows at a time, each when its rows first
// show: blocks of about this many numbers (64 rows of 128; 16 rows of a
// wider table at least), so the first view paints little more than the
// hundred or so rows it shows, however wide the table.
const BLOCK_NUMBERS = 8192;
const MIN_BLOCK_ROWS = 16;

export class EmbeddingTable extends ModelWidget {
  static get observedAttributes() {
    return [...super.observedAttributes, 'token'];
  }

  build() {
    this.picker = new TokenPicker({
      label: 'Find a token',
      placeholder: 'e.g. Lily, girl or a row id such as 665',
      rowIds: true,
      onPick: (id) => this.pick(id),
    });
    this.summary = el('p', { className: 'ew-summary' });
    // Says which token another part of the page showed here, with the way back to the reader's own.
    this.linkNote = el('p', { className: 'ew-note ew-link-note', role: 'status', hidden: true });
    this.rowText = el('p', { className: 'ew-row-numbers' });
    this.gridHost = el('div', { className: 'ew-grid-host' });
    this.legendHost = el('div');
    this.append(this.summary, this.picker.element, this.linkNote, this.rowText, this.gridHost, this.legendHost);
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'token') {
      if (this.model && after) this.picker.pickText(after);
      return;
    }
    super.attributeChangedCallback(name, before, after);
  }

  show(model) {
    const table = model.wte;
    const { rows, cols } = table;
    const limit = tableLimit(model);
    // Another model: the row read before is read again in it (its numbers, its token), and nothing of the old one stays.
    const kept = this.pendingRow ?? this.row;
    this.pendingRow = undefined;
    this.rowText.textContent = '';
    this.#endLink();
    this.picker.setModel(model);
    this.summary.textContent = `${shape(rows, cols)}: one row for each of the ${int(rows)} tokens, ${int(cols)} numbers in each row, ${int(rows * cols)} numbers in all.`;
    // Painted a block of rows at a time: those on screen first, the rest when the browser is idle.
    const blockRows = Math.max(MIN_BLOCK_ROWS, Math.round(BLOCK_NUMBERS / Math.max(1, cols)));
    const image = new RowImage(() => model.wte.data, rows, cols, limit, blockRows, table.dtype);
    const describe = (r, c, v) => `${tokenLabel(model, r)} (row ${r}), column ${c}: ${num(v)}`;
    this.grid = new HeatGrid({
      rows,
      cols,
      image,
      // A 16-bit table's number is widened from its bits (Matrix.at).
      value: table.dtype === 'float32' ? (r, c) => model.wte.data[r * cols + c] : (r, c) => model.wte.at(r, c),
      describe,
      rowLabel: (r, short) => (short ? String(r) : `${r} ${tokenLabel(model, r)}`),
      highlightLabel: (r, short) => (short ? tokenLabel(model, r) : `${r} ${tokenLabel(model, r)}`),
      loupeRowLabel: (r) => `${r} ${tokenLabel(model, r)}`,
      limit,
      colLabel: (c) => String(c),
      rowHeight: 4,
      label: `The token table: ${shape(rows, cols)} numbers, one row per token`,
      prompt: 'Tap or click a cell, or focus the table and use the arrow keys, to read one number.',
      onSelect: (r) => {
        this.#showRow(r);
        // The box names the row read now, not the token searched before.
        if (r !== this.grid?.highlighted) this.picker.show(r);
        // The reader moving to another row (a click, the arrow keys) shows another token: said as a pick is.
        if (!this.picking && r !== this.saidRow) {
          this.#endLink();
          this.#sayRow(r);
        }
      },
      onRowLabel: (r) => this.pick(r),
    });
    this.gridHost.replaceChildren(this.grid.element);
    this.legendHost.replaceChildren(legend(limit, { label: 'Colours of the token table' }));
    this.grid.layout();
    const start = this.getAttribute('token');
    if (kept !== undefined && kept < rows) this.pick(kept);
    else if (start) this.picker.pickText(start);
    image.paintRestWhenIdle(this.grid.highlighted ?? 0);
  }

  /**
   * The row the table reads now, a token id: the cursor's row (a cell read),
   * else the row picked. Setting it picks that row, as the search box does.
   */
  get row() {
    return this.grid?.cursor?.r ?? this.grid?.highlighted ?? undefined;
  }

  set row(id) {
    this.ensureBuilt();
    if (this.grid) this.pick(Number(id));
    else this.pendingRow = Number(id);
  }

  /** The token whose row is highlighted (a text such as "Lily"; setting it finds it as the search box does). */
  get token() {
    return this.grid?.highlighted == null || !this.model ? this.getAttribute('token') ?? undefined : tokenLabel(this.model, this.grid.highlighted);
  }

  set token(text) {
    this.setAttribute('token', text);
  }

  /**
   * Highlights a token's row and scrolls to it. With `from` (words such as
   * "the trace, place 2 of text 1"), another part of the page shows its
   * token here: the table says so, and offers the reader's own token back.
   */
  pick(id, { from } = {}) {
    if (!this.grid || !Number.isInteger(id) || id < 0 || id >= this.grid.rows) return;
    const own = this.ownRow ?? this.row;
    if (from === undefined) this.#endLink();
    this.picker.show(id);
    this.picking = true;
    try {
      this.grid.highlightRow(id);
    } finally {
      this.picking = false;
    }
    if (from !== undefined) this.#startLink(id, own, from);
    this.#sayRow(id);
  }

  #sayRow(id) {
    this.saidRow = id;
    this.dispatchEvent(new CustomEvent('ew-token', { bubbles: true, detail: { id } }));
  }

  /** Shows that the row is another part's token, with a button back to the reader's own (when it was another). */
  #startLink(id, own, from) {
    const model = this.model;
    this.ownRow = own;
    const back = own !== undefined && own !== id
      ? el('button', { type: 'button', className: 'ew-button ew-link-back', textContent: `Back to ${tokenLabel(model, own)} (row ${own})` })
      : undefined;
    back?.addEventListener('click', () => this.pick(own));
    this.linkNote.replaceChildren(`Showing ${tokenLabel(model, id)} (row ${id}), from ${from}.`, ...(back ? [' ', back] : []));
    this.linkNote.hidden = false;
  }

  #endLink() {
    this.ownRow = undefined;
    this.linkNote.hidden = true;
    this.linkNote.replaceChildren();
  }

  #showRow(r) {
    const model = this.model;
    const row = rowView(model.wte, r);
    const first = Array.from(row.subarray(0, 5), (x) => num(x)).join(', ');
    // The count said in words rather than a trailing "…", which reads as a number still to come (and prints as one).
    this.rowText.textContent = `Row ${r}, ${tokenLabel(model, r)}, starts ${first}${model.width > 5 ? ` (the first 5 of its ${int(model.width)} numbers)` : ''}`;
  }
}

// Its figures for a book: element.figure({ format, which }) and a control under it.
installFigures(EmbeddingTable, { names: (table) => (table.grid ? ['token-table'] : []), load: () => import('./parts/figure-grids.js') });

defineWidget('ew-embedding-table', EmbeddingTable);
