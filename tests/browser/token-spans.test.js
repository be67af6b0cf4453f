// The trace's text box underlines each token's characters (the trace's
// start and end, model.encode's offsets), and the two light each other: a
// mouse over a trace row lights its characters, over a character its
// token's row; on a 375 px touch screen (real touch events, the CPU slowed
// four times) a tap on a row lights its characters and a tap on a
// character its token, named under the box.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, openPage, waitForWidgets, screenshot, checkModel, pageIdle } from './helpers/browser.js';

let server, browser;

before(async () => {
  checkModel();
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function openTrace(options) {
  const page = await openPage(browser, options);
  await page.goto(`${server.origin}/web/page/`);
  await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
  await page.locator('#trace').scrollIntoViewIfNeeded();
  assert.deepEqual(await waitForWidgets(page, '#trace'), []);
  return page;
}

// The first box's underlined pieces: their text and whether lit.
const pieces = (page) => page.evaluate(() => [...document.querySelectorAll('#trace .ew-textbox')[0].querySelectorAll('.ew-tok')]
  .map((span) => ({ text: span.textContent, lit: span.classList.contains('ew-tok-lit') })));
const litRows = (page) => page.evaluate(() => [...document.querySelectorAll('#trace .ew-trace-view')[0].querySelectorAll('.ew-trace-row.ew-lit')]
  .map((row) => Number(row.dataset.row)));
// The centre of the first box's underlined piece `text` on the screen.
const pieceAt = (page, text) => page.evaluate((wanted) => {
  const span = [...document.querySelectorAll('#trace .ew-textbox')[0].querySelectorAll('.ew-tok')].find((s) => s.textContent === wanted);
  const box = span.getClientRects()[0];
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}, text);

test('at 1280 px, a mouse over a row lights its characters, and over a character its row', async () => {
  const page = await openTrace({ width: 1280, height: 900 });
  // "One day Lily saw Max.": six tokens, each underlined, the text whole.
  const underlined = await pieces(page);
  assert.deepEqual(underlined.map((p) => p.text), ['One', ' day', ' Lily', ' saw', ' Max', '.']);
  // The drawn text is where the box's is: the same lines, the same left edge.
  const place = await page.evaluate(() => {
    const box = document.querySelectorAll('#trace .ew-textbox')[0];
    const input = box.querySelector('textarea').getBoundingClientRect();
    const first = box.querySelector('.ew-tok').getClientRects()[0];
    return { inputLeft: input.left, inputTop: input.top, left: first.left, top: first.top };
  });
  assert.ok(place.left - place.inputLeft > 0 && place.left - place.inputLeft < 16, JSON.stringify(place));
  assert.ok(place.top - place.inputTop > 0 && place.top - place.inputTop < 16, JSON.stringify(place));
  // A row: its token's characters light.
  const row = page.locator('#trace .ew-trace-view >> nth=0').locator('.ew-trace-row[data-row="2"] .ew-trace-token');
  await row.hover();
  assert.deepEqual((await pieces(page)).filter((p) => p.lit).map((p) => p.text), [' Lily']);
  // A character: its token's row lights, and the box names it.
  await page.locator('#trace textarea >> nth=0').scrollIntoViewIfNeeded();
  const max = await pieceAt(page, ' Max');
  await page.mouse.move(max.x + 8, max.y);
  assert.deepEqual(await litRows(page), [4]);
  assert.match(await page.locator('#trace .ew-token-pointed >> nth=0').textContent(), /^" Max" is token 5, ·Max \(id \d+\)\.$/);
  // (Clipped where the window shows it: a locator's screenshot would scroll, and move the mouse off the text.)
  const clip = await page.evaluate(() => {
    const top = document.querySelectorAll('#trace .ew-textbox')[0].getBoundingClientRect();
    const rows = document.querySelectorAll('#trace .ew-trace')[0].getBoundingClientRect();
    return { x: Math.max(0, top.left - 4), y: Math.max(0, top.top - 4), width: top.width + 8, height: Math.min(rows.bottom, innerHeight) - top.top + 8 };
  });
  await screenshot(page, 'token-spans-1280', { clip });
  // An emoji is four byte tokens: one character, underlined dashed, lighting all four rows.
  await page.locator('#trace textarea >> nth=0').fill('Hi 😀!');
  await page.waitForFunction(() => document.querySelector('#trace .ew-tok-shared'));
  const emoji = await pieceAt(page, '😀');
  await page.mouse.move(emoji.x, emoji.y);
  assert.deepEqual(await litRows(page), [2, 3, 4, 5]);
  assert.match(await page.locator('#trace .ew-token-pointed >> nth=0').textContent(), /"😀" is 4 tokens, 3, 4, 5, 6: .*each a part of its bytes\./);
  await screenshot(page, 'token-spans-1280-emoji', { clip });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('on a 375 px touch screen at a quarter of the CPU, a tap on a row lights its characters and a tap on a character its token', async () => {
  const page = await openTrace({ width: 375, height: 812, touch: true });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // A tap on a strip of row 4 (·saw): its characters light.
  await page.locator('#trace .ew-trace-view >> nth=0').locator('.ew-trace-row[data-row="3"] .ew-strip-box >> nth=0').tap();
  assert.deepEqual((await pieces(page)).filter((p) => p.lit).map((p) => p.text), [' saw']);
  // The strip's loupe, which may lie over the text, closed with its button, as a reader would.
  await page.locator('#trace .ew-loupe-close >> nth=0').tap();
  await page.waitForFunction(() => document.querySelector('#trace .ew-loupe').hidden);
  // A tap on the "L" of Lily: the caret goes there, its token lights and is named under the box.
  // Measured once the row's tap has done what it does elsewhere (the token table and the map far
  // above follow it a frame later, and the page's later parts are still being laid out), as a
  // reader looks before tapping; and the text is what lies under the finger there.
  await page.locator('#trace textarea >> nth=0').scrollIntoViewIfNeeded();
  await pageIdle(page);
  const lily = await pieceAt(page, ' Lily');
  assert.equal(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('.ew-textarea-wrap') !== null, lily), true,
    'the text lies under the finger');
  const events = [];
  await page.exposeFunction('tapSeen', (type, target) => events.push(`${type} on ${target}`));
  await page.evaluate(() => {
    for (const type of ['pointerdown', 'focus', 'click', 'select', 'contextmenu']) {
      document.addEventListener(type, (event) => window.tapSeen(type, event.target.className || event.target.nodeName), true);
    }
  });
  await page.touchscreen.tap(lily.x, lily.y);
  // (The box already names ·saw from the row's tap: wait for the tap on the text to be handled.)
  await page.waitForFunction(() => document.querySelector('#trace .ew-token-pointed').textContent.startsWith('" Lily"'), null, { timeout: 15000 })
    .catch(async (error) => {
      const said = await page.locator('#trace .ew-token-pointed >> nth=0').textContent();
      throw new Error(`the tap on " Lily" was not named: the box says ${JSON.stringify(said)}; the page saw ${events.join(', ') || 'no event'}`, { cause: error });
    });
  assert.deepEqual(await litRows(page), [2]);
  assert.match(await page.locator('#trace .ew-token-pointed >> nth=0').textContent(), /^" Lily" is token 3, ·Lily \(id \d+\)\.$/);
  assert.deepEqual((await pieces(page)).filter((p) => p.lit).map((p) => p.text), [' Lily']);
  await screenshot(page, 'token-spans-375', { locator: page.locator('#trace .ew-textbox >> nth=0') });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
