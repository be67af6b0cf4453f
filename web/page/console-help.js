// What the chapter page says in the browser console: the short message on
// load, and help(), every global and method with an example in this
// model's ids.
import { hasTokenizer } from '../widgets/parts/token-picker.js';
import { idOf } from './figures.js';

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
export function hasChapterIds(model) {
  return Object.entries(CHAPTER_LINE_IDS).every(([text, id]) => idOf(model, text) === id);
}

/**
 * The one short message the console shows on load: where the reader is, and
 * for a model whose ids are not the chapter's, that its lines need this model's.
 */
export function consoleBanner(model) {
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
    ['model.trace(text)', 'what the first layer reads', `model.trace('Lily saw Max').embeddings  // ${model.hasPositionTable
      ? 'token + position' : 'the token rows (no position table)'}, one row per token`],
    ['trace', 'the trace of the first text box, kept current', 'trace.tokens, trace.tokenEmbeddings, trace.positionEmbeddings, trace.embeddings'],
    model.wpe
      ? ['model.cosineMatrix(table)', 'every row against every row', 'model.cosineMatrix(model.wpe).at(1, 2)  // places 2 and 3']
      : ['model.cosineMatrix(table)', 'every row against every row (this model has no wpe to map)',
        "model.cosineMatrix(model.trace('Lily saw Max').tokenEmbeddings).at(0, 2)  // Lily and ·Max"],
    ['model.vectorTimesWte(vector)', `a vector of ${model.vocabSize} numbers times the token table, by the kernels: a one-hot vector gives its row`,
      `const oneHot = new Float32Array(${model.vocabSize}); oneHot[${girl}] = 1; model.vectorTimesWte(oneHot)  // row ${girl}`],
    ['Matrix', `rows, cols, name, dtype, data (the numbers${sixteen ? '; of a 16-bit table, their bits' : ''}), .at(r, c), .row(i), .rowView(i), .toArray()`, 'model.wte.data.length  // every number of the table'],
  ];
  return ['The chapter’s API (each line: what, then an example to paste):',
    ...lines.map(([name, what, example]) => `  ${name}: ${what}\n      ${example}`),
    `This model’s ids for the chapter’s tokens: ${chapterIds(model)}. The book’s ids belong to the book’s model.`].join('\n');
}

/** Puts help() in the console; before the model is in, it says the model is still loading. */
export function installHelp() {
  window.help = () => {
    console.info(window.model ? helpText(window.model) : 'The model is still loading; try help() again in a moment.');
  };
}
