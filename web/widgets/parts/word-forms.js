// What a typed word means (docs/page.md), and a token's text as
// the widgets show it: the rules the search boxes follow, kept apart from
// the DOM so that Node tests read them too.
//
// The first view of the token table needs a few texts and one typed word;
// the whole vocabulary (4,096 texts from the module, or 50,257 for GPT-2)
// is read only when a reader searches. Until then each form of a word is
// looked up in the module, and the answers are the vocabulary index's.
import { findTokenId, tokenizerSize } from '../../src/model/for-widgets.js';
import { int } from './format.js';

const vocabularies = new WeakMap();
/** model.vocabulary(), computed once per model. */
export function vocabularyOf(model) {
  let words = vocabularies.get(model);
  if (!words) {
    words = model.vocabulary();
    vocabularies.set(model, words);
  }
  return words;
}

/**
 * Lets a model reuse another's vocabulary: for snapshots loaded with the
 * same tokenizer.json, which would otherwise each read 4,096 texts again.
 */
export function shareVocabulary(from, to) {
  if (!vocabularies.has(to)) vocabularies.set(to, vocabularyOf(from));
}

const withoutTokenizer = new WeakSet();
/**
 * Whether a model can read text: one loaded from its weights alone (no
 * tokenizer.json) has rows but no token texts, and the widgets show rows
 * by id (`#477`) instead.
 */
export function hasTokenizer(model) {
  if (vocabularies.has(model)) return true;
  if (withoutTokenizer.has(model)) return false;
  try {
    tokenizerSize(model);
    return true;
  } catch {
    withoutTokenizer.add(model);
    return false;
  }
}

/**
 * A row's token text, or '' for a row past the tokenizer's last token (as
 * vocabulary()[id] ?? ''); `#id` for every row of a model without a tokenizer.
 */
export function tokenTextOf(model, id) {
  const words = vocabularies.get(model);
  if (words) return words[id] ?? '';
  if (!hasTokenizer(model)) return `#${id}`;
  return id < tokenizerSize(model) ? model.tokenText(id) : '';
}

/** The display text of a row of the token table, also for rows past the tokenizer's last token. */
export function tokenLabel(model, id) {
  const words = vocabularies.get(model);
  if (!words && !hasTokenizer(model)) return `#${id}`;
  const known = words ? id < words.length : id < tokenizerSize(model);
  return known ? tokenTextOf(model, id) : `(row ${id}, no token)`;
}

/** What a typed row id (`477` or `#477`) names, when it is one of `rows`. */
function rowForm(typed, rows, textOf) {
  const number = /^#?(\d+)$/.exec(typed.trim());
  if (!number || Number(number[1]) >= rows) return [];
  const id = Number(number[1]);
  return [{ id, text: textOf(id), form: 'row' }];
}

const indexes = new WeakMap();
/** Token text → id, made once per vocabulary. */
function indexOf(words) {
  let index = indexes.get(words);
  if (!index) {
    index = new Map();
    words.forEach((word, id) => { if (!index.has(word)) index.set(word, id); });
    indexes.set(words, index);
  }
  return index;
}

/** What a form of a word is, in words: the name shown beside it in the list. */
export const FORM_NAMES = {
  spaced: 'inside a sentence (a space before it)',
  bare: 'no space before it: at the start of a text, or part of a longer word',
  row: 'row id',
};

/**
 * The tokens a typed text may mean, best first: [{ id, text, form }], form
 * one of 'row' (a number, when `rowIds`), 'spaced' (·word) or 'bare'
 * (word). Empty when the text is no single token.
 * @param {string[]} words the vocabulary (display texts, "·" for a leading space)
 */
export function wordForms(words, typed, { rowIds = false, rows = words.length } = {}) {
  const index = indexOf(words);
  return formsOf((word) => index.get(word), (id) => words[id] ?? '', typed, rowIds, rows);
}

/**
 * wordForms over a model's vocabulary, the same answers, without reading
 * the vocabulary when it has not been read yet: each form is looked up in
 * the module. `rows` defaults to the tokenizer's ids.
 */
export function modelWordForms(model, typed, { rowIds = false, rows = undefined } = {}) {
  // Without a tokenizer no word can be looked up, and a number is always a row id.
  if (!hasTokenizer(model)) return rowForm(typed, rows ?? model.vocabSize, (id) => `#${id}`);
  const words = vocabularies.get(model);
  if (words) return wordForms(words, typed, { rowIds, rows: rows ?? words.length });
  const lookUp = (word) => {
    // A token's display text leads back to it (token_id(token_display(id))
    // is id), and no token shows as a text the module finds nothing for.
    const id = findTokenId(model, word);
    if (id < 0) return undefined;
    if (model.tokenText(id) === word) return id;
    // The module found another token: by the text's raw bytes, a byte typed
    // in lower case ("<0xff>" finds "<0xFF>"), or an added token spelled
    // like a byte ("<0x41>" finds "A"). The index decides.
    return fallbackIndexOf(model).get(word);
  };
  return formsOf(lookUp, (id) => tokenTextOf(model, id), typed, rowIds, rows ?? tokenizerSize(model));
}

const fallbackIndexes = new WeakMap();
/**
 * The index of a model's vocabulary for the rare text the module's lookup
 * cannot settle, kept apart from vocabularyOf's so that such a text does not
 * turn every later lookup into a read of the whole vocabulary.
 */
function fallbackIndexOf(model) {
  const words = vocabularies.get(model);
  if (words) return indexOf(words);
  let index = fallbackIndexes.get(model);
  if (!index) {
    index = indexOf(model.vocabulary());
    fallbackIndexes.set(model, index);
  }
  return index;
}

/** wordForms' rule, over any way to find a display text's id and an id's text. */
function formsOf(lookUp, textOf, typed, rowIds, rows) {
  const forms = [];
  const text = typed.replace(/\s+$/, '');
  if (!text) return forms;
  const add = (word, form) => {
    const id = lookUp(word);
    if (id !== undefined && !forms.some((f) => f.id === id)) forms.push({ id, text: word, form });
  };
  if (rowIds) forms.push(...rowForm(text, rows, textOf));
  const spaced = /^[ ·]/.test(text);
  const word = text.replace(/^[ ·]+/, '');
  if (!word) {
    add('·', 'spaced');
  } else if (spaced) {
    add(`·${word}`, 'spaced');
  } else if (word === word.toLowerCase()) {
    // A lower-case word is the word as it stands in a sentence, then the piece.
    add(`·${word}`, 'spaced');
    add(word, 'bare');
  } else {
    // A capital (Lily) is first the word as typed: the start of a text.
    add(word, 'bare');
    add(`·${word}`, 'spaced');
  }
  return forms;
}

const BYTE_TOKEN = /^<0x[0-9A-F]{2}>$/;

/** Whether a token's text is one byte of UTF-8 (<0xF0>): a piece of a character with no token of its own. */
export function isByteToken(text) {
  return BYTE_TOKEN.test(text);
}

/** The sentence that says what byte tokens are, when any of these texts is one. */
export function byteNote(texts) {
  return texts.some(isByteToken)
    ? 'Pieces written like <0xF0> are single bytes of the text’s UTF-8 encoding: the model has no token for that character (an emoji, a Chinese character…), so it reads it one byte at a time.'
    : '';
}

/**
 * The text a reader means by a typed word, as the tokenizer should read it:
 * a lower-case word or one typed with a leading space or "·" stands inside a
 * sentence (" red"); a word with capitals stands as typed.
 */
export function meantText(typed) {
  const text = typed.replace(/\s+$/, '');
  const word = text.replace(/^[ ·]+/, '');
  const spaced = word !== text || word === word.toLowerCase();
  return (spaced ? ' ' : '') + word.replace(/·/g, ' ');
}

/**
 * Why a text is not one token, in words, with its pieces (as the reader
 * means the text, see meantText): { message, pieces: [{ id, text }] }.
 */
/** How much of a text that is no single token its message quotes, and how many of its pieces it names. */
const QUOTED_LETTERS = 60;
export const LISTED_PIECES = 24;

export function notOneToken(model, text, error) {
  if (!hasTokenizer(model)) {
    return {
      message: `This model came without its tokenizer.json, so no word can be looked up: “${text}” is not a row id. ` +
        `Type a row id instead, from 0 to ${model.vocabSize - 1} (such as 42 or #42).`,
      pieces: [],
    };
  }
  let pieces = [];
  const meant = meantText(text);
  try {
    pieces = model.tokenize(meant);
  } catch {
    // The message of the error says enough.
  }
  // A pasted page is named by its start, and its pieces by the first few: the message stays a line or two.
  const shown = text.length > QUOTED_LETTERS ? `${text.slice(0, QUOTED_LETTERS).replace(/^ /, '·')}… (${int(text.length)} characters)` : text.replace(/^ /, '·');
  const where = meant.startsWith(' ') ? 'inside a sentence' : 'as typed';
  const bytes = byteNote(pieces.slice(0, LISTED_PIECES).map((p) => p.text));
  const listed = pieces.slice(0, LISTED_PIECES).map((p) => p.text).join(' + ') + (pieces.length > LISTED_PIECES ? ' + …' : '');
  const message = pieces.length > 1
    ? `“${shown}” is not a single token in this model: ${where} it is ${int(pieces.length)} tokens, ${listed}.${bytes ? ` ${bytes}` : ''}`
    : `“${shown}” is not a token in this model. (${error?.message?.replace(/^tokenId: /, '') ?? 'no such token'})`;
  return { message, pieces };
}
