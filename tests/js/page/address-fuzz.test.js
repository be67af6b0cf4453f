// The page's address parsing (web/page/address.js, web/page/model-choice.js)
// under random input: a seeded generator makes fragments and query strings
// from the pieces that break parsers (bad %-escapes, &, =, #, commas,
// numbers past a double's range, Infinity and NaN, lone surrogates,
// controls, long runs) and states and map views of any value. The
// properties: nothing throws; what is read is what the page would write
// (every value passes its key's rule, and reads back the same); what is
// written reads back whole; no view has a number that is not finite; a
// model parameter is either a URL the page fetches or named as a problem,
// and then the default model opens. The cases that broke the page, and those
// this test found, are replayed from address-regressions.json first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import {
  KEYS, MAX_FRAGMENT, MAX_MAP_COORDINATE, ZOOM_RANGE, checkKey, fragmentOf, joinList, mapKeys, parseFragment, splitList, viewOf,
} from '../../../web/page/address.js';
import { modelChoiceFromAddress } from '../../../web/page/model-choice.js';
import { defaultModelFiles } from '../../../web/src/model/index.js';
import { uniformRandom } from '../helpers/fixtures.js';

const SEED = 20261202;
const CASES = 3000;
const page = 'https://example.org/book/web/page/';
const regressions = JSON.parse(readFileSync(new URL('./address-regressions.json', import.meta.url), 'utf8'));

/** The same cases on every run. */
function generator(seed) {
  const next = uniformRandom(seed);
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  return { next, int, pick };
}

const PIECES = [
  '%', '%E0', '%A4', '%A', '%ZZ', '%00', '%C2%B7', '%25', '%2C', '&', '=', '#', ',', ';', '\\', '+', ' ', '·', '.', '-', 'e', 'E',
  '0', '1', '2', '9', '1e308', '-1e308', '1e-400', 'Infinity', '-Infinity', 'NaN', '0x10', '1_000', '٣', 'similar', 'training',
  '\uD800', '\uDFFF', '\u0000', '\n', '\u202E', '🫠', 'girl', '·red', 'umap', 'pca', 'axes', 'colours', 'zzz',
  ...KEYS, ...KEYS.map((key) => `${key}=`), ...KEYS.map((key) => `&${key}=`),
];

function randomText(g, most = 40) {
  let text = '';
  const n = g.int(most);
  for (let i = 0; i < n; i++) text += g.pick(PIECES);
  // Now and then a long run: a pasted page in one key.
  if (g.next() < 0.03) text += g.pick(['x', '9', '%', ',', '·']).repeat(1 + g.int(20000));
  return text;
}

/** encodeURIComponent, or the text as it stands where that throws (a lone surrogate). */
function encoded(text) {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

function randomFragment(g) {
  const parts = [];
  if (g.next() < 0.5) parts.push(g.next() < 0.5 ? g.pick(['similar', 'position', '%E0%A4%A', 'x y', '9', randomText(g, 4)]) : '');
  const n = g.int(8);
  for (let i = 0; i < n; i++) {
    const key = g.next() < 0.8 ? g.pick(KEYS) : randomText(g, 3);
    const value = g.next() < 0.3 ? validValue(g, key) : randomText(g, 12);
    parts.push(g.next() < 0.7 ? `${encoded(key)}=${g.next() < 0.5 ? encoded(value) : value}` : randomText(g, 6));
  }
  return `${g.next() < 0.8 ? '#' : ''}${parts.join('&')}`;
}

/** A value that is near what the page writes for a key (so that the rules are tried on their edges). */
function validValue(g, key) {
  const number = () => g.pick(['0', '1', '-1', '0.5', '400', '400.0001', '0.4999', '1e6', '-1e6', '1000001', '3.4e38', '3.5e38', String(g.next() * 100 - 50)]);
  const id = () => g.pick(['0', '665', '2147483647', '2147483648', '-1', '01', String(g.int(5000))]);
  const word = () => g.pick(['·girl', 'Lily', '·,', 'a\\,b', '', 'x'.repeat(g.pick([1, 256, 257]))]);
  switch (key) {
    case 'zoom': return number();
    case 'at': return `${number()},${number()}`;
    case 'dot': return `${[number(), number()].join(',')};${[number(), number()].join(',')}`;
    case 'row': case 'onehot': case 'step': return id();
    case 'pair': case 'places': return `${id()},${id()}`;
    case 'axes': case 'analogy': case 'cosine': return joinList(Array.from({ length: 1 + g.int(4) }, word));
    case 'map': return g.pick(['umap', 'pca', 'axes', 'UMAP', 'tsne']);
    case 'isolate': return g.pick(['1', '0', 'true']);
    case 'hide': return g.pick(['colours', 'colours,names', 'Colours', '']);
    default: return word();
  }
}

/** What any parsed fragment must be. */
function checkParsed(parsed, label) {
  assert.equal(typeof parsed, 'object', label);
  const { section, state, ignored } = parsed;
  assert.ok(section === undefined || /^[A-Za-z][\w-]{0,63}$/.test(section), `${label}: section ${section}`);
  assert.ok(Array.isArray(ignored), label);
  for (const [key, value] of Object.entries(state)) {
    assert.ok(KEYS.includes(key), `${label}: key ${key}`);
    // What is read is what the page would write for it.
    assert.equal(checkKey(key, value).value, value, `${label}: ${key}=${value.slice(0, 80)}`);
  }
  // Written again, it reads back whole.
  const again = parseFragment(fragmentOf(section, state));
  assert.deepEqual(again, { section, state, ignored: [] }, label);
  checkView(viewOf(state), label);
}

function checkView(view, label) {
  assert.ok(['umap', 'pca', 'axes'].includes(view.method), label);
  if (view.whole) return;
  assert.ok(view.scale >= ZOOM_RANGE[0] && view.scale <= ZOOM_RANGE[1], `${label}: zoom ${view.scale}`);
  assert.ok(view.centre.every((x) => Number.isFinite(x) && Math.abs(x) <= MAX_MAP_COORDINATE), `${label}: at ${view.centre}`);
}

function checkChoice(search, label) {
  const { files, problems } = modelChoiceFromAddress(search, page);
  if (problems.length) {
    assert.equal(files, defaultModelFiles, label);
    for (const problem of problems) {
      assert.ok(['model', 'weights', 'config', 'tokenizer'].includes(problem.name), label);
      assert.ok(problem.value.length <= 61 && !/[\u0000-\u001f]/.test(problem.value), `${label}: quoted ${problem.value}`);
      assert.ok(problem.reason, label);
    }
    return;
  }
  if (files === defaultModelFiles) return;
  // Single files without a folder keep the default model's weights.
  for (const [name, url] of Object.entries(files)) if (String(url) !== String(defaultModelFiles[name])) assert.match(String(url), /^https?:\/\//, label);
}

test('the regressions: the addresses that broke the page, and those this test found, read as they should', () => {
  for (const entry of regressions.fragments) {
    const hash = entry.repeat ? entry.fragment.replace('{{x}}', 'x'.repeat(entry.repeat)) : entry.fragment;
    const parsed = parseFragment(hash);
    checkParsed(parsed, entry.why);
    assert.deepEqual(parsed.state, entry.state, entry.why);
    assert.deepEqual(parsed.ignored.map(({ key }) => key), entry.ignored, entry.why);
    if (entry.section !== undefined) assert.equal(parsed.section, entry.section, entry.why);
  }
  for (const entry of regressions.queries) {
    checkChoice(entry.query, entry.why);
    const { files, problems } = modelChoiceFromAddress(entry.query, page);
    assert.deepEqual(problems.map(({ name }) => name), entry.problems, entry.why);
    if (entry.problems.length) assert.equal(files, defaultModelFiles, entry.why);
  }
  for (const entry of regressions.views) {
    const keys = mapKeys(entry.view);
    assert.deepEqual(keys, entry.keys, entry.why);
    assert.doesNotMatch(fragmentOf(undefined, keys), /Infinity|NaN/, entry.why);
  }
});

test(`${CASES} random fragments: none throws, each reads as the page writes, and reads back whole`, () => {
  const g = generator(SEED);
  for (let i = 0; i < CASES; i++) {
    const hash = randomFragment(g);
    checkParsed(parseFragment(hash), `case ${i}: ${hash.slice(0, 120)}`);
  }
  // Past the limit, nothing is read (and nothing thrown).
  assert.deepEqual(parseFragment(`#word=${'x'.repeat(MAX_FRAGMENT)}`).state, {});
});

test(`${CASES} random states and map views: what is written reads back whole, with no number that is not finite`, () => {
  const g = generator(SEED + 1);
  const anyValue = (key) => g.pick([() => validValue(g, key), () => randomText(g, 8), () => g.pick([NaN, Infinity, -0, 1e308, 42, null, undefined, {}, []])])();
  for (let i = 0; i < CASES; i++) {
    const state = {};
    for (const key of KEYS) if (g.next() < 0.3) state[key] = anyValue(key);
    const section = g.pick([undefined, 'similar', 'no such section!', randomText(g, 3)]);
    const fragment = fragmentOf(section, state);
    const parsed = parseFragment(fragment);
    assert.deepEqual(parsed.ignored, [], `case ${i}: ${fragment.slice(0, 120)}`);
    checkParsed(parsed, `case ${i}`);
    const huge = () => g.pick([0, 1, -1, 1e308, -1e308, Infinity, -Infinity, NaN, g.next() * 40 - 20]);
    const view = {
      method: g.pick(['umap', 'pca', 'axes']), scale: g.pick([1, 0.5, 400, 1e308, NaN, Infinity, g.next() * 10]), centre: [huge(), huge()],
      isolated: g.next() < 0.5, whole: g.next() < 0.3, axes: g.next() < 0.3 ? ['·,', '·man'] : undefined, hidden: g.next() < 0.3 ? ['colours'] : [],
    };
    const keys = mapKeys(view);
    for (const value of Object.values(keys)) assert.doesNotMatch(value, /Infinity|NaN/, `view ${JSON.stringify(view)}`);
    const back = parseFragment(fragmentOf(undefined, keys));
    checkView(viewOf(back.state), `view ${i}`);
  }
});

test(`${CASES} random query strings: none throws; a model parameter is a URL the page fetches, or named, and the default model opens`, () => {
  const g = generator(SEED + 2);
  const values = ['http://[::1', 'mailto:x', 'javascript:alert(1)', 'data:,x', '//cdn.example.org/m/', '/model/', 'models/qwen', 'https://x/%ZZ', 'file:///etc/passwd', ''];
  for (let i = 0; i < CASES; i++) {
    const n = g.int(5);
    const parts = [];
    for (let k = 0; k < n; k++) {
      const name = g.pick(['model', 'weights', 'config', 'tokenizer', 'lang', randomText(g, 2)]);
      const value = g.next() < 0.5 ? g.pick(values) : randomText(g, 10);
      parts.push(`${name}=${g.next() < 0.5 ? encoded(value) : value}`);
    }
    const search = `${g.next() < 0.9 ? '?' : ''}${parts.join(g.pick(['&', '&&', ';']))}`;
    checkChoice(search, `case ${i}: ${search.slice(0, 120)}`);
  }
});

test('a list of words reads back whatever its words hold', () => {
  const g = generator(SEED + 3);
  for (let i = 0; i < CASES; i++) {
    const words = Array.from({ length: 1 + g.int(4) }, () => randomText(g, 4));
    assert.deepEqual(splitList(joinList(words)), words);
  }
});
