// The chapter page's state in its address's fragment (web/page/address.js):
// read and written back the same, a section link left as it is, the map's
// view as keys and back, every key of the whole view.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { KEYS, fragmentOf, joinList, mapKeys, parseFragment, splitList, viewOf } from '../../../web/page/address.js';

test('a fragment is read as a section and the reader\'s state, and written back the same', () => {
  assert.deepEqual(parseFragment(''), { section: undefined, state: {}, ignored: [] });
  assert.deepEqual(parseFragment('#similar'), { section: 'similar', state: {}, ignored: [] });
  const hash = '#similar&word=%C2%B7red&map=umap&zoom=2.5&at=4.31%2C7.02&isolate=1&text=Max+saw+Lily&step=160';
  const { section, state } = parseFragment(hash);
  assert.equal(section, 'similar');
  assert.deepEqual(state, { word: '·red', text: 'Max saw Lily', step: '160', map: 'umap', zoom: '2.5', at: '4.31,7.02', isolate: '1' });
  assert.equal(fragmentOf(section, state), hash);
  // No section: the state alone; unknown keys are dropped; a text with & and = survives.
  assert.deepEqual(parseFragment('#word=%C2%B7girl&colour=blue').state, { word: '·girl' });
  const tricky = { text: 'a & b = c, 100% #1' };
  assert.deepEqual(parseFragment(fragmentOf('position', tricky)), { section: 'position', state: tricky, ignored: [] });
  assert.equal(fragmentOf('training', {}), '#training');
  assert.equal(fragmentOf(undefined, {}), '');
});

test('every key of the whole view is written in one order and read back', () => {
  const state = {
    row: '477', onehot: '665', word: '·red', map: 'axes', zoom: '3', at: '0.5,-0.25', isolate: '1', axes: '·man,·woman', hide: 'colours,names',
    analogy: '·queen,·man,·woman', cosine: '·cat,·dog', pair: '477,1024', dot: '0.152,0.111,-0.134;1,2,3', text: '', compare: 'Tom ran',
    places: '2,51', step: '38', learn: '·boy',
  };
  assert.deepEqual(Object.keys(state).sort(), [...KEYS].sort());
  const fragment = fragmentOf('dot', state);
  assert.equal(fragment.slice(0, 30), '#dot&row=477&onehot=665&word=%');
  assert.deepEqual(parseFragment(fragment), { section: 'dot', state, ignored: [] });
  // An emptied text is the reader's (written as such); any other key given empty is not given.
  assert.deepEqual(parseFragment('#text=&row=').state, { text: '' });
});

test('a list of words keeps words with commas and backslashes', () => {
  const words = ['·,', 'a\\b', ',,', '\\', '·girl'];
  assert.deepEqual(splitList(joinList(words)), words);
  assert.deepEqual(parseFragment(fragmentOf(undefined, { cosine: joinList(['·,', '\\']) })).state, { cosine: '·\\,,\\\\' });
});

test('the map\'s view as keys: none for the whole UMAP map, and back to a view', () => {
  assert.deepEqual(mapKeys({ method: 'umap', scale: 1, centre: [5, 5], isolated: false, whole: true }), {});
  assert.deepEqual(mapKeys({ method: 'pca', scale: 1, centre: [0, 0], isolated: false, whole: true }), { map: 'pca' });
  assert.deepEqual(mapKeys({ method: 'umap', scale: 1, centre: [0, 0], whole: true, hidden: ['colours'] }), { map: 'umap', hide: 'colours' });
  const keys = mapKeys({ method: 'axes', scale: 3.14159265, centre: [0.123456789, -2], isolated: true, whole: false, axes: ['·man', '·woman'] });
  assert.deepEqual(keys, { map: 'axes', zoom: '3.142', at: '0.123457,-2', isolate: '1', axes: '·man,·woman' });
  assert.deepEqual(viewOf(keys), { method: 'axes', scale: 3.142, centre: [0.123457, -2], isolated: true, axes: ['·man', '·woman'], hidden: [] });
  // A view left out, or not a view, is the whole map.
  assert.deepEqual(viewOf({}), { method: 'umap', whole: true, isolated: false, hidden: [] });
  assert.deepEqual(viewOf({ map: 'tsne', zoom: '-1', at: 'x,y' }), { method: 'umap', whole: true, isolated: false, hidden: [] });
  // A view that is not finite is written as the whole map: never "Infinity" in the address.
  assert.deepEqual(mapKeys({ method: 'umap', scale: 5, centre: [Infinity, -Infinity], whole: false }), {});
});
