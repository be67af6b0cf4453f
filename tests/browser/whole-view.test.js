// The chapter page as one view with one truth, and on any address:
//
// - every reader choice round-trips through the link: each control is
//   changed as a reader changes it (typing, clicking, keys), the link is
//   opened in a fresh context and every widget's state compared, and it
//   opens at the section the reader was in, not the one last changed;
// - a link inside the page (a section, the token table) keeps the state;
// - the map's method after a zoom, and a resize while zoomed, show what the
//   widget's state and the address say;
// - a trace row that re-points the token table and rings the map says so
//   under the row, with links, and the table offers its own token back;
// - after opening another model (a training snapshot without a tokenizer,
//   and a model of another family), no readout of the old model is left
//   on the page, and the table reads its row in the new one;
// - an address the page cannot use (`?model=http://[::1`, a bad %-escape, a
//   100,000-letter word, zoom=1e308) opens the default model, names what
//   was left out in the status line, writes none of it back, and goes on
//   following the page;
// - the training slider is reachable by keyboard before it was ever on
//   screen, and its line takes a click (mouse) or a tap (real touch).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, waitForWidgets, screenshot, chapterSuite, pageModelFile, snapshotIndex, nodeSnapshot, nextScrollEnd, pageIdle } from './helpers/browser.js';
import { rowView } from '../../web/index.js';
import { num } from '../../web/widgets/parts/format.js';
import { makeDevModel } from './helpers/dev-model.js';

const suite = chapterSuite({ before, after });

const pageReady = (page) => page.waitForFunction(() => document.documentElement.dataset.page === 'ready', undefined, { timeout: 120000 });
const hashOf = (page) => page.evaluate(() => decodeURIComponent(location.hash).replace(/\+/g, ' '));
const hashHas = (page, text) => page.waitForFunction((t) => decodeURIComponent(location.hash).replace(/\+/g, ' ').includes(t), text, { timeout: 30000 });
const mapShows = (page, method) => page.waitForFunction((m) => {
  const map = document.querySelector('#vocabulary-map');
  return map?.map && map.dataset.method === m && map.model === window.model && map.map.rows === window.model.vocabSize;
}, method, { timeout: 180000 });

/** Every widget's state, as its properties say it. */
function stateOf(page) {
  return page.evaluate(() => {
    const $ = (selector) => document.querySelector(selector);
    const map = $('#vocabulary-map');
    const view = map.viewState;
    return {
      row: $('#table').row, onehot: $('#one-hot').tokenId, word: $('#nearest').word, mapWord: map.tokenId,
      map: view && { method: view.method, whole: view.whole, isolated: view.isolated, hidden: view.hidden, scale: view.scale, centre: view.centre },
      analogy: $('#analogy').words, answer: $('#analogy').answer?.map((n) => n.id), cosine: $('#word-cosine').words,
      pair: $('#row-dot').pair, dot: $('#dot-widget').vectors, text: $('#trace').text, compare: $('#trace').compareText,
      places: $('#positions').places, step: $('#slider').step, learn: $('#slider').word,
    };
  });
}

/** Two states alike: the map's point and zoom as far as the address writes them (6 and 4 digits). */
function assertSameState(actual, expected) {
  const { map: a, ...restA } = actual, { map: b, ...restB } = expected;
  assert.deepEqual(restA, restB);
  assert.deepEqual({ ...a, scale: undefined, centre: undefined }, { ...b, scale: undefined, centre: undefined });
  assert.ok(Math.abs(a.scale - b.scale) <= 1e-3 * b.scale, `zoom ${a.scale} against ${b.scale}`);
  a.centre.forEach((x, i) => assert.ok(Math.abs(x - b.centre[i]) <= 1e-5 * Math.max(1, Math.abs(b.centre[i])), `at ${a.centre} against ${b.centre}`));
}

async function type(page, selector, text) {
  const box = page.locator(selector);
  await box.fill(text);
  await box.press('Enter');
}

describe('one view, one truth, at 1280 px', () => {
  let page;
  before(async () => {
    page = await openPage(suite.browser, { width: 1280, height: 900 });
    await page.goto(`${suite.server.origin}/web/page/`);
    await pageReady(page);
  });
  after(() => page.context().close());

  test('every reader choice round-trips through the link, which opens at the section the reader was in', async () => {
    const model = suite.model;
    await type(page, '#table input[role="combobox"]', 'girl');
    await page.locator('#table .ew-grid-viewport').focus();
    await page.keyboard.press('ArrowDown');
    await type(page, '#one-hot input[role="combobox"]', 'boy');
    await type(page, '#nearest input[role="combobox"]', 'blue');
    await page.locator('#vocabulary-map').scrollIntoViewIfNeeded();
    await mapShows(page, 'umap');
    await page.locator('#vocabulary-map button[data-method="pca"]').click();
    await mapShows(page, 'pca');
    for (let i = 0; i < 2; i++) await page.locator('#vocabulary-map button[aria-label^="Zoom in"]').click();
    await page.locator('#vocabulary-map input[data-group="names"]').uncheck();
    const analogy = page.locator('#analogy input');
    for (const [i, word] of ['queen', 'woman', 'man'].entries()) await analogy.nth(i).fill(word);
    await page.locator('#analogy button[type="submit"]').click();
    await page.locator('#word-cosine input').nth(0).fill('cat');
    await page.locator('#word-cosine input').nth(1).fill('dog');
    await page.locator('#word-cosine button[type="submit"]').click();
    await page.locator('#row-dot button[data-case="near zero"]').click();
    await page.locator('#dot-widget input').nth(0).fill('0.5');
    await page.locator('#dot-widget input').nth(5).fill('-2');
    await page.locator('button[data-texts^="Lily saw Max"]').click();
    await page.locator('#trace textarea').nth(1).fill('Max saw Lily at home');
    await page.locator('button[data-places="2 51"]').click();
    await page.keyboard.press('ArrowRight');
    await page.locator('#slider').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('#slider').snapshots, undefined, { timeout: 60000 });
    await page.locator('#slider .ew-tick', { hasText: /^38$/ }).click();
    await page.waitForFunction(() => document.querySelector('#slider').dataset.shown === String(document.querySelector('#slider').index));
    await type(page, '#slider ew-nearest-words input[role="combobox"]', 'boy');
    await hashHas(page, 'learn=·boy');
    // The reader ends up reading the Dot product section: the link opens there.
    await page.evaluate(() => document.querySelector('#dot').scrollIntoView());
    await page.waitForFunction(() => location.hash.startsWith('#dot&'), undefined, { timeout: 30000 });

    const shown = await stateOf(page);
    const id = (word) => model.tokenId(word);
    assert.deepEqual({ row: shown.row, onehot: shown.onehot, word: shown.word, pair0: shown.pair[0], places: shown.places, step: shown.step, learn: shown.learn },
      { row: id('·girl') + 1, onehot: id('·boy'), word: '·blue', pair0: id('·girl'), places: [2, 52], step: 38, learn: '·boy' });
    assert.deepEqual(shown.dot, [[0.5, 2, 3], [4, 0, -2]]);
    assert.deepEqual([shown.map.method, shown.map.whole, shown.map.hidden], ['pca', false, ['names']]);
    const link = page.url();
    const hash = decodeURIComponent(new URL(link).hash).replace(/\+/g, ' ');
    for (const key of ['row', 'onehot', 'word', 'map', 'zoom', 'at', 'hide', 'analogy', 'cosine', 'pair', 'dot', 'text', 'compare', 'places', 'step', 'learn']) {
      assert.match(hash, new RegExp(`[#&]${key}=`), `${key} is in ${hash}`);
    }

    const fresh = await openPage(suite.browser, { width: 1280, height: 900 });
    try {
      await fresh.goto(link);
      await pageReady(fresh);
      await mapShows(fresh, 'pca');
      await fresh.waitForFunction(() => document.querySelector('#vocabulary-map').viewState?.whole === false);
      assert.deepEqual(await waitForWidgets(fresh, '#table, #one-hot, #nearest, #analogy, #word-cosine, #row-dot, #dot-widget, #trace, #positions'), []);
      assertSameState(await stateOf(fresh), shown);
      const top = await fresh.evaluate(() => document.querySelector('#dot').getBoundingClientRect().top);
      assert.ok(Math.abs(top) < 60, `#dot's top at ${top}`);
      // The fresh page wrote nothing: its address is the link.
      assert.equal(fresh.url(), link);
      assert.deepEqual(fresh.problems, []);
    } finally {
      await fresh.context().close();
    }
    assert.deepEqual(page.problems, []);
  });

  test('a link inside the page goes to its section and keeps the state; Back and Forward keep it too', async () => {
    const before = await hashOf(page);
    await page.locator('nav a[href="#similar"]').click();
    await page.waitForFunction(() => location.hash.startsWith('#similar&'));
    assert.equal((await hashOf(page)).replace(/^#similar/, ''), before.replace(/^#dot/, ''), 'the same state, another section');
    assert.equal(await page.evaluate(() => document.querySelector('#nearest').word), '·blue');
    await page.goBack();
    await page.waitForFunction(() => location.hash.startsWith('#dot&'));
    assert.equal(await page.evaluate(() => document.querySelector('#nearest').word), '·blue');
    assert.deepEqual(page.problems, []);
  });

  test('the map\'s method after a zoom shows the whole new map, and a resize while zoomed keeps the view the address says', async () => {
    const map = page.locator('#vocabulary-map');
    await map.scrollIntoViewIfNeeded();
    await page.locator('#vocabulary-map button[data-method="umap"]').click();
    await mapShows(page, 'umap');
    for (let i = 0; i < 4; i++) await page.locator('#vocabulary-map button[aria-label^="Zoom in"]').click();
    await page.locator('#vocabulary-map button[data-method="pca"]').click();
    await mapShows(page, 'pca');
    const picture = () => page.evaluate(() => document.querySelector('#vocabulary-map canvas.vm-canvas').toDataURL());
    const afterSwitch = { view: await page.evaluate(() => document.querySelector('#vocabulary-map').viewState), picture: await picture() };
    assert.equal(afterSwitch.view.whole, true);
    await hashHas(page, 'map=pca');
    assert.doesNotMatch(await hashOf(page), /zoom=|at=/);
    // The picture is the whole map, the same as Reset view draws.
    await page.locator('#vocabulary-map button', { hasText: 'Reset view' }).click();
    assert.equal(await picture(), afterSwitch.picture, 'after the switch the map is drawn whole, as Reset view draws it');

    for (let i = 0; i < 2; i++) await page.locator('#vocabulary-map button[aria-label^="Zoom in"]').click();
    await hashHas(page, 'zoom=2.25');
    const zoomed = await page.evaluate(() => document.querySelector('#vocabulary-map').viewState);
    const width = await page.evaluate(() => document.querySelector('#vocabulary-map').width);
    await page.setViewportSize({ width: 640, height: 900 });
    await page.waitForFunction((before) => Math.abs(document.querySelector('#vocabulary-map').width - before) > 1, width);
    const resized = await page.evaluate(() => document.querySelector('#vocabulary-map').viewState);
    assert.equal(resized.whole, false);
    assert.ok(Math.abs(resized.scale - zoomed.scale) < 1e-9, `zoom ${resized.scale} after the resize, ${zoomed.scale} before`);
    resized.centre.forEach((x, i) => assert.ok(Math.abs(x - zoomed.centre[i]) < 1e-6, `centre ${resized.centre} after the resize, ${zoomed.centre} before`));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('#vocabulary-map button', { hasText: 'Reset view' }).click();
    assert.deepEqual(page.problems, []);
  });

  test('a trace row says under it where it re-pointed the token table and the map, and the table gives its own token back', async () => {
    await page.locator('button[data-texts^="One day Lily"]').click();
    await page.waitForFunction(() => !location.hash.includes('text='));
    const before = await page.evaluate(() => ({ row: document.querySelector('#table').row, mapWord: document.querySelector('#vocabulary-map').tokenId }));
    const rows = page.locator('#trace .ew-trace').first();
    await rows.scrollIntoViewIfNeeded();
    // The map, screens away, is drawn (each drawing begins with a clearRect) only once it comes near.
    const mapDraws = await page.evaluate(() => {
      const canvas = document.querySelector('#vocabulary-map canvas.vm-canvas');
      const context = canvas.getContext('2d');
      const clear = context.clearRect;
      window.__mapDraws = 0;
      context.clearRect = function (...args) { window.__mapDraws += 1; return clear.apply(this, args); };
      return { top: canvas.getBoundingClientRect().bottom, screen: innerHeight };
    });
    assert.ok(mapDraws.top < -mapDraws.screen, `the map is more than a screen above: ${JSON.stringify(mapDraws)}`);
    await rows.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const token = await page.evaluate(() => window.trace.tokens[1]);
    const line = page.locator('#trace .ew-trace-linked');
    await line.waitFor();
    assert.equal(await line.textContent(), `${token.text} (id ${token.id}): its row is shown in the token table above, and its dot ringed on the map of Similar words.`);
    // Said where the reader is: on screen (brought there once the key is painted), under text 1's trace.
    await page.waitForFunction(() => {
      const box = document.querySelector('#trace .ew-trace-linked').getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight;
    });
    const box = await line.boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 901, `the line is at ${box.y} to ${box.y + box.height}`);
    assert.equal(await line.evaluate((element) => element.closest('.ew-trace-view') === document.querySelector('#trace .ew-trace-view') &&
      element.previousElementSibling?.classList.contains('ew-grid-readout')), true);
    const note = page.locator('#table .ew-link-note');
    assert.match(await note.textContent(), new RegExp(`^Showing ${token.text} \\(row ${token.id}\\), from the trace \\(place 2 of text 1\\)\\. Back to .* \\(row ${before.row}\\)$`));
    // The map keeps its own word: the trace's token is only ringed.
    assert.deepEqual(await page.evaluate(() => ({ mapWord: document.querySelector('#vocabulary-map').tokenId, lit: document.querySelector('#vocabulary-map').lit?.id })),
      { mapWord: before.mapWord, lit: token.id });
    assert.equal(await page.evaluate(() => window.__mapDraws), 0, 'the map, screens away, was not drawn for the keys');
    await screenshot(page, 'whole-view-trace-linked', { locator: page.locator('#trace .ew-trace-view').first() });
    await page.locator('#vocabulary-map canvas.vm-canvas').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => window.__mapDraws > 0);
    await rows.scrollIntoViewIfNeeded();
    // The line's link goes to the table, and the address keeps the state.
    await hashHas(page, `row=${token.id}`);
    const stateBefore = (await hashOf(page)).replace(/^#[^&]*/, '');
    await line.locator('a', { hasText: 'the token table' }).click();
    await page.waitForFunction(() => location.hash.startsWith('#embeddings'));
    assert.equal((await hashOf(page)).replace(/^#[^&]*/, ''), stateBefore);
    const table = await page.locator('#table').boundingBox();
    assert.ok(table.y < 900 && table.y + table.height > 0, 'the table is in view');
    await note.locator('button').click();
    assert.equal(await page.evaluate(() => document.querySelector('#table').row), before.row);
    assert.equal(await note.isHidden(), true);
    assert.deepEqual(page.problems, []);
  });

  test('after opening another model, no readout of the old one is left, and the table reads its row in the new one', async () => {
    // Every widget built and shown, the map laid out: its readouts are on the page.
    for (const id of ['#table', '#one-hot', '#vocabulary-map', '#row-dot', '#trace', '#positions']) await page.locator(id).scrollIntoViewIfNeeded();
    await page.locator('#vocabulary-map').scrollIntoViewIfNeeded();
    await page.locator('#vocabulary-map button[data-method="umap"]').click();
    await mapShows(page, 'umap');
    await page.evaluate(() => document.querySelector('#table').grid.select(665, 3));
    await page.locator('#vocabulary-map canvas.vm-canvas').hover();
    const stale = await recordReadouts(page);
    const index = await snapshotIndex();
    const [first] = index.snapshots;
    await page.setInputFiles('#model-files', [{ name: first.file, mimeType: 'application/octet-stream', buffer: Buffer.from(pageModelFile(`snapshots/${first.file}`)) }]);
    await page.waitForFunction(() => window.model?.wte.dtype === 'float16' && document.documentElement.dataset.page === 'ready', undefined, { timeout: 60000 });
    assert.deepEqual(await stale(), [], 'the snapshot opened: nothing of the old model is left, even while the map is laid out again');
    // The table reads row 665 again, in the snapshot's numbers.
    const snapshot = await nodeSnapshot(first.file);
    try {
      const five = Array.from(rowView(snapshot.wte, 665).subarray(0, 5), (x) => num(x)).join(', ');
      assert.equal(await page.locator('#table .ew-row-numbers').textContent(), `Row 665, #665, starts ${five} (the first 5 of its ${snapshot.width} numbers)`);
      assert.equal(await page.locator('#table .ew-picker-note').textContent(), '', 'no word the page did not ask for is said');
    } finally {
      snapshot.dispose();
    }
    await mapShows(page, 'umap');
    assert.deepEqual(await stale(), [], 'the snapshot shown whole');
    await checkReadouts(page);

    // A model of another family (rotary positions, its own tokenizer and ids).
    const other = makeDevModel({ rotary: true });
    const staleAgain = await recordReadouts(page);
    await page.setInputFiles('#model-files', ['model.safetensors', 'config.json', 'tokenizer.json'].map((name) => ({
      name, mimeType: name.endsWith('.json') ? 'application/json' : 'application/octet-stream', buffer: Buffer.from(other.get(name)),
    })));
    await page.waitForFunction(() => window.model?.wpe === null && document.documentElement.dataset.page === 'ready', undefined, { timeout: 60000 });
    assert.deepEqual(await staleAgain(), [], 'another family opened');
    await mapShows(page, 'umap');
    assert.deepEqual(await staleAgain(), [], 'another family shown whole');
    await checkReadouts(page);
    // The address follows the model shown: it names no id the old model gave. (Once the widgets'
    // changes have come, idle, and the page has written what they changed.)
    await pageIdle(page);
    await page.waitForFunction(() => document.documentElement.dataset.address === undefined);
    const fragment = await hashOf(page);
    const rows = await page.evaluate(() => window.model.vocabSize);
    for (const [, value] of fragment.matchAll(/(?:row|onehot)=(\d+)/g)) assert.ok(Number(value) < rows, fragment);
    assert.deepEqual(page.problems, []);
  });
});

/**
 * Records the page's model readouts (text with a digit in a model widget,
 * a figure, the model line, a Code part), and returns a check: those still
 * on screen, unchanged, after another model is opened. Left out: what no
 * model gives (the help lines, the dot editor and its figures, the place
 * buttons), and Watch it learn, which shows the address's model's training.
 */
async function recordReadouts(page) {
  await page.evaluate(() => {
    window.__readouts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!/\d/.test(node.data) || !element.checkVisibility()) continue;
      if (!element.closest('.ew, [data-fig], #model-line, #model-details, ew-chapter-code')) continue;
      if (element.closest('#slider, #dot-widget, #code-dot, [data-fig^="dot-"], .ew-help, .ew-grid-help, .ew-slider-help, [data-places], .book, .ew-book')) continue;
      window.__readouts.push([node, node.data]);
    }
  });
  return () => page.evaluate(() => window.__readouts
    .filter(([node, data]) => node.isConnected && node.data === data && node.parentElement.checkVisibility())
    .map(([node, data]) => `${node.parentElement.closest('[id]')?.id}: ${data.slice(0, 120)}`));
}

/** The readouts of the model now shown, against what it computes. */
async function checkReadouts(page) {
  const wrong = await page.evaluate(() => {
    const model = window.model;
    const $ = (selector) => document.querySelector(selector);
    const out = [];
    const parse = (text) => Number(text.replace('\u2212', '-'));
    const table = $('#table');
    const numbers = /starts (.*?)(?: \(the first \d+ of its [\d,]+ numbers\))?$/.exec($('#table .ew-row-numbers').textContent)?.[1].split(', ').map(parse);
    const row = window.rowView(model.wte, table.row);
    if (!numbers || numbers.some((x, i) => Math.abs(x - row[i]) > 0.0006)) out.push(`table: ${$('#table .ew-row-numbers').textContent}`);
    const nearest = $('#nearest');
    const listed = [...nearest.querySelectorAll('.ew-results button')].map((b) => b.textContent);
    const expected = model.nearest(nearest.tokenId, nearest.k).map((n) => n.text);
    if (listed.length && !expected.every((text, i) => listed[i].includes(text))) out.push(`nearest: ${listed.join(' ')} against ${expected.join(' ')}`);
    const map = $('#vocabulary-map');
    const ringed = [...map.querySelectorAll('.vm-list li')].map((li) => Number(li.dataset.id));
    const closest = model.nearest(map.tokenId, 10).map((n) => n.id);
    if (ringed.join() !== closest.join()) out.push(`map: ${ringed} against ${closest}`);
    const oneHot = $('#one-hot');
    const oneRow = window.rowView(model.wte, oneHot.tokenId);
    if (!oneHot.result || oneHot.result.product.some((x, i) => x !== oneRow[i])) out.push('one-hot: the product is not the row');
    const rowDot = $('#row-dot');
    const [a, b] = rowDot.pair.map((id) => window.rowView(model.wte, id));
    if (Math.abs(rowDot.numbers.dot - window.dot(a, b)) > 1e-6) out.push(`row-dot: ${rowDot.numbers.dot}`);
    const positions = $('#positions');
    if (positions.map.rows !== (model.hasPositionTable ? model.context : Math.min(128, model.context))) out.push(`positions: ${positions.map.rows} places`);
    return out;
  });
  assert.deepEqual(wrong, []);
}

describe('an address the page cannot use', () => {
  test('opens the default model, names what it left out, writes none of it back, and the address goes on following the page', async () => {
    const page = await openPage(suite.browser, { width: 1280, height: 900 });
    try {
      const word = 'x'.repeat(100000);
      await page.goto(`${suite.server.origin}/web/page/?model=http://[::1#%E0%A4%A&word=${word}&map=umap&zoom=1e308&at=1e308,-1e308&step=38`);
      await pageReady(page);
      assert.equal(await page.evaluate(() => window.model.source.endsWith('/model/model.safetensors')), true);
      const note = await page.locator('#address-note').textContent();
      assert.match(note, /The address could not be used \(\?model=http:\/\/\[::1 is not an address the page can read\), so the page shows its own model\./);
      assert.match(note, /Left out of the address's view: #%E0%A4%A \(a bad %-escape\); word=x{60}… \(100,000 characters, more than a token's 256\); zoom=1e308 \(not a zoom from 0\.5 to 400\); at=1e308,-1e308 \(/);
      assert.ok(note.length < 700, `${note.length} characters`);
      // The good key is kept; the bad ones are not written back, nor any Infinity.
      const opened = await hashOf(page);
      assert.match(opened, /^#(map=umap&)?step=38$/);
      assert.equal(await page.evaluate(() => document.querySelector('#nearest').word), '·girl');
      await mapShows(page, 'umap');
      assert.equal(await page.evaluate(() => document.querySelector('#vocabulary-map').viewState.whole), true);
      // The reader pastes the 100,000 letters into the word box: its pieces, the first of them as buttons (it overflowed the stack).
      await type(page, '#nearest input[role="combobox"]', word);
      const pieces = page.locator('#nearest .ew-picker-note');
      await pieces.locator('button').first().waitFor();
      assert.ok(await pieces.locator('button').count() <= 24);
      assert.match(await pieces.textContent(), /is not a single token in this model: (as typed|inside a sentence) it is [\d,]+ tokens, .* \(the first 24 of [\d,]+\)/);
      // And the address still follows the page.
      await type(page, '#nearest input[role="combobox"]', 'blue');
      await hashHas(page, 'word=·blue');
      assert.doesNotMatch(await hashOf(page), /Infinity|NaN|xxx/);
      assert.deepEqual(page.problems, []);
      await sliderByKeyboardAndMouse(page);
    } finally {
      await page.context().close();
    }
  });
});

/** The training slider before it was on screen: enabled, a key there loads the list and moves; a click on its line goes to a step. */
async function sliderByKeyboardAndMouse(page) {
  const slider = page.locator('#slider');
  const controls = await page.evaluate(() => {
    const s = document.querySelector('#slider');
    s.ensureBuilt();
    return { range: s.range.disabled, play: s.play.disabled, listed: Boolean(s.snapshots) };
  });
  assert.deepEqual(controls, { range: false, play: false, listed: false });
  const index = await snapshotIndex();
  const n = index.snapshots.length;
  // Tab from the control before it lands on the slider (it skipped the slider until it had been on screen).
  await page.evaluate(() => {
    const range = document.querySelector('#slider').range;
    const stops = [...document.querySelectorAll('button, input, textarea, select, a[href], [tabindex]')]
      .filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0);
    stops[stops.indexOf(range) - 1].focus();
  });
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement === document.querySelector('#slider').range), true, 'Tab reaches the slider');
  // The address asked for step 38: a key to the left goes one step before it.
  await page.keyboard.press('ArrowLeft');
  const at38 = index.snapshots.findIndex((entry) => entry.step === 38);
  await page.waitForFunction((i) => document.querySelector('#slider').dataset.shown === String(i), at38 - 1, { timeout: 60000 });
  await hashHas(page, `step=${index.snapshots[at38 - 1].step}`);
  // The line, clicked near its left end and in its middle.
  await slider.locator('input[type="range"]').scrollIntoViewIfNeeded();
  const line = await slider.locator('input[type="range"]').boundingBox();
  await page.mouse.click(line.x + 3, line.y + line.height / 2);
  await page.waitForFunction(() => document.querySelector('#slider').index === 0);
  await page.mouse.click(line.x + line.width / 2, line.y + line.height / 2);
  await page.waitForFunction((i) => document.querySelector('#slider').index === i, Math.round((n - 1) / 2));
  assert.deepEqual(page.problems, []);
}

describe('the training slider on a 375 px touch screen', () => {
  test('a tap on its line goes to the step there; a swipe over it scrolls the page', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.problems = [];
    page.on('pageerror', (error) => page.problems.push(error.message));
    try {
      await page.goto(`${suite.server.origin}/web/page/#training`);
      await page.waitForFunction(() => document.querySelector('#slider')?.snapshots && document.querySelector('#slider').dataset.shown, undefined, { timeout: 120000 });
      // Every part above laid out and its formulas in place: nothing above moves the page during the swipe.
      await page.waitForFunction(() => document.documentElement.dataset.parts === 'laid-out' && document.documentElement.dataset.formulas === 'ready',
        undefined, { timeout: 60000 });
      const n = (await snapshotIndex()).snapshots.length;
      const range = page.locator('#slider input[type="range"]');
      await range.scrollIntoViewIfNeeded();
      const line = await range.boundingBox();
      await page.touchscreen.tap(line.x + 4, line.y + line.height / 2);
      await page.waitForFunction(() => document.querySelector('#slider').index === 0);
      await page.touchscreen.tap(line.x + line.width * 0.75, line.y + line.height / 2);
      await page.waitForFunction((i) => document.querySelector('#slider').index === i, Math.round(0.75 * (n - 1)), { timeout: 10000 }).catch(async () => {
        throw new Error(`at ${await page.evaluate(() => document.querySelector('#slider').index)} after a tap three quarters along, not ${Math.round(0.75 * (n - 1))}`);
      });
      const cdp = await context.newCDPSession(page);
      await pageIdle(page);
      const before = await page.evaluate(() => ({ y: window.scrollY, index: document.querySelector('#slider').index }));
      const x = line.x + line.width / 2, from = line.y + line.height / 2;
      const scrollEnded = await nextScrollEnd(page);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: from }] });
      for (let i = 1; i <= 12; i++) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: from - 20 * i }] });
        await new Promise((resolve) => setTimeout(resolve, 16));
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      assert.ok(await scrollEnded(), 'the swipe scrolled the page');
      const afterSwipe = await page.evaluate(() => ({ y: window.scrollY, index: document.querySelector('#slider').index }));
      assert.ok(afterSwipe.y > before.y + 100, `the page scrolled from ${before.y} to ${afterSwipe.y}`);
      assert.equal(afterSwipe.index, before.index, 'the swipe moved no step');
      await screenshot(page, 'whole-view-slider-375', { locator: page.locator('#slider .ew-slider-line') });
      assert.deepEqual(page.problems, []);
    } finally {
      await context.close();
    }
  });
});
