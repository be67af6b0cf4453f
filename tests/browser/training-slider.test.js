// <ew-training-slider>'s "watch it learn" parts in headless Chromium: the map of
// each snapshot's token table, laid out in the page only once the slider
// comes near the screen and then lazily (the shown snapshot and the two
// before it, the rest when the slider goes there; step 0's quick map made
// ahead, so that going there shows it at once), each started from the
// next snapshot's map and aligned to it (checked against the Node API's
// UMAP and alignMap, value for value), the points travelling between
// snapshots; the loss curve with the slider's step
// marked; the table of cos(·girl, ·boy), ·boy's rank and the colour words'
// spread (checked against the snapshots read in Node); and at 375 px on a
// touch screen, real one-finger swipes over the map and the curve scroll the
// page. (How long the page's tasks take while it lays the maps out is a
// timing, so it is measured for docs/map.md, not asserted here.)
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, chapterSuite, nodeSnapshot, snapshotIndex, modelMode, pageIdle, frames, nextScrollEnd } from './helpers/browser.js';
import { readFileSync } from 'node:fs';
import { Matrix, alignMap, cosine, rowView } from '../../web/index.js';

// The shipped model's loss curve: the page draws one point per train entry and
// one dot per validation entry.
const shippedCurve = JSON.parse(readFileSync(new URL('../../model/training-curve.json', import.meta.url), 'utf8'));

const suite = chapterSuite({ before, after });

const learned = (page, count) => page.waitForFunction((n) => document.querySelector('#slider').dataset.learned === String(n), count, { timeout: 240000 });
const layoutsOf = (page) => page.evaluate(() => document.querySelector('#slider').learnMap.layouts.map((m) => Array.from(m.data)));

describe('<ew-training-slider>: watch it learn, at 1280 px', () => {
  let page, index;
  before(async () => {
    index = await snapshotIndex();
    page = await openPage(suite.browser, { width: 1280, height: 900 });
    await page.goto(`${suite.server.origin}/web/page/`);
    await page.waitForFunction(() => document.querySelector('#nearest')?.dataset.state === 'ready', undefined, { timeout: 60000 });
  });
  after(() => page.context().close());

  test('lays nothing out until the slider comes near the screen, then the last snapshot and the two before it, the rest when it goes there', async () => {
    const snapshotRequests = () => new Set(suite.server.requests.filter((r) => r.path.includes('/snapshots/step-')).map((r) => r.path)).size;
    // The default model ships 13 snapshots, spaced on a log scale of steps, for the motion to be seen.
    if (modelMode === 'default') assert.ok(index.snapshots.length >= 12, `${index.snapshots.length} snapshots`);
    // The page's later parts laid out and its main thread idle: the slider, far below, has had every chance to start.
    await page.waitForFunction(() => document.documentElement.dataset.parts === 'laid-out');
    await pageIdle(page);
    assert.equal(await page.evaluate(() => document.querySelector('#slider').dataset.learned), undefined);
    assert.equal(snapshotRequests(), 0);
    await page.locator('#slider').scrollIntoViewIfNeeded();
    await learned(page, 3);
    // Step 0's snapshot and its quick map are made ahead (where Play from the last step goes first).
    // And then it stops: no map is being laid out (it waits for the slider to go earlier).
    await page.waitForFunction(() => document.querySelector('#slider').provisional[0] !== undefined && document.querySelector('#slider').layingOut === undefined);
    await pageIdle(page);
    assert.equal(await page.evaluate(() => document.querySelector('#slider').dataset.learned), '3');
    assert.equal(snapshotRequests(), 4);
    // Play, from the last step, goes to step 0, which lays out the rest, each from the one after it. Meanwhile
    // every view says what it is: the step's own map, its quick PCA while the UMAP is laid out, or a dimmed picture.
    await page.evaluate(() => {
      const slider = document.querySelector('#slider');
      const canvas = slider.querySelector('canvas.ew-learn-canvas');
      window.__views = [];
      const record = () => window.__views.push({ range: Number(slider.range.value), learned: Number(slider.dataset.learned), stepText: slider.stepText.textContent,
        words: slider.learnMap.words.textContent, status: slider.learnMap.status.textContent, showing: canvas.dataset.showing, step: canvas.dataset.step });
      new MutationObserver(record).observe(slider, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-showing', 'data-step'] });
    });
    await page.locator('#slider .ew-slider-line > button').click();
    await learned(page, index.snapshots.length);
    assert.equal(snapshotRequests(), index.snapshots.length);
    // Play moves on, a step at a time (it may have reached the last step and stopped by now).
    await page.waitForFunction(() => Number(document.querySelector('#slider').dataset.shown) >= 1, undefined, { timeout: 60000 });
    const play = page.locator('#slider .ew-slider-line > button');
    if (await play.textContent() === 'Pause') await play.click();
    assert.equal(await play.textContent(), 'Play');
    const views = await page.evaluate(() => window.__views);
    const label = (i) => index.snapshots[i].step.toLocaleString('en-US');
    for (const view of views) {
      assert.match(view.stepText, new RegExp(`step ${label(view.range)} of`), JSON.stringify(view));
      if (view.words) assert.ok(view.words.startsWith(`Step ${label(view.range)}:`), `${view.words} under step ${label(view.range)}`);
      if (view.showing === 'layout' || view.showing === 'pca') assert.equal(view.step, String(view.range), JSON.stringify(view));
    }
    // At step 0, before its map was laid out, the page showed step 0's PCA at once (never a dimmed
    // picture: it was made ahead) and said so; and Play went on to step 1 without waiting for the UMAP.
    const provisional = views.find((view) => view.range === 0 && view.showing === 'pca');
    assert.ok(provisional, 'step 0\'s quick map was shown');
    assert.ok(!views.some((view) => view.range === 0 && view.showing === 'waiting'), 'step 0 never waited for its picture');
    assert.ok(views.find((view) => view.range === 1).learned < index.snapshots.length, 'Play reached step 1 before step 0\'s UMAP was laid out');
    assert.match(provisional.words, /Shown meanwhile: a quick map of step 0’s table, its two most varied directions \(PCA\)/);
    assert.ok(views.some((view) => view.range === 0 && /Laying out step 0’s map/.test(view.status)));
    await page.locator('#slider input[type="range"]').focus();
    await page.keyboard.press('End');
    await page.waitForFunction((i) => document.querySelector('#slider canvas.ew-learn-canvas').dataset.shown === String(i), index.snapshots.length - 1);
    assert.deepEqual(page.problems, []);
  });

  test('each map is the UMAP of its snapshot\'s table started from the next snapshot\'s map and aligned to it', async () => {
    const layouts = await layoutsOf(page);
    const epochs = await page.evaluate(() => customElements.get('ew-training-slider').warmEpochs);
    assert.equal(layouts.length, index.snapshots.length);
    const last = index.snapshots.length - 1;
    let next;
    for (let i = last; i >= 0; i--) {
      const snapshot = await nodeSnapshot(index.snapshots[i].file);
      const map = await (i === last ? snapshot.map() : snapshot.map({ init: next, epochs }));
      snapshot.dispose();
      const expected = i === last ? map : alignMap(map, next);
      const shown = layouts[i];
      let worst = 0;
      for (let k = 0; k < shown.length; k++) worst = Math.max(worst, Math.abs(shown[k] - expected.data[k]));
      // The last map is the layout itself, bit for bit; the others went through the same double-precision alignment.
      assert.ok(i === last ? worst === 0 : worst < 1e-4, `step ${index.snapshots[i].step}: differs by ${worst}`);
      next = new Matrix(Float32Array.from(shown), shown.length / 2, 2);
    }
  });

  test('the table gives cos(·girl, ·boy), ·boy\'s rank and the colour words\' spread at each snapshot', async () => {
    const rows = await page.evaluate(() => [...document.querySelectorAll('#slider .ew-learn-table tbody tr')].map((tr) => ({
      step: tr.dataset.step, cells: [...tr.children].map((cell) => cell.textContent),
    })));
    assert.equal(rows.length, index.snapshots.length);
    const girl = suite.model.tokenId('·girl'), boy = suite.model.tokenId('·boy');
    for (const [i, entry] of index.snapshots.entries()) {
      const snapshot = await nodeSnapshot(entry.file);
      const row = (id) => rowView(snapshot.wte, id);
      const pair = cosine(row(girl), row(boy));
      let closer = 0;
      for (let id = 0; id < snapshot.vocabSize; id++) if (id !== girl && id !== boy && cosine(row(girl), row(id)) > pair) closer += 1;
      snapshot.dispose();
      assert.equal(rows[i].step, String(entry.step));
      assert.equal(Number(rows[i].cells[2].replace('\u2212', '-')), Number(pair.toFixed(2)), `step ${entry.step}: cosine`);
      assert.match(rows[i].cells[3], new RegExp(`^${(closer + 1).toLocaleString('en-US')}(st|nd|rd|th)$`), `step ${entry.step}: rank`);
      assert.match(rows[i].cells[4], /^\d+%$/);
    }
    // Trained, ·boy is ·girl's closest token; at step 0 it is far down the list, and the colour words lie closer together on the trained map.
    assert.equal(rows[rows.length - 1].cells[3], '1st');
    assert.ok(parseInt(rows[0].cells[3].replace(/,/g, ''), 10) > 10, rows[0].cells[3]);
    assert.ok(parseInt(rows[rows.length - 1].cells[4], 10) < parseInt(rows[0].cells[4], 10), `${rows[0].cells[4]} then ${rows[rows.length - 1].cells[4]}`);
  });

  test('moving the slider, the points travel from one map to the next and the loss curve marks the step', async () => {
    const curve = await page.evaluate(() => {
      const svg = document.querySelector('#slider .ew-curve-plot');
      return {
        points: svg.querySelector('.ew-curve-train').getAttribute('points').split(' ').length,
        dots: svg.querySelectorAll('.ew-curve-val circle').length,
        ticks: svg.querySelectorAll('.ew-curve-snapshots line').length,
        marked: svg.querySelector('.ew-curve-marker').dataset.step,
        caption: document.querySelector('#slider .ew-curve figcaption').textContent,
      };
    });
    if (modelMode === 'default') assert.deepEqual({ points: curve.points, dots: curve.dots }, { points: shippedCurve.train.length, dots: shippedCurve.val.length });
    if (modelMode === 'default') assert.match(curve.caption, /8\.3 is a uniform guess among the 4,096 tokens/);
    assert.equal(curve.ticks, index.snapshots.length);
    assert.equal(curve.marked, String(index.snapshots[index.snapshots.length - 1].step));
    const before = await page.evaluate(() => document.querySelector('#slider').learnMap.frames);
    await page.locator('#slider input[type="range"]').focus();
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('#slider canvas.ew-learn-canvas').dataset.moving === 'true');
    await page.waitForFunction(() => document.querySelector('#slider canvas.ew-learn-canvas').dataset.shown === '0', undefined, { timeout: 10000 });
    const after = await page.evaluate(() => {
      const view = document.querySelector('#slider').learnMap;
      const same = view.positions.every((v, k) => v === view.layouts[0].data[k]);
      // Half way from the first snapshot's map to the second's: each point half way.
      const { positions } = view.positionsAt([view.layouts[0].data, view.layouts[1].data], 0.5);
      const halfway = positions.every((v, k) => Math.abs(v - (view.layouts[0].data[k] + view.layouts[1].data[k]) / 2) < 1e-4);
      return { frames: view.frames, same, halfway, marked: document.querySelector('#slider .ew-curve-marker').dataset.step, words: view.words.textContent };
    });
    assert.ok(after.frames - before >= 5, `${after.frames - before} frames drawn on the way`);
    assert.ok(after.same, 'the points stop on step 0\'s map');
    assert.ok(after.halfway);
    assert.equal(after.marked, '0');
    assert.match(after.words, /^Step 0: the colour words lie at \d+% of the mean distance between two tokens; ·boy is the [\d,]+(st|nd|rd|th) closest point to ·girl on the map/);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((step) => document.querySelector('#slider .ew-curve-marker').dataset.step === step, String(index.snapshots[1].step));
    await page.keyboard.press('End');
    await page.waitForFunction((i) => document.querySelector('#slider canvas.ew-learn-canvas').dataset.shown === String(i), index.snapshots.length - 1);
    await frames(page, 2);
    await screenshot(page, 'training-slider-1280', { locator: page.locator('#slider') });
    // In dark mode the map's canvas is dark, as the page is.
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('#slider canvas.ew-learn-canvas')).backgroundColor), 'rgb(24, 24, 28)');
    await page.waitForFunction(() => document.querySelector('#slider').learnMap.colours === undefined || document.querySelector('#slider').learnMap.colours.bg === '#18181c');
    await screenshot(page, 'training-slider-1280-dark', { locator: page.locator('#slider .ew-learn') });
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(page.problems, []);
    assert.deepEqual(await page.violations(), []);
  });
});

describe('<ew-training-slider> at 375 px on a touch screen', () => {
  let context, page, cdp, index;
  before(async () => {
    index = await snapshotIndex();
    context = await suite.browser.newContext({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
    page = await context.newPage();
    page.problems = [];
    page.on('pageerror', (error) => page.problems.push(error.message));
    await page.goto(`${suite.server.origin}/web/page/#training`);
    await learned(page, 3);
    cdp = await context.newCDPSession(page);
  });
  after(() => context.close());

  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });

  for (const [name, selector] of [['map', '#slider canvas.ew-learn-canvas'], ['loss curve', '#slider .ew-curve-plot']]) {
    test(`a one-finger swipe over the ${name} scrolls the page and leaves the step alone`, async () => {
      await page.evaluate((s) => window.scrollBy(0, document.querySelector(s).getBoundingClientRect().top - 200), selector);
      await frames(page, 2);
      const box = await page.locator(selector).boundingBox();
      const [x, y] = [box.x + box.width / 2, box.y + Math.min(box.height / 2, 150)];
      const state = () => page.evaluate(() => ({ scrollY: window.scrollY, step: document.querySelector('#slider input[type="range"]').value }));
      const before = await state();
      const scrollEnded = await nextScrollEnd(page);
      await touch('touchStart', [[x, y]]);
      for (let step = 1; step <= 8; step++) await touch('touchMove', [[x, y - 25 * step]]);
      await touch('touchEnd', []);
      assert.ok(await scrollEnded(), 'the swipe scrolled the page');
      const after = await state();
      assert.ok(after.scrollY > before.scrollY + 50, `the page scrolled from ${before.scrollY} to ${after.scrollY}`);
      assert.equal(after.step, before.step);
    });
  }

  test('fits the width, its targets are at least 24 px, a tap on a step moves the map there', async () => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
    const small = await page.evaluate(() => [...document.querySelectorAll('#slider button, #slider input')]
      .filter((target) => target.offsetParent !== null && !target.closest('ew-nearest-words, ew-position-map'))
      .map((target) => ({ text: target.textContent || target.type, box: target.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 || box.height < 24).map(({ text, box }) => `${text} ${box.width}×${box.height}`));
    assert.deepEqual(small, []);
    const canvas = await page.locator('#slider canvas.ew-learn-canvas').boundingBox();
    assert.ok(canvas.width <= 375 && canvas.height > 150, `${canvas.width} × ${canvas.height}`);
    // "Play" on one line, not "Pl/ay".
    const lines = await page.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector('#slider .ew-slider-line > button'));
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    assert.equal(lines, 1);
    await page.locator('#slider .ew-tick').nth(1).scrollIntoViewIfNeeded();
    await page.locator('#slider .ew-tick').nth(1).tap();
    await page.waitForFunction(() => document.querySelector('#slider canvas.ew-learn-canvas').dataset.shown === '1', undefined, { timeout: 120000 });
    await page.locator('#slider .ew-learn').scrollIntoViewIfNeeded();
    await screenshot(page, 'training-slider-375');
    assert.deepEqual(page.problems, []);
  });

  test('the table, cut off at the right, says it scrolls, and a sideways swipe scrolls it', async () => {
    const box = page.locator('#slider .ew-table-scroll');
    await box.scrollIntoViewIfNeeded();
    const cue = await page.evaluate(() => {
      const scroller = document.querySelector('#slider .ew-table-scroll');
      return { wide: scroller.scrollWidth > scroller.clientWidth, cue: !scroller.nextElementSibling.hidden, text: scroller.nextElementSibling.textContent,
        focusable: scroller.tabIndex === 0, label: scroller.getAttribute('aria-label') };
    });
    assert.deepEqual(cue, { wide: true, cue: true, text: 'The table goes on: swipe it sideways →', focusable: true, label: 'The figures of each snapshot (scrolls sideways)' });
    const at = await box.boundingBox();
    const [x, y] = [at.x + at.width - 40, at.y + at.height / 2];
    await touch('touchStart', [[x, y]]);
    for (let step = 1; step <= 8; step++) await touch('touchMove', [[x - 25 * step, y]]);
    await touch('touchEnd', []);
    // Scrolled to its end, however little is cut off.
    await page.waitForFunction(() => {
      const scroller = document.querySelector('#slider .ew-table-scroll');
      return scroller.scrollLeft > 0 && scroller.scrollLeft >= scroller.scrollWidth - scroller.clientWidth - 1;
    });
    await screenshot(page, 'training-slider-table-375', { locator: box });
  });
});
