// The chapter page: fills in every figure from the loaded model, backs each
// Code line with a function that does what the line says, typesets the
// formulas, and puts the chapter's objects in the browser console.
import './start.js';  // first: the model's requests leave before the rest is set up
import { rowView, dot, cosine, loadModel, backend, ready } from '../index.js';
import { sharedModel } from '../widgets/index.js';
import { pageModelFailure } from '../widgets/parts/model-source.js';
import { hasTokenizer } from '../widgets/parts/token-picker.js';
import { whenIdle } from '../widgets/parts/base.js';
import { defineDeferredWidgets } from '../widgets/parts/definitions.js';
import { positionMap, sinusoidMap } from '../widgets/position-map.js';
import { ModelWidget } from '../widgets/parts/base.js';
import { modelFilesFromPicked } from './model-choice.js';
import { PageState } from './page-state.js';
import { int, num, share, quote } from '../widgets/parts/format.js';
import { dot as jsDot, cosine as jsCosine } from './code-parts.js';

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
$('#table')?.updated.finally(defineDeferredWidgets);
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

/** The chapter's tokens, whose ids in this model the console's first lines name. */
const CHAPTER_TOKENS = ['Lily', '·Lily', '·girl', '·boy', '·three', '·3'];

/** "Lily 635, ·Lily 399, …": this model's ids of the chapter's tokens (or why one has none). */
function chapterIds(model) {
  if (!hasTokenizer(model)) return 'none: this model came without its tokenizer.json';
  return CHAPTER_TOKENS.map((text) => `${text} ${idOf(model, text) ?? '(not one token here)'}`).join(', ');
}

/** The ids the chapter's Code lines use: the default model gives its tokens these. */
const CHAPTER_LINE_IDS = { Lily: 665, '·girl': 477, '·boy': 497 };

/** Whether a model's ids are the chapter's, so that its lines work as written. */
function hasChapterIds(model) {
  return Object.entries(CHAPTER_LINE_IDS).every(([text, id]) => idOf(model, text) === id);
}

/**
 * The one short message the console shows on load: where the reader is, and
 * for a model whose ids are not the chapter's, that its lines need this model's.
 */
function consoleBanner(model) {
  const intro = 'Embeddings and position. In this console: model, trace (the first text box), rowView, dot, cosine, and help() for the whole API.\n';
  if (hasChapterIds(model)) {
    return `${intro}The chapter’s lines work as written: rowView(model.wte, 665) is “Lily”, ` +
      'cosine(rowView(model.wte, 477), rowView(model.wte, 497)) is ·girl and ·boy.';
  }
  return intro + `This model's ids: ${chapterIds(model)}.\n` +
    'The book’s ids (665 for Lily, 477 and 497 in its cosine line) belong to the book’s model, not this one: ' +
    `ask this model with model.tokenId('Lily'), or read rowView(model.wte, model.tokenId('·girl')).`;
}

/** help(): every global and method, with a one-line example each, using this model's ids. */
function helpText(model) {
  const id = (text, fallback) => idOf(model, text) ?? fallback;
  const girl = id('·girl', 1), boy = id('·boy', 2);
  // A 16-bit table (a float16 or bfloat16 checkpoint) is read as float32 copies of its rows.
  const sixteen = model.wte.dtype !== 'float32';
  const lines = [
    ['model', 'the loaded model', `model.vocabSize, model.width, model.context  // ${model.vocabSize}, ${model.width}, ${model.context}`],
    ['model.wte', `the token table, a Matrix ${model.vocabSize} × ${model.width}${sixteen ? `, kept in 16 bits (${model.wte.dtype})` : ''}`, `model.wte.at(${girl}, 0)  // one number: row ${girl}, column 0`],
    model.wpe
      ? ['model.wpe', `the position table, a Matrix ${model.context} × ${model.width}`, 'model.wpe.row(1)  // place 2’s numbers (a copy)']
      : ['model.wpe', 'null: this model has no position table: it uses rotary positions', 'model.hasPositionTable  // false'],
    ['model.tokenId(text)', 'a token’s id; "·" is the space before a word', `model.tokenId('·girl')  // ${girl}`],
    ['model.tokenText(id)', 'a token’s text', `model.tokenText(${girl})  // '·girl'`],
    ['model.tokenize(text)', 'a text’s tokens', "model.tokenize('Lily saw Max')  // [{ id, text }, …]"],
    ['model.vocabulary()', 'every token’s text, by id', 'model.vocabulary().slice(0, 10)'],
    ['rowView(table, i)', sixteen ? 'row i of a table: a view (no copy), or of this 16-bit wte a float32 copy' : 'row i of a table, a view (no copy)', `rowView(model.wte, ${girl})  // ${model.width} numbers`],
    ['dot(a, b)', 'the dot product', 'dot([1, 2, 3], [4, 0, -1])  // 1'],
    ['cosine(a, b)', 'the cosine similarity', `cosine(rowView(model.wte, ${girl}), rowView(model.wte, ${boy}))  // ·girl and ·boy`],
    ['model.nearest(word, k)', 'the k closest tokens by cosine', "model.nearest('·girl', 5)  // [{ id, text, score }, …]"],
    ['model.trace(text)', 'what the first layer reads', "model.trace('Lily saw Max').embeddings  // token + position, one row per token"],
    ['trace', 'the trace of the first text box, kept current', 'trace.tokens, trace.tokenEmbeddings, trace.positionEmbeddings, trace.embeddings'],
    ['model.cosineMatrix(table)', 'every row against every row', 'model.cosineMatrix(model.wpe).at(1, 2)  // places 2 and 3'],
    ['model.vectorTimesWte(vector)', `a vector of ${model.vocabSize} numbers times the token table, by the kernels: a one-hot vector gives its row`,
      `const oneHot = new Float32Array(${model.vocabSize}); oneHot[${girl}] = 1; model.vectorTimesWte(oneHot)  // row ${girl}`],
    ['Matrix', `rows, cols, name, dtype, data (the numbers${sixteen ? '; of a 16-bit table, their bits' : ''}), .at(r, c), .row(i), .rowView(i), .toArray()`, 'model.wte.data.length  // every number of the table'],
  ];
  return ['The chapter’s API (each line: what, then an example to paste):',
    ...lines.map(([name, what, example]) => `  ${name}: ${what}\n      ${example}`),
    `This model’s ids for the chapter’s tokens: ${chapterIds(model)}. The book’s ids belong to the book’s model.`].join('\n');
}

/** Puts help() in the console; before the model is in, it says the model is still loading. */
function installHelp() {
  window.help = () => {
    console.info(window.model ? helpText(window.model) : 'The model is still loading; try help() again in a moment.');
  };
}
installHelp();

// ---- Glossary terms -----------------------------------------------------------
// A definition opens in place; Escape closes the one open (and gives the focus back to its term).
for (const term of document.querySelectorAll('button.term')) {
  term.addEventListener('click', () => setTerm(term, term.getAttribute('aria-expanded') !== 'true'));
}
function setTerm(term, open) {
  term.setAttribute('aria-expanded', String(open));
  document.getElementById(term.getAttribute('aria-controls')).hidden = !open;
}
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  const open = [...document.querySelectorAll('button.term[aria-expanded="true"]')];
  if (!open.length) return;
  const focused = open.find((term) => term === document.activeElement ||
    document.getElementById(term.getAttribute('aria-controls')).contains(document.activeElement)) ?? open[open.length - 1];
  setTerm(focused, false);
  focused.focus();
});

// ---- Figures --------------------------------------------------------------------
function setFigure(name, text) {
  for (const element of document.querySelectorAll(`[data-fig="${name}"]`)) element.textContent = text;
}

/** A token's id, or undefined when the text is not one token of this model. */
function idOf(model, text) {
  try {
    return model.tokenId(text);
  } catch {
    return undefined;
  }
}

function listInWords(items) {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "128 places", or what a model without a position table has instead. */
function placesOf(model) {
  return model.hasPositionTable ? `${int(model.context)} places`
    : `no position table (rotary positions${model.context ? `, ${int(model.context)} places` : ''})`;
}

/**
 * Whether the weights file holds the two tables and nothing else (a
 * training snapshot opened as a model): it then says nothing of how many
 * numbers the whole model learned.
 */
function tablesOnly(model) {
  return model.parameterCount === model.vocabSize * model.width + (model.wpe ? model.context * model.width : 0);
}

/** "4,096 tokens × 128 numbers, 128 places". */
function sizeOf(model) {
  return `${int(model.vocabSize)} tokens × ${int(model.width)} numbers, ${placesOf(model)}`;
}

/** The header's line about the loaded model: what it is, and what of the page it can fill. */
function modelSummary(model) {
  if (!hasTokenizer(model)) {
    return `Model loaded from its weights alone: ${sizeOf(model)}. It came without its tokenizer.json, so what needs words ` +
      '(a typed word, the tokens of a text, the chapter’s “Lily” and “·girl”) is missing below, and each token is shown by its row id.';
  }
  if (tablesOnly(model)) {
    return `Model loaded: ${sizeOf(model)}. Its file holds only the token and position tables, so how many numbers the whole model ` +
      'learned is not known here; every other figure below comes from them.';
  }
  return `Model loaded: ${sizeOf(model)}. Every figure below comes from it.`;
}

// The share sentence as the page wrote it, to put back after a model that could not fill it.
const learnedSentence = [...($('[data-fig="learned"]')?.childNodes ?? [])];

/** The figures of the first screen, beside the token table: filled before it is shown. */
function fillFirstFigures(model) {
  const { vocabSize, width, context } = model;
  const tableNumbers = vocabSize * width;
  setFigure('rows', int(vocabSize));
  setFigure('width', int(width));
  setFigure('context', int(context));
  setFigure('count', int(tableNumbers));
  const learned = $('[data-fig="learned"]');
  if (tablesOnly(model)) {
    learned?.replaceChildren('and this file holds nothing but the token and position tables, so how many numbers the whole model ' +
      'learned, and so their share, is not known here');
  } else {
    learned?.replaceChildren(...learnedSentence);
    setFigure('share', share(tableNumbers, model.parameterCount));
    setFigure('params', int(model.parameterCount));
  }

  const lily = idOf(model, 'Lily');
  if (!hasTokenizer(model)) {
    // Said in words, where the chapter's sentence names an id and then Lily's numbers.
    for (const element of document.querySelectorAll('[data-fig="lily-id"]')) {
      element.textContent = element.closest('.story')
        ? '42 (this model came without its tokenizer.json, so which token an id stands for is not known here)'
        : 'not known';
    }
    setFigure('lily-five', 'not available, because without the model’s tokenizer.json the page cannot find “Lily”');
  } else if (lily === undefined) {
    // The Story's sentence needs an id: the first of Lily's pieces, said as such.
    const pieces = model.tokenize('Lily');
    for (const element of document.querySelectorAll('[data-fig="lily-id"]')) {
      element.textContent = element.closest('.story') && pieces.length
        ? `${pieces[0].id} (the first of the ${pieces.length} tokens “Lily” is in this model)`
        : 'none: “Lily” is not one token in this model';
    }
    setFigure('lily-five', 'not available, because “Lily” is not one token in this model');
  } else {
    setFigure('lily-id', String(lily));
    setFigure('lily-five', listInWords(Array.from(rowView(model.wte, lily).subarray(0, 5), (x) => num(x))));
  }
}

/** The figures further down (cosines of rows, the position map's, the model's details): after the first view. */
function fillLaterFigures(model) {
  const { vocabSize, width, context } = model;
  const pair = (a, b) => {
    if (!hasTokenizer(model)) return `nothing here, as without the model’s tokenizer.json the page cannot find “${a}” and “${b}”`;
    const ia = idOf(model, a), ib = idOf(model, b);
    if (ia === undefined || ib === undefined) {
      return `nothing here, as “${ia === undefined ? a : b}” is not one token in this model`;
    }
    return num(cosine(rowView(model.wte, ia), rowView(model.wte, ib)), 2);
  };
  setFigure('pair-girl', pair('·girl', '·boy'));
  setFigure('pair-three', pair('·three', '·3'));
  setFigure('pair-lily', pair('·Lily', 'Lily'));

  const map = model.hasPositionTable ? positionMap(model) : undefined;
  const place = (p, q) => {
    if (!map) return 'nothing, as this model has no position table: it uses rotary positions';
    return p <= context && q <= context ? num(map.at(p - 1, q - 1), 2) : `nothing (the model has only ${context} places)`;
  };
  setFigure('pos-near', place(2, 3));
  setFigure('pos-far', place(2, 51));
  // The original transformer's waves, for as many places and numbers (128 places without a position table).
  const waves = sinusoidMap(model).map;
  const wave = (p, q) => (p <= waves.rows && q <= waves.rows ? num(waves.at(p - 1, q - 1), 2) : `nothing (only ${waves.rows} places)`);
  setFigure('wave-near', wave(2, 3));
  setFigure('wave-far', wave(2, 51));

  const numbers = tablesOnly(model)
    ? `${int(model.parameterCount)} numbers in its file, only the token and position tables` +
      (model.config.layers ? ` (its config.json names ${model.config.layers} layers, which the file does not hold)` : '')
    : `${int(model.parameterCount)} learned numbers in all` + (model.config.layers ? `, ${model.config.layers} layers` : '');
  $('#model-details').textContent = `The model: ${model.source.replace(location.origin, '')}, ` +
    `${int(vocabSize)} tokens × ${int(width)} numbers, ${placesOf(model)}, ${numbers}` +
    `${hasTokenizer(model) ? '' : ', no tokenizer.json'}. Kernels: ${backend}.`;
}

function fillDotFigures() {
  const products = [[1, 4], [2, 0], [3, -1]].map(([x, y]) => dot([x], [y]));
  setFigure('dot-products', listInWords(products.map((x) => num(x, 0))));
  setFigure('dot-sum', num(dot([1, 2, 3], [4, 0, -1]), 0));
}

// ---- Code parts ----------------------------------------------------------------
// The chapter's own definitions (jsDot, jsCosine) come from code-parts.js,
// spelled as the Code parts write them.
const dotLine = {
  code: 'const dot = (a, b) => a.reduce((sum, x, k) => sum + x * b[k], 0);',
  name: 'dot',
  run: () => jsDot,
};

/** `rowView(model.wte, 477)` with this model's id, or the tokenId call that says why there is none. */
function rowOf(model, text) {
  const id = idOf(model, text);
  return {
    code: id === undefined ? `rowView(model.wte, model.tokenId(${quote(text)}))` : `rowView(model.wte, ${id})`,
    run: () => rowView(model.wte, id === undefined ? model.tokenId(text) : id),
    id,
  };
}

function traceShape(model) {
  const trace = traceWidget.trace;
  return trace ? `${trace.tokens.length} × ${model.width}` : `n × ${model.width}`;
}

/** Five numbers of a row, as the chapter lists them. */
function firstFive(model, id) {
  return Array.from(rowView(model.wte, id).subarray(0, 5), (x) => num(x)).join(', ');
}

function fillCode(model) {
  // The chapter's lines as written where this model has the chapter's ids
  // (the default model does); else each with this model's id, or the
  // tokenId call that says why there is none.
  const asWritten = hasChapterIds(model);
  const lily = rowOf(model, 'Lily');
  $('#code-embeddings').lines = [
    {
      code: `const lily = ${lily.code};`,
      comment: `${model.width} numbers${lily.id === undefined || asWritten ? '' : ' (the book’s id for Lily: 665)'}`,
      name: 'lily',
      run: lily.run,
      figure: {
        what: 'The first five numbers of “Lily”',
        book: '0.008, 0.006, −0.046, 0.001, −0.209',
        ours: () => (lily.id === undefined ? 'none: “Lily” is not one token here' : firstFive(model, lily.id)),
      },
    },
    {
      code: 'trace.tokenEmbeddings;',
      comment: `one row per token, ${traceShape(model)}`,
      run: () => window.trace.tokenEmbeddings,
    },
  ];

  const girl = rowOf(model, '·girl'), boy = rowOf(model, '·boy');
  const pairScore = () => (girl.id === undefined || boy.id === undefined
    ? 'none: “·girl” or “·boy” is not one token here' : num(jsCosine(girl.run(), boy.run()), 2));
  $('#code-similar').lines = [
    dotLine,
    {
      code: 'const cosine = (a, b) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));',
      name: 'cosine',
      run: () => jsCosine,
    },
    {
      code: `cosine(${girl.code}, ${boy.code});`,
      comment: asWritten ? '·girl and ·boy, 0.74' : '·girl and ·boy (the book’s model: 0.74)',
      run: () => jsCosine(girl.run(), boy.run()),
      figure: { what: '·girl and ·boy', book: '0.74', ours: pairScore },
    },
  ];

  $('#code-position').lines = [
    {
      code: 'trace.positionEmbeddings;',
      comment: model.hasPositionTable ? `one row per place, ${traceShape(model)}` : 'null: this model has no position table: it uses rotary positions',
      run: () => window.trace.positionEmbeddings,
    },
    {
      code: 'trace.embeddings;',
      comment: model.hasPositionTable ? 'tokenEmbeddings + positionEmbeddings' : 'the token rows: no position table to add',
      run: () => window.trace.embeddings,
    },
  ];
}

$('#code-dot').lines = [
  dotLine,
  { code: 'dot([1, 2, 3], [4, 0, -1]);', comment: String(jsDot([1, 2, 3], [4, 0, -1])), run: () => jsDot([1, 2, 3], [4, 0, -1]) },
];
// The module computes them: once it is up (a failure shows as the model's).
ready.then(fillDotFigures, () => {});

// ---- Formulas ----------------------------------------------------------------------
// KaTeX builds DOM nodes and sets styles through the CSSOM, which the page's
// Content-Security-Policy allows (renderToString + innerHTML would not be).
// It loads after the model and the widgets, when the browser is idle, with
// its stylesheet (so the page's first style passes do not match KaTeX's rules).
// The minified classic build is half the size of katex.mjs; a script element
// from our own origin is allowed by script-src 'self'.
const katexFolder = new URL('../../node_modules/katex/dist/', import.meta.url);

function loadElement(element, url) {
  return new Promise((resolve, reject) => {
    element.addEventListener('load', () => resolve());
    element.addEventListener('error', () => reject(new Error(`${url} could not be loaded`)));
    document.head.append(element);
  });
}

function loadKatex() {
  if (window.katex) return Promise.resolve(window.katex);
  const script = document.createElement('script');
  script.src = new URL('katex.min.js', katexFolder).href;
  const style = document.createElement('link');
  style.rel = 'stylesheet';
  style.href = new URL('katex.min.css', katexFolder).href;
  return Promise.all([loadElement(script, script.src), loadElement(style, style.href)]).then(() => window.katex);
}

async function typeset() {
  const katex = await loadKatex();
  for (const element of document.querySelectorAll('.tex[data-tex]')) {
    katex.render(element.dataset.tex, element, {
      displayMode: element.classList.contains('display'),
      throwOnError: false,
      output: 'htmlAndMathml',
    });
    element.classList.add('typeset');
  }
  // Each display formula is checked again when its own box changes width
  // (its column did) and when fonts arrive (KaTeX's glyphs widen it).
  // Watching the body instead ran the check on every change of the page's
  // height while the widgets build, and its reads between writes forced a
  // layout per formula: 345 ms of a phone's main thread in one profiled load.
  const formulas = [...document.querySelectorAll('.tex.display.typeset')];
  const checkAll = () => markWideFormulas(formulas);
  checkAll();
  const watcher = new ResizeObserver((entries) => markWideFormulas(entries.map((entry) => entry.target)));
  for (const element of formulas) watcher.observe(element);
  document.fonts?.addEventListener('loadingdone', checkAll);
  document.fonts?.ready.then(checkAll);
  document.documentElement.dataset.formulas = 'ready';
}

/**
 * A display formula wider than its column gets a visible cue that it scrolls
 * sideways. All widths are read before anything is written, so the check
 * costs one layout however many formulas it looks at.
 */
function markWideFormulas(formulas) {
  const wide = formulas.map((element) => element.scrollWidth > element.clientWidth + 1);
  formulas.forEach((element, i) => {
    const isWide = wide[i];
    if (element.classList.contains('scrolls') !== isWide) element.classList.toggle('scrolls', isWide);
    if (isWide && element.tabIndex !== 0) {
      element.tabIndex = 0;
      element.setAttribute('role', 'region');
      element.setAttribute('aria-label', 'Formula, scrolls sideways');
    }
    let cue = element.nextElementSibling?.classList.contains('scroll-cue') ? element.nextElementSibling : null;
    if (isWide && !cue) {
      cue = document.createElement('span');
      cue.className = 'scroll-cue';
      cue.textContent = 'The formula goes on: swipe it sideways →';
      element.after(cue);
    }
    if (cue && cue.hidden === isWide) cue.hidden = !isWide;
  });
}

// After the widgets still waiting for idle time (the same queue, in order).
function typesetWhenIdle() {
  whenIdle().then(typeset).catch((error) => {
    console.warn(`The formulas stay as plain text: ${error.message}`);
    document.documentElement.dataset.formulas = 'plain';
  });
}

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
  defineDeferredWidgets();
  fillLaterFigures(model);
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
    if (element instanceof ModelWidget && element.localName !== 'training-slider') element.model = model;
  }
  if (await showModel(model)) document.documentElement.dataset.page = 'ready';
}

let pageState;

/**
 * A row of the trace the reader is on lights up its token elsewhere: its row
 * in the token table (picked there) and its dot on the map (ringed, not
 * picked, so the map's word and its neighbours stay).
 */
function linkViews() {
  traceWidget.addEventListener('ew-trace-row', (event) => {
    const { id, row, text, token } = event.detail;
    $('#table')?.pick(id);
    $('#vocabulary-map')?.lightUp(id, `${token} (place ${row + 1} of text ${text})`);
  });
}

async function main() {
  let model;
  try {
    model = await sharedModel(undefined, showProgress);
  } catch (error) {
    defineDeferredWidgets();
    showModelFailure(error);
    document.documentElement.dataset.page = 'error';
    typesetWhenIdle();
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
      if (!current.hasPositionTable) return;
      map.compare(Math.min(p, current.context), Math.min(q, current.context));
      map.querySelector('.ew-grid-viewport')?.focus({ preventScroll: true });
    });
  }
  linkViews();
  if (await shown) {
    document.documentElement.dataset.page = 'ready';
    performance.mark('embeddings:figures');
  }
  // The reader's word, texts, step and map view in the address (restored from it, and Back).
  pageState = new PageState({ nearest: $('#nearest'), map: $('#vocabulary-map'), trace: traceWidget, slider: $('#slider') });
  pageState.start();
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
