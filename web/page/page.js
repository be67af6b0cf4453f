// The chapter page: fills in every figure from the loaded model, backs each
// Code line with a function that does what the line says, typesets the
// formulas, and puts the chapter's objects in the browser console.
import { rowView, dot, cosine, defaultModelFiles, backend } from '../index.js';
import { sharedModel } from '../widgets/index.js';
import { whenIdle } from '../widgets/base.js';
import { positionMap } from '../widgets/position-map.js';
import { int, num, share, quote } from '../widgets/format.js';

const $ = (selector) => document.querySelector(selector);
const traceWidget = $('#trace');

// ---- The browser console ------------------------------------------------------
// The chapter's Code lines work as written: model, trace, rowView, dot, cosine.
// `trace` is the trace of the first text box, kept current as it changes.
Object.assign(window, { rowView, dot, cosine });
Object.defineProperty(window, 'trace', {
  configurable: true,
  enumerable: true,
  get: () => traceWidget.trace,
});

// ---- Glossary terms -----------------------------------------------------------
for (const term of document.querySelectorAll('button.term')) {
  term.addEventListener('click', () => {
    const open = term.getAttribute('aria-expanded') !== 'true';
    term.setAttribute('aria-expanded', String(open));
    document.getElementById(term.getAttribute('aria-controls')).hidden = !open;
  });
}

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

function fillFigures(model) {
  const { vocabSize, width, context } = model;
  const tableNumbers = vocabSize * width;
  setFigure('rows', int(vocabSize));
  setFigure('width', int(width));
  setFigure('context', int(context));
  setFigure('count', int(tableNumbers));
  setFigure('share', share(tableNumbers, model.parameterCount));
  setFigure('params', int(model.parameterCount));

  const lily = idOf(model, 'Lily');
  if (lily === undefined) {
    setFigure('lily-id', '(none: “Lily” is not one token in this model)');
    setFigure('lily-five', 'not available, because “Lily” is not one token in this model');
  } else {
    setFigure('lily-id', String(lily));
    setFigure('lily-five', listInWords(Array.from(rowView(model.wte, lily).subarray(0, 5), (x) => num(x))));
  }

  const pair = (a, b) => {
    const ia = idOf(model, a), ib = idOf(model, b);
    if (ia === undefined || ib === undefined) {
      return `nothing here, as “${ia === undefined ? a : b}” is not one token in this model`;
    }
    return num(cosine(rowView(model.wte, ia), rowView(model.wte, ib)), 2);
  };
  setFigure('pair-girl', pair('·girl', '·boy'));
  setFigure('pair-three', pair('·three', '·3'));
  setFigure('pair-lily', pair('·Lily', 'Lily'));

  const map = positionMap(model);
  const place = (p, q) => (p <= context && q <= context ? num(map.at(p - 1, q - 1), 2) : `nothing (the model has only ${context} places)`);
  setFigure('pos-near', place(2, 3));
  setFigure('pos-far', place(2, 51));

  $('#model-details').textContent = `The model: ${model.source.replace(location.origin, '')}, ` +
    `${int(vocabSize)} tokens × ${int(width)} numbers, ${int(context)} places, ` +
    `${int(model.parameterCount)} learned numbers in all` +
    (model.config.layers ? `, ${model.config.layers} layers` : '') +
    `. Kernels: ${backend}.`;
}

function fillDotFigures() {
  const products = [[1, 4], [2, 0], [3, -1]].map(([x, y]) => dot([x], [y]));
  setFigure('dot-products', listInWords(products.map((x) => num(x, 0))));
  setFigure('dot-sum', num(dot([1, 2, 3], [4, 0, -1]), 0));
}

// ---- Code parts ----------------------------------------------------------------
// The chapter's own definitions, as written in its Code parts (a console
// prints a function as its source, so these are spelled exactly so).
const { jsDot, jsCosine } = (() => {
  const dot = (a, b) => a.reduce((sum, x, k) => sum + x * b[k], 0);
  const cosine = (a, b) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
  return { jsDot: dot, jsCosine: cosine };
})();
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

function fillCode(model) {
  const lily = rowOf(model, 'Lily');
  $('#code-embeddings').lines = [
    {
      code: `const lily = ${lily.code};`,
      comment: `${model.width} numbers${lily.id === undefined ? '' : ' (the book’s id for Lily: 665)'}`,
      name: 'lily',
      run: lily.run,
    },
    {
      code: 'trace.tokenEmbeddings;',
      comment: `one row per token, ${traceShape(model)}`,
      run: () => window.trace.tokenEmbeddings,
    },
  ];

  const girl = rowOf(model, '·girl'), boy = rowOf(model, '·boy');
  $('#code-similar').lines = [
    dotLine,
    {
      code: 'const cosine = (a, b) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));',
      name: 'cosine',
      run: () => jsCosine,
    },
    {
      code: `cosine(${girl.code}, ${boy.code});`,
      comment: '·girl and ·boy (the book’s model: 0.74)',
      run: () => jsCosine(girl.run(), boy.run()),
    },
  ];

  $('#code-position').lines = [
    {
      code: 'trace.positionEmbeddings;',
      comment: `one row per place, ${traceShape(model)}`,
      run: () => window.trace.positionEmbeddings,
    },
    {
      code: 'trace.embeddings;',
      comment: 'tokenEmbeddings + positionEmbeddings',
      run: () => window.trace.embeddings,
    },
  ];
}

$('#code-dot').lines = [
  dotLine,
  { code: 'dot([1, 2, 3], [4, 0, -1]);', comment: String(jsDot([1, 2, 3], [4, 0, -1])), run: () => jsDot([1, 2, 3], [4, 0, -1]) },
];
fillDotFigures();

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
  document.documentElement.dataset.formulas = 'ready';
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

async function main() {
  let model;
  try {
    model = await sharedModel(defaultModelFiles, showProgress);
  } catch (error) {
    progressBar.hidden = true;
    $('#model-line').setAttribute('role', 'alert');
    $('#model-line').classList.add('failed');
    progressText.textContent = `The model could not be loaded: ${error.message}`;
    document.documentElement.dataset.page = 'error';
    typesetWhenIdle();
    return;
  }
  window.model = model;
  progressBar.hidden = true;
  progressText.textContent = `Model loaded: ${int(model.vocabSize)} tokens × ${int(model.width)} numbers, ` +
    `${int(model.context)} places. Every figure below comes from it.`;
  fillFigures(model);
  fillCode(model);
  traceWidget.addEventListener('ew-trace', () => fillCode(model));

  for (const button of document.querySelectorAll('[data-places]')) {
    button.addEventListener('click', () => {
      const [p, q] = button.dataset.places.split(' ').map(Number);
      const map = $('#positions');
      map.compare(Math.min(p, model.context), Math.min(q, model.context));
      map.querySelector('.ew-grid-viewport')?.focus({ preventScroll: true });
    });
  }
  document.documentElement.dataset.page = 'ready';
  performance.mark('embeddings:figures');
  typesetWhenIdle();
}

main();
