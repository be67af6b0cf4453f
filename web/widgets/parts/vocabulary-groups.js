// The groups of words the chapter names, marked on <ew-vocabulary-map>: each
// group is a fixed list of tokens, written in the chapter's display form
// ("·red" is " red"), checked against the default model's vocabulary (see
// docs/page.md). Tokens a model lacks are skipped, so another model shows
// the part of each group it has. "Numbers and digits" adds a rule: every
// token that is only digits, with or without a leading space.
//
// Each group has a colour from the Okabe-Ito palette (distinguishable with
// the common colour-vision deficiencies) and a shape, so that colour is
// never the only cue.
export const VOCABULARY_GROUPS = Object.freeze([
  {
    key: 'colours', label: 'Colours', colour: '#D55E00', shape: 'circle',
    words: ['·red', '·blue', '·green', '·yellow', '·pink', '·purple', '·orange', '·black', '·white', '·brown',
      '·gray', '·silver'],
    // Not "·gold": in these stories it is mostly treasure, and it lies with coins and treasure.
  },
  {
    key: 'numbers', label: 'Numbers and digits', colour: '#0072B2', shape: 'square',
    words: ['·one', '·two', '·three', '·four', '·five', '·six', '·seven', '·eight', '·nine', '·ten'],
    rule: /^·?[0-9]+$/,
  },
  {
    key: 'names', label: 'Names', colour: '#009E73', shape: 'triangle',
    words: ['·Lily', '·Tom', '·Max', '·Sue', '·Ben', '·Anna', '·Tim', '·Mia', '·Sam', '·Lucy', '·Jack', '·Sara',
      '·Timmy', '·Bob', '·Amy', '·Jane', '·Mark', 'Lily', 'Tom', 'Max', '·Emma', '·Molly', '·Jake', '·Billy',
      '·Joe', '·Daisy', '·Lisa', '·John', '·Mary', '·Sally', '·Bella', '·Leo'],
  },
  {
    key: 'family', label: 'Family words', colour: '#CC79A7', shape: 'diamond',
    words: ['·mom', '·dad', '·mommy', '·daddy', '·mother', '·father', '·sister', '·brother', '·grandma',
      '·grandpa', '·family', '·baby', '·son', '·daughter', '·parents', '·Mom', '·Dad'],
  },
  {
    key: 'motion', label: 'Verbs of motion', colour: '#E69F00', shape: 'cross',
    words: ['·ran', '·run', '·walked', '·walk', '·jumped', '·jump', '·flew', '·fly', '·swam', '·swim',
      '·running', '·walking', '·hopped', '·hop', '·climbed', '·climb', '·raced', '·rushed', '·skipped',
      '·danced', '·crawled', '·rolled'],
  },
]);

/** The ids of each group's tokens in a vocabulary (an array of display texts by id): { key: [ids] }. */
export function groupIds(vocabulary) {
  const idOf = new Map(vocabulary.map((text, id) => [text, id]));
  const out = {};
  for (const group of VOCABULARY_GROUPS) {
    const ids = new Set(group.words.filter((w) => idOf.has(w)).map((w) => idOf.get(w)));
    if (group.rule) vocabulary.forEach((text, id) => { if (group.rule.test(text)) ids.add(id); });
    out[group.key] = [...ids].sort((a, b) => a - b);
  }
  return out;
}

/** Draws a group's shape of radius r at (x, y): circle, square, triangle, diamond or cross. */
export function drawShape(context, shape, x, y, r) {
  context.beginPath();
  if (shape === 'square') context.rect(x - r, y - r, 2 * r, 2 * r);
  else if (shape === 'triangle') { context.moveTo(x, y - r * 1.2); context.lineTo(x + r * 1.1, y + r); context.lineTo(x - r * 1.1, y + r); context.closePath(); }
  else if (shape === 'diamond') { context.moveTo(x, y - r * 1.3); context.lineTo(x + r * 1.1, y); context.lineTo(x, y + r * 1.3); context.lineTo(x - r * 1.1, y); context.closePath(); }
  else if (shape === 'cross') { context.rect(x - r * 1.2, y - r * 0.4, r * 2.4, r * 0.8); context.rect(x - r * 0.4, y - r * 1.2, r * 0.8, r * 2.4); }
  else context.arc(x, y, r, 0, 2 * Math.PI);
}
