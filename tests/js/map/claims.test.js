// The map's claims on the shipped model, like chapter/claims.test.js for
// the lists: on the UMAP map the chapter's groups of words gather, far
// closer together than random tokens lie.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel } from '../../../web/index.js';
import { VOCABULARY_GROUPS, groupIds } from '../../../web/widgets/parts/vocabulary-groups.js';

let model, umap, pca, groups;

before(async () => {
  model = await loadModel();
  umap = await model.map({ method: 'umap' });
  pca = await model.map({ method: 'pca' });
  groups = groupIds(model.vocabulary());
});
after(() => model.dispose());

const distance = (map, i, j) => Math.hypot(map.at(i, 0) - map.at(j, 0), map.at(i, 1) - map.at(j, 1));

function meanPairDistance(map, ids) {
  let sum = 0, count = 0;
  for (let a = 0; a < ids.length; a++) for (let b = a + 1; b < ids.length; b++) { sum += distance(map, ids[a], ids[b]); count++; }
  return sum / count;
}

/** Mean distance between random pairs of tokens (a fixed, seeded sample). */
function meanRandomDistance(map) {
  let state = 12345, sum = 0;
  const next = () => { state = (state * 1103515245 + 12345) % 2 ** 31; return state % map.rows; };
  for (let k = 0; k < 20000; k++) sum += distance(map, next(), next());
  return sum / 20000;
}

test('every group has tokens in the default vocabulary', () => {
  for (const group of VOCABULARY_GROUPS) assert.ok(groups[group.key].length >= 8, `${group.key}: ${groups[group.key].length}`);
  assert.equal(groups.colours.length, 12);
});

test('the colour words lie closer together on the UMAP map than random tokens do', () => {
  const colours = meanPairDistance(umap, groups.colours);
  const random = meanRandomDistance(umap);
  // Measured: 0.7% of the random distance on this map (umap-js: about 1%); 28% on PCA.
  assert.ok(colours < 0.05 * random, `colours ${colours}, random pairs ${random}`);
  assert.ok(colours / random < meanPairDistance(pca, groups.colours) / meanRandomDistance(pca));
});

test('names, numbers and family words gather too', () => {
  const random = meanRandomDistance(umap);
  for (const key of ['names', 'numbers', 'family']) {
    const share = meanPairDistance(umap, groups[key]) / random;
    assert.ok(share < 0.5, `${key}: ${share}`);
  }
});

test('analogies with their inputs left out: ·king − ·man + ·woman is ·queen, and two more', () => {
  const row = (text) => model.wte.row(model.tokenId(text));
  const analogy = (a, b, c) => {
    const [x, y, z] = [row(a), row(b), row(c)];
    return model.nearest(x.map((_, k) => x[k] - y[k] + z[k]), 1, { exclude: [a, b, c] })[0].text;
  };
  assert.equal(analogy('·king', '·man', '·woman'), '·queen');
  assert.equal(analogy('·ran', '·run', '·walk'), '·walked');
  assert.equal(analogy('·boy', '·he', '·she'), '·girl');
});
