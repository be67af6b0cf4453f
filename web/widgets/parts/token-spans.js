// The reader's text drawn again under its text box, each token's characters
// underlined (the trace's start and end, model.encode's offsets), so that a
// token lit in the trace lights its characters, and a character pointed at,
// tapped or under the caret names its tokens. A character several tokens
// share (an emoji's bytes, each a token) is underlined dashed.
import { el } from './dom.js';

/** The underlines of one text box's tokens. */
export class TokenSpans {
  constructor(input) {
    this.input = input;
    this.backdrop = el('div', { className: 'ew-token-backdrop', 'aria-hidden': 'true' });
    this.segments = [];
    this.lit = [];
    input.addEventListener('scroll', () => { this.backdrop.scrollTop = input.scrollTop; }, { passive: true });
    // Fitted once the box is laid out (a size change, its scroll bar coming or going), never in
    // the middle of an update: reading the layout there would make the browser lay the page out twice a key.
    if (typeof ResizeObserver === 'function') new ResizeObserver(() => this.fit()).observe(input);
  }

  /**
   * Underlines `tokens` ({ start, end } each, in order) in `text`: the text
   * is cut at every token's start and end, and each piece knows the tokens
   * whose characters hold it.
   */
  show(text, tokens) {
    const cuts = new Set([0, text.length]);
    for (const token of tokens) { cuts.add(token.start); cuts.add(token.end); }
    const points = [...cuts].filter((x) => x >= 0 && x <= text.length).sort((a, b) => a - b);
    const segments = [];
    const children = [];
    let from = 0;
    for (let p = 0; p + 1 < points.length; p++) {
      const start = points[p], end = points[p + 1];
      while (from < tokens.length && tokens[from].end <= start) from++;
      const covering = [];
      for (let i = from; i < tokens.length && tokens[i].start < end; i++) {
        if (tokens[i].start <= start && tokens[i].end >= end && tokens[i].end > tokens[i].start) covering.push(i);
      }
      const piece = text.slice(start, end);
      if (!covering.length) {
        children.push(piece);
        continue;
      }
      const element = el('span', {
        className: `ew-tok ${covering[0] % 2 ? 'ew-tok-b' : 'ew-tok-a'}${covering.length > 1 ? ' ew-tok-shared' : ''}`,
        textContent: piece,
      });
      segments.push({ start, end, tokens: covering, element });
      children.push(element);
    }
    // A last line break takes a line of its own only with something after it.
    children.push('\u200B');
    this.backdrop.replaceChildren(...children);
    this.segments = segments;
    this.lit = [];
  }

  /** Keeps the drawn text where the box's is: its scroll, and the width its scroll bar takes. */
  fit() {
    const { input, backdrop } = this;
    const style = getComputedStyle(input);
    const bar = input.offsetWidth - input.clientWidth - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
    backdrop.style.paddingRight = `calc(${style.paddingRight} + ${Math.max(0, bar)}px)`;
    backdrop.scrollTop = input.scrollTop;
  }

  /** Lights the characters of the tokens `rows` (indices), and no others. */
  light(rows) {
    for (const segment of this.lit) segment.element.classList.remove('ew-tok-lit');
    const wanted = new Set(rows);
    this.lit = wanted.size ? this.segments.filter((segment) => segment.tokens.some((i) => wanted.has(i))) : [];
    for (const segment of this.lit) segment.element.classList.add('ew-tok-lit');
  }

  /** The tokens whose characters are under a point of the screen ([] for none). */
  tokensAtPoint(x, y) {
    for (const segment of this.segments) {
      for (const box of segment.element.getClientRects()) {
        if (x >= box.left && x < box.right && y >= box.top && y < box.bottom) return segment.tokens;
      }
    }
    return [];
  }

  /**
   * The tokens of the character at a caret position: the one after it, or
   * before it at the end of a word; with a selection, every token it touches.
   */
  tokensAtCaret(start, end = start) {
    if (end > start) {
      const touched = this.segments.filter((segment) => segment.start < end && segment.end > start);
      return [...new Set(touched.flatMap((segment) => segment.tokens))];
    }
    const after = this.segments.find((segment) => segment.start <= start && start < segment.end);
    if (after) return after.tokens;
    const before = this.segments.find((segment) => segment.end === start);
    return before ? before.tokens : [];
  }
}
