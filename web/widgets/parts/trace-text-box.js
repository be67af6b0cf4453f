// A text box of <ew-trace-table>, with its count of tokens against the most
// the model reads.
import { el, uniqueId } from './base.js';
import { int } from './format.js';

/** One text box with its token count against the context. */
export class TextBox {
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
    return trace;
  }
}
