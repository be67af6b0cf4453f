// The comparison under <ew-trace-table>'s two texts: each word of the first
// text matched with the same word in the second, and whether its token row
// and its sum stay the same; and the words that say so.
import { rowView, cosine } from '../../index.js';
import { int, num } from './format.js';
import { isByteToken } from './token-picker.js';


export function looseWord(text) {
  return text.replace(/^·/, '');
}

export function listInWords(items) {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A number as a term after "+": (−0.0123) in brackets when negative. */
export function signed(x) {
  return x < 0 ? `(${num(x, 4)})` : num(x, 4);
}

/** "2 of 3 shared words are", "1 of 3 shared words is", "All 3 shared words are", with the verb the count needs. */
export function sharedWords(same, shared) {
  if (shared === 1) return same ? 'The shared word is' : 'The shared word is not';
  if (same === shared) return shared === 2 ? 'Both shared words are' : `All ${int(shared)} shared words are`;
  if (same === 0) return `None of the ${int(shared)} shared words is`;
  return `${int(same)} of ${int(shared)} shared words ${same === 1 ? 'is' : 'are'}`;
}

/**
 * Compares two traces word by word: [{ word, a, b, sameToken, tokenCosine, sameSum, sumCosine }].
 * Byte tokens (<0xF0>) are pieces of a character, not words, so they are left out.
 */
export function compareTraces(first, second) {
  const used = new Set(second.tokens.flatMap((token, k) => (isByteToken(token.text) ? [k] : [])));
  const rows = [];
  first.tokens.forEach((token, i) => {
    if (isByteToken(token.text)) return;
    let j = second.tokens.findIndex((other, k) => !used.has(k) && other.id === token.id);
    if (j < 0) j = second.tokens.findIndex((other, k) => !used.has(k) && looseWord(other.text) === looseWord(token.text));
    if (j < 0) {
      rows.push({ word: looseWord(token.text), a: i, b: -1 });
      return;
    }
    used.add(j);
    const sumA = rowView(first.embeddings, i), sumB = rowView(second.embeddings, j);
    rows.push({
      word: looseWord(token.text),
      a: i,
      b: j,
      sameToken: token.id === second.tokens[j].id,
      tokenCosine: cosine(rowView(first.tokenEmbeddings, i), rowView(second.tokenEmbeddings, j)),
      sameSum: sumA.every((x, k) => x === sumB[k]),
      sumCosine: cosine(sumA, sumB),
    });
  });
  second.tokens.forEach((token, j) => {
    if (!used.has(j)) rows.push({ word: looseWord(token.text), a: -1, b: j });
  });
  return rows;
}
