// <ew-vocabulary-map> in words: the legend that says how the map was made
// and what its distances mean, and the list of the picked word's closest
// tokens, each said to be near it on the map or not. Each works on the
// map's state (state.js).
import { el } from '../parts/dom.js';
import { tokenLabel } from '../parts/token-picker.js';
import { mapDetails } from '../../index.js';
import { float32Numbers } from '../../src/matrix.js';
import { int, num } from '../parts/format.js';

/** How many closest tokens the map rings and lists. */
export const NEIGHBOURS = 10;

export function writeLegend(state) {
  const model = state.model;
  const details = mapDetails(state.map);
  const count = int(model.vocabSize);
  if (state.method === 'axes' && state.axisDetails) {
    const { acrossShare, upShare, upKind } = state.axisDetails;
    const { from, to, upFrom, upTo } = state.axes;
    const word = (id) => tokenLabel(model, id);
    const pct = (share) => `${(100 * share).toFixed(1)}%`;
    const across = `Across: the direction from ${word(from)} to ${word(to)} (the difference of their rows); each token lies as far ` +
      `across as its row goes that way (its dot product with that direction, of length 1), so ${word(from)} and ${word(to)} are ` +
      `as far apart across as their rows are. It holds ${pct(acrossShare)} of the table's variation.`;
    const up = upKind === 'words'
      ? ` Up: the direction from ${word(upFrom)} to ${word(upTo)}, made at right angles to across (its part along across taken out), ${pct(upShare)} of the variation.`
      : ` Up: the direction in which the tokens vary most at right angles to across (the first principal component of the table once ` +
        `the across direction is taken out of every row), ${pct(upShare)} of the variation.`;
    state.parts.legend.textContent = `Each dot is one of the ${count} tokens. ${across}${up} Both are straight lines through the ${model.width} numbers, ` +
      'so distances along them are real; everything else about the rows is flattened away.';
  } else if (details?.method === 'pca') {
    const [a, b] = details.varianceShare.map((s) => `${(100 * s).toFixed(1)}%`);
    state.parts.legend.textContent = `Each dot is one of the ${count} tokens. PCA: across is the direction in which the token ` +
      `lists vary most (${a} of all the variation), up is the next one (${b}). Distances along these two directions are ` +
      `real, but most of the variation lies in other directions, so tokens far apart in the table can land together here.`;
  } else {
    state.parts.legend.textContent = `Each dot is one of the ${count} tokens, placed by UMAP so that tokens with similar lists ` +
      `land near each other. Only neighbourhoods mean something: the axes, and the distances between dots far apart, ` +
      `do not.${state.computeMs === undefined ? '' : ` Your browser computed this map in ${num(state.computeMs / 1000, 2)} s.`}`;
  }
  const name = state.method === 'axes' ? 'Map along your own axes' : `${state.method.toUpperCase()} map`;
  state.parts.canvas.setAttribute('aria-label', `${name} of the ${count} tokens; the list below says what it shows`);
}

/** The text alternative: the picked word's closest tokens, and whether the map keeps each near it. */
export function describeNeighbours(state) {
  const model = state.model;
  if (!model || !state.map || state.picked === undefined) return;
  const map = state.map, id = state.picked;
  const points = float32Numbers(map);
  const x = points[2 * id], y = points[2 * id + 1];
  // The picked word's 10 nearest dots on the map (the smaller id first among equals): kept
  // best first while the dots are read once, rather than every dot sorted.
  const nearest = [];
  for (let j = 0; j < map.rows; j++) {
    if (j === id) continue;
    const d = Math.hypot(x - points[2 * j], y - points[2 * j + 1]);
    if (nearest.length === NEIGHBOURS && !(d < nearest[NEIGHBOURS - 1][0])) continue;
    let k = nearest.length;
    while (k > 0 && d < nearest[k - 1][0]) k -= 1;
    nearest.splice(k, 0, [d, j]);
    if (nearest.length > NEIGHBOURS) nearest.pop();
  }
  const nearOnMap = new Set(nearest.map(([, j]) => j));
  const word = tokenLabel(model, id);
  const group = state.groupOf.get(id);
  const kept = state.neighbours.filter((j) => nearOnMap.has(j)).length;
  state.parts.listHeading.textContent = `${word}${group ? ` (${group.label.toLowerCase()})` : ''}: its ${state.neighbours.length} closest tokens by ` +
    `cosine similarity, ${kept} of them also among its ${NEIGHBOURS} nearest dots on this map` +
    `${state.isolated ? ' (shown alone on the map, the other tokens faded)' : ''}:`;
  state.parts.list.replaceChildren(...state.neighbours.map((j) => {
    const button = el('button', { type: 'button', className: 'ew-token ew-link', textContent: tokenLabel(model, j) });
    button.addEventListener('click', () => state.pick(j));
    const g = state.groupOf.get(j);
    return el('li', { 'data-id': String(j) }, button,
      el('span', { className: 'ew-muted', textContent: ` ${nearOnMap.has(j) ? 'near it on the map' : 'farther away on the map'}${g && state.shownGroups.has(g.key) ? `; ${g.label.toLowerCase()}` : ''}` }));
  }));
}
