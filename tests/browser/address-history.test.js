// The reader's place in the address's fragment, the map's view among it, in
// headless Chromium: an address naming a word, a map view, a text and a step
// opens on them (and at its section) without writing history; a word picked
// is a new entry, a text typed key by key one entry, a map moved another;
// Back and Forward bring each back; the training slider opens on the
// address's step, its ticks write theirs, and Back goes to the step before.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, chapterSuite } from './helpers/browser.js';

const suite = chapterSuite({ before, after });

describe('the reader\'s place in the address\'s fragment (the map\'s view among it)', () => {
  let page;

  const now = () => page.evaluate(() => {
    const map = document.querySelector('#vocabulary-map');
    return {
      hash: decodeURIComponent(location.hash).replace(/\+/g, ' '), entries: history.length,
      word: document.querySelector('#nearest').word, mapWord: map.tokenId, view: map.viewState, text: document.querySelector('#trace').text,
    };
  });
  const hashHas = (text) => page.waitForFunction((t) => decodeURIComponent(location.hash).replace(/\+/g, ' ').includes(t), text);

  before(async () => {
    page = await openPage(suite.browser, { width: 1280, height: 900 });
    await page.goto(`${suite.server.origin}/web/page/#similar&word=%C2%B7red&text=Max+saw+Lily&step=160&map=pca&zoom=3&at=0.5%2C-0.25&isolate=1`);
    await page.waitForFunction(() => {
      const map = document.querySelector('#vocabulary-map');
      return map?.dataset.method === 'pca' && map.viewState?.scale === 3;
    }, undefined, { timeout: 60000 });
  });
  after(() => page.context().close());

  test('an address opens on its word, map view, text and step, at its section, and writes no history', async () => {
    const opened = await now();
    const red = suite.model.tokenId('·red');
    assert.equal(opened.word, '·red');
    assert.equal(opened.mapWord, red);
    assert.equal(opened.text, 'Max saw Lily');
    assert.equal(opened.view.method, 'pca');
    assert.equal(opened.view.isolated, true);
    assert.ok(Math.abs(opened.view.centre[0] - 0.5) < 1e-6 && Math.abs(opened.view.centre[1] + 0.25) < 1e-6, String(opened.view.centre));
    assert.equal(await page.evaluate(() => document.querySelector('#slider').step), 160);
    assert.equal(opened.entries, 2);
    assert.equal(opened.hash, '#similar&word=·red&text=Max saw Lily&step=160&map=pca&zoom=3&at=0.5,-0.25&isolate=1');
    const top = await page.evaluate(() => document.querySelector('#similar').getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 60, `#similar's top at ${top}`);
    assert.deepEqual(page.problems, []);
  });

  test('a word picked is a new entry, a text typed key by key one more, a move of the map another; Back and Forward bring each back', async () => {
    const start = await now();
    const box = page.locator('#nearest input[role="combobox"]');
    await box.fill('blue');
    await box.press('Enter');
    await hashHas('word=·blue');
    const picked = await now();
    assert.equal(picked.entries, start.entries + 1);
    assert.match(picked.hash, /^#similar&word=·blue&/);

    const textarea = page.locator('#trace textarea').first();
    await textarea.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Tom ran home', { delay: 20 });
    await hashHas('text=Tom ran home');
    const typed = await now();
    assert.equal(typed.entries, picked.entries + 1, 'one entry for the typing, not one a key');
    assert.match(typed.hash, /^#position&/);

    await page.locator('#vocabulary-map').scrollIntoViewIfNeeded();
    await page.locator('#vocabulary-map button[aria-label^="Zoom in"]').click();
    await page.locator('#vocabulary-map button[aria-label^="Zoom in"]').click();
    const zoom = String(Number((typed.view.scale * 1.5 * 1.5).toPrecision(4)));
    await hashHas(`zoom=${zoom}`);
    const moved = await now();
    assert.equal(moved.entries, typed.entries + 1, 'one entry for the two clicks');

    await page.goBack();
    await page.waitForFunction((scale) => Math.abs(document.querySelector('#vocabulary-map').viewState.scale - scale) < 1e-9, typed.view.scale);
    assert.equal((await now()).text, 'Tom ran home');
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('#trace').text === 'Max saw Lily');
    assert.equal((await now()).word, '·blue');
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('#nearest').word === '·red');
    const back = await now();
    assert.equal(back.hash, start.hash);
    assert.equal(back.mapWord, suite.model.tokenId('·red'));
    assert.ok(Math.abs(back.view.scale - 3) < 1e-9 && back.view.isolated, JSON.stringify(back.view));
    await page.goForward();
    await page.waitForFunction(() => document.querySelector('#nearest').word === '·blue');
    assert.equal((await now()).entries, moved.entries, 'going back and forth writes no entry');
    assert.deepEqual(page.problems, []);
  });

  test('the training slider opens on the address\'s step, and a tap on a tick writes its own', async () => {
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('#nearest').word === '·red');
    await page.locator('#slider').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => /step 160 of/.test(document.querySelector('#slider').stepText?.textContent ?? ''), undefined, { timeout: 60000 });
    await page.locator('#slider .ew-tick', { hasText: /^38$/ }).click();
    await hashHas('step=38');
    assert.match((await now()).hash, /^#training&/);
    // A choice, so Back goes to the step before it.
    await page.goBack();
    await page.waitForFunction(() => /step 160 of/.test(document.querySelector('#slider').stepText.textContent));
    assert.deepEqual(page.problems, []);
  });
});
