// What Model's text methods check and say, apart from the class: encode()'s
// and decode()'s options, the special tokens put around a text, and
// tokenId()'s error for a text that is not one token, with its suggestions.
import { describe } from '../matrix.js';

// The text specialTokensAround encodes to find what is put around a text.
const SPECIAL_PROBE = 'a';

export function encodeOptions(options) {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`encode: options must be an object such as { addSpecialTokens: true }, got ${describe(options)}`);
  }
  const addSpecialTokens = options.addSpecialTokens ?? false;
  if (typeof addSpecialTokens !== 'boolean') {
    throw new TypeError(`encode: options.addSpecialTokens must be true or false, got ${describe(addSpecialTokens)}`);
  }
  const { pair } = options;
  if (pair !== undefined && typeof pair !== 'string') {
    throw new TypeError(`encode: options.pair must be a string, got ${describe(pair)}`);
  }
  const offsets = options.offsets ?? false;
  if (typeof offsets !== 'boolean') {
    throw new TypeError(`encode: options.offsets must be true or false, got ${describe(offsets)}`);
  }
  return { addSpecialTokens, pair, offsets };
}

/** decode()'s ids, each read once (what is checked is what is decoded: a getter may answer differently twice), and its options. */
export function decodeArguments(ids, options, vocabSize) {
  if (!Array.isArray(ids) && !ArrayBuffer.isView(ids)) throw new TypeError(`decode: expected an array of token ids, got ${describe(ids)}`);
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`decode: options must be an object such as { skipSpecialTokens: true }, got ${describe(options)}`);
  }
  const skipSpecialTokens = options.skipSpecialTokens ?? false;
  if (typeof skipSpecialTokens !== 'boolean') {
    throw new TypeError(`decode: options.skipSpecialTokens must be true or false, got ${describe(skipSpecialTokens)}`);
  }
  const count = ids.length;
  const checked = new Array(count);
  for (let i = 0; i < count; i++) {
    const id = ids[i];
    if (typeof id !== 'number') {
      // (A hole of a sparse array, [1, , 2], reads as undefined.)
      const what = id === undefined && !(i in ids) ? 'an empty slot' : describe(id);
      throw new TypeError(`decode: ids[${i}] is ${what}; each id must be a token id, a whole number from 0 to ${vocabSize - 1}`);
    }
    if (!Number.isInteger(id) || id < 0 || id >= vocabSize) {
      throw new RangeError(`decode: ids[${i}] is ${id}, and token id ${id} does not exist; valid token ids are 0 to ${vocabSize - 1}`);
    }
    checked[i] = id;
  }
  return { checked, skipSpecialTokens };
}

/** The special tokens a tokenizer host's encode() puts before and after a text with { addSpecialTokens: true }. */
export function specialTokensAround(tokenizer) {
  const own = tokenizer.encode(SPECIAL_PROBE, 'specialTokensAround');
  const all = tokenizer.encode(SPECIAL_PROBE, 'specialTokensAround', undefined, { addSpecialTokens: true });
  let at = 0;
  while (at + own.length <= all.length && own.some((id, i) => all[at + i] !== id)) at++;
  const named = (ids) => ids.map((id) => ({ id, text: tokenizer.text(id) }));
  if (at + own.length > all.length) return { before: named(all), after: [] };
  return { before: named(all.slice(0, at)), after: named(all.slice(at + own.length)) };
}

// tokenId() lists the pieces of a text that is not one token only up to this
// length; past it the message would be longer than the reader wants.
const LONGEST_TEXT_SPLIT_IN_MESSAGES = 1000;

/**
 * tokenId()'s hint for a text that is not one token: the spellings close to
 * it that are ("girl" -> '·girl', the word after a space, as it stands in
 * a sentence), or '' when none is.
 */
function suggestTokens(tokenizer, text) {
  const word = text.replace(/^[·\s]+|\s+$/g, '');
  if (!word || word.length > 100) return '';
  const cases = [word, word.toLowerCase(), word[0].toUpperCase() + word.slice(1).toLowerCase()];
  const spellings = new Set(cases.flatMap((w) => [`·${w}`, w]));
  spellings.delete(text);
  const found = [...spellings].map((w) => [w, tokenizer.id(w)]).filter(([, id]) => id >= 0).slice(0, 3);
  if (!found.length) return '';
  const spaced = found.some(([w]) => w.startsWith('·')) && !text.startsWith('·');
  const listed = found.map(([w, id]) => `'${w}' (id ${id})`);
  return `. Did you mean ${listed.length > 1 ? `${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}` : listed[0]}?` +
    (spaced ? ' "·" is the space before a word: inside a sentence a word is one token with it.' : '');
}

/**
 * The RangeError for a text that is not one token: its pieces, and the
 * spellings close to it that are; under the name of the function the
 * caller called (tokenId, or nearest for its query or an exclude), and
 * what the text was given as (`what`, such as 'exclude[0] ').
 */
export function notOneToken(tokenizer, text, caller = 'tokenId', what = '') {
  if (text.length > LONGEST_TEXT_SPLIT_IN_MESSAGES) {
    return new RangeError(`${caller}: ${what}a text of ${text.length} characters is not a single token ` +
      `(the longest token has ${tokenizer.maxTokenBytes} bytes)`);
  }
  const raw = text.replace(/·/g, ' ');
  const pieces = raw === '' ? [] : tokenizer.encode(raw, caller).map((i) => tokenizer.text(i));
  return new RangeError(`${caller}: ${what}${JSON.stringify(text)} is not a single token` +
    (pieces.length ? `; it is ${pieces.length} tokens: ${pieces.join(' ')}` : '') + suggestTokens(tokenizer, text));
}
