// A text box of <ew-trace-table>, with its count of tokens against the most
// the model reads, and each token's characters underlined in it
// (token-spans.js): pointing at a character, tapping it or putting the
// caret on it names its token and says so to `onPoint` (its rows).
import { el, uniqueId } from './dom.js';
import { int } from './format.js';
import { TokenSpans } from './token-spans.js';

/** One text box with its token count against the context. */
export class TextBox {
  constructor({ label, value, onInput, onPoint = () => {} }) {
    const id = uniqueId('ew-text');
    this.input = el('textarea', { id, className: 'ew-input ew-textarea', rows: 2, value, spellcheck: false });
    this.spans = new TokenSpans(this.input);
    this.onPoint = onPoint;
    this.pointed = el('p', { className: 'ew-help ew-token-pointed', 'aria-live': 'polite' });
    this.meter = el('meter', { min: 0, max: 128, value: 0 });
    this.count = el('span', { className: 'ew-count' });
    const countId = uniqueId('ew-count');
    this.count.id = countId;
    this.meter.setAttribute('aria-labelledby', countId);
    this.input.setAttribute('aria-describedby', countId);
    this.message = el('p', { className: 'ew-note ew-warning', role: 'alert' });
    this.element = el('div', { className: 'ew-textbox' },
      el('label', { className: 'ew-label', for: id, textContent: label }),
      el('div', { className: 'ew-textarea-wrap' }, this.spans.backdrop, this.input),
      el('div', { className: 'ew-count-line' }, this.meter, this.count),
      this.pointed,
      this.message);
    this.input.addEventListener('input', onInput);
    // A pointer over a character; a tap, a click or a key that moves the caret.
    this.input.addEventListener('pointermove', (event) => {
      if (event.pointerType === 'mouse') this.#point(this.spans.tokensAtPoint(event.clientX, event.clientY));
    });
    this.input.addEventListener('pointerleave', (event) => {
      if (event.pointerType === 'mouse') this.#point(this.#atCaret());
    });
    for (const type of ['click', 'keyup', 'select', 'focus']) this.input.addEventListener(type, () => this.#point(this.#atCaret()));
  }

  // The tokens at the caret, while the box has the focus.
  #atCaret() {
    if (document.activeElement !== this.input || !this.shown) return [];
    return this.spans.tokensAtCaret(this.input.selectionStart, this.input.selectionEnd);
  }

  #point(rows) {
    this.light(rows);
    this.onPoint(rows);
  }

  /** Lights the characters of the trace's tokens `rows`, and names them under the box. */
  light(rows) {
    this.spans.light(rows);
    const tokens = this.shown?.tokens ?? [];
    const named = rows.filter((r) => r < tokens.length);
    if (!named.length) {
      this.pointed.textContent = '';
      return;
    }
    const first = tokens[named[0]];
    const characters = JSON.stringify(this.shown.text.slice(first.start, first.end));
    this.pointed.textContent = named.length === 1
      ? `${characters} is token ${int(named[0] + 1)}, ${first.text} (id ${first.id}).`
      : `${characters} is ${int(named.length)} tokens, ${named.map((r) => int(r + 1)).join(', ')}: ` +
        `${named.map((r) => tokens[r].text).join(' ')}${first.partial ? ', each a part of its bytes' : ''}.`;
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
      const reads = most === model.context ? 'the model reads at most' : 'this page traces at most';
      this.message.textContent = `This text is ${int(length)} tokens long, but ${reads} ${int(most)} tokens at a time. ` +
        `Below are its first ${int(most)}; the last ${int(trace.truncated)} ${trace.truncated === 1 ? 'is' : 'are'} left out.`;
    }
    const n = trace.tokens.length + trace.truncated;
    const most = model.maxTraceTokens;
    this.meter.max = most;
    this.meter.value = Math.min(n, most);
    // The model's own limit, or the trace's where the model reads more (a model without a position table).
    const traced = most === model.context ? '' : ` traced here (${model.context > most
      ? `the model reads up to ${int(model.context)}` : 'its config.json does not say how many the model reads'})`;
    this.count.textContent = `${int(n)} ${n === 1 ? 'token' : 'tokens'} of at most ${int(most)}${traced}` +
      (trace.truncated ? `: ${int(trace.truncated)} too many` : '');
    this.count.classList.toggle('ew-over', trace.truncated > 0);
    this.shown = trace;  // (What the underlines are of.)
    this.spans.show(text, trace.tokens);
    this.pointed.textContent = '';
    return trace;
  }
}
