// <ew-nearest-words>: pick a word, see its closest tokens by cosine similarity
// (model.nearest), with bars and numbers. Click a neighbour to follow it.
//
//   <ew-nearest-words src="model/" word="·girl" k="10"></ew-nearest-words>
//
// <ew-word-pairs>: the cosine of given pairs of tokens, with the book's figure
// beside ours when given. With `for` naming a <ew-nearest-words>, each word is a
// button that shows its closest tokens there.
//
//   <ew-word-pairs pairs="·girl ·boy 0.74; ·three ·3 0.88; ·Lily Lily 0.76" for="nearest"></ew-word-pairs>
import { rowView, cosine } from '../index.js';
import { ModelWidget } from './parts/model-widget.js';
import { el } from './parts/dom.js';
import { settableAttributes } from './parts/attributes.js';
import { TokenPicker, tokenLabel, notOneToken } from './parts/token-picker.js';

import { neighbourList } from './parts/neighbours.js';
import { num } from './parts/format.js';
import { defineWidget } from './parts/definitions.js';

export class NearestWords extends ModelWidget {
  static get observedAttributes() {
    return [...super.observedAttributes, 'word', 'k'];
  }

  build() {
    this.picker = new TokenPicker({
      label: 'Word',
      placeholder: 'e.g. girl, red, ran',
      onPick: (id) => this.pick(id),
      // No single token: the old neighbours would answer another word.
      onMissing: () => this.#clear(),
    });
    this.heading = el('p', { className: 'ew-summary', 'aria-live': 'polite' });
    this.results = el('div', { className: 'ew-results' });
    this.append(this.picker.element, this.heading, this.results);
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'word') {
      if (this.model && after) this.pickText(after);
      return;
    }
    if (name === 'k') {
      if (this.model && this.id_ !== undefined) this.pick(this.id_);
      return;
    }
    super.attributeChangedCallback(name, before, after);
  }

  get k() {
    const k = Number(this.getAttribute('k') ?? 10);
    return Number.isInteger(k) && k > 0 ? k : 10;
  }

  /** The token shown now, or undefined. */
  get tokenId() {
    return this.id_;
  }

  /** The word shown (its token's text). Setting it finds the word as the search box does. */
  get word() {
    return this.model && this.id_ !== undefined ? tokenLabel(this.model, this.id_) : this.getAttribute('word') ?? '·girl';
  }

  set word(text) {
    this.setAttribute('word', text);
  }

  #clear() {
    this.id_ = undefined;
    this.heading.textContent = '';
    this.results.replaceChildren();
  }

  show(model) {
    this.picker.setModel(model);
    if (this.id_ !== undefined && this.id_ < model.vocabSize) return this.pick(this.id_);
    this.pickText(this.getAttribute('word') ?? '·girl');
  }

  /** Shows the closest tokens to a token id. */
  pick(id) {
    const model = this.model;
    if (!model) {
      this.id_ = id;
      return;
    }
    this.id_ = id;
    this.picker.show(id);
    // A neighbour picked by keyboard is replaced with the list: keep the focus at its rank.
    const focused = this.results.contains(document.activeElement)
      ? [...this.results.querySelectorAll('button')].indexOf(document.activeElement) : -1;
    const k = Math.min(this.k, model.vocabSize - 1);
    // tokenLabel: a table may have rows past the tokenizer's last token (padding rows).
    const neighbours = model.nearest(id, k).map((n) => ({ ...n, text: tokenLabel(model, n.id) }));
    const word = tokenLabel(model, id);
    this.heading.textContent = `The ${neighbours.length} tokens closest to ${word} (id ${id}), by cosine similarity:`;
    this.results.replaceChildren(neighbourList(neighbours, {
      onPick: (next) => this.pick(next),
      label: `Closest tokens to ${word}`,
    }));
    if (focused >= 0) (this.results.querySelectorAll('button')[focused] ?? this.results.querySelector('button'))?.focus();
    this.dispatchEvent(new CustomEvent('ew-token', { bubbles: true, detail: { id } }));
  }

  /** Shows the closest tokens to a word given as text (as the search box reads it), or its pieces. */
  pickText(text) {
    if (!this.model) return;
    this.picker.pickText(text);
  }
}

export class WordPairs extends ModelWidget {
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
    const target = this.getAttribute('for') && document.getElementById(this.getAttribute('for'));
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

  show(model) {
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

settableAttributes(NearestWords, ['k']);
settableAttributes(WordPairs, ['pairs']);
defineWidget('ew-nearest-words', NearestWords);
defineWidget('ew-word-pairs', WordPairs);
