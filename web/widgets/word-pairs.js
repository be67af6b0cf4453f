// <ew-word-pairs>: the cosine of given pairs of tokens, with the book's figure
// beside ours when given. With `for` naming a <ew-nearest-words>, each word is a
// button that shows its closest tokens there.
//
//   <ew-word-pairs pairs="·girl ·boy 0.74; ·three ·3 0.88; ·Lily Lily 0.76" for="nearest"></ew-word-pairs>
import { rowView, cosine } from '../index.js';
import { ModelWidget } from './parts/model-widget.js';
import { el } from './parts/dom.js';
import { settableAttributes } from './parts/attributes.js';
import { notOneToken } from './parts/token-picker.js';
import { num } from './parts/format.js';
import { defineWidget } from './parts/definitions.js';

export class WordPairs extends ModelWidget {
  // The name of the `for` element whose definition a new show waits for.
  #waitingFor;

  static get observedAttributes() {
    return [...super.observedAttributes, 'pairs'];
  }

  build() {
    this.list = el('ul', { className: 'ew-pairs' });
    this.append(this.list);
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'pairs') {
      if (this.model) this.show(this.model);
      return;
    }
    super.attributeChangedCallback(name, before, after);
  }

  /** The pairs: [{ a, b, book }] from the pairs attribute ("a b [book]; …"). */
  get pairs() {
    return (this.getAttribute('pairs') ?? '·girl ·boy 0.74; ·three ·3 0.88; ·Lily Lily 0.76')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words.length >= 2)
      .map(([a, b, book]) => ({ a, b, book: book === undefined ? undefined : Number(book) }));
  }

  /**
   * A word of a pair: a button that shows its closest tokens in the
   * <ew-nearest-words> named by the `for` attribute, when there is one.
   */
  #word(text, id, known) {
    const target = this.#target();
    if (!known || id === undefined || !target || typeof target.pick !== 'function') {
      return el('span', { className: 'ew-token', textContent: text });
    }
    const button = el('button', { type: 'button', className: 'ew-token ew-link', textContent: text, title: `Show the closest tokens to ${text}` });
    button.addEventListener('click', () => {
      target.pick(id);
      const still = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
      target.scrollIntoView?.({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
    });
    return button;
  }

  /** The element the `for` attribute names, or null. */
  #target() {
    return (this.getAttribute('for') && document.getElementById(this.getAttribute('for'))) || null;
  }

  /**
   * The <ew-nearest-words> named by `for` may be defined after this element
   * (its own module, imported later, or held back by the page): its words
   * become buttons once it is.
   */
  #showAgainOnceTargetDefined() {
    const name = this.#target()?.localName;
    // Only a custom element's name has a hyphen; a <div> is never defined.
    if (!name?.includes('-') || customElements.get(name) || this.#waitingFor === name) return;
    this.#waitingFor = name;
    customElements.whenDefined(name).then(() => {
      this.#waitingFor = undefined;
      if (this.model) this.show(this.model);
    });
  }

  show(model) {
    this.#showAgainOnceTargetDefined();
    /** Live results, for the page and its tests: [{ a, b, ids, score, missing }]. */
    this.results = [];
    this.list.replaceChildren(...this.pairs.map(({ a, b, book }) => {
      const ids = [], missing = [];
      for (const word of [a, b]) {
        try {
          ids.push(model.tokenId(word));
        } catch (error) {
          missing.push(notOneToken(model, word, error).message);
        }
      }
      const item = el('li', { className: 'ew-pair' });
      const names = el('span', { className: 'ew-pair-words' },
        this.#word(a, ids[0], missing.length === 0), ' and ', this.#word(b, ids[1], missing.length === 0));
      if (missing.length) {
        this.results.push({ a, b, ids, score: null, missing });
        item.append(names, el('span', { className: 'ew-pair-missing', textContent: ` ${missing.join(' ')} So this pair has no score here.` }));
        return item;
      }
      const score = cosine(rowView(model.wte, ids[0]), rowView(model.wte, ids[1]));
      this.results.push({ a, b, ids, score, missing });
      const bar = el('span', { className: 'ew-bar-fill' });
      bar.style.width = `${Math.max(0, Math.min(1, score)) * 100}%`;
      item.append(
        names,
        el('span', { className: 'ew-muted', textContent: ` (ids ${ids[0]} and ${ids[1]})` }),
        el('span', { className: 'ew-pair-score' },
          el('span', { className: 'ew-bar', 'aria-hidden': 'true' }, bar),
          el('span', { className: 'ew-score', textContent: num(score, 2) })),
        book === undefined ? '' : el('span', { className: 'ew-book', textContent: `the book’s model: ${num(book, 2)}` }));
      return item;
    }));
  }
}

settableAttributes(WordPairs, ['pairs']);
defineWidget('ew-word-pairs', WordPairs);
