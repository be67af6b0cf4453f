// The chapter page's state in its address's fragment (web/page/page-state.js):
// read and written back the same, a section link left as it is, the map's
// view as keys and back.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { fragmentOf, mapKeys, parseFragment, viewOf } from '../../web/page/page-state.js';

test('a fragment is read as a section and the reader\'s state, and written back the same', () => {
  assert.deepEqual(parseFragment(''), { section: undefined, state: {} });
  assert.deepEqual(parseFragment('#similar'), { section: 'similar', state: {} });
  const hash = '#similar&word=%C2%B7red&text=Max+saw+Lily&step=160&map=umap&zoom=2.5&at=4.31%2C7.02&isolate=1';
  const { section, state } = parseFragment(hash);
  assert.equal(section, 'similar');
  assert.deepEqual(state, { word: '·red', text: 'Max saw Lily', step: '160', map: 'umap', zoom: '2.5', at: '4.31,7.02', isolate: '1' });
  assert.equal(fragmentOf(section, state), hash);
  // No section: the state alone; unknown keys are dropped; a text with & and = survives.
  assert.deepEqual(parseFragment('#word=%C2%B7girl&colour=blue').state, { word: '·girl' });
  const tricky = { text: 'a & b = c, 100% #1' };
  assert.deepEqual(parseFragment(fragmentOf('position', tricky)), { section: 'position', state: tricky });
  assert.equal(fragmentOf('training', {}), '#training');
  assert.equal(fragmentOf(undefined, {}), '');
});

test('the map\'s view as keys: none for the whole UMAP map, and back to a view', () => {
  assert.deepEqual(mapKeys({ method: 'umap', scale: 1, centre: [5, 5], isolated: false, whole: true }), {});
  assert.deepEqual(mapKeys({ method: 'pca', scale: 1, centre: [0, 0], isolated: false, whole: true }), { map: 'pca' });
  const keys = mapKeys({ method: 'axes', scale: 3.14159265, centre: [0.123456789, -2], isolated: true, whole: false, axes: ['·man', '·woman'] });
  assert.deepEqual(keys, { map: 'axes', zoom: '3.142', at: '0.123457,-2', isolate: '1', axes: '·man,·woman' });
  assert.deepEqual(viewOf(keys), { method: 'axes', scale: 3.142, centre: [0.123457, -2], isolated: true, axes: ['·man', '·woman'] });
  // A view left out, or not a view, is the whole map.
  assert.deepEqual(viewOf({}), { method: 'umap', whole: true, isolated: false });
  assert.deepEqual(viewOf({ map: 'tsne', zoom: '-1', at: 'x,y' }), { method: 'umap', whole: true, isolated: false });
});
