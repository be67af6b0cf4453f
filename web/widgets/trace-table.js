// <ew-trace-table>: type a text and see what the first layer reads, row by row:
// each token, its row of the token table, its place's row of the position
// table, and their sum (model.trace). Hover, tap or arrow along a row to read
// the three numbers of one column and how they add up.
//
//   <ew-trace-table src="model/" text="One day Lily saw Max." compare="One day Max saw Lily."></ew-trace-table>
//
// With `compare`, a second box traces another text and a table compares the
// two: the same word keeps its token row wherever it stands, but its sum
// changes with its place.
import { ModelWidget } from './parts/model-widget.js';
import { el } from './parts/dom.js';
import { afterNextPaint, yieldToMain } from '../src/event-loop.js';
import { legend, tableLimit } from './parts/color.js';
import { int, num } from './parts/format.js';
import { hasTokenizer, isByteToken } from './parts/token-picker.js';
import { installFigures } from './parts/figure-control.js';
import { defineWidget } from './parts/definitions.js';
import { COLLAPSED_ROWS, TraceView } from './parts/trace-view.js';
import { TextBox } from './parts/trace-text-box.js';
import { compareTraces, listInWords, sharedWords, signed } from './parts/trace-compare.js';

export { COLLAPSED_ROWS, compareTraces, sharedWords };

// Six tokens, as the chapter's 6 × 128 says; the same tokens swap places in
// the two (·Lily and ·Max, a word before them), so only the positions differ.
export const DEFAULT_TEXT = 'One day Lily saw Max.';
export const DEFAULT_COMPARE = 'One day Max saw Lily.';

export class TraceTable extends ModelWidget {
  static get observedAttributes() {
    return [...super.observedAttributes, 'text', 'compare'];
  }

  build() {
    // Each box and its trace light each other: a token's row its characters, a character its tokens' rows.
    this.boxA = new TextBox({ label: this.hasAttribute('compare') ? 'Text 1' : 'Text', value: this.getAttribute('text') ?? DEFAULT_TEXT,
      onInput: () => this.#schedule('a'), onPoint: (rows) => this.viewA.light(rows) });
    this.viewA = new TraceView({ label: 'Trace of text 1: one row per token', onSelect: (r) => this.#rowSelected(1, this.trace, r),
      onHover: (r) => this.boxA.light(r === null ? this.#cursorRows(this.viewA) : [r]) });
    this.legendHost = el('div');
    this.append(this.boxA.element, this.viewA.element);
    if (this.hasAttribute('compare')) {
      this.boxB = new TextBox({ label: 'Text 2', value: this.getAttribute('compare') || DEFAULT_COMPARE,
        onInput: () => this.#schedule('b'), onPoint: (rows) => this.viewB.light(rows) });
      this.viewB = new TraceView({ label: 'Trace of text 2: one row per token', onSelect: (r) => this.#rowSelected(2, this.compareTrace, r),
        onHover: (r) => this.boxB.light(r === null ? this.#cursorRows(this.viewB) : [r]) });
      this.comparison = el('div', { className: 'ew-compare', 'aria-live': 'polite' });
      this.append(this.boxB.element, this.viewB.element, this.comparison);
    }
    this.specialNote = el('p', { className: 'ew-muted ew-trace-special', hidden: true });
    this.append(this.legendHost, this.specialNote);
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'text' || name === 'compare') {
      const box = name === 'text' ? this.boxA : this.boxB;
      if (box && after !== null && box.input.value !== after) {
        box.input.value = after;
        this.#schedule(name === 'text' ? 'a' : 'b');
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
   * Says under text `text`'s trace (1 or 2) what the reader's row did
   * elsewhere on the page ("… is shown in the token table", with links),
   * where the reader is (brought on screen); nothing clears it but the next
   * say, or a new model.
   * Nodes are strings or elements.
   */
  sayLinked(text, ...nodes) {
    this.ensureBuilt();
    const view = text === 2 && this.viewB ? this.viewB : this.viewA;
    this.linkedLine ??= el('p', { className: 'ew-note ew-trace-linked', role: 'status' });
    this.linkedLine.replaceChildren(...nodes);
    this.linkedLine.hidden = nodes.length === 0;
    view.readout.after(this.linkedLine);
    // Said where the reader is: the page moves as little as brings it on
    // screen, and not at all when it is; once the tap or key that said it
    // is painted, as measuring where the line lies lays the page out.
    this.cancelLinkedScroll?.();
    this.cancelLinkedScroll = nodes.length ? afterNextPaint(() => {
      this.cancelLinkedScroll = undefined;
      if (this.linkedLine.isConnected && !this.linkedLine.hidden) this.linkedLine.scrollIntoView({ block: 'nearest' });
    }) : undefined;
  }

  /**
   * The reader is on a row of a trace (a tap, a click, the arrow keys):
   * "ew-trace-row" says which, { text: 1 or 2, row (from 0), id, token },
   * so that a page can light up the token elsewhere (its row of the token table, its dot on a map).
   */
  #rowSelected(text, trace, row) {
    const token = trace?.tokens[row];
    if (!token) return;
    (text === 1 ? this.boxA : this.boxB).light([row]);
    this.dispatchEvent(new CustomEvent('ew-trace-row', { bubbles: true, detail: { text, row, id: token.id, token: token.text } }));
  }

  // The row the arrow keys or a tap chose, if any: what stays lit when the mouse leaves the rows.
  #cursorRows(view) {
    return view.cursor ? [view.cursor.r] : [];
  }

  // Each text's rows in a task of their own, then the comparison: the first show draws some forty strips.
  async show(model) {
    this.sayLinked(1);
    this.limit = tableLimit(model);
    this.legendHost.replaceChildren(legend(this.limit, { label: 'Colours of the token, position and sum lists' }));
    this.#sayWhatTheModelAdds(model);
    if (!this.boxB) return this.#update();
    this.#update(new Set(['a']), 'none');
    await yieldToMain();
    if (this.model === model) this.#update(new Set(['b']));
    return undefined;
  }

  /**
   * The trace counts the reader's own tokens, as the chapter does; a model
   * whose tokenizer puts special tokens around every text (Llama's BOS,
   * BERT's [CLS] and [SEP]) was trained seeing them too, so say which.
   */
  #sayWhatTheModelAdds(model) {
    const around = hasTokenizer(model) ? model.specialTokensAround : { before: [], after: [] };
    const names = (tokens) => listInWords(tokens.map((token) => token.text));
    const parts = [];
    if (around.before.length) parts.push(`${names(around.before)} before`);
    if (around.after.length) parts.push(`${names(around.after)} after`);
    this.specialNote.hidden = parts.length === 0;
    this.specialNote.textContent = parts.length === 0 ? '' : `This model expects ${parts.join(' and ')} every text: its tokenizer adds ` +
      `${around.before.length + around.after.length === 1 ? 'it' : 'them'} (model.encode(text, { addSpecialTokens: true })). ` +
      'The trace shows only your own tokens, as the chapter counts them.';
  }

  /**
   * A key typed into a box: once the browser has painted the key (the
   * character in the box), that box's text is traced again, its rows that
   * changed are drawn and the comparison of the two texts is written, to be
   * painted on the frame after; what listens to the trace (the ew-trace
   * event: the page's Code lines, its address) once that is painted and the
   * page is idle. So a key is painted within a frame, even on a slow phone,
   * and keys typed faster than the rows are drawn are traced together.
   */
  #schedule(box) {
    (this.changed ??= new Set()).add(box);
    if (this.pending) return;
    this.pending = afterNextPaint(() => {
      this.pending = null;
      const changed = this.changed;
      this.changed = new Set();
      this.#update(changed, 'idle');
    });
  }

  /** Traces the changed boxes' texts (a, b) and shows them with the comparison; then says so (`then`: 'now', 'idle' or 'none', for neither). */
  #update(changed = new Set(['a', 'b']), then = 'now') {
    const model = this.model;
    if (!model) return;
    if (changed.has('a')) {
      /** The trace of the first box (cut to the context when the text is longer). */
      this.trace = this.boxA.trace(model);
      this.viewA.set(model, this.trace, this.limit);
    }
    if (this.boxB && changed.has('b')) {
      this.compareTrace = this.boxB.trace(model);
      this.viewB.set(model, this.compareTrace, this.limit);
    }
    if (then === 'none') return;
    if (this.boxB && this.compareTrace) this.#compare();
    if (then === 'now') {
      this.#announce();
      return;
    }
    if (this.announcePending) return;
    const idle = typeof requestIdleCallback === 'function' ? (run) => requestIdleCallback(run, { timeout: 250 }) : (run) => setTimeout(run, 0);
    this.announcePending = true;
    idle(() => {
      this.announcePending = false;
      if (this.model === model) this.#announce();
    });
  }

  /** Says that the trace changed (ew-trace), once it is shown. */
  #announce() {
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
          // Without a position table a sum is the token list wherever the word stands.
          if (row.sameSum) sums = row.a === row.b ? 'the same (same place)' : `the same${this.trace.positionEmbeddings ? '' : ' (no position list is added)'}`;
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

// Its figures for a book: element.figure({ format, which }) and a control under it.
installFigures(TraceTable, {
  names: (table) => (table.trace ? ['trace-1', ...(table.compareTrace ? ['trace-2'] : [])] : []),
  load: () => import('./parts/figure-strips.js'),
});

defineWidget('ew-trace-table', TraceTable);
