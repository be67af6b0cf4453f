// <vocabulary-map> on the chapter page in headless Chromium: it computes its
// map in the page, names and picks tokens by mouse, touch and keyboard,
// stays linked with <nearest-words>, toggles its groups, switches between
// UMAP and PCA, and at 375 px on a touch screen a one-finger swipe scrolls
// the page (real touch events through the DevTools protocol) while two
// fingers pinch the map.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, chapterSuite } from './helpers/browser.js';

const suite = chapterSuite({ before, after });

async function mapReady(page) {
  await page.waitForFunction(() => {
    const map = document.querySelector('#vocabulary-map');
    return map && map.dataset.state === 'ready' && map.map && map.dataset.method;
  }, undefined, { timeout: 120000 });
}

/** Where a token's dot is, in page coordinates of the viewport. */
async function dotOf(page, id) {
  return page.evaluate((token) => {
    const map = document.querySelector('#vocabulary-map');
    const box = map.canvas.getBoundingClientRect();
    const [x, y] = map.screenPosition(token);
    return { x: box.left + x, y: box.top + y };
  }, id);
}

const state = (page) => page.evaluate(() => {
  const map = document.querySelector('#vocabulary-map');
  return { id: map.tokenId, nearest: document.querySelector('#nearest').tokenId, view: { ...map.view }, method: map.dataset.method, scrollY: window.scrollY };
});

/** A token of the default model whose dot no other dot hides (so a click finds it), among the given. */
async function clickable(page, words) {
  for (const word of words) {
    const id = suite.model.tokenId(word);
    const found = await page.evaluate((token) => {
      const map = document.querySelector('#vocabulary-map');
      const [x, y] = map.screenPosition(token);
      return map.tokenAt(x, y, 10);
    }, id);
    if (found === id) return id;
  }
  throw new Error(`none of ${words.join(' ')} is clickable on the map`);
}

describe('<vocabulary-map> with a mouse and a keyboard', () => {
  let page;
  before(async () => {
    page = await openPage(suite.browser, { width: 1100, height: 900 });
    await page.goto(`${suite.server.origin}/web/page/#similar`);
    await mapReady(page);
    await page.locator('#vocabulary-map').scrollIntoViewIfNeeded();
  });
  after(() => page.close());

  test('draws every token and labels the picked word and its 10 closest tokens, with no console errors', async () => {
    const info = await page.evaluate(() => {
      const map = document.querySelector('#vocabulary-map');
      return { rows: map.map.rows, items: map.list.children.length, heading: map.listHeading.textContent, legend: map.legend.textContent };
    });
    assert.equal(info.rows, suite.model.vocabSize);
    assert.equal(info.items, 10);
    assert.match(info.heading, /^·girl: its 10 closest tokens by cosine similarity/);
    assert.match(info.legend, /Only neighbourhoods mean something/);
    const shown = await page.evaluate(() => [...document.querySelectorAll('#vocabulary-map .vm-list li')].map((li) => Number(li.dataset.id)));
    assert.deepEqual(shown, suite.model.nearest('·girl', 10).map((n) => n.id));
    await screenshot(page, 'vocabulary-map-umap', { clip: await page.locator('#vocabulary-map').boundingBox() });
    assert.deepEqual(page.problems, []);
    assert.deepEqual(await page.violations(), []);
  });

  test('hovering names a token; clicking picks it, and <nearest-words> shows it too', async () => {
    const id = await clickable(page, ['·boy', '·dog', '·cat', '·ball', '·tree']);
    const { x, y } = await dotOf(page, id);
    await page.mouse.move(x, y);
    assert.match(await page.locator('#vocabulary-map .vm-hover').textContent(), new RegExp(`\\(id ${id}\\)`));
    await page.mouse.click(x, y);
    const after = await state(page);
    assert.equal(after.id, id);
    assert.equal(after.nearest, id);
    assert.match(await page.locator('#nearest .ew-summary').textContent(), new RegExp(`\\(id ${id}\\)`));
  });

  test('picking in <nearest-words> picks on the map', async () => {
    const button = page.locator('#nearest .ew-results button').first();
    const text = (await button.textContent()).trim();
    await button.click();
    const now = await state(page);
    assert.equal(now.nearest, now.id);
    assert.ok(text.includes(suite.model.tokenText(now.id)), `${text} vs ${suite.model.tokenText(now.id)}`);
  });

  test('the keyboard pans, zooms and resets the map, and the word box picks', async () => {
    await page.locator('#vocabulary-map canvas.vm-canvas').focus();
    await page.keyboard.press('+');
    let now = await state(page);
    assert.ok(now.view.scale > 1);
    await page.keyboard.press('ArrowLeft');
    assert.ok((await state(page)).view.x > now.view.x);
    await page.keyboard.press('0');
    now = await state(page);
    assert.deepEqual(now.view, { scale: 1, x: 0, y: 0 });
    const input = page.locator('#vocabulary-map input.ew-input');
    await input.fill('·blue');
    await input.press('Enter');
    await page.waitForFunction((id) => document.querySelector('#vocabulary-map').tokenId === id, suite.model.tokenId('·blue'));
    assert.equal((await state(page)).nearest, suite.model.tokenId('·blue'));
  });

  test('the wheel zooms around the pointer', async () => {
    const box = await page.locator('#vocabulary-map canvas.vm-canvas').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300);
    assert.ok((await state(page)).view.scale > 1.5);
    await page.locator('#vocabulary-map button', { hasText: 'Reset view' }).click();
    assert.deepEqual((await state(page)).view, { scale: 1, x: 0, y: 0 });
  });

  test('a group is marked by colour and shape, and toggled off and on', async () => {
    const red = suite.model.tokenId('·red');
    // Picked far from the colours, so that no label lies over ·red's dot.
    await page.evaluate((id) => document.querySelector('#vocabulary-map').pick(id), suite.model.tokenId('·girl'));
    const pixel = async () => {
      const { x, y } = await page.evaluate((token) => {
        const map = document.querySelector('#vocabulary-map');
        const [px, py] = map.screenPosition(token);
        return { x: px, y: py };
      }, red);
      // The pixels of a 9 × 9 box around the dot's centre that are Okabe-Ito vermilion (#D55E00).
      return page.evaluate(({ px, py }) => {
        const map = document.querySelector('#vocabulary-map');
        const r = map.ratio;
        const data = map.canvas.getContext('2d').getImageData(Math.round((px - 4) * r), Math.round((py - 4) * r), Math.round(9 * r), Math.round(9 * r)).data;
        let vermilion = 0;
        for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - 0xd5) < 12 && Math.abs(data[i + 1] - 0x5e) < 12 && data[i + 2] < 20) vermilion++;
        return vermilion;
      }, { px: x, py: y });
    };
    const on = await pixel();
    assert.ok(on > 4, `${on} vermilion pixels at ·red`);
    await page.locator('#vocabulary-map input[data-group="colours"]').uncheck();
    assert.equal(await pixel(), 0);
    await page.locator('#vocabulary-map input[data-group="colours"]').check();
    assert.deepEqual(await pixel(), on);
    // Colour is not the only cue: each group's label sits beside its shape.
    const labels = await page.locator('#vocabulary-map .vm-group').allTextContents();
    assert.deepEqual(labels.map((l) => l.trim()), ['Colours', 'Numbers and digits', 'Names', 'Family words', 'Verbs of motion']);
  });

  test('the PCA/UMAP switch changes the map and the legend', async () => {
    await page.locator('#vocabulary-map button[data-method="pca"]').click();
    await page.waitForFunction(() => document.querySelector('#vocabulary-map').dataset.method === 'pca');
    assert.match(await page.locator('#vocabulary-map .vm-legend').textContent(), /PCA: across is the direction .* \(2\d\.\d% of all the variation\)/);
    assert.equal(await page.locator('#vocabulary-map button[data-method="pca"]').getAttribute('aria-pressed'), 'true');
    await screenshot(page, 'vocabulary-map-pca', { clip: await page.locator('#vocabulary-map').boundingBox() });
    await page.locator('#vocabulary-map button[data-method="umap"]').click();
    await page.waitForFunction(() => document.querySelector('#vocabulary-map').dataset.method === 'umap');
    assert.match(await page.locator('#vocabulary-map .vm-legend').textContent(), /UMAP/);
  });
});

describe('<vocabulary-map> at 375 px on a touch screen', () => {
  let context, page, cdp;
  before(async () => {
    context = await suite.browser.newContext({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
    page = await context.newPage();
    page.problems = [];
    page.on('pageerror', (error) => page.problems.push(error.message));
    await page.goto(`${suite.server.origin}/web/page/#similar`);
    await mapReady(page);
    cdp = await context.newCDPSession(page);
  });
  after(() => context.close());

  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });

  async function canvasCentre() {
    await page.evaluate(() => {
      const canvas = document.querySelector('#vocabulary-map canvas.vm-canvas');
      const box = canvas.getBoundingClientRect();
      window.scrollBy(0, box.top - 150);
    });
    await page.waitForTimeout(100);
    const box = await page.locator('#vocabulary-map canvas.vm-canvas').boundingBox();
    return { x: box.x + box.width / 2, y: box.y + Math.min(box.height / 2, 200), box };
  }

  test('fits the width, and a one-finger swipe over the map scrolls the page, not the map', async () => {
    const { x, y, box } = await canvasCentre();
    assert.ok(box.width <= 375, `canvas ${box.width} px wide`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
    const before = await state(page);
    await touch('touchStart', [[x, y]]);
    for (let step = 1; step <= 8; step++) await touch('touchMove', [[x, y - 25 * step]]);
    await touch('touchEnd', []);
    await page.waitForTimeout(300);
    const after = await state(page);
    assert.ok(after.scrollY > before.scrollY + 50, `the page scrolled from ${before.scrollY} to ${after.scrollY}`);
    assert.deepEqual(after.view, before.view);
    await screenshot(page, 'vocabulary-map-375');
  });

  test('a tap names and picks the token under the finger', async () => {
    await canvasCentre();
    const id = await clickable(page, ['·boy', '·dog', '·cat', '·ball', '·tree', '·red']);
    const { x, y } = await dotOf(page, id);
    await touch('touchStart', [[x, y]]);
    await touch('touchEnd', []);
    await page.waitForFunction((token) => document.querySelector('#vocabulary-map').tokenId === token, id);
    assert.equal((await state(page)).nearest, id);
  });

  test('two fingers pinch to zoom; "Move the map" lets one finger pan', async () => {
    const { x, y } = await canvasCentre();
    await touch('touchStart', [[x - 20, y], [x + 20, y]]);
    for (let step = 1; step <= 6; step++) await touch('touchMove', [[x - 20 - 10 * step, y], [x + 20 + 10 * step, y]]);
    await touch('touchEnd', []);
    const pinched = await state(page);
    assert.ok(pinched.view.scale > 1.5, `scale ${pinched.view.scale}`);
    await page.locator('#vocabulary-map .vm-move').tap();
    const { x: cx, y: cy } = await canvasCentre();
    const before = await state(page);
    await touch('touchStart', [[cx, cy]]);
    for (let step = 1; step <= 5; step++) await touch('touchMove', [[cx + 15 * step, cy]]);
    await touch('touchEnd', []);
    const after = await state(page);
    assert.ok(after.view.x > before.view.x + 30, `panned from ${before.view.x} to ${after.view.x}`);
    assert.equal(after.scrollY, before.scrollY);
    assert.deepEqual(page.problems, []);
  });
});
