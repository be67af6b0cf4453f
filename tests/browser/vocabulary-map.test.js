// <ew-vocabulary-map> on the chapter page in headless Chromium: it computes its
// map in the page, names and picks tokens by mouse, touch and keyboard,
// stays linked with <ew-nearest-words>, toggles its groups, switches between
// UMAP and PCA (each caption its own map's time), labels a tight cluster
// with no two labels over one another, isolates a word and its neighbours,
// zooms around the picked word, draws the reader's own axes (checked
// against the Node API's rows), leaves the wheel to the page unless Ctrl is
// held or the map was clicked, turns dark with the reader's system, and
// rings the dot of the trace's row the reader is on; at 375 px on a touch
// screen a one-finger swipe scrolls the page (real touch events through the
// DevTools protocol) while two fingers pinch the map around the picked
// word, and a tap into a filled box selects its word.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, chapterSuite, frames, nextScrollEnd } from './helpers/browser.js';
import { rowView } from '../../web/index.js';

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

describe('<ew-vocabulary-map> with a mouse and a keyboard', () => {
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

  test('hovering names a token; clicking picks it, and <ew-nearest-words> shows it too', async () => {
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

  test('picking in <ew-nearest-words> picks on the map', async () => {
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
    const input = page.locator('#vocabulary-map input[role="combobox"]');
    await input.fill('·blue');
    await input.press('Enter');
    await page.waitForFunction((id) => document.querySelector('#vocabulary-map').tokenId === id, suite.model.tokenId('·blue'));
    assert.equal((await state(page)).nearest, suite.model.tokenId('·blue'));
  });

  test('the wheel zooms around the pointer with Ctrl held, or after a click into the map; otherwise it scrolls the page', async () => {
    await page.evaluate(() => window.scrollBy(0, document.querySelector('#vocabulary-map canvas.vm-canvas').getBoundingClientRect().top - 200));
    const at = await page.locator('#vocabulary-map canvas.vm-canvas').boundingBox();
    await page.mouse.move(at.x + at.width / 2, at.y + 100);
    const before = await state(page);
    // Ctrl + wheel (a trackpad's pinch comes so too): the map zooms, the page stays.
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -300);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.querySelector('#vocabulary-map').view.scale > 1.5);
    assert.equal((await state(page)).scrollY, before.scrollY);
    // After a click into the map the wheel zooms on its own...
    await page.locator('#vocabulary-map button', { hasText: 'Reset view' }).click();
    assert.deepEqual((await state(page)).view, { scale: 1, x: 0, y: 0 });
    await page.mouse.click(at.x + 4, at.y + 4);
    await page.mouse.wheel(0, -300);
    await page.waitForFunction(() => document.querySelector('#vocabulary-map').view.scale > 1.5);
    assert.equal((await state(page)).scrollY, before.scrollY);
    await page.locator('#vocabulary-map button', { hasText: 'Reset view' }).click();
    // ...until the pointer leaves it: then the wheel scrolls the page over the map, and the map says how to zoom.
    await page.mouse.move(at.x + at.width / 2, at.y - 40);
    await page.mouse.move(at.x + at.width / 2, at.y + 100);
    const left = await state(page);
    await page.mouse.wheel(0, 300);
    await page.waitForFunction((top) => window.scrollY > top, left.scrollY);
    assert.deepEqual((await state(page)).view, left.view, 'a plain wheel leaves the map as it is');
    assert.equal(await page.locator('#vocabulary-map .vm-wheel-hint').isVisible(), true);
    assert.match(await page.locator('#vocabulary-map .vm-zoom-help').textContent(), /holding Ctrl/);
  });

  test('a tight cluster\'s labels never overlap; + zooms around the picked word; isolating zooms to the word and its neighbours', async () => {
    await page.locator('#vocabulary-map').scrollIntoViewIfNeeded();
    const red = suite.model.tokenId('·red');
    await page.evaluate((id) => document.querySelector('#vocabulary-map').pick(id), red);
    const labels = () => page.evaluate(() => {
      const map = document.querySelector('#vocabulary-map');
      return { boxes: map.labelBoxes, leftOut: map.leftOut, width: map.width, height: map.height, note: map.fitNote.textContent,
        dots: [map.tokenId, ...map.neighbours].map((id) => map.screenPosition(id)), scale: map.view.scale };
    });
    const check = ({ boxes, width, height }) => {
      for (const box of boxes) assert.ok(box.left >= 0 && box.top >= 0 && box.right <= width && box.bottom <= height, JSON.stringify(box));
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i], boxes[j]];
          assert.ok(!(a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom), `labels of ${a.id} and ${b.id} overlap`);
        }
      }
    };
    const whole = await labels();
    check(whole);
    // Every ringed word has its label, or is named in the line under the map.
    const ringed = [red, ...suite.model.nearest('·red', 10).map((n) => n.id)];
    for (const id of ringed) assert.ok(whole.boxes.some((b) => b.id === id) || whole.leftOut.includes(id), `token ${id}`);
    if (whole.leftOut.length) assert.match(whole.note, /no room for a label/);
    // "+" keeps the picked word's dot where it is.
    const [x0, y0] = await page.evaluate((id) => document.querySelector('#vocabulary-map').screenPosition(id), red);
    await page.locator('#vocabulary-map button[aria-label^="Zoom in"]').click();
    const [x1, y1] = await page.evaluate((id) => document.querySelector('#vocabulary-map').screenPosition(id), red);
    assert.ok(Math.hypot(x1 - x0, y1 - y0) < 0.5, `·red moved from ${x0},${y0} to ${x1},${y1}`);
    assert.equal((await state(page)).view.scale, 1.5);
    await page.locator('#vocabulary-map .vm-isolate').click();
    const isolated = await labels();
    check(isolated);
    assert.ok(isolated.scale > 3, `zoomed to ${isolated.scale}`);
    for (const [x, y] of isolated.dots) assert.ok(x >= 0 && y >= 0 && x <= isolated.width && y <= isolated.height, `${x}, ${y} off the map`);
    assert.equal(await page.locator('#vocabulary-map .vm-isolate').getAttribute('aria-pressed'), 'true');
    await screenshot(page, 'vocabulary-map-isolated', { locator: page.locator('#vocabulary-map .vm-frame') });
    await page.locator('#vocabulary-map .vm-isolate').click();
    await page.locator('#vocabulary-map button', { hasText: 'Reset view' }).click();
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

  test('the PCA/UMAP switch changes the map and the legend; back on UMAP, the caption gives the time it took, not 0.00 s', async () => {
    const seconds = async () => /computed this map in (\d+\.\d\d) s/.exec(await page.locator('#vocabulary-map .vm-legend').textContent())?.[1];
    const umapTime = await seconds();
    assert.ok(Number(umapTime) > 0, umapTime);
    await page.locator('#vocabulary-map button[data-method="pca"]').click();
    await page.waitForFunction(() => document.querySelector('#vocabulary-map').dataset.method === 'pca');
    assert.match(await page.locator('#vocabulary-map .vm-legend').textContent(), /PCA: across is the direction .* \(2\d\.\d% of all the variation\)/);
    assert.equal(await page.locator('#vocabulary-map button[data-method="pca"]').getAttribute('aria-pressed'), 'true');
    await screenshot(page, 'vocabulary-map-pca', { clip: await page.locator('#vocabulary-map').boundingBox() });
    await page.locator('#vocabulary-map button[data-method="umap"]').click();
    await page.waitForFunction(() => document.querySelector('#vocabulary-map').dataset.method === 'umap');
    assert.match(await page.locator('#vocabulary-map .vm-legend').textContent(), /UMAP/);
    assert.equal(await seconds(), umapTime);
  });

  test('your own axes: across is each row\'s projection on ·walk → ·walked, up the most varied direction at right angles; typed words are drawn when left', async () => {
    await page.locator('#vocabulary-map button[data-method="axes"]').click();
    await page.waitForFunction(() => document.querySelector('#vocabulary-map').dataset.method === 'axes');
    assert.match(await page.locator('#vocabulary-map .vm-legend').textContent(), /Across: the direction from ·man to ·woman/);
    await page.locator('#vocabulary-map .vm-axis-example', { hasText: '·walk → ·walked' }).click();
    await page.waitForFunction(() => /from ·walk to ·walked/.test(document.querySelector('#vocabulary-map .vm-legend').textContent));
    const [walk, walked, dog] = ['·walk', '·walked', '·dog'].map((w) => suite.model.tokenId(w));
    const a = rowView(suite.model.wte, walk), b = rowView(suite.model.wte, walked), c = rowView(suite.model.wte, dog);
    const direction = Array.from(b, (x, k) => x - a[k]);
    const length = Math.hypot(...direction);
    const across = await page.evaluate((ids) => ids.map((id) => document.querySelector('#vocabulary-map').map.at(id, 0)), [walk, walked, dog]);
    assert.ok(Math.abs(across[1] - across[0] - length) < 1e-4, `${across} against ${length}`);
    const dogAcross = c.reduce((sum, x, k) => sum + x * direction[k] / length, 0);
    assert.ok(Math.abs(across[2] - dogAcross) < 1e-4, `${across[2]} against ${dogAcross}`);
    assert.match(await page.locator('#vocabulary-map .vm-legend').textContent(), /first principal component of the table once the across direction is taken out/);
    // Up from two typed words: drawn when the box is left, as the button would.
    await page.locator('#vocabulary-map input[data-axis="upFrom"]').fill('boy');
    await page.locator('#vocabulary-map input[data-axis="upTo"]').fill('girl');
    await page.locator('#vocabulary-map .vm-legend').click();
    await page.waitForFunction(() => /Up: the direction from ·boy to ·girl, made at right angles/.test(document.querySelector('#vocabulary-map .vm-legend').textContent));
    await screenshot(page, 'vocabulary-map-axes', { locator: page.locator('#vocabulary-map .vm-frame') });
    await page.locator('#vocabulary-map input[data-axis="to"]').fill('walkedxq');
    await page.locator('#vocabulary-map input[data-axis="to"]').press('Enter');
    assert.match(await page.locator('#vocabulary-map .vm-axis-note').textContent(), /“walkedxq” is not a single token/);
    await page.locator('#vocabulary-map button[data-method="umap"]').click();
    await page.waitForFunction(() => document.querySelector('#vocabulary-map').dataset.method === 'umap');
  });

  test('in dark mode the canvas is dark, and its dots and labels are drawn in the dark theme\'s colours', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.querySelector('#vocabulary-map').colours.bg === '#18181c');
    const look = await page.evaluate(() => {
      const map = document.querySelector('#vocabulary-map');
      return { background: getComputedStyle(map.canvas).backgroundColor, ink: map.colours.ink };
    });
    assert.deepEqual(look, { background: 'rgb(24, 24, 28)', ink: '#e8e8ee' });
    // The picked word's label is drawn in the light ink: some of its pixels are near #e8e8ee.
    const light = await page.evaluate(() => {
      const map = document.querySelector('#vocabulary-map');
      const box = map.labelBoxes.find((b) => b.id === map.tokenId);
      const r = map.ratio;
      const { data } = map.canvas.getContext('2d').getImageData(Math.round(box.left * r), Math.round(box.top * r), Math.max(1, Math.round((box.right - box.left) * r)), Math.max(1, Math.round((box.bottom - box.top) * r)));
      let count = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] > 200 && data[i + 1] > 200 && data[i + 2] > 200 && data[i + 3] > 200) count++;
      return count;
    });
    assert.ok(light > 5, `${light} light pixels in the label`);
    await screenshot(page, 'vocabulary-map-dark', { locator: page.locator('#vocabulary-map') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.querySelector('#vocabulary-map').colours.bg === '#ffffff');
  });

  test('the trace\'s row the reader is on lights up its dot on the map and its row in the token table', async () => {
    const table = page.locator('#trace .ew-trace').first();
    await table.scrollIntoViewIfNeeded();
    await table.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const token = await page.evaluate(() => window.trace.tokens[1]);
    // The map and the table follow the row a frame after the key is painted (afterNextPaint).
    await page.waitForFunction((id) => document.querySelector('#vocabulary-map').lit?.id === id
      && document.querySelector('#table').grid.highlighted === id, token.id);
    const lit = await page.evaluate(() => ({ map: document.querySelector('#vocabulary-map').lit, table: document.querySelector('#table').grid.highlighted }));
    assert.equal(lit.map.id, token.id);
    assert.match(lit.map.label, /place 2 of text 1/);
    assert.equal(lit.table, token.id);
    // Ringed on the map, in the accent colour, with its label placed: drawn once the map, screens away, comes near.
    await page.locator('#vocabulary-map canvas.vm-canvas').scrollIntoViewIfNeeded();
    await page.waitForFunction((id) => document.querySelector('#vocabulary-map').labelBoxes?.some((b) => b.id === id), token.id);
    assert.deepEqual(page.problems, []);
  });
});

describe('<ew-vocabulary-map> at 375 px on a touch screen', () => {
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
    await frames(page, 2);
    const box = await page.locator('#vocabulary-map canvas.vm-canvas').boundingBox();
    return { x: box.x + box.width / 2, y: box.y + Math.min(box.height / 2, 200), box };
  }

  test('fits the width, and a one-finger swipe over the map scrolls the page, not the map', async () => {
    const { x, y, box } = await canvasCentre();
    assert.ok(box.width <= 375, `canvas ${box.width} px wide`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
    const before = await state(page);
    const scrollEnded = await nextScrollEnd(page);
    await touch('touchStart', [[x, y]]);
    for (let step = 1; step <= 8; step++) await touch('touchMove', [[x, y - 25 * step]]);
    await touch('touchEnd', []);
    assert.ok(await scrollEnded(), 'the swipe scrolled the page');
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

  test('two fingers pinch to zoom around the picked word; "Move the map" lets one finger pan', async () => {
    const { x, y } = await canvasCentre();
    const picked = () => page.evaluate(() => { const map = document.querySelector('#vocabulary-map'); return map.screenPosition(map.tokenId); });
    const [px, py] = await picked();
    await touch('touchStart', [[x - 20, y], [x + 20, y]]);
    for (let step = 1; step <= 6; step++) await touch('touchMove', [[x - 20 - 10 * step, y], [x + 20 + 10 * step, y]]);
    await touch('touchEnd', []);
    const pinched = await state(page);
    assert.ok(pinched.view.scale > 1.5, `scale ${pinched.view.scale}`);
    // The fingers' midpoint stayed put, so the picked word's dot did too.
    const [qx, qy] = await picked();
    assert.ok(Math.hypot(qx - px, qy - py) < 2, `the picked word moved from ${px},${py} to ${qx},${qy}`);
    await page.locator('#vocabulary-map .vm-move').tap();
    const { x: cx, y: cy } = await canvasCentre();
    const before = await state(page);
    await touch('touchStart', [[cx, cy]]);
    for (let step = 1; step <= 5; step++) await touch('touchMove', [[cx + 15 * step, cy]]);
    await touch('touchEnd', []);
    const after = await state(page);
    assert.ok(after.view.x > before.view.x + 30, `panned from ${before.view.x} to ${after.view.x}`);
    assert.equal(after.scrollY, before.scrollY);
    await page.locator('#vocabulary-map .vm-move').tap();
    await page.locator('#vocabulary-map .vm-isolate').tap();
    await screenshot(page, 'vocabulary-map-isolated-375', { locator: page.locator('#vocabulary-map .vm-frame') });
    assert.deepEqual(page.problems, []);
  });

  test('a tap into a filled box selects its word; a word typed and left is taken, anything else gives the box back', async () => {
    const box = page.locator('#nearest input.ew-input');
    await box.scrollIntoViewIfNeeded();
    await box.tap();
    const selection = await box.evaluate((input) => [input.selectionStart, input.selectionEnd, input.value.length]);
    assert.deepEqual(selection, [0, selection[2], selection[2]]);
    assert.ok(selection[2] > 0);
    // Typing replaces the selected word; a tap elsewhere takes it, as Enter would.
    await page.keyboard.type('red');
    await page.locator('#similar .story p').first().tap();
    // (Taken once the tap elsewhere is painted.)
    await page.waitForFunction(() => document.querySelector('#nearest input.ew-input').value === '·red');
    assert.equal(await page.evaluate(() => document.querySelector('#nearest').tokenId), suite.model.tokenId('·red'));
    assert.match(await page.locator('#nearest .ew-summary').textContent(), /closest to ·red/);
    // Half a word, or none, goes back to the word shown.
    await box.tap();
    await page.keyboard.type('zqxv');
    await page.locator('#similar .story p').first().tap();
    assert.equal(await box.inputValue(), '·red');
    // The analogy's boxes: a word typed and left is computed, so the boxes say what the answer is about.
    const first = page.locator('#analogy input').first();
    await first.scrollIntoViewIfNeeded();
    await first.tap();
    assert.equal(await first.evaluate((input) => input.selectionEnd - input.selectionStart), (await first.inputValue()).length);
    await page.keyboard.type('queen');
    await page.locator('#similar .story p').nth(2).tap();
    await page.waitForFunction(() => /^·queen − ·man \+ ·woman/.test(document.querySelector('#analogy .ew-summary').textContent));
    assert.deepEqual(page.problems, []);
  });
});
