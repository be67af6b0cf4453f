// The reader's place in the chapter, kept in the address's fragment, read
// and written here (page-state.js keeps it in step with the widgets):
//
//   #similar&word=·red&map=umap&zoom=6.2&at=4.31,7.02&isolate=1
//   #embeddings&row=477&onehot=665
//   #position&text=Max+saw+Lily&places=2,51
//   #training&step=160
//
// The first part, when it has no "=", is the section the reader was in.
// Then each key only where it differs from the page as written (KEYS).
//
// Whatever a fragment holds, reading it never throws and nothing odd comes
// out of it: each key is checked by itself and one that is not what the
// page writes (a bad escape, a value of 100,000 letters, a number past its
// range, a zoom of 1e308) is left out, by itself, and said in `ignored`.
// Writing checks the same rules, so a value that could not be read back is
// never written.
import { quoted } from './quote.js';
import { int } from '../widgets/parts/format.js';

export { quoted };

/** The longest token text a key holds (the longest tokens of real vocabularies are under 130 characters). */
export const MAX_WORD = 256;
/** The longest text the trace's keys hold (a trace reads at most its model's context, 128 tokens here). */
export const MAX_TEXT = 5000;
/** A whole fragment longer than this is not read at all. */
export const MAX_FRAGMENT = 1000000;
/** The map's zoom, as <ew-vocabulary-map> allows it (vocabulary-map/geometry.js). */
export const ZOOM_RANGE = [0.5, 400];
/** How far from 0 a map point in the address may lie (the maps' own points lie within about ±100). */
export const MAX_MAP_COORDINATE = 1e6;
/** The dot editor's limits (<ew-dot-product>): at most 8 places, float32 numbers. */
export const MAX_PLACES = 8;
const FLOAT32_MAX = 3.4028234663852886e38;
const MAX_ID = 2 ** 31 - 1;

/** A number as the page writes numbers: decimal, with an optional exponent (no hex, no "Infinity"). */
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const SECTION = /^[A-Za-z][\w-]{0,63}$/;
// With the u flag a surrogate pair is one code point: only a lone surrogate falls in this range.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const GROUP = /^[a-z][a-z-]{0,31}$/;

/** A list of words in one value: comma-separated, with "\" escaping a comma or "\" inside a word. */
export function joinList(words) {
  return words.map((word) => String(word).replace(/[\\,]/g, '\\$&')).join(',');
}

/** The words of joinList's value. */
export function splitList(value) {
  const words = [];
  let word = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && i + 1 < value.length) word += value[++i];
    else if (c === ',') { words.push(word); word = ''; } else word += c;
  }
  words.push(word);
  return words;
}

function number(text, [min, max]) {
  if (!NUMBER.test(text)) return undefined;
  const x = Number(text);
  return Number.isFinite(x) && x >= min && x <= max ? x : undefined;
}

function whole(text, min, max) {
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

/** Each rule: the value as the page writes it, or { reason } when it is not one. */
const ok = (value) => ({ value });
const no = (reason) => ({ reason });

function word(value) {
  if (!value) return no('empty');
  return value.length > MAX_WORD ? no(`${int(value.length)} characters, more than a token's ${MAX_WORD}`) : ok(value);
}

function text(value) {
  return value.length > MAX_TEXT ? no(`${int(value.length)} characters, more than the ${int(MAX_TEXT)} a text here may have`) : ok(value);
}

function wholes(count, min, max, what) {
  return (value) => {
    const parts = value.split(',');
    const numbers = parts.map((part) => whole(part, min, max));
    if (parts.length !== count || numbers.includes(undefined)) return no(`not ${what}`);
    return ok(numbers.join(','));
  };
}

function words(counts, what) {
  return (value) => {
    const list = splitList(value);
    if (!counts.includes(list.length) || list.some((w) => !w || w.length > MAX_WORD)) return no(`not ${what}`);
    return ok(joinList(list));
  };
}

function zoom(value) {
  const x = number(value, ZOOM_RANGE);
  return x === undefined ? no(`not a zoom from ${ZOOM_RANGE[0]} to ${ZOOM_RANGE[1]}`) : ok(String(x));
}

function point(value) {
  const parts = value.split(',');
  const xy = parts.map((part) => number(part, [-MAX_MAP_COORDINATE, MAX_MAP_COORDINATE]));
  if (parts.length !== 2 || xy.includes(undefined)) return no(`not two numbers from −${int(MAX_MAP_COORDINATE)} to ${int(MAX_MAP_COORDINATE)}`);
  return ok(xy.map(String).join(','));
}

function vectors(value) {
  const lists = value.split(';').map((list) => list.split(',').map((x) => number(x, [-FLOAT32_MAX, FLOAT32_MAX])));
  const fits = lists.length === 2 && lists[0].length === lists[1].length && lists[0].length <= MAX_PLACES &&
    lists.every((list) => !list.includes(undefined));
  if (!fits) return no(`not two lists of 1 to ${MAX_PLACES} finite numbers, the same length`);
  return ok(lists.map((list) => list.map(String).join(',')).join(';'));
}

function groups(value) {
  const list = value.split(',');
  return list.length <= 16 && list.every((g) => GROUP.test(g)) ? ok(list.join(',')) : no('not a list of group names');
}

/**
 * The keys, in the order they are written, each with its rule. An empty
 * value means "not given", except for the trace's texts, which a reader may
 * empty.
 */
const RULES = {
  // Embeddings: the token table's row, the one-hot vector's token (ids).
  row: wholes(1, 0, MAX_ID, 'a row id'),
  onehot: wholes(1, 0, MAX_ID, 'a token id'),
  // Similar words: the word (Similar words' and the map's), the map's view, the analogy's and the cosine's words.
  word,
  map: (value) => (['umap', 'pca', 'axes'].includes(value) ? ok(value) : no('not umap, pca or axes')),
  zoom,
  at: point,
  isolate: (value) => (value === '1' ? ok(value) : no('not 1')),
  axes: words([2, 4], 'two or four words'),
  hide: groups,
  analogy: words([3], 'three words'),
  cosine: words([2], 'two words'),
  // Dot product: the rows compared (ids), the editor's numbers.
  pair: wholes(2, 0, MAX_ID, 'two token ids'),
  dot: vectors,
  // Position: the trace's two texts, the position map's two places (counted from 1).
  text,
  compare: text,
  places: wholes(2, 1, 1e6, 'two places from 1'),
  // Watch it learn: the training step, and the word followed there.
  step: wholes(1, 0, 1e12, 'a training step'),
  learn: word,
};
export const KEYS = Object.freeze(Object.keys(RULES));
const MAY_BE_EMPTY = new Set(['text', 'compare']);

/** A key's value as the page would write it, or { reason } for one it would not. */
export function checkKey(key, value) {
  if (!Object.hasOwn(RULES, key)) return no('not a key of this page');
  if (typeof value !== 'string') return no('not text');
  // A lone surrogate cannot travel in an address (it comes back as U+FFFD).
  if (LONE_SURROGATE.test(value)) return no('not well-formed text');
  if (value === '' && !MAY_BE_EMPTY.has(key)) return no('empty');
  return RULES[key](value);
}

/** What parseFragment left out, in a sentence for the page's status line, or ''. */
export function ignoredInWords(ignored) {
  if (!ignored.length) return '';
  const each = ignored.map(({ key, value, reason }) => `${key === '#' ? '#' : `${key}=`}${quoted(value)} (${reason})`);
  return `Left out of the address's view: ${each.join('; ')}.`;
}

/**
 * { section, state: { word, text, … }, ignored: [{ key, value, reason }] } of
 * a fragment ("#similar&word=·red", "", "#word=·red"). Never throws.
 */
export function parseFragment(hash) {
  const raw = typeof hash === 'string' ? hash.replace(/^#/, '') : '';
  const ignored = [];
  if (!raw) return { section: undefined, state: {}, ignored };
  if (raw.length > MAX_FRAGMENT) {
    return { section: undefined, state: {}, ignored: [{ key: '#', value: raw, reason: `${int(raw.length)} characters, more than the ${int(MAX_FRAGMENT)} read` }] };
  }
  const [head, ...rest] = raw.split('&');
  const named = !head.includes('=');
  let section;
  if (named && head) {
    let decoded;
    try {
      decoded = decodeURIComponent(head);
    } catch {
      ignored.push({ key: '#', value: head, reason: 'a bad %-escape' });
    }
    if (decoded !== undefined) {
      if (SECTION.test(decoded)) section = decoded;
      else ignored.push({ key: '#', value: decoded, reason: 'not a section of the page' });
    }
  }
  // URLSearchParams reads a bad %-escape as it stands (never throws); the rules then refuse what it gives.
  const params = new URLSearchParams(named ? rest.join('&') : raw);
  const state = {};
  for (const [key, value] of params) {
    if (Object.hasOwn(state, key)) continue;  // the first of a key given twice
    const checked = checkKey(key, value);
    if (checked.value !== undefined) state[key] = checked.value;
    else if (Object.hasOwn(RULES, key)) ignored.push({ key, value, reason: checked.reason });
  }
  // Keys in the page's own order, whatever order the address had.
  const ordered = {};
  for (const key of KEYS) if (Object.hasOwn(state, key)) ordered[key] = state[key];
  return { section, state: ordered, ignored };
}

/** The fragment of a state: keys in a fixed order, a section first if any; a value the rules refuse is left out. */
export function fragmentOf(section, state) {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = state?.[key];
    if (value === undefined || value === null) continue;
    const checked = checkKey(key, String(value));
    if (checked.value !== undefined) params.set(key, checked.value);
  }
  const query = params.toString();
  const head = section && SECTION.test(section) ? section : '';
  if (!query) return head ? `#${head}` : '';
  return `#${head ? `${head}&` : ''}${query}`;
}

const shortNumber = (x, digits) => String(Number(x.toPrecision(digits)));

/**
 * The map's keys of a view (viewState of <ew-vocabulary-map>), none for the
 * whole UMAP map with every group marked, as the page opens it. A view that
 * is not finite (or past the address's ranges) is written as the whole map.
 */
export function mapKeys(view) {
  if (!view) return {};
  const keys = {};
  const [low, high] = ZOOM_RANGE;
  const shown = view.scale >= low && view.scale <= high && view.centre?.length === 2 &&
    view.centre.every((x) => Number.isFinite(x) && Math.abs(x) <= MAX_MAP_COORDINATE);
  const whole = Boolean(view.whole) || !shown;
  if (!(whole && view.method === 'umap')) keys.map = view.method;
  if (!whole) {
    keys.zoom = shortNumber(view.scale, 4);
    keys.at = view.centre.map((x) => shortNumber(x, 6)).join(',');
  }
  if (view.isolated) keys.isolate = '1';
  if (view.axes?.length) keys.axes = joinList(view.axes);
  if (view.hidden?.length) keys.hide = view.hidden.join(',');
  if (keys.isolate || keys.axes || keys.hide) keys.map ??= view.method;
  return keys;
}

/** A view for <ew-vocabulary-map>'s setViewState from the map's keys (as parseFragment gives them). */
export function viewOf(state) {
  const centre = state.at?.split(',').map(Number);
  const scale = Number(state.zoom);
  const [low, high] = ZOOM_RANGE;
  const zoomed = scale >= low && scale <= high && centre?.length === 2 &&
    centre.every((x) => Number.isFinite(x) && Math.abs(x) <= MAX_MAP_COORDINATE);
  return {
    method: ['umap', 'pca', 'axes'].includes(state.map) ? state.map : 'umap',
    ...(zoomed ? { scale, centre } : { whole: true }),
    isolated: state.isolate === '1',
    ...(state.axes ? { axes: splitList(state.axes) } : {}),
    hidden: state.hide ? state.hide.split(',') : [],
  };
}
