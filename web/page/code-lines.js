// The chapter page's Code parts: each line of the chapter's code backed by
// a function that does what it says, with this model's ids where the
// chapter's would not be this model's tokens.
import { rowView } from '../index.js';
import { num, quote } from '../widgets/parts/format.js';
import { dot as jsDot, cosine as jsCosine } from './code-parts.js';
import { idOf } from './figures.js';
import { hasChapterIds } from './console-help.js';

const $ = (selector) => document.querySelector(selector);

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
  const trace = $('#trace').trace;
  return trace ? `${trace.tokens.length} × ${model.width}` : `n × ${model.width}`;
}

/** Five numbers of a row, as the chapter lists them. */
function firstFive(model, id) {
  return Array.from(rowView(model.wte, id).subarray(0, 5), (x) => num(x)).join(', ');
}

export function fillCode(model) {
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

/** The dot product's Code part, which needs no model. */
export function fillDotCode() {
  $('#code-dot').lines = [
    dotLine,
    { code: 'dot([1, 2, 3], [4, 0, -1]);', comment: String(jsDot([1, 2, 3], [4, 0, -1])), run: () => jsDot([1, 2, 3], [4, 0, -1]) },
  ];
}
