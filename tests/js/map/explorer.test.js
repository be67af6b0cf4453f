// The vocabulary map's parts that need no page: the labels' placement
// (never two over one another, most important first, nothing outside the
// picture) and the reader's own axes (across: each row's projection on the
// direction between two words; up: the first principal component of the
// table at right angles to it, against a plain power iteration here).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, rowView } from '../../../web/index.js';
import { placeLabels } from '../../../web/widgets/vocabulary-map/label-placement.js';
import { axisMap } from '../../../web/widgets/vocabulary-map/word-axes.js';

const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** A seeded stream of numbers in [0, 1). */
function random(seed) {
  let state = seed;
  return () => { state = (state * 1103515245 + 12345) % 2 ** 31; return state / 2 ** 31; };
}

test('labels: no two overlap, none leaves the picture, none covers a kept dot, and the first come first', () => {
  const next = random(7);
  const width = 360, height = 280;
  // A tight cluster (a picked word and its neighbours, as the colour words lie on the UMAP map) and scattered dots.
  const labels = [];
  for (let k = 0; k < 11; k++) labels.push({ x: 180 + next() * 6, y: 140 + next() * 6, width: 30 + next() * 30, height: 15, radius: 5, leaders: true });
  for (let k = 0; k < 300; k++) labels.push({ x: next() * width, y: next() * height, width: 20 + next() * 40, height: 15, radius: 2 });
  const boxes = placeLabels(labels, { width, height });
  const placed = boxes.map((box, k) => ({ box, k })).filter(({ box }) => box);
  for (const { box } of placed) {
    assert.ok(box.left >= 0 && box.top >= 0 && box.right <= width && box.bottom <= height, JSON.stringify(box));
  }
  for (let i = 0; i < placed.length; i++) {
    for (let j = i + 1; j < placed.length; j++) assert.ok(!overlap(placed[i].box, placed[j].box), `${placed[i].k} and ${placed[j].k} overlap`);
  }
  // No label covers a ringed dot (those with leaders) or the dot of another label placed.
  const kept = labels.filter((label, k) => label.leaders || boxes[k]);
  for (const { box } of placed) {
    for (const dot of kept) {
      const r = dot.radius ?? 3;
      assert.ok(!overlap(box, { left: dot.x - r, top: dot.y - r, right: dot.x + r, bottom: dot.y + r }), 'a label covers a dot');
    }
  }
  // The eleven of the cluster all fit (some with a leader line), before any of the others.
  assert.ok(boxes.slice(0, 11).every(Boolean), 'the cluster\'s labels are placed first');
  assert.ok(boxes.slice(0, 11).some((box) => box.leader), 'some need a leader in so tight a cluster');
  assert.ok(placed.length > 40 && placed.length < labels.length, `${placed.length} of ${labels.length} placed: some left out`);
  // Without leaders, eleven labels on one spot cannot all fit beside it: the rest are left out, not stacked.
  const stacked = placeLabels(Array.from({ length: 11 }, () => ({ x: 100, y: 100, width: 60, height: 15 })), { width: 200, height: 200 });
  assert.ok(stacked.filter(Boolean).length < 11 && stacked[0], JSON.stringify(stacked));
  // A box already taken (a caption) is kept clear; a dot outside the picture gets no label.
  const [clear, outside] = placeLabels([{ x: 50, y: 50, width: 40, height: 15 }, { x: -5, y: 50, width: 10, height: 15 }],
    { width: 200, height: 200, taken: [{ left: 60, top: 30, right: 200, bottom: 70 }] });
  assert.ok(clear && !overlap(clear, { left: 60, top: 30, right: 200, bottom: 70 }), JSON.stringify(clear));
  assert.equal(outside, null);
});

let model;
before(async () => { model = await loadModel(); });
after(() => model.dispose());

/** Each row's dot product with a direction, in float64. */
const along = (id, direction) => rowView(model.wte, id).reduce((sum, x, k) => sum + x * direction[k], 0);

test('axes: across is each row\'s projection on the direction from one word to another, and up is at right angles', async () => {
  const from = model.tokenId('·walk'), to = model.tokenId('·walked');
  const made = await axisMap(model, { from, to });
  const a = rowView(model.wte, from), b = rowView(model.wte, to);
  const difference = Array.from(b, (x, k) => x - a[k]);
  const length = Math.hypot(...difference);
  assert.equal(made.map.rows, model.vocabSize);
  for (const id of [0, from, to, 1234, model.vocabSize - 1]) {
    const expected = along(id, difference.map((x) => x / length));
    assert.ok(Math.abs(made.map.at(id, 0) - expected) < 1e-4, `row ${id}: ${made.map.at(id, 0)} vs ${expected}`);
  }
  // The two words lie as far apart across as their rows are.
  assert.ok(Math.abs(made.map.at(to, 0) - made.map.at(from, 0) - length) < 1e-4);
  assert.equal(made.upKind, 'pca');

  // Up against a plain reference: the top eigenvector of the covariance of the rows with the across part taken out.
  const { rows, cols } = model.wte, u = made.across;
  const centred = [];
  const mean = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    const row = Float64Array.from(rowView(model.wte, i));
    const x = row.reduce((s, v, k) => s + v * u[k], 0);
    for (let k = 0; k < cols; k++) row[k] -= x * u[k];
    centred.push(row);
    for (let k = 0; k < cols; k++) mean[k] += row[k] / rows;
  }
  for (const row of centred) for (let k = 0; k < cols; k++) row[k] -= mean[k];
  const covariance = Array.from({ length: cols }, () => new Float64Array(cols));
  for (const row of centred) for (let p = 0; p < cols; p++) { const rp = row[p]; for (let q = 0; q < cols; q++) covariance[p][q] += rp * row[q]; }
  let v = Float64Array.from({ length: cols }, (_, k) => 1 + k / cols);
  for (let iteration = 0; iteration < 2000; iteration++) {
    const w = covariance.map((line) => line.reduce((s, c, q) => s + c * v[q], 0));
    const norm = Math.hypot(...w);
    v = w.map((x) => x / norm);
  }
  assert.ok(Math.abs(v.reduce((s, x, k) => s + x * u[k], 0)) < 1e-6, 'the reference is at right angles to across');
  const y = (i) => made.map.at(i, 1);
  const reference = (i) => centred[i].reduce((s, x, k) => s + x * v[k], 0);
  const sign = Math.sign(y(from) * reference(from)) || 1;
  for (const id of [from, to, 7, 999, 2048]) {
    assert.ok(Math.abs(y(id) - sign * reference(id)) < 2e-3 * (1 + Math.abs(reference(id))), `row ${id}: ${y(id)} vs ${sign * reference(id)}`);
  }
  assert.ok(made.acrossShare > 0 && made.upShare > made.acrossShare && made.acrossShare + made.upShare < 1, JSON.stringify(made));
});

test('axes: up from two more words is their direction made at right angles to across; a direction of length 0 is refused', async () => {
  const ids = ['·man', '·woman', '·boy', '·girl'].map((w) => model.tokenId(w));
  const made = await axisMap(model, { from: ids[0], to: ids[1], upFrom: ids[2], upTo: ids[3] });
  assert.equal(made.upKind, 'words');
  assert.ok(Math.abs(made.across.reduce((s, x, k) => s + x * made.up[k], 0)) < 1e-9);
  for (const id of [ids[2], 42]) assert.ok(Math.abs(made.map.at(id, 1) - along(id, made.up)) < 1e-4);
  await assert.rejects(axisMap(model, { from: ids[0], to: ids[0] }), /the same row/);
  await assert.rejects(axisMap(model, { from: ids[0], to: ids[1], upFrom: ids[1], upTo: ids[0] }), /point the same way/);
});
