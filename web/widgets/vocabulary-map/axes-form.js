// The reader's own axes of <ew-vocabulary-map>: the form of four word boxes
// (across from one word to another, up from a third to a fourth, or the most
// varied direction), its examples, and reading the boxes into token ids.
import { el, uniqueId } from '../parts/dom.js';
import { modelWordForms, notOneToken, tokenLabel } from '../parts/token-picker.js';

/** The axes offered as examples, when the model has their words. */
export const AXIS_EXAMPLES = [['·man', '·woman'], ['·walk', '·walked'], ['·boy', '·girl']];

export function buildAxesForm(widget) {
  const box = (label, name) => {
    const id = uniqueId('vm-axis');
    const input = el('input', { id, type: 'text', className: 'ew-input vm-axis-word', autocomplete: 'off', spellcheck: false, 'data-axis': name });
    input.setAttribute('autocapitalize', 'off');
    return { input, element: el('span', { className: 'ew-word-box' }, el('label', { for: id, textContent: label }), ' ', input) };
  };
  widget.axisBoxes = { from: box('from', 'from'), to: box('to', 'to'), upFrom: box('from', 'upFrom'), upTo: box('to', 'upTo') };
  const draw = el('button', { type: 'submit', className: 'ew-button', textContent: 'Draw' });
  widget.axisExamples = el('p', { className: 'vm-axis-examples' });
  widget.axisNote = el('p', { className: 'ew-note vm-axis-note', role: 'status' });
  widget.axesForm = el('form', { className: 'vm-axes', hidden: widget.method !== 'axes', 'aria-label': 'Your own axes' },
    el('p', { className: 'vm-axis-line' }, el('strong', { textContent: 'Across: ' }), widget.axisBoxes.from.element, ' ', widget.axisBoxes.to.element),
    el('p', { className: 'vm-axis-line' }, el('strong', { textContent: 'Up: ' }), widget.axisBoxes.upFrom.element, ' ', widget.axisBoxes.upTo.element, ' ', draw),
    el('p', { className: 'ew-help', textContent: 'Leave Up empty for the direction in which the tokens vary most at right angles to Across.' }),
    widget.axisExamples, widget.axisNote);
  widget.axesForm.addEventListener('submit', (event) => { event.preventDefault(); axesFromBoxes(widget); });
  // A word typed and left is drawn, as the button would: the boxes say what the map shows.
  widget.axesForm.addEventListener('change', () => axesFromBoxes(widget));
}

export function defaultAxes(widget) {
  for (const [a, b] of AXIS_EXAMPLES) {
    const [from, to] = [a, b].map((w) => modelWordForms(widget.model, w)[0]?.id);
    if (from !== undefined && to !== undefined) return { from, to };
  }
  return { from: 0, to: Math.min(1, widget.model.vocabSize - 1) };
}

export function fillAxisExamples(widget) {
  const model = widget.model;
  const examples = AXIS_EXAMPLES.map(([a, b]) => [a, b].map((w) => modelWordForms(model, w)[0]?.id))
    .filter(([a, b]) => a !== undefined && b !== undefined);
  widget.axisExamples.replaceChildren(...(examples.length ? ['Try: '] : []), ...examples.flatMap(([from, to], i) => {
    const b = el('button', { type: 'button', className: 'ew-button vm-axis-example', textContent: `${tokenLabel(model, from)} → ${tokenLabel(model, to)}` });
    b.addEventListener('click', () => widget.setAxes({ from, to }).catch(() => {}));
    return i ? [' ', b] : [b];
  }));
}

export function fillAxisBoxes(widget, { from, to, upFrom, upTo }) {
  const text = (id) => (id === undefined ? '' : tokenLabel(widget.model, id));
  widget.axisBoxes.from.input.value = text(from);
  widget.axisBoxes.to.input.value = text(to);
  widget.axisBoxes.upFrom.input.value = text(upFrom);
  widget.axisBoxes.upTo.input.value = text(upTo);
}

/** Reads the four boxes (a word by the page's search rule, or a row id without a tokenizer) and draws their map. */
export function axesFromBoxes(widget) {
  const model = widget.model;
  if (!model) return;
  const ids = {};
  for (const [name, { input }] of Object.entries(widget.axisBoxes)) {
    const text = input.value.trim();
    input.removeAttribute('aria-invalid');
    if (!text) continue;
    const [form] = modelWordForms(model, text);
    if (!form) {
      input.setAttribute('aria-invalid', 'true');
      widget.axisNote.textContent = notOneToken(model, text).message;
      return;
    }
    ids[name] = form.id;
  }
  if (ids.from === undefined || ids.to === undefined) {
    widget.axisNote.textContent = 'Across needs two words: from one, to the other.';
    return;
  }
  if ((ids.upFrom === undefined) !== (ids.upTo === undefined)) {
    widget.axisNote.textContent = 'Up needs two words, or none (for the most varied direction at right angles to Across).';
    return;
  }
  const same = (a, b) => a?.from === b?.from && a?.to === b?.to && a?.upFrom === b?.upFrom && a?.upTo === b?.upTo;
  if (same(ids, widget.axes) && widget.method === 'axes') return;
  widget.setAxes(ids).catch(() => {});
}
