// The chapter's claims, measured on the shipped default model through the
// package's own API. A retrained model that breaks one fails here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, rowView, cosine } from '../../../web/index.js';

let model;
before(async () => { model = await loadModel(); });
after(() => model?.dispose());

const tokenCosine = (a, b) => cosine(rowView(model.wte, model.tokenId(a)), rowView(model.wte, model.tokenId(b)));
// Places count from 1; place i is row i - 1 of wpe.
const placeCosine = (i, j) => cosine(rowView(model.wpe, i - 1), rowView(model.wpe, j - 1));

test('·girl and ·boy: cosine at least 0.5, each among the other\'s 10 nearest', () => {
  const score = tokenCosine('·girl', '·boy');
  assert.ok(score >= 0.5, `cos(·girl, ·boy) = ${score}`);
  const girl = model.tokenId('·girl'), boy = model.tokenId('·boy');
  assert.ok(model.nearest(girl, 10).some((r) => r.id === boy), 'boy not among girl\'s 10 nearest');
  assert.ok(model.nearest(boy, 10).some((r) => r.id === girl), 'girl not among boy\'s 10 nearest');
});

test('places 2 and 3 are alike, places 2 and 51 much less so', () => {
  const near = placeCosine(2, 3), far = placeCosine(2, 51);
  assert.ok(near >= 0.8, `cos(place 2, place 3) = ${near}`);
  assert.ok(near - far >= 0.5, `cos(2, 3) = ${near}, cos(2, 51) = ${far}`);
});

test('on average, nearby places are more alike than far ones', () => {
  const map = model.cosineMatrix(model.wpe);
  const meanAt = (accept) => {
    let sum = 0, count = 0;
    for (let i = 0; i < map.rows; i++) {
      for (let j = 0; j < map.rows; j++) {
        if (i !== j && accept(Math.abs(i - j))) { sum += map.at(i, j); count++; }
      }
    }
    return sum / count;
  };
  const adjacent = meanAt((d) => d === 1), far = meanAt((d) => d >= 32);
  assert.ok(adjacent > far + 0.3, `mean cos at distance 1 = ${adjacent}, at distance ≥ 32 = ${far}`);
});

test('the token table holds about 2 of every 5 learned numbers', () => {
  const share = (model.wte.rows * model.wte.cols) / model.parameterCount;
  assert.ok(share > 0.35 && share < 0.45, `share = ${share}`);
  assert.equal(model.parameterCount, 1_334_016);
});

test('the model card\'s figures (model/claims.json) are what the package measures', async () => {
  const { readFile } = await import('node:fs/promises');
  const card = JSON.parse(await readFile(new URL('../../../model/claims.json', import.meta.url), 'utf8'));
  const close = (measured, recorded, what) =>
    assert.ok(Math.abs(measured - recorded) < 6e-4, `${what}: the package measures ${measured}, the card says ${recorded}`);
  for (const key of ['girl_boy', 'three_3', 'Lily_space_Lily']) {
    const { a, b, a_id: aId, b_id: bId, cosine: recorded } = card[key];
    assert.deepEqual([model.tokenId(a), model.tokenId(b)], [aId, bId], key);
    close(tokenCosine(a, b), recorded, key);
  }
  close(placeCosine(2, 3), card.positions.cos_place2_place3, 'places 2/3');
  close(placeCosine(2, 51), card.positions.cos_place2_place51, 'places 2/51');
  assert.equal(model.parameterCount, card.parameters);
  const lily = rowView(model.wte, card.Lily_id);
  assert.equal(model.tokenText(card.Lily_id), 'Lily');
  card.Lily_first_five.forEach((x, i) => close(lily[i], x, `Lily[${i}]`));
  // The chapter's remaining pairs are alike in this model too, if less than in the book's.
  assert.ok(card.three_3.cosine > 0.5 && card.Lily_space_Lily.cosine > 0.3);
});
