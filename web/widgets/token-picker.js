// A search box over a model's vocabulary (the ARIA 1.2 combobox pattern):
// type part of a token, pick from the list with the mouse or the arrow keys.
// Tokens are shown as the chapter shows them, "·" for a leading space; typing
// a space or "·" at the start means the same. A number (or #number) finds
// that token id.
import { el, uniqueId } from './base.js';

const MAX_OPTIONS = 12;

/** The display text of a row of the token table, also for rows past the tokenizer's last token. */
export function tokenLabel(model, id) {
  const words = vocabularyOf(model);
  return id < words.length ? words[id] : `(row ${id}, no token)`;
}

const vocabularies = new WeakMap();
/** model.vocabulary(), computed once per model. */
export function vocabularyOf(model) {
  let words = vocabularies.get(model);
  if (!words) {
    words = model.vocabulary();
    vocabularies.set(model, words);
  }
  return words;
}

/**
 * Lets a model reuse another's vocabulary: for snapshots loaded with the
 * same tokenizer.json, which would otherwise each read 4,096 texts again.
 */
export function shareVocabulary(from, to) {
  if (!vocabularies.has(to)) vocabularies.set(to, vocabularyOf(from));
}

function normalise(text) {
  return text.replace(/^ /, '·');
}

function loose(text) {
  return text.replace(/^[·\s]+/, '').toLowerCase();
}

export class TokenPicker {
  /**
   * @param {{ label: string, placeholder?: string, onPick: (id: number) => void,
   *   onText?: (text: string) => void }} options
   */
  constructor(options) {
    this.options = options;
    this.words = [];
    this.looseWords = null;
    this.matches = [];
    this.active = -1;
    const inputId = uniqueId('ew-picker');
    const listId = uniqueId('ew-picker-list');
    this.input = el('input', {
      id: inputId,
      type: 'text',
      className: 'ew-input',
      autocomplete: 'off',
      spellcheck: false,
      placeholder: options.placeholder ?? 'Type a word, e.g. Lily',
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': listId,
    });
    this.input.setAttribute('autocapitalize', 'off');
    this.list = el('ul', { id: listId, className: 'ew-picker-list', role: 'listbox', hidden: true });
    this.list.setAttribute('aria-label', `${options.label}: matching tokens`);
    this.element = el('div', { className: 'ew-picker' },
      el('label', { className: 'ew-label', for: inputId, textContent: options.label }),
      el('div', { className: 'ew-picker-box' }, this.input, this.list));

    this.input.addEventListener('input', () => this.#search());
    this.input.addEventListener('keydown', (event) => this.#key(event));
    // Options take no focus (pointerdown below), so leaving the box closes the list at once.
    this.input.addEventListener('blur', () => this.#close());
    this.input.addEventListener('focus', () => { if (this.input.value) this.#search(); });
    this.list.addEventListener('pointerdown', (event) => event.preventDefault());
    this.list.addEventListener('click', (event) => {
      const option = event.target.closest('[role="option"]');
      if (option) this.#pick(Number(option.dataset.id));
    });
  }

  /** The model whose vocabulary is searched. */
  setModel(model) {
    this.model = model;
    this.words = vocabularyOf(model);
    this.looseWords = null;  // made at the first search, not while the page loads
  }

  /** Shows a token in the box without searching. */
  show(id) {
    this.input.value = this.words[id] ?? '';
    this.#close();
  }

  #search() {
    const query = this.input.value;
    if (!query || !this.words.length) return this.#close();
    this.looseWords ??= this.words.map(loose);
    const exact = normalise(query), wanted = loose(query);
    const scored = [];
    const number = /^#?(\d+)$/.exec(query.trim());
    if (number && Number(number[1]) < this.words.length) scored.push({ id: Number(number[1]), rank: -1 });
    if (wanted !== '' || exact.startsWith('·')) {
      for (let id = 0; id < this.words.length; id++) {
        const word = this.words[id], free = this.looseWords[id];
        let rank;
        if (word === exact) rank = 0;
        else if (free === wanted && wanted !== '') rank = 1;
        else if (wanted !== '' && free.startsWith(wanted)) rank = 2;
        else if (wanted !== '' && free.includes(wanted)) rank = 3;
        else if (wanted === '' && word.startsWith(exact)) rank = 2;
        else continue;
        scored.push({ id, rank });
      }
    }
    scored.sort((a, b) => a.rank - b.rank || this.words[a.id].length - this.words[b.id].length || a.id - b.id);
    this.matches = scored.slice(0, MAX_OPTIONS).map((match) => match.id);
    this.active = -1;
    this.#render();
  }

  #render() {
    const listId = this.list.id;
    this.list.replaceChildren(...this.matches.map((id, i) => el('li', {
      id: `${listId}-${i}`,
      role: 'option',
      className: 'ew-picker-option',
      'aria-selected': i === this.active ? 'true' : 'false',
      'data-id': String(id),
    }, el('span', { className: 'ew-token', textContent: this.words[id] }), el('span', { className: 'ew-muted', textContent: ` id ${id}` }))));
    if (!this.matches.length) {
      this.list.append(el('li', { className: 'ew-picker-empty', role: 'option', 'aria-disabled': 'true', textContent: 'No token contains this text' }));
    }
    this.list.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    if (this.active >= 0) {
      this.input.setAttribute('aria-activedescendant', `${listId}-${this.active}`);
      this.list.children[this.active]?.scrollIntoView({ block: 'nearest' });
    } else {
      this.input.removeAttribute('aria-activedescendant');
    }
  }

  #close() {
    this.list.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
    this.active = -1;
  }

  #key(event) {
    const open = !this.list.hidden;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!open) this.#search();
      if (!this.matches.length) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.active = (this.active + step + this.matches.length + 1) % (this.matches.length + 1);
      if (this.active === this.matches.length) this.active = -1;
      this.#render();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (open && this.active >= 0) return this.#pick(this.matches[this.active]);
      const text = this.input.value;
      const exact = this.words.indexOf(normalise(text));
      if (exact >= 0) return this.#pick(exact);
      this.#close();
      this.options.onText?.(text);
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        this.#close();
      }
    }
  }

  #pick(id) {
    this.show(id);
    this.options.onPick(id);
  }
}
