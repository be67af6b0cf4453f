// The chapter page's figures, filled in from the loaded model: the sizes
// and share of the first screen, Lily's id and numbers, the cosines of rows
// and places further down, the dot product's sums, and the line about the
// model.
import { rowView, dot, cosine, backend } from '../index.js';
import { hasTokenizer } from '../widgets/parts/token-picker.js';
import { ROTARY_PLACES, positionMap, rotaryMap, rotaryOf, sinusoidMap } from '../widgets/position-map.js';
import { int, num, share } from '../widgets/parts/format.js';

const $ = (selector) => document.querySelector(selector);

export function setFigure(name, text) {
  for (const element of document.querySelectorAll(`[data-fig="${name}"]`)) element.textContent = text;
}

/** A token's id, or undefined when the text is not one token of this model. */
export function idOf(model, text) {
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

/** "the token and position tables", or "the token table" of a model without a position table. */
function tablesOf(model) {
  return model.hasPositionTable ? 'the token and position tables' : 'the token table';
}

/**
 * Shows the sentences written for this model's kind of positions: those
 * about a learned position table (data-when="positions") or those about
 * rotary positions (data-when="rotary"), never both.
 */
export function showSentencesFor(model) {
  for (const element of document.querySelectorAll('[data-when]')) {
    element.hidden = (element.dataset.when === 'rotary') === model.hasPositionTable;
  }
}

/** "4,096 tokens × 128 numbers, 128 places". */
export function sizeOf(model) {
  return `${int(model.vocabSize)} tokens × ${int(model.width)} numbers, ${placesOf(model)}`;
}

/** The header's line about the loaded model: what it is, and what of the page it can fill. */
export function modelSummary(model) {
  if (!hasTokenizer(model)) {
    return `Model loaded from its weights alone: ${sizeOf(model)}. It came without its tokenizer.json, so what needs words ` +
      '(a typed word, the tokens of a text, the chapter’s “Lily” and “·girl”) is missing below, and each token is shown by its row id.';
  }
  if (tablesOnly(model)) {
    return `Model loaded: ${sizeOf(model)}. Its file holds only ${tablesOf(model)}, so how many numbers the whole model ` +
      'learned is not known here; every other figure below comes from them.';
  }
  return `Model loaded: ${sizeOf(model)}. Every figure below comes from it.`;
}

// The share sentence as the page wrote it, to put back after a model that could not fill it.
let learnedSentence = [];

/** Keeps the share sentence as the page wrote it: called once, before any model fills it. */
export function keepLearnedSentence() {
  learnedSentence = [...($('[data-fig="learned"]')?.childNodes ?? [])];
}

/** The figures of the first screen, beside the token table: filled before it is shown. */
export function fillFirstFigures(model) {
  const { vocabSize, width, context } = model;
  const tableNumbers = vocabSize * width;
  showSentencesFor(model);
  setFigure('rows', int(vocabSize));
  setFigure('width', int(width));
  setFigure('context', int(context));
  setFigure('count', int(tableNumbers));
  const learned = $('[data-fig="learned"]');
  if (tablesOnly(model)) {
    learned?.replaceChildren(`and this file holds nothing but ${tablesOf(model)}, so how many numbers the whole model ` +
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
export function fillLaterFigures(model) {
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
  fillRotaryFigures(model);
  // The original transformer's waves, for as many places and numbers (128 places without a position table).
  const waves = sinusoidMap(model).map;
  const wave = (p, q) => (p <= waves.rows && q <= waves.rows ? num(waves.at(p - 1, q - 1), 2) : `nothing (only ${waves.rows} places)`);
  setFigure('wave-near', wave(2, 3));
  setFigure('wave-far', wave(2, 51));

  const numbers = tablesOnly(model)
    ? `${int(model.parameterCount)} numbers in its file, only ${tablesOf(model)}` +
      (model.config.layers ? ` (its config.json names ${model.config.layers} layers, which the file does not hold)` : '')
    : `${int(model.parameterCount)} learned numbers in all` + (model.config.layers ? `, ${model.config.layers} layers` : '');
  $('#model-details').textContent = `The model: ${model.source.replace(location.origin, '')}, ` +
    `${int(vocabSize)} tokens × ${int(width)} numbers, ${placesOf(model)}, ${numbers}` +
    `${hasTokenizer(model) ? '' : ', no tokenizer.json'}. Kernels: ${backend}.`;
}

/**
 * The rotary sentences' figures: how many tokens the model reads, and two
 * pairs of places scored on the map of rotary positions the position map
 * draws (its first ROTARY_PLACES places).
 */
function fillRotaryFigures(model) {
  if (model.hasPositionTable) {
    // Their sentences are hidden: nothing in them is left as the page was written.
    for (const name of ['rotary-reads', 'rotary-near', 'rotary-far']) setFigure(name, '');
    return;
  }
  setFigure('rotary-reads', model.context
    ? `it reads at most ${int(model.context)} tokens at a time (its config.json’s max_position_embeddings)`
    : 'how many tokens it reads at a time is not in its config.json');
  const { dims, theta } = rotaryOf(model);
  const places = Math.min(ROTARY_PLACES, model.context || ROTARY_PLACES);
  const map = rotaryMap(places, dims, theta);
  const score = (p, q) => (p <= places && q <= places ? num(map.at(p - 1, q - 1), 2) : `nothing (the model has only ${int(places)} places)`);
  setFigure('rotary-near', score(2, 3));
  setFigure('rotary-far', score(2, 51));
}

export function fillDotFigures() {
  const products = [[1, 4], [2, 0], [3, -1]].map(([x, y]) => dot([x], [y]));
  setFigure('dot-products', listInWords(products.map((x) => num(x, 0))));
  setFigure('dot-sum', num(dot([1, 2, 3], [4, 0, -1]), 0));
}
