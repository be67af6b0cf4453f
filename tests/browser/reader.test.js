// The reader's first moves, on a 375 px touch screen (a phone): a typed word
// finds the token meant in every search box, a swipe over any widget scrolls
// the page, a tap on a cell or a strip shows its numbers beside the finger,
// long traces collapse, and the smaller fixes
// of the page each hold. Swipes are real touch events (the DevTools
// protocol's Input.dispatchTouchEvent), as a finger makes them.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { num } from '../../web/widgets/parts/format.js';
import { Matrix } from '../../web/index.js';
import { startServer, launch, openPage, waitForWidgets, screenshot, checkModel, nodeModel, checkPng, modelMode, nextScrollEnd } from './helpers/browser.js';

let server, browser, page, cdp, model;

function idOf(text) {
  try {
    return model.tokenId(text);
  } catch {
    return undefined;
  }
}

before(async () => {
  checkModel();
  model = await nodeModel();
  server = await startServer();
  browser = await launch();
  page = await openPage(browser, { width: 375, height: 812, touch: true });
  cdp = await page.context().newCDPSession(page);
  await page.goto(`${server.origin}/web/page/`);
  await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
  await page.locator('#slider').scrollIntoViewIfNeeded();
  assert.deepEqual(await waitForWidgets(page), []);
  await page.waitForFunction(() => document.querySelector('#slider').dataset.shown !== undefined);
  await page.waitForFunction(() => document.documentElement.dataset.formulas === 'ready');
});

after(async () => {
  await browser?.close();
  await server?.close();
  model?.dispose();
});

/**
 * A finger's swipe from (x, fromY) to (x, toY): touchStart, a dozen
 * touchMoves at a finger's pace (a frame apart), touchEnd; then waits for
 * the page's scroll to end, its fling included.
 */
async function swipe(x, fromY, toY) {
  const scrollEnded = await nextScrollEnd(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: fromY }] });
  for (let i = 1; i <= 12; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: fromY + ((toY - fromY) * i) / 12 }] });
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await scrollEnded();
}

/** Puts an element's top a little below the top of the window; returns a point on it to start a swipe. */
async function bringUp(selector) {
  return page.evaluate((sel) => {
    const element = document.querySelector(sel);
    window.scrollTo(0, window.scrollY + element.getBoundingClientRect().top - 120);
    const box = element.getBoundingClientRect();
    return { x: Math.round(box.left + box.width / 2), y: Math.round(Math.min(box.bottom - 10, 120 + Math.min(box.height, 600) * 0.6)), box: box.toJSON() };
  }, selector);
}

const inWindow = (box, size) => box.top >= -0.5 && box.left >= -0.5 && box.bottom <= size.height + 0.5 && box.right <= size.width + 0.5;

describe(`a reader on a 375 px touch screen (${modelMode} model)`, () => {
  test('a swipe over each widget scrolls the page, never a box inside it', async () => {
    const widgets = ['#table .ew-grid-viewport', '#table .ew-grid-window', '#nearest .ew-neighbours', '#pairs', '#dot-widget',
      '#positions .ew-grid-viewport', '#trace .ew-trace', '#trace .ew-compare', '#slider', '#slider input[type="range"]', '#code-embeddings'];
    for (const selector of widgets) {
      const start = await bringUp(selector);
      const before = await page.evaluate(() => ({ y: window.scrollY, inner: document.querySelector('#table .ew-grid-viewport').scrollTop, step: document.querySelector('#slider input[type="range"]').value }));
      await swipe(start.x, start.y, start.y - 250);
      const after = await page.evaluate(() => ({ y: window.scrollY, inner: document.querySelector('#table .ew-grid-viewport').scrollTop, step: document.querySelector('#slider input[type="range"]').value }));
      assert.equal(after.step, before.step, `${selector}: the swipe moved the training slider`);
      assert.ok(after.y - before.y >= 150, `${selector}: a 250 px swipe up moved the page ${after.y - before.y} px (box ${JSON.stringify(start.box)})`);
      assert.equal(after.inner, before.inner, `${selector}: the token table's rows moved instead of the page`);
      // And back down.
      const down = await page.evaluate(() => window.scrollY);
      await swipe(start.x, 200, 450);
      assert.ok(down - (await page.evaluate(() => window.scrollY)) >= 150, `${selector}: a swipe down did not scroll the page back`);
    }
    const style = await page.evaluate(() => getComputedStyle(document.querySelector('#table .ew-grid-viewport')).overflowY);
    assert.equal(style, 'hidden', 'the token table is no scroller of its own');
  });

  test('the token table moves its rows with its own controls', async () => {
    const label = page.locator('#table .ew-grid-window .ew-grid-rows');
    const first = () => label.textContent().then((text) => Number(text.replace(/,/g, '').match(/Rows (\d+)/)[1]));
    const settle = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.locator('#table .ew-grid-window').scrollIntoViewIfNeeded();
    const before = await first();
    await page.locator('#table .ew-grid-window button', { hasText: 'Later rows' }).tap();
    await settle();
    const later = await first();
    assert.ok(later > before, `${before} → ${later}`);
    await page.locator('#table .ew-grid-window button', { hasText: 'Earlier rows' }).tap();
    await settle();
    assert.equal(await first(), before);
    // A row id typed in the search box goes to that row.
    const row = Math.floor(model.vocabSize / 2);
    await page.locator('#table input[role="combobox"]').fill(String(row));
    await page.locator('#table input[role="combobox"]').press('Enter');
    await settle();
    const shown = await first();
    assert.ok(shown <= row && shown > row - 100, `row ${row} is in the window starting at ${shown}`);
    const [earlier, later2] = await page.locator('#table .ew-grid-window button').evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().height));
    assert.ok(earlier >= 24 && later2 >= 24);
  });

  test('a tapped cell opens a loupe beside the finger, inside the window, with finger-sized numbers', async () => {
    const size = page.viewportSize();
    for (const [selector, r, c] of [['#table', idOf('·girl') ?? 40, 60], ['#positions', 9, 19]]) {
      const point = await page.evaluate(([sel, row, col]) => {
        const grid = document.querySelector(sel).grid;
        grid.viewport.scrollIntoView({ block: 'center' });
        return grid.cellPoint(row, col);
      }, [selector, r, c]);
      await page.touchscreen.tap(point.x, point.y);
      const loupe = page.locator(`${selector} .ew-loupe`);
      await loupe.waitFor();
      const box = await loupe.evaluate((element) => element.getBoundingClientRect().toJSON());
      assert.ok(inWindow(box, size), `${selector}: the loupe ${JSON.stringify(box)} is not inside the window`);
      assert.ok(await loupe.evaluate((element) => element.scrollWidth <= element.clientWidth), `${selector}: the loupe's table is cut off`);
      const distance = Math.min(Math.abs(box.top - point.y), Math.abs(box.bottom - point.y));
      assert.ok(distance <= 40, `${selector}: the loupe is ${distance} px from the tap`);
      const cells = await loupe.locator('button.ew-loupe-cell').evaluateAll((buttons) => buttons.map((b) => {
        const rect = b.getBoundingClientRect();
        return { r: Number(b.dataset.r), c: Number(b.dataset.c), text: b.textContent, width: rect.width, height: rect.height, current: b.getAttribute('aria-current') === 'true' };
      }));
      assert.equal(cells.length, 25);
      const table = selector === '#table' ? model.wte : model.cosineMatrix(model.wpe);
      for (const cell of cells) {
        assert.ok(cell.width >= 24 && cell.height >= 24, `${selector}: a loupe cell is ${cell.width} × ${cell.height} px`);
        // As the readout writes the same number: 3 decimals in the token table, a cosine of places to 2.
        assert.equal(cell.text, num(table.at(cell.r, cell.c), selector === '#table' ? 3 : 2));
      }
      assert.deepEqual(cells.filter((cell) => cell.current).map(({ r: row, c: col }) => [row, col]), [[r, c]]);
      // A tap in the loupe moves there; the loupe stays beside the finger.
      const next = cells.find((cell) => cell.r === r + 1 && cell.c === c + 1);
      await loupe.locator(`button[data-r="${next.r}"][data-c="${next.c}"]`).tap();
      assert.match(await page.locator(`${selector} .ew-grid-readout`).first().textContent(), selector === '#table'
        ? new RegExp(`\\(row ${r + 1}\\), column ${c + 1}: `) : new RegExp(`^Places ${r + 2} and ${c + 2} `));
      assert.ok(inWindow(await loupe.evaluate((element) => element.getBoundingClientRect().toJSON()), size));
      if (selector === '#table') {
        // The search box names the token read now, not the one searched before.
        assert.equal(await page.locator('#table input[role="combobox"]').inputValue(), model.tokenText(r + 1));
      }
      await loupe.locator('.ew-loupe-close').tap();
      assert.equal(await loupe.isVisible(), false);
    }
    await screenshot(page, 'reader-375-loupe');
  });

  test('a tapped strip of the trace opens its loupe beside the finger, with the three numbers of each column', async () => {
    const size = page.viewportSize();
    const strip = page.locator('#trace .ew-trace').first().locator('.ew-strip').nth(3 * 2 + 2);  // place 3, the sum
    await strip.scrollIntoViewIfNeeded();
    const box = await strip.boundingBox();
    const point = { x: box.x + box.width * 0.5, y: box.y + box.height / 2 };
    await page.touchscreen.tap(point.x, point.y);
    const loupe = page.locator('#trace .ew-trace-view').first().locator('.ew-loupe');
    await loupe.waitFor();
    const rect = await loupe.evaluate((element) => element.getBoundingClientRect().toJSON());
    assert.ok(inWindow(rect, size), JSON.stringify(rect));
    assert.ok(Math.min(Math.abs(rect.top - point.y), Math.abs(rect.bottom - point.y)) <= 40, 'the loupe is beside the strip');
    assert.ok(await loupe.evaluate((element) => element.scrollWidth <= element.clientWidth), 'the loupe\'s table is cut off');
    const trace = model.trace('One day Lily saw Max.');
    const title = await loupe.locator('.ew-loupe-title').textContent();
    const c = Number(title.match(/column (\d+)/)[1]);
    assert.equal(title, `Place 3, ${trace.tokens[2].text} (id ${trace.tokens[2].id}), column ${c}: token ${num(trace.tokenEmbeddings.at(2, c))} + position ${num(trace.positionEmbeddings.at(2, c))} = sum ${num(trace.embeddings.at(2, c))}`);
    const sums = await loupe.locator('tbody tr').nth(2).locator('button').allTextContents();
    const cols = await loupe.locator('button[data-r="2"]').evaluateAll((buttons) => buttons.map((b) => Number(b.dataset.c)));
    assert.deepEqual(sums, cols.map((col) => num(trace.embeddings.at(2, col))));
    await loupe.locator(`button[data-r="0"][data-c="${cols[cols.length - 1]}"]`).tap();
    assert.match(await loupe.locator('.ew-loupe-title').textContent(), new RegExp(`column ${cols[cols.length - 1]}: `));
    await page.keyboard.press('Escape');
  });

  test('a long trace collapses to its first rows, and opens on request', async (t) => {
    const words = Array.from({ length: 200 }, (_, i) => ['Lily', 'saw', 'Max', 'in', 'the', 'park'][i % 6]).join(' ');
    const textarea = page.locator('#trace textarea').first();
    t.after(async () => {
      await textarea.fill('One day Lily saw Max.');
      await page.waitForFunction(() => document.querySelector('#trace').trace?.text === 'One day Lily saw Max.');
    });
    await textarea.fill(words);
    await page.waitForFunction((text) => document.querySelector('#trace').trace?.text === text || document.querySelector('#trace').trace?.truncated > 0, words);
    const rows = () => page.locator('#trace .ew-trace').first().locator('.ew-trace-body .ew-trace-row').count();
    assert.equal(await rows(), 12);
    const height = await page.locator('#trace').evaluate((element) => element.getBoundingClientRect().height);
    // Both traces collapsed, the comparison's table too, and its sentences (about 350 px here): all 128 rows would be 10,000 px.
    assert.ok(height < 4500, `the trace widget is ${height} px tall with a 200-word text`);
    const more = page.locator('#trace .ew-trace-more').first();
    assert.match(await more.textContent(), new RegExp(`Show all ${model.context} rows`));
    await more.tap();
    assert.equal(await rows(), model.context);
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    await more.tap();
    assert.equal(await rows(), 12);
    // The message is written for a reader, not a programmer.
    const message = await page.locator('#trace .ew-warning').first().textContent();
    assert.match(message, new RegExp(`reads at most ${model.context} tokens at a time`));
    assert.doesNotMatch(message, /truncate|\{|pass /);
  });

  test('the training slider: a tap on a step goes there; its handle drags', async () => {
    const range = page.locator('#slider input[type="range"]');
    await range.scrollIntoViewIfNeeded();
    const last = Number(await range.getAttribute('max'));
    await page.locator('#slider .ew-tick').first().tap();
    await page.waitForFunction(() => document.querySelector('#slider').dataset.shown === '0');
    await page.locator('#slider .ew-tick').last().tap();
    await page.waitForFunction((i) => document.querySelector('#slider').dataset.shown === String(i), last);
    // The handle is at the right end: a finger drags it to the left end.
    const box = await range.boundingBox();
    const y = box.y + box.height / 2;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: box.x + box.width - 8, y }] });
    for (let i = 1; i <= 12; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: box.x + box.width - 8 - ((box.width - 8) * i) / 12, y }] });
      await new Promise((resolve) => setTimeout(resolve, 16));
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForFunction(() => document.querySelector('#slider').dataset.shown === '0');
    assert.equal(await range.inputValue(), '0');
  });

  test('at 375 px the highlighted row of the token table keeps its word', async () => {
    const id = idOf('Lily') ?? 5;
    const drawn = await page.evaluate(async (row) => {
      const calls = [];
      const original = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function record(text, x, y) {
        if (this.canvas.classList.contains('ew-grid-canvas')) calls.push(text);
        return original.call(this, text, x, y);
      };
      const table = document.querySelector('#table');
      table.pick(row);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      CanvasRenderingContext2D.prototype.fillText = original;
      return calls.filter((text) => text.startsWith('▶'));
    }, id);
    assert.deepEqual(drawn, [`▶ ${model.tokenText(id)}`]);
  });

  test('every control is at least 24 CSS px each way', async () => {
    // A glossary term and a link in the text keep the text's size and take a larger box around them (touch-targets.test.js measures it).
    const small = await page.evaluate(() => [...document.querySelectorAll('button, a[href], input, textarea, [role="option"]')]
      .filter((element) => element.getClientRects().length && !element.closest('[hidden]') && !element.classList.contains('term') && !element.matches('main p a') &&
        !element.closest('.colophon, .skip') && element.className !== 'skip')
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(({ element, box }) => `${element.localName}.${element.className} “${element.textContent.trim().slice(0, 20)}” ${box.width.toFixed(1)} × ${box.height.toFixed(1)}`));
    assert.deepEqual(small, []);
  });
});

/** Resolves once the box's list is the one for `text` (it follows the box a frame after a key). */
function listFor(selector, text) {
  return page.waitForFunction(([s, q]) => document.querySelector(`${s} [role="listbox"]`)?.dataset.query === q, [selector, text]);
}

describe('search boxes read a word as a reader means it', () => {
  const boxes = [
    ['#table', () => page.evaluate(() => document.querySelector('#table').grid.highlighted)],
    ['#nearest', () => page.evaluate(() => document.querySelector('#nearest').tokenId)],
    ['#slider', () => page.evaluate(() => document.querySelector('#slider ew-nearest-words').tokenId)],
  ];
  const cases = ['red', 'girl', 'ran', 'run', 'walked', 'the', 'blue', 'happy'].map((word) => [word, `·${word}`])
    .concat([['Lily', 'Lily'], ['·Lily', '·Lily'], [' Lily', '·Lily'], ['·red', '·red']]);

  for (const [selector, shown] of boxes) {
    test(`${selector}: Enter takes the first suggestion, the word as it stands in a sentence`, async () => {
      const input = page.locator(`${selector} input[role="combobox"]`).first();
      await input.scrollIntoViewIfNeeded();
      for (const [typed, meant] of cases) {
        const id = idOf(meant);
        if (id === undefined) continue;
        await input.fill(typed);
        await listFor(selector, typed);
        const first = await page.locator(`${selector} [role="option"]`).first().getAttribute('data-id');
        assert.equal(Number(first), id, `${typed}: the first suggestion`);
        await input.press('Enter');
        assert.equal(await shown(), id, `${selector}: ${typed} should pick ${meant}`);
        assert.equal(await input.inputValue(), meant);
      }
      // Two forms: both offered and named in words.
      for (const word of ['Lily', 'red']) {
        await input.fill(word);
        await listFor(selector, word);
        const forms = await page.locator(`${selector} .ew-picker-form`).evaluateAll((options) => options.map((o) => o.textContent));
        if (idOf(word) !== undefined && idOf(`·${word}`) !== undefined) {
          assert.equal(forms.length, 2, forms.join(' | '));
          assert.ok(forms.some((f) => f.includes('inside a sentence')) && forms.some((f) => f.includes('at the start of a text')), forms.join(' | '));
        }
      }
      await input.press('Escape');
      // "·" is explained where the box is.
      assert.match(await page.locator(`${selector} .ew-picker-hint`).first().textContent(), /“·” is the space before a word/);
    });
  }

  test('a number in the token table is a row id', async () => {
    const input = page.locator('#table input[role="combobox"]');
    const row = Math.min(665, model.vocabSize - 1);  // the book's id for Lily: here a row like any other
    await input.fill(String(row));
    await input.press('Enter');
    assert.equal(await page.evaluate(() => document.querySelector('#table').grid.highlighted), row);
    assert.equal(await page.locator('#table .ew-picker-note').textContent(), '');
  });

  test('a word of several tokens clears the old results and keeps its pieces, each pickable', async () => {
    const input = page.locator('#nearest input[role="combobox"]');
    await input.fill('girlsxq');
    await input.press('Enter');
    assert.equal(await page.locator('#nearest .ew-neighbour').count(), 0, 'the old neighbours are gone');
    const pieces = model.tokenize(' girlsxq');
    const buttons = page.locator('#nearest .ew-pieces button');
    assert.deepEqual(await buttons.allTextContents(), pieces.map((p) => p.text));
    await buttons.nth(0).tap();
    assert.equal(await page.evaluate(() => document.querySelector('#nearest').tokenId), pieces[0].id);
    assert.equal(await buttons.count(), pieces.length, 'the pieces stay after a pick');
    assert.equal(await buttons.nth(0).getAttribute('aria-pressed'), 'true');
    await buttons.nth(1).tap();
    assert.equal(await page.evaluate(() => document.querySelector('#nearest').tokenId), pieces[1].id);
    // Bytes of UTF-8 are said to be bytes.
    await input.fill('😀');
    await input.press('Enter');
    assert.match(await page.locator('#nearest .ew-picker-note').textContent(), /single bytes of the text’s UTF-8 encoding/);
  });

  test('Enter on a neighbour keeps the focus among the neighbours', async () => {
    await page.evaluate(() => document.querySelector('#nearest').pick(document.querySelector('#nearest').model.tokenId('·girl')));
    const button = page.locator('#nearest .ew-neighbour button').nth(2);
    await button.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.closest('#nearest .ew-neighbours') !== null), true);
  });

  test('word and token are properties too', async () => {
    await page.evaluate(() => { document.querySelector('#nearest').word = 'red'; });
    assert.equal(await page.evaluate(() => document.querySelector('#nearest').tokenId), idOf('·red'));
    assert.equal(await page.evaluate(() => document.querySelector('#nearest').word), '·red');
    await page.evaluate(() => { document.querySelector('#table').token = 'girl'; });
    assert.equal(await page.evaluate(() => document.querySelector('#table').grid.highlighted), idOf('·girl'));
    assert.equal(await page.evaluate(() => document.querySelector('#table').token), '·girl');
    await page.evaluate(() => { document.querySelector('#slider').word = 'ran'; });
    assert.equal(await page.evaluate(() => document.querySelector('#slider ew-nearest-words').tokenId), idOf('·ran'));
    assert.equal(await page.evaluate(() => document.querySelector('#slider').word), '·ran');
  });
});

describe('the smaller fixes', () => {
  test('Escape closes a glossary pop-up', async () => {
    const term = page.locator('button.term').first();
    await term.scrollIntoViewIfNeeded();
    await term.tap();
    assert.equal(await term.getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('Escape');
    assert.equal(await term.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator(`#${await term.getAttribute('aria-controls')}`).isVisible(), false);
  });

  test('under each trace, one line for fingers and pointers and one for keys, not the same twice', async () => {
    const lines = await page.locator('#trace .ew-trace-view').evaluateAll((views) => views.map((view) => ({
      prompt: view.querySelector('.ew-grid-readout').textContent,
      help: view.querySelector('.ew-grid-help').textContent,
      overlap: (() => {
        const a = view.querySelector('.ew-grid-readout').getBoundingClientRect(), b = view.querySelector('.ew-grid-help').getBoundingClientRect();
        return a.bottom > b.top + 0.5 && b.bottom > a.top + 0.5;
      })(),
    })));
    assert.equal(lines.length, 2);
    // The second text's strips were never tapped: its readout still shows the prompt.
    assert.match(lines[1].prompt, /^Tap or point at a strip/);
    for (const { help, overlap } of lines) {
      assert.doesNotMatch(help, /Tap|point at/);
      assert.equal(overlap, false);
    }
  });

  test('a display formula wider than the column says it scrolls, and stops saying so when the column widens', async () => {
    const formulasNow = () => page.evaluate(() => [...document.querySelectorAll('.tex.display')].map((element) => ({
      wide: element.scrollWidth > element.clientWidth + 1,
      cue: Boolean(element.nextElementSibling?.classList.contains('scroll-cue') && !element.nextElementSibling.hidden),
    })));
    const afterFrames = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const narrow = await formulasNow();
    assert.ok(narrow.some((f) => f.wide), 'at 375 px some formula is wider than the column');
    for (const formula of narrow) assert.equal(formula.cue, formula.wide);
    const size = page.viewportSize();
    await page.setViewportSize({ width: 1280, height: size.height });
    await afterFrames();
    const widened = await formulasNow();
    assert.ok(widened.filter((f) => f.wide).length < narrow.filter((f) => f.wide).length, 'fewer formulas are wide at 1280 px');
    for (const formula of widened) assert.equal(formula.cue, formula.wide);
    await page.setViewportSize(size);
    await afterFrames();
    for (const formula of await formulasNow()) assert.equal(formula.cue, formula.wide);
  });

  test('the dot product: too large for float32 said so, no bare NaN or Infinity, the code line as the table shows it, the limit of places explained', async () => {
    const widget = page.locator('#dot-widget');
    await widget.scrollIntoViewIfNeeded();
    const first = widget.locator('input').first();
    await first.fill('1e309');
    assert.match(await widget.locator('.ew-dot-sentence').textContent(), /too large: the module computes with float32 numbers/);
    await first.fill('1e38');
    await widget.locator('input').nth(1).fill('1e38');
    // The code line prints what a console would (Infinity); the table and the sentence say it in words.
    const text = (await widget.locator('table').textContent()) + (await widget.locator('.ew-dot-sentence').textContent());
    assert.doesNotMatch(text, /\bNaN\b|\bInfinity\b/);
    assert.match(await widget.locator('.ew-dot-product').first().textContent(), /too large/);
    await widget.locator('button', { hasText: 'Back to the example' }).tap();
    await first.fill('0.1');
    await widget.locator('input').nth(2).fill('0.2');
    // The numbers as typed and the sum as the table shows it, "≈" where a console prints the float32 sum's longer digits.
    const sum = await widget.evaluate((element) => element.result.sum);
    const shown = String(Number(sum.toPrecision(7)));
    assert.notEqual(String(sum), shown);
    assert.equal(await widget.locator('pre').textContent(), `dot([0.1, 0.2, 3], [4, 0, -1]); // ≈ ${shown}`);
    assert.equal(await widget.locator('.ew-dot-sum').textContent(), shown.replace('-', '−'));
    for (let i = 0; i < 5; i++) await widget.locator('button', { hasText: 'Add a place' }).tap();
    assert.equal(await widget.locator('tbody tr').count(), 8);
    assert.equal(await widget.locator('button', { hasText: 'Add a place' }).isDisabled(), true);
    assert.match(await widget.locator('.ew-dot-limit').textContent(), /8 places is this editor’s limit/);
    assert.equal(await widget.locator('.ew-dot-limit').isVisible(), true);
    await widget.locator('button', { hasText: 'Back to the example' }).tap();
    assert.equal(await widget.locator('.ew-dot-limit').isVisible(), false);
  });

  test('the position map\'s line chart writes its last tick whole', async () => {
    // A chart is drawn once it is near the screen (web/widgets/parts/canvas.js): brought there first.
    await page.evaluate(async () => {
      document.querySelector('#positions .ew-profile').scrollIntoView({ block: 'center' });
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    });
    const drawn = await page.evaluate(async () => {
      const calls = [];
      const original = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function record(text, x, y) {
        if (this.canvas.classList.contains('ew-profile')) calls.push({ text, x, half: this.measureText(text).width / 2, width: this.canvas.clientWidth });
        return original.call(this, text, x, y);
      };
      const map = document.querySelector('#positions');
      map.compare(2, 4);
      CanvasRenderingContext2D.prototype.fillText = original;
      return { calls, last: String(map.model.context) };
    });
    const last = drawn.calls.find((call) => call.text === drawn.last);
    assert.ok(last, JSON.stringify(drawn.calls));
    assert.ok(last.x + last.half <= last.width && last.x - last.half >= 0, JSON.stringify(last));
  });

  test('a Matrix of one more row than shown says "1 more row"', () => {
    const table = new Matrix(new Float32Array(8), 4, 2);
    assert.match(inspect(table), /… 1 more row$/);
  });

  test('emoji: the trace says what byte tokens are; the same-words table lists words, not bytes', async () => {
    await page.locator('#trace textarea').nth(0).fill('Lily saw 😀 Max');
    await page.locator('#trace textarea').nth(1).fill('Max saw 😀 Lily');
    await page.waitForFunction(() => document.querySelector('#trace').compareTrace?.text === 'Max saw 😀 Lily');
    assert.match(await page.locator('#trace .ew-trace-bytes').first().textContent(), /UTF-8/);
    const words = await page.locator('#trace .ew-compare-table tbody th').allTextContents();
    assert.ok(words.length > 0 && words.every((word) => !/^<0x/.test(word)), words.join(' '));
    assert.match(await page.locator('#trace .ew-compare').textContent(), /byte tokens are left out/);
    await page.locator('#trace textarea').nth(0).fill('One day Lily saw Max.');
    await page.locator('#trace textarea').nth(1).fill('One day Max saw Lily.');
  });

  test('colours set on an ancestor reach the widgets', async () => {
    const colour = await page.evaluate(() => {
      document.querySelector('main').style.setProperty('--ew-accent', 'rgb(1, 2, 3)');
      const link = document.querySelector('#nearest .ew-link');
      const value = getComputedStyle(link).color;
      document.querySelector('main').style.removeProperty('--ew-accent');
      return value;
    });
    assert.equal(colour, 'rgb(1, 2, 3)');
  });

  test('screenshots of every section at 375 px, checked', async () => {
    for (const id of ['embeddings', 'similar', 'dot', 'position', 'training']) {
      const box = await page.locator(`#${id}`).boundingBox();
      const png = await checkPng(browser, await screenshot(page, `section-${id}-375`, { locator: page.locator(`#${id}`) }));
      assert.equal(png.width, Math.round(box.width), id);
      assert.ok(png.colours > 20, `${id}: only ${png.colours} colours`);
    }
    assert.deepEqual(page.problems, []);
    assert.deepEqual(await page.violations(), []);
  });
});
