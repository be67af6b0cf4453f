// What <ew-word-analogy> and <ew-word-cosine> share: boxes for typed words,
// a button, and the words' tokens by the page's one rule for typed words.
import { ModelWidget } from './model-widget.js';
import { el, selectAllOnTap, uniqueId } from './dom.js';
import { modelWordForms, notOneToken } from './token-picker.js';

/** A labelled text box. */
function wordBox(label, value) {
  const id = uniqueId('ew-word');
  const input = el('input', { id, type: 'text', className: 'ew-input', value, autocomplete: 'off', spellcheck: false });
  selectAllOnTap(input);
  return { input, element: el('span', { className: 'ew-word-box' }, el('label', { for: id, textContent: label }), ' ', input) };
}

/**
 * A typed word's token, by the page's one rule for typed words (wordForms,
 * docs/page.md): its first form, or model.tokenId's error naming
 * the text when it is no single token.
 */
function tokenOf(model, text) {
  const [best] = modelWordForms(model, text);
  return best ? best.id : model.tokenId(text);
}

/** The ids of the typed words, or a message saying which is not one token. */
function idsOf(model, inputs) {
  const ids = [];
  for (const input of inputs) {
    const text = input.value.trim();
    try {
      ids.push(tokenOf(model, text));
      input.removeAttribute('aria-invalid');
    } catch (error) {
      input.setAttribute('aria-invalid', 'true');
      return { message: notOneToken(model, text, error).message };
    }
  }
  return { ids };
}

/**
 * Typed words, a button, and what they give: subclasses say which boxes
 * (`boxSpecs`: [label, attribute, default word]), the button's text, and
 * `showWords(ids)`; a word that is not one token is named instead.
 */
export class TypedWords extends ModelWidget {
  build() {
    this.boxes = this.boxSpecs.map(([label, attribute, word]) => wordBox(label, this.getAttribute(attribute) ?? word));
    const go = el('button', { type: 'submit', className: 'ew-button', textContent: this.buttonText });
    this.form = el('form', { className: 'ew-analogy-form' }, ...this.boxes.map((b) => b.element), ' ', go);
    this.form.addEventListener('submit', (event) => { event.preventDefault(); this.compute(); });
    // A word typed and left (a click elsewhere, Tab) is computed as the button would:
    // the boxes never show words other than those the answer is about.
    this.form.addEventListener('change', () => {
      if (this.boxes.some((box, i) => box.input.value !== this.computed?.[i])) this.compute();
    });
    this.summary = el('p', { className: 'ew-summary', 'aria-live': 'polite' });
    this.results = el('div', { className: 'ew-results' });
    this.append(this.form, this.summary, this.results);
  }

  show() { this.compute(); }

  /** The words the answer shown is about, as the boxes hold them; setting them fills the boxes and computes. */
  get words() {
    return this.computed ? [...this.computed] : undefined;
  }

  set words(texts) {
    this.ensureBuilt();
    this.boxes.forEach((box, i) => { if (texts[i] !== undefined) box.input.value = String(texts[i]); });
    this.compute();
  }

  compute() {
    const model = this.model;
    if (!model) return;
    /** The boxes' texts the answer shown is about. */
    this.computed = this.boxes.map((b) => b.input.value);
    const { ids, message } = idsOf(model, this.boxes.map((b) => b.input));
    this.results.replaceChildren();
    if (!ids) {
      this.summary.textContent = message;
      this.clearWords();
    } else {
      this.showWords(ids, ids.map((id) => model.tokenText(id)));
    }
    this.dispatchEvent(new CustomEvent('ew-change', { bubbles: true, detail: { words: this.words } }));
  }
}
