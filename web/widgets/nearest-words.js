// <ew-nearest-words>: pick a word, see its closest tokens by cosine similarity
// (model.nearest), with bars and numbers. Click a neighbour to follow it.
//
//   <ew-nearest-words src="model/" word="·girl" k="10"></ew-nearest-words>
//
// <ew-word-pairs>, which a <ew-nearest-words> can answer, is word-pairs.js's
// (embeddings-and-position/widgets/word-pairs). Deprecated: this entry
// re-exports it, and so defines it too, for one version (docs/embedding.md).
import { ModelWidget } from './parts/model-widget.js';
import { el } from './parts/dom.js';
import { settableAttributes } from './parts/attributes.js';
import { TokenPicker, tokenLabel } from './parts/token-picker.js';
import { neighbourList } from './parts/neighbours.js';
import { defineWidget } from './parts/definitions.js';

/** @deprecated Import WordPairs from embeddings-and-position/widgets/word-pairs; this re-export goes in the next version. */
export { WordPairs } from './word-pairs.js';

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

settableAttributes(NearestWords, ['k']);
defineWidget('ew-nearest-words', NearestWords);
