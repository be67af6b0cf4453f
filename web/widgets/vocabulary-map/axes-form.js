// The reader's own axes of <ew-vocabulary-map>: the form of four word boxes
// (across from one word to another, up from a third to a fourth, or the most
// varied direction), its examples, and reading the boxes into token ids.
// Each works on the map's state (state.js), whose parts hold the form's.
import { el, uniqueId } from '../parts/dom.js';
import { modelWordForms, notOneToken, tokenLabel } from '../parts/token-picker.js';

/** The axes offered as examples, when the model has their words. */
export const AXIS_EXAMPLES = [['·man', '·woman'], ['·walk', '·walked'], ['·boy', '·girl']];

/** Makes the form (state.parts.axesForm, hidden unless the map is along the reader's axes) and its boxes, examples and note. */
export function buildAxesForm(state) {
  const box = (label, name) => {
    const id = uniqueId('vm-axis');
    const input = el('input', { id, type: 'text', className: 'ew-input vm-axis-word', autocomplete: 'off', spellcheck: false, 'data-axis': name });
    input.setAttribute('autocapitalize', 'off');
    return { input, element: el('span', { className: 'ew-word-box' }, el('label', { for: id, textContent: label }), ' ', input) };
  };
  const boxes = { from: box('from', 'from'), to: box('to', 'to'), upFrom: box('from', 'upFrom'), upTo: box('to', 'upTo') };
  const draw = el('button', { type: 'submit', className: 'ew-button', textContent: 'Draw' });
  const examples = el('p', { className: 'vm-axis-examples' });
  const note = el('p', { className: 'ew-note vm-axis-note', role: 'status' });
  const form = el('form', { className: 'vm-axes', hidden: state.method !== 'axes', 'aria-label': 'Your own axes' },
    el('p', { className: 'vm-axis-line' }, el('strong', { textContent: 'Across: ' }), boxes.from.element, ' ', boxes.to.element),
    el('p', { className: 'vm-axis-line' }, el('strong', { textContent: 'Up: ' }), boxes.upFrom.element, ' ', boxes.upTo.element, ' ', draw),
    el('p', { className: 'ew-help', textContent: 'Leave Up empty for the direction in which the tokens vary most at right angles to Across.' }),
    examples, note);
  form.addEventListener('submit', (event) => { event.preventDefault(); axesFromBoxes(state); });
  // A word typed and left is drawn, as the button would: the boxes say what the map shows.
  form.addEventListener('change', () => axesFromBoxes(state));
  Object.assign(state.parts, { axisBoxes: boxes, axisExamples: examples, axisNote: note, axesForm: form });
}

export function defaultAxes(state) {
  for (const [a, b] of AXIS_EXAMPLES) {
    const [from, to] = [a, b].map((w) => modelWordForms(state.model, w)[0]?.id);
    if (from !== undefined && to !== undefined) return { from, to };
  }
  return { from: 0, to: Math.min(1, state.model.vocabSize - 1) };
}

export function fillAxisExamples(state) {
  const model = state.model;
  const examples = AXIS_EXAMPLES.map(([a, b]) => [a, b].map((w) => modelWordForms(model, w)[0]?.id))
    .filter(([a, b]) => a !== undefined && b !== undefined);
  state.parts.axisExamples.replaceChildren(...(examples.length ? ['Try: '] : []), ...examples.flatMap(([from, to], i) => {
    const b = el('button', { type: 'button', className: 'ew-button vm-axis-example', textContent: `${tokenLabel(model, from)} → ${tokenLabel(model, to)}` });
    b.addEventListener('click', () => state.setAxes({ from, to }).catch(() => {}));
    return i ? [' ', b] : [b];
  }));
}

export function fillAxisBoxes(state, { from, to, upFrom, upTo }) {
  const text = (id) => (id === undefined ? '' : tokenLabel(state.model, id));
  const boxes = state.parts.axisBoxes;
  boxes.from.input.value = text(from);
  boxes.to.input.value = text(to);
  boxes.upFrom.input.value = text(upFrom);
  boxes.upTo.input.value = text(upTo);
}

/** Reads the four boxes (a word by the page's search rule, or a row id without a tokenizer) and draws their map. */
export function axesFromBoxes(state) {
  const model = state.model;
  if (!model) return;
  const ids = {};
  for (const [name, { input }] of Object.entries(state.parts.axisBoxes)) {
    const text = input.value.trim();
    input.removeAttribute('aria-invalid');
    if (!text) continue;
    const [form] = modelWordForms(model, text);
    if (!form) {
      input.setAttribute('aria-invalid', 'true');
      state.parts.axisNote.textContent = notOneToken(model, text).message;
      return;
    }
    ids[name] = form.id;
  }
  if (ids.from === undefined || ids.to === undefined) {
    state.parts.axisNote.textContent = 'Across needs two words: from one, to the other.';
    return;
  }
  if ((ids.upFrom === undefined) !== (ids.upTo === undefined)) {
    state.parts.axisNote.textContent = 'Up needs two words, or none (for the most varied direction at right angles to Across).';
    return;
  }
  const same = (a, b) => a?.from === b?.from && a?.to === b?.to && a?.upFrom === b?.upFrom && a?.upTo === b?.upTo;
  if (same(ids, state.axes) && state.method === 'axes') return;
  state.setAxes(ids).catch(() => {});
}
