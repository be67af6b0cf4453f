// A search box over a model's vocabulary (the ARIA 1.2 combobox pattern):
// type a word, pick from the list with the mouse, a tap or the arrow keys.
//
// A typed word means what a reader means by it (docs/page.md):
// a lower-case word such as `red` is first the word as it stands inside a
// sentence, `·red`, when that token exists; a leading space or "·" means the
// same; a word with capitals (`Lily`) is first its exact form, the word at
// the start of a text. When both forms exist both are offered, named in
// words, and Enter takes the first suggestion. In the token table a number
// (or #number) is a row id. A word that is no single token shows its
// pieces, each one a button, until the reader types something else.
import { el, selectAllOnTap, uniqueId } from './dom.js';
import { afterNextPaint } from '../../src/event-loop.js';
import { int } from './format.js';
import { FORM_NAMES, LISTED_PIECES, hasTokenizer, modelWordForms, notOneToken, tokenTextOf, vocabularyOf } from './word-forms.js';

export {
  FORM_NAMES, byteNote, hasTokenizer, isByteToken, meantText, modelWordForms, notOneToken, shareVocabulary, tokenLabel,
  tokenTextOf, vocabularyOf, wordForms,
} from './word-forms.js';

const MAX_OPTIONS = 12;

function loose(text) {
  return text.replace(/^[·\s]+/, '').toLowerCase();
}

export class TokenPicker {
  /**
   * @param {{ label: string, placeholder?: string, onPick: (id: number) => void,
   *   rowIds?: boolean, onMissing?: (text: string) => void }} options
   *   rowIds: a typed number is a row id; onMissing: the typed text is no
   *   single token (its pieces are shown under the box).
   */
  constructor(options) {
    this.options = options;
    this.looseWords = null;
    this.matches = [];
    this.forms = [];
    this.pieces = [];
    this.active = -1;
    /** The text of what the owner shows now (a token, or the word whose pieces are shown): the box goes back to it. */
    this.shown = '';
    const inputId = uniqueId('ew-picker');
    const listId = uniqueId('ew-picker-list');
    const hintId = uniqueId('ew-picker-hint');
    this.input = el('input', {
      id: inputId,
      type: 'search',
      className: 'ew-input',
      autocomplete: 'off',
      spellcheck: false,
      enterKeyHint: 'search',
      placeholder: options.placeholder ?? 'Type a word, e.g. Lily',
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': listId,
      'aria-describedby': hintId,
    });
    this.input.setAttribute('autocapitalize', 'off');
    // Until there is a model to search, nothing can be typed: a word typed
    // into a widget built but not shown yet was lost when it showed.
    this.input.readOnly = true;
    this.list = el('ul', { id: listId, className: 'ew-picker-list', role: 'listbox', hidden: true });
    this.list.setAttribute('aria-label', `${options.label}: matching tokens`);
    this.hint = el('p', { className: 'ew-picker-hint', id: hintId, textContent: TokenPicker.hintFor(options.rowIds, true) });
    /** Why the typed text is no single token, and its pieces to pick. */
    this.note = el('div', { className: 'ew-note ew-picker-note', role: 'status' });
    this.element = el('div', { className: 'ew-picker' },
      el('label', { className: 'ew-label', for: inputId, textContent: options.label }),
      el('div', { className: 'ew-picker-box' }, this.input, this.list),
      this.hint, this.note);

    // The list follows the text once the key is painted: a key shows at once, the list a frame later,
    // and keys typed faster than the list is drawn are searched together.
    this.input.addEventListener('input', () => {
      this.pendingSearch ??= afterNextPaint(() => {
        this.pendingSearch = null;
        this.#search();
      });
    });
    this.input.addEventListener('keydown', (event) => this.#key(event));
    // Options take no focus (pointerdown below), so leaving the box closes the list at once,
    // and the box never keeps a word the owner does not show.
    this.input.addEventListener('blur', () => this.#leave());
    selectAllOnTap(this.input);
    // The vocabulary is read when a reader comes to the box, not while the page loads: once the
    // tap or the Tab has been painted (or at the first key, if that comes first).
    this.input.addEventListener('focus', () => {
      const prepare = () => {
        if (document.activeElement !== this.input) return;
        this.#prepare();
        if (this.input.value && this.list.hidden) this.#search();
      };
      if (typeof requestIdleCallback === 'function') requestIdleCallback(prepare, { timeout: 300 });
      else setTimeout(prepare, 0);
    });
    this.list.addEventListener('pointerdown', (event) => event.preventDefault());
    this.list.addEventListener('click', (event) => {
      const option = event.target.closest('[role="option"][data-id]');
      if (option) this.#pick(Number(option.dataset.id));
    });
  }

  /**
   * The model whose vocabulary is searched. Its vocabulary and the index
   * the list searches are made when a reader first comes to the box (until
   * then, resolve() and pickText() look each form up in the module, with
   * the same answers).
   */
  setModel(model) {
    this.model = model;
    this.input.readOnly = false;
    this.looseWords = null;
    // A model loaded from its weights alone has no token texts: its rows are found by id.
    this.hint.textContent = TokenPicker.hintFor(this.options.rowIds, hasTokenizer(model), model.vocabSize);
  }

  /** What the line under the box says: the search rule, or (without a tokenizer) that rows go by id. */
  static hintFor(rowIds, text, rows) {
    if (!text) {
      return `This model came without its tokenizer.json, so its tokens have no texts here: type a row id, from 0 to ${rows - 1} (such as 42).`;
    }
    return '“·” is the space before a word: ·red is red inside a sentence; red without it starts a text or is part of a longer word. ' +
      'No need to type the dot: red finds ·red first' + (rowIds ? ', and a number finds that row.' : '.');
  }

  /** Every token's text, by id: read from the model at the first search (none without a tokenizer). */
  get words() {
    return this.model && hasTokenizer(this.model) ? vocabularyOf(this.model) : [];
  }

  #prepare() {
    if (this.model && hasTokenizer(this.model)) this.looseWords ??= this.words.map(loose);
  }

  /**
   * Shows a token in the box without searching. The pieces of the last
   * word stay while the token shown is one of them.
   */
  show(id) {
    this.input.value = this.model ? tokenTextOf(this.model, id) : '';
    this.shown = this.input.value;
    this.#close();
    if (this.pieces.some((piece) => piece.id === id)) {
      for (const button of this.note.querySelectorAll('button[data-id]')) {
        button.setAttribute('aria-pressed', String(Number(button.dataset.id) === id));
      }
    } else {
      this.clearPieces();
    }
  }

  /** The tokens a typed text means, best first (see wordForms). */
  resolve(text) {
    if (!this.model) return [];
    return modelWordForms(this.model, text, { rowIds: this.options.rowIds, rows: this.model.wte.rows });
  }

  /**
   * Picks what a text means: its first form, or (when it is no single
   * token) shows its pieces and tells the owner. Returns the id or undefined.
   */
  pickText(text) {
    const [first] = this.resolve(text);
    if (first) {
      this.#pick(first.id);
      return first.id;
    }
    this.#close();
    this.showPieces(text);
    return undefined;
  }

  /** Says why a text is no single token, with its pieces as buttons. */
  showPieces(text) {
    if (!this.model) return;
    const { message, pieces: all } = notOneToken(this.model, text);
    // A button for each of the first pieces: a pasted page would be thousands of them.
    const pieces = all.slice(0, LISTED_PIECES);
    this.pieces = pieces;
    this.input.value = text;
    this.shown = text;
    const buttons = pieces.map((piece) => {
      const button = el('button', { type: 'button', className: 'ew-button ew-token', textContent: piece.text,
        'data-id': String(piece.id), 'aria-pressed': 'false', title: `Token ${piece.id}` });
      button.addEventListener('click', () => this.#pick(piece.id));
      return button;
    });
    this.note.replaceChildren(el('p', { textContent: message }),
      ...(buttons.length > 1 ? [el('p', { className: 'ew-pieces' }, 'Pick a piece: ', ...buttons,
        all.length > pieces.length ? ` (the first ${pieces.length} of ${int(all.length)})` : '')] : []));
    this.options.onMissing?.(text);
  }

  clearPieces() {
    this.pieces = [];
    this.note.replaceChildren();
  }

  #search() {
    const query = this.input.value;
    if (!query || !this.model || !this.words.length) return this.#close();
    this.#prepare();
    this.forms = this.resolve(query);
    const wanted = loose(query);
    const exact = query.replace(/^ /, '·');
    const scored = [];
    const taken = new Set(this.forms.map((form) => form.id));
    if (wanted !== '') {
      // A key that lengthens the text finds only tokens the shorter text found (every one that
      // contains the longer contains the shorter): those are searched, not the whole vocabulary.
      const previous = this.containing;
      const ids = previous && previous.model === this.model && wanted.includes(previous.text) ? previous.ids : null;
      const containing = [];
      for (let k = 0, n = ids ? ids.length : this.words.length; k < n; k++) {
        const id = ids ? ids[k] : k;
        if (!this.looseWords[id].includes(wanted)) continue;
        containing.push(id);
        if (taken.has(id)) continue;
        const word = this.words[id], free = this.looseWords[id];
        let rank;
        if (free === wanted) rank = 1;
        else if (free.startsWith(wanted)) rank = 2;
        else if (free.includes(wanted)) rank = 3;
        else continue;
        // Among equals, the word as it stands in a sentence first (·red before red).
        scored.push({ id, rank: rank + (word.startsWith('·') ? 0 : 0.5) });
      }
      this.containing = { model: this.model, text: wanted, ids: containing };
    } else if (exact.startsWith('·')) {
      for (let id = 0; id < this.words.length; id++) {
        if (!taken.has(id) && this.words[id].startsWith(exact)) scored.push({ id, rank: 2 });
      }
    }
    scored.sort((a, b) => a.rank - b.rank || this.words[a.id].length - this.words[b.id].length || a.id - b.id);
    this.matches = [...this.forms.map((form) => form.id), ...scored.map((match) => match.id)].slice(0, MAX_OPTIONS);
    this.active = -1;
    // The text the list is for: it follows the box a frame after a key (what a test or a tool waits on).
    this.list.dataset.query = query;
    this.#render();
  }

  #render() {
    const listId = this.list.id;
    const formOf = new Map(this.forms.map((form) => [form.id, form.form]));
    this.list.replaceChildren(...this.matches.map((id, i) => el('li', {
      id: `${listId}-${i}`,
      role: 'option',
      className: `ew-picker-option${formOf.has(id) ? ' ew-picker-form' : ''}`,
      'aria-selected': i === this.active ? 'true' : 'false',
      'data-id': String(id),
    },
    el('span', { className: 'ew-token', textContent: this.words[id] ?? `(row ${id})` }),
    el('span', { className: 'ew-muted', textContent: ` id ${id}` }),
    formOf.has(id) ? el('span', { className: 'ew-picker-form-name', textContent: FORM_NAMES[formOf.get(id)] }) : '')));
    if (!this.matches.length) {
      this.list.append(el('li', { className: 'ew-picker-empty', role: 'option', 'aria-disabled': 'true',
        textContent: 'No token contains this text. Press Enter to see its pieces.' }));
    }
    this.list.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    if (this.active >= 0) {
      this.input.setAttribute('aria-activedescendant', `${listId}-${this.active}`);
      this.list.children[this.active]?.scrollIntoView?.({ block: 'nearest' });
    } else {
      this.input.removeAttribute('aria-activedescendant');
    }
  }

  /**
   * Leaving the box: a typed word that names a token is taken, as Enter
   * would take it; anything else (half a word, no single token, nothing)
   * gives the box back the text of what the owner shows.
   */
  #leave() {
    this.#cancelSearch();
    this.#close();
    const text = this.input.value;
    if (text === this.shown) return;
    const [form] = text.trim() ? this.resolve(text) : [];
    // Taken once what took the focus is painted (a tap elsewhere shows first), as the owner's update is the larger.
    if (form) afterNextPaint(() => this.#pick(form.id));
    else this.input.value = this.shown;
  }

  #close() {
    this.list.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
    this.active = -1;
  }

  /** Runs a search still waiting for its frame now, so that a key acts on the list for the text as it is. */
  #searchNow() {
    if (!this.pendingSearch) return;
    this.#cancelSearch();
    this.#search();
  }

  #cancelSearch() {
    this.pendingSearch?.();
    this.pendingSearch = null;
  }

  #key(event) {
    if (['ArrowDown', 'ArrowUp', 'Enter'].includes(event.key)) this.#searchNow();
    if (event.key === 'Escape') this.#cancelSearch();
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
      if (!text.trim()) return this.#close();
      // Enter takes the first suggestion: what the text means, else the best match.
      const [form] = this.resolve(text);
      if (form) return this.#pick(form.id);
      if (open && this.matches.length) return this.#pick(this.matches[0]);
      this.#close();
      this.showPieces(text);
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
