// On a 375 px touch screen (a phone), every control of the chapter takes at
// least 44 × 44 CSS px of touch: measured, not read from the CSS, by asking
// the browser what a finger at each point would hit (elementFromPoint) out
// from the middle of each control, and checked with real taps at the edges
// of those areas. The strips, a few pixels a number, open a loupe whose
// numbers are buttons that size; a tap that rewrites a line keeps it on
// screen; hints are at least 14 px and the charts' tick labels at least 12.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { num } from '../../web/widgets/parts/format.js';
import { openPage, waitForWidgets, chapterSuite, screenshot, modelMode } from './helpers/browser.js';
import { bookValuesBeside, directionsHold } from './helpers/layout-claims.js';

const TARGET = 44;
const suite = chapterSuite({ before, after });
let page, model;

/**
 * Each control's touch area, measured in the page: from the middle of the
 * control (the slider's handle: its dot), how far up, down, left and right
 * a finger still lands on it (elementFromPoint; a box's label counts as
 * the box, and a strip's line as the strip, as their handlers take them).
 */
function measureTouchAreas(limit) {
  const selector = 'button, input, select, textarea, a[href], summary, [role="option"], .ew-strip, .ew-onehot-row[data-row]';
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    return element.getClientRects().length && box.right > 0 && box.width > 0 && getComputedStyle(element).visibility !== 'hidden';
  };
  /** What a finger on the control lands on, as its handlers read it. */
  const region = (element) => {
    if (element.matches('.ew-strip')) {
      const line = element.closest('.ew-trace-part, .ew-rowdot-line, .ew-onehot-row');
      const group = element.closest('.ew-trace-row, .ew-rowdot-strips, .ew-onehot-row');
      if (line.matches('.ew-onehot-row')) return (hit) => line.contains(hit);
      const part = line.matches('.ew-trace-part') ? '.ew-trace-part' : '.ew-rowdot-line';
      return (hit) => Boolean(hit.closest(part)) && group.contains(hit);
    }
    const label = element.matches('input') ? element.closest('label') : null;
    return (hit) => (label ?? element).contains(hit);
  };
  const centre = (element) => {
    // A link that wraps: the middle of its first line.
    const box = element.getClientRects()[0];
    if (element.matches('input[type="range"]')) {
      const share = (Number(element.value) - Number(element.min)) / ((Number(element.max) - Number(element.min)) || 1);
      return { x: box.left + TARGET_HALF + share * (box.width - 2 * TARGET_HALF), y: box.top + box.height / 2 };
    }
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  };
  const TARGET_HALF = 22;
  const reach = (inside, x, y, dx, dy) => {
    let d = 0;
    while (d < limit && inside(document.elementFromPoint(x + (d + 1) * dx, y + (d + 1) * dy))) d++;
    return d;
  };
  // The figure controls open, so that what they hold is measured too.
  for (const details of document.querySelectorAll('details.ew-figure-save')) details.open = true;
  const results = [];
  for (const element of document.querySelectorAll(selector)) {
    if (!shown(element) || element.closest('.ew-loupe') || element.matches('.skip')) continue;
    element.scrollIntoView({ block: 'center', inline: 'nearest' });
    const inside = (hit) => Boolean(hit) && region(element)(hit);
    const { x, y } = centre(element);
    if (!inside(document.elementFromPoint(x, y))) {
      results.push({ name: describe(element), width: 0, height: 0, missed: true });
      continue;
    }
    results.push({
      name: describe(element),
      width: 1 + reach(inside, x, y, -1, 0) + reach(inside, x, y, 1, 0),
      height: 1 + reach(inside, x, y, 0, -1) + reach(inside, x, y, 0, 1),
    });
  }
  return results;
  function describe(element) {
    const widget = element.closest('[data-state]')?.id ?? element.closest('section')?.id ?? 'page';
    const text = (element.getAttribute('aria-label') || element.textContent || element.value || element.type || '').trim().slice(0, 30);
    return `${widget}: ${element.localName}.${[...element.classList].join('.')} “${text}”`;
  }
}

describe(`the chapter on a 375 px touch screen (${modelMode} model)`, () => {
  before(async () => {
    model = suite.model;
    page = await openPage(suite.browser, { width: 375, height: 812, touch: true });
    // Every font the canvases write their labels in.
    await page.addInitScript(() => {
      window.__labelFonts = new Set();
      const fillText = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function recorded(...args) {
        window.__labelFonts.add(this.font);
        return fillText.apply(this, args);
      };
    });
    await page.goto(`${suite.server.origin}/web/page/`);
    await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
    await page.locator('#slider').scrollIntoViewIfNeeded();
    assert.deepEqual(await waitForWidgets(page), []);
    await page.waitForFunction(() => document.querySelector('#slider .ew-tick') !== null);
  });
  after(() => page.context().close());

  test(`every control has at least ${TARGET} × ${TARGET} px of touch, measured where a finger lands`, async () => {
    const areas = await page.evaluate(measureTouchAreas, TARGET + 8);
    await page.evaluate(() => { for (const details of document.querySelectorAll('details.ew-figure-save')) details.open = false; });
    // Probed in whole pixels from a middle that may fall between two: an area measures up to 1 px short.
    const small = areas.filter((area) => area.width < TARGET - 1 || area.height < TARGET - 1);
    assert.ok(areas.length > 150, `${areas.length} controls measured`);
    assert.deepEqual(small.map((area) => `${area.name}: ${area.width} × ${area.height}`), []);
  });

  /** A tap `dy` px below (or above) the middle of the element: a finger that lands off its text. */
  async function tapOff(locator, dy, dx = 0) {
    await locator.scrollIntoViewIfNeeded();
    const box = await locator.boundingBox();
    await page.touchscreen.tap(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy);
  }

  test('real taps at the edges of those areas do what a tap on the control does', async () => {
    // A neighbour's token, tapped well below its text: its closest tokens are shown.
    const second = page.locator('#nearest .ew-neighbours .ew-link').nth(1);
    const word = await second.textContent();
    await tapOff(second, 18);
    await page.waitForFunction((text) => document.querySelector('#nearest').word === text, word);
    // A glossary term in the text, tapped above its letters: its definition opens.
    const term = page.locator('#embeddings .term').first();
    await tapOff(term, -19);
    assert.equal(await term.getAttribute('aria-expanded'), 'true');
    // A map's group, tapped on its label's edge rather than its box: the box follows.
    const group = page.locator('#vocabulary-map .vm-group').first();
    const box = group.locator('input');
    const checked = await box.isChecked();
    await tapOff(group, 19);
    assert.equal(await box.isChecked(), !checked);
    await tapOff(group, 0);
    // A step of the training slider, tapped at its corner.
    const tick = page.locator('#slider .ew-tick').first();
    await tapOff(tick, 19, -19);
    await page.waitForFunction(() => document.querySelector('#slider').step === 0);
  });

  test('the row strips: a tap on a strip\'s line opens a loupe whose numbers are buttons of a finger\'s size, and the line it rewrote stays on screen', async () => {
    const widget = page.locator('#row-dot');
    const strip = widget.locator('.ew-rowdot-strip').nth(2);
    await strip.scrollIntoViewIfNeeded();
    // Between the products' name and its strip, off the strip's 14 px.
    const area = await strip.boundingBox();
    const k = 70;
    await page.touchscreen.tap(area.x + area.width * ((k + 0.5) / model.width), area.y - 3);
    const loupe = widget.locator('.ew-loupe');
    await loupe.waitFor();
    const readout = widget.locator('.ew-rowdot-readout');
    assert.match(await readout.textContent(), new RegExp(`^Place ${k + 1}: `));
    const cells = await loupe.locator('button.ew-loupe-cell').evaluateAll((buttons) => buttons.map((b) => {
      const rect = b.getBoundingClientRect();
      return { r: Number(b.dataset.r), c: Number(b.dataset.c), text: b.textContent, width: rect.width, height: rect.height };
    }));
    assert.equal(cells.length, 15);
    for (const cell of cells) assert.ok(cell.width >= TARGET && cell.height >= TARGET, `a loupe cell is ${cell.width} × ${cell.height} px`);
    // Its numbers are the rows' and their products, as the readout writes them.
    const [a, b] = await page.evaluate(() => document.querySelector('#row-dot').pair);
    const rowA = model.wte.row(a), rowB = model.wte.row(b);
    for (const cell of cells) {
      const value = cell.r === 0 ? num(rowA[cell.c]) : cell.r === 1 ? num(rowB[cell.c]) : num(Math.fround(rowA[cell.c] * rowB[cell.c]), 4);
      assert.equal(cell.text, value);
    }
    // A tap on a number in the loupe reads that place.
    await loupe.locator(`button[data-r="2"][data-c="${k + 1}"]`).tap();
    assert.match(await readout.textContent(), new RegExp(`^Place ${k + 2}: `));
    const rect = await readout.evaluate((element) => element.getBoundingClientRect().toJSON());
    assert.ok(rect.top >= 0 && rect.bottom <= 812, `the readout is on screen: ${JSON.stringify(rect)}`);
    await loupe.locator('.ew-loupe-close').tap();
    await screenshot(page, 'touch-375-row-dot');
  });

  test('a one-hot row tapped at the screen\'s bottom brings its check line into view', async () => {
    const widget = page.locator('#one-hot');
    const rows = widget.locator('.ew-onehot-row[data-row]');
    const last = rows.nth(3);
    // The row low on the screen, its check line under the bottom edge.
    await last.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().bottom - window.innerHeight + 4));
    const before = await widget.locator('.ew-onehot-check').evaluate((element) => element.getBoundingClientRect().top);
    assert.ok(before > 812, `the check line starts below the screen (${before})`);
    const id = Number(await last.getAttribute('data-row'));
    await tapOff(last, 0);
    await page.waitForFunction((row) => document.querySelector('#one-hot').result?.id === row, id);
    // In view to the pixel (the page scrolls by whole pixels; the line may end a fraction below).
    await page.waitForFunction(() => document.querySelector('#one-hot .ew-onehot-check').getBoundingClientRect().bottom <= window.innerHeight + 1);
  });

  test('hints are at least 14 px, and every chart\'s tick labels at least 12', async () => {
    const hints = await page.evaluate(() => [...document.querySelectorAll('.ew-picker-hint, .ew-help, .ew-grid-help, .ew-scroll-cue, .scroll-cue, .ew-legend-labels, .ew-ticks, .ew-onehot-bar-labels')]
      .filter((element) => element.getClientRects().length)
      .map((element) => ({ text: element.textContent.slice(0, 30), size: parseFloat(getComputedStyle(element).fontSize) })));
    assert.ok(hints.length > 10);
    assert.deepEqual(hints.filter((hint) => hint.size < 14), []);
    const fonts = await page.evaluate(() => [...window.__labelFonts]);
    const sizes = fonts.map((font) => Number(/(\d+(?:\.\d+)?)px/.exec(font)[1]));
    assert.ok(sizes.length && Math.min(...sizes) >= 12, fonts.join('; '));
    // The loss curve's labels, drawn in the curve's own units, at least 12 px as it is shown.
    const curve = await page.locator('#slider .ew-curve-plot text').first().evaluate((text) => {
      const svg = text.ownerSVGElement;
      return parseFloat(getComputedStyle(text).fontSize) * (svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
    });
    assert.ok(curve >= 12, `the curve's labels are ${curve} px`);
    assert.deepEqual(page.problems, []);
  });

  test('at 375 px the book\'s value is beside each sentence\'s figure that differs, and "above"/"below" hold', async () => {
    const values = (await bookValuesBeside(page)).filter((value) => value.ours !== value.book);
    assert.ok(values.length > 0);
    // Side by side, or the note on the line under its figure's.
    for (const value of values) assert.ok(value.note && value.apart <= value.lineHeight + 1, `${value.what}: ${JSON.stringify(value)}`);
    assert.deepEqual((await directionsHold(page)).filter((claim) => !claim.holds), []);
  });
});
