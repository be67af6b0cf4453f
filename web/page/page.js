// The chapter page: loads the model and hands it to the widgets, fills in
// every figure from it (figures.js), backs each Code line with a function
// that does what the line says (code-lines.js), typesets the formulas
// (formulas.js), and puts the chapter's objects in the browser console
// (console-help.js).
import { addressProblems } from './start.js';  // first: the model's requests leave before the rest is set up
import './evaluation-break.js';  // then a turn: the rest is evaluated in a task of its own
import { rowView, dot, cosine, loadModel, ready } from '../index.js';
import { sharedModel } from '../widgets/index.js';
import { pageModelFailure } from '../widgets/parts/model-source.js';
import { hasTokenizer } from '../widgets/parts/token-picker.js';
import { defineDeferredWidgets, defineDeferredWidgetsInTurns } from '../widgets/parts/definitions.js';
import { ModelWidget } from '../widgets/parts/model-widget.js';
import { TrainingSlider } from '../widgets/training-slider.js';
import { addressProblemsInWords, modelFilesFromPicked } from './model-choice.js';
import { PageState } from './page-state.js';
import { ignoredInWords } from './address.js';
import { consoleBanner, installHelp } from './console-help.js';
import { installGlossary } from './glossary.js';
import { fillDotFigures, fillFirstFigures, fillLaterFigures, keepLearnedSentence, modelSummary, sizeOf } from './figures.js';
import { fillCode, fillDotCode } from './code-lines.js';
import { loadFormulaFonts, typesetWhenIdle } from './formulas.js';
import { bookNote, showBookValues } from './book-values.js';
import { installPrinting } from './print.js';
import { layOutLaterParts } from './later-parts.js';
import { afterNextPaint } from '../src/event-loop.js';

// The page's script loads async, so start.js asks for the model as soon as
// the script arrives, while the browser still parses, styles and lays out
// the long document. Everything below needs the whole document.
if (document.readyState === 'loading') {
  await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
}

const $ = (selector) => document.querySelector(selector);
const traceWidget = $('#trace');

// The other widgets are defined once the token table has shown its model or
// failed to (start.js held them back), at the latest before the figures
// further down are filled, and at once if the reader presses a key or
// touches the page first.
$('#table')?.updated.finally(() => {
  layOutLaterParts();
  defineDeferredWidgetsInTurns();
});
for (const type of ['keydown', 'pointerdown']) window.addEventListener(type, defineDeferredWidgets, { capture: true, once: true });

// ---- The browser console ------------------------------------------------------
// The chapter's Code lines work as written: model, trace, rowView, dot, cosine.
// `trace` is the trace of the first text box, kept current as it changes.
Object.assign(window, { rowView, dot, cosine });
Object.defineProperty(window, 'trace', {
  configurable: true,
  enumerable: true,
  get: () => traceWidget.trace,
});

installHelp();
installGlossary();
installPrinting();
keepLearnedSentence();
fillDotCode();

// ---- The model -----------------------------------------------------------------------
const progressBar = $('#model-progress');
const progressText = $('#model-text');

function showProgress({ loaded, total }) {
  if (!(total > 0)) return;
  progressBar.max = total;
  progressBar.value = loaded;
  progressText.textContent = `Loading the model: ${(loaded / 1048576).toFixed(1)} of ${(total / 1048576).toFixed(1)} MB`;
}

function showModelFailure(error) {
  progressBar.hidden = true;
  $('#model-line').setAttribute('role', 'alert');
  $('#model-line').classList.add('failed');
  progressText.textContent = `The model could not be loaded: ${error.message}`;
}

// The model every figure and Code line reads; the file picker replaces it.
let current;

/**
 * Resolves once the browser has drawn a frame (the first view: the token
 * table the model arrived for), or after a moment where no frame comes (a
 * page in a background tab draws none).
 */
function afterNextFrame() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}

/**
 * Shows a model's figures: those of the first screen at once, the rest and
 * the Code lines once the first view is drawn (they are a screen or more
 * below it). Resolves true when all are filled, false when another model
 * took its place meanwhile.
 */
async function showModel(model) {
  current = model;
  window.model = model;
  progressBar.hidden = true;
  $('#model-line').setAttribute('role', 'status');
  $('#model-line').classList.remove('failed');
  progressText.textContent = modelSummary(model);
  fillFirstFigures(model);
  await afterNextFrame();
  if (current !== model) return false;
  defineDeferredWidgetsInTurns();
  fillLaterFigures(model);
  // The dot product's own figures, a few screens down, are the module's
  // sums, its first calls (20-40 ms of a phone's main thread in a CPU
  // profile at 4x slower): filled here, past the first view, rather than
  // as soon as the module is up, on the path to it.
  fillDotFigures();
  $('#book-note').textContent = bookNote(showBookValues());
  fillCode(model);
  return true;
}

const pickStatus = $('#model-pick-status');

/** Says, beside the file picker, what became of the last model picked (or named in the address). */
function sayBesidePicker(text, failed = false) {
  if (!pickStatus) return;
  pickStatus.textContent = text;
  pickStatus.classList.toggle('failed', failed);
  pickStatus.setAttribute('role', failed ? 'alert' : 'status');
}

/** The model shown now, in a few words: what a failed pick leaves in place. */
function currentInWords() {
  return current ? `${current.source.replace(location.origin, '')} (${sizeOf(current)})` : 'no model';
}

let picks = 0;

/**
 * Opens model files from the reader's disk: read here, in the browser, and
 * sent nowhere. The widgets are handed the new model only once it has
 * loaded: files that cannot be opened (not a safetensors file, cut short,
 * a config.json that is not one) leave the page as it was, and the line
 * beside the picker says what was wrong.
 */
async function openPicked(picked) {
  const pick = ++picks;
  const names = picked.map((file) => file.name).join(', ');
  let files;
  try {
    files = modelFilesFromPicked(picked);
  } catch (error) {
    sayBesidePicker(`Nothing was opened: ${error.message}. The page still shows ${currentInWords()}.`, true);
    return;
  }
  sayBesidePicker(`Opening ${names}…`);
  const mb = (bytes) => (bytes / 1048576).toFixed(1);
  let model;
  try {
    model = await loadModel({
      ...files,
      onProgress: ({ loaded, total }) => {
        if (pick === picks && total > 0) sayBesidePicker(`Opening ${names}: ${mb(loaded)} of ${mb(total)} MB…`);
      },
    });
  } catch (error) {
    if (pick === picks) sayBesidePicker(`${names} could not be opened, so the page still shows ${currentInWords()}. ${error.message}`, true);
    return;
  }
  if (pick !== picks) {
    model.dispose();
    return;
  }
  sayBesidePicker(`Opened ${names}: ${sizeOf(model)}${hasTokenizer(model) ? '' : ', without a tokenizer.json (rows by id)'}.`);
  document.documentElement.dataset.page = 'loading';
  // Every widget on the page shows the picked model, but the training
  // slider: its snapshots are files beside the address's model, which
  // picked files do not have, so it goes on showing that model's training.
  for (const element of document.querySelectorAll('*')) {
    if (element instanceof ModelWidget && !(element instanceof TrainingSlider)) element.model = model;
  }
  if (await showModel(model)) document.documentElement.dataset.page = 'ready';
}

let pageState;

/** Says in the status line what of the address could not be used: its model's parameters, its view's keys. */
function sayAddressProblems(ignored) {
  const note = $('#address-note');
  const words = [addressProblemsInWords(addressProblems), ignoredInWords(ignored)].filter(Boolean).join(' ');
  if (!note || !words) return;
  note.textContent = words;
  note.hidden = false;
}

/**
 * A row of the trace the reader is on lights up its token elsewhere: its row
 * in the token table (shown there, which says where from and offers its own
 * token back) and its dot on the map (ringed, not picked, so the map's word
 * and its neighbours stay). Both are screens away, so the trace says so
 * under the row, with a link to each.
 */
function linkViews() {
  let pendingLink = null;
  traceWidget.addEventListener('ew-trace-row', (event) => {
    const { id, row, text, token } = event.detail;
    const where = `place ${row + 1} of text ${text}`;
    const table = $('#table'), map = $('#vocabulary-map');
    // The two far views follow once the tap is painted (its own readout first); a later tap's replace a waiting one's.
    pendingLink?.();
    pendingLink = afterNextPaint(() => {
      pendingLink = null;
      table?.pick(id, { from: `the trace (${where})` });
      map?.lightUp(id, `${token} (${where})`);
    });
    const link = (href, words) => Object.assign(document.createElement('a'), { href, textContent: words });
    traceWidget.sayLinked(text, `${token} (id ${id}): its row is shown in `, link('#table', 'the token table'), ' above, and its dot ringed on ',
      link('#vocabulary-map', 'the map'), ' of Similar words.');
  });
}

async function main() {
  let model;
  try {
    model = await sharedModel(undefined, showProgress);
    loadFormulaFonts();
  } catch (error) {
    defineDeferredWidgets();
    showModelFailure(error);
    // Without a model, the module may still be up to compute them (a failure shows as the model's).
    ready.then(fillDotFigures, () => {});
    document.documentElement.dataset.page = 'error';
    typesetWhenIdle();
    layOutLaterParts();
    return;
  }
  const shown = showModel(model);
  const failure = pageModelFailure();
  if (failure) {
    // The address named a model that could not be opened: the page's own is shown instead, and said.
    const named = failure.files.weights ? String(failure.files.weights).replace(location.origin, '') : 'the address’s model';
    sayBesidePicker(`The model the address names (${named}) could not be opened, so the page shows its own model instead. ${failure.error.message}`, true);
    progressText.textContent = `${modelSummary(model)} (The model the address names could not be opened: see beside the file picker, at the foot of the page.)`;
  }
  traceWidget.addEventListener('ew-trace', () => fillCode(current));

  // The texts the trace compares: the same tokens swapped (the default), or the chapter's own pair.
  const textButtons = [...document.querySelectorAll('[data-texts]')];
  for (const button of textButtons) {
    button.addEventListener('click', () => {
      const [first, second] = button.dataset.texts.split('|');
      traceWidget.text = first;
      traceWidget.compareText = second;
      for (const other of textButtons) other.setAttribute('aria-pressed', String(other === button));
    });
  }
  traceWidget.addEventListener('input', () => {
    const texts = `${traceWidget.text}|${traceWidget.compareText}`;
    for (const button of textButtons) button.setAttribute('aria-pressed', String(button.dataset.texts === texts));
  });

  for (const button of document.querySelectorAll('[data-places]')) {
    button.addEventListener('click', () => {
      const [p, q] = button.dataset.places.split(' ').map(Number);
      const map = $('#positions');
      // The map's own places: the position table's, or the rotary map's first ones.
      const places = map.map?.rows ?? current.context;
      map.compare(Math.min(p, places), Math.min(q, places));
      map.querySelector('.ew-grid-viewport')?.focus({ preventScroll: true });
    });
  }
  linkViews();
  if (await shown) {
    document.documentElement.dataset.page = 'ready';
    performance.mark('embeddings:figures');
  }
  // The reader's whole view in the address (restored from it, and Back).
  pageState = new PageState({
    table: $('#table'), onehot: $('#one-hot'), nearest: $('#nearest'), map: $('#vocabulary-map'), analogy: $('#analogy'),
    cosine: $('#word-cosine'), rowDot: $('#row-dot'), dot: $('#dot-widget'), trace: traceWidget, positions: $('#positions'), slider: $('#slider'),
  });
  pageState.start();
  sayAddressProblems(pageState.ignored);
  console.info(consoleBanner(model));
  typesetWhenIdle();
}

$('#model-files')?.addEventListener('change', (event) => {
  const picked = [...event.target.files];
  // Cleared, so that picking the same files again (after fixing one) opens them again.
  event.target.value = '';
  if (picked.length) openPicked(picked);
});

main();
