// The chapter's remaining claims, live on the page, as a reader meets them on
// a 375 px touch screen (real taps, typed words, the keyboard): the Code
// parts as the chapter writes them, the one-hot lookup as a product, the
// dot product of real rows and its three cases, the sine and cosine waves
// beside the learned positions, the trace's account of position and the
// colours of its strips. Every figure is checked against the Node API on
// the same files; then the new parts in dark mode, and the position maps
// side by side at 1280 px. (The sections' screenshots at 375 and 1280 px
// are reader.test.js's and page.test.js's.)
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rowView, dot, cosine } from '../../web/index.js';
import { num } from '../../web/widgets/parts/format.js';
import { colorOf } from '../../web/widgets/parts/color.js';
import { openPage, waitForWidgets, screenshot, checkPng, chapterSuite, modelMode } from './helpers/browser.js';

const suite = chapterSuite({ before, after });
let page;

/** The Node model's id of a token, or undefined. */
function idOf(text) {
  try {
    return suite.model.tokenId(text);
  } catch {
    return undefined;
  }
}

/** Whether the model gives the chapter's tokens the chapter's ids (the default model does). */
const chapterIds = () => idOf('Lily') === 665 && idOf('·girl') === 477 && idOf('·boy') === 497;

/** Two animation frames: what a tap or a key changed is drawn. */
const settle = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

describe(`the chapter's claims, live, at 375 px with touch (${modelMode} model)`, () => {
  before(async () => {
    page = await openPage(suite.browser, { width: 375, height: 812, touch: true });
    await page.goto(`${suite.server.origin}/web/page/`);
    await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
    for (const id of ['one-hot', 'row-dot', 'positions', 'trace']) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      assert.deepEqual(await waitForWidgets(page, `#${id}`), []);
    }
  });
  after(() => page.context().close());

  test('the Code parts show the chapter\'s lines as written, with the book\'s figures beside this model\'s', async () => {
    const model = suite.model;
    const similar = await page.locator('#code-similar pre').textContent();
    const embeddings = await page.locator('#code-embeddings pre').textContent();
    const girl = idOf('·girl'), boy = idOf('·boy');
    if (chapterIds()) {
      assert.ok(similar.includes('cosine(rowView(model.wte, 477), rowView(model.wte, 497)); // ·girl and ·boy, 0.74'), similar);
      assert.ok(embeddings.includes('const lily = rowView(model.wte, 665); // 128 numbers'), embeddings);
      assert.ok(embeddings.includes(`trace.tokenEmbeddings; // one row per token, 6 × ${model.width}`), embeddings);
    } else {
      assert.ok(similar.includes(`rowView(model.wte, ${girl ?? 'model.tokenId(\'·girl\')'})`), similar);
    }
    // The figures table: the book's 0.74 beside this model's, computed.
    const figures = await page.locator('#code-similar .ew-figures-table tbody tr').first().locator('td').allTextContents();
    const ours = girl !== undefined && boy !== undefined ? num(cosine(rowView(model.wte, girl), rowView(model.wte, boy)), 2) : undefined;
    assert.equal(figures[0], '0.74');
    if (ours) assert.equal(figures[1], ours);
    await page.locator('#code-similar button', { hasText: 'Run' }).tap();
    const output = await page.locator('#code-similar output').textContent();
    if (chapterIds()) assert.ok(output.includes('> cosine(rowView(model.wte, 477), rowView(model.wte, 497));'), output);
    // The console: the warning about the book's ids only for a model without them.
    const banner = page.messages.find((m) => m.text.startsWith('Embeddings and position.'))?.text ?? '';
    assert.equal(/belong to the book’s model/.test(banner), !chapterIds(), banner);
    // tokenId('girl') suggests the token the reader meant.
    const message = await page.evaluate(() => {
      try {
        return String(window.model.tokenId('girl'));
      } catch (error) {
        return error.message;
      }
    });
    if (girl !== undefined && idOf('girl') === undefined) assert.match(message, new RegExp(`Did you mean '·girl' \\(id ${girl}\\)`));
  });

  test('the one-hot lookup: a typed word, all its rows multiplied, equal to its row number for number; taps and keys move the 1', async () => {
    const model = suite.model;
    const box = page.locator('#one-hot input[role="combobox"]');
    await box.tap();
    await box.fill('girl');
    await box.press('Enter');
    const girl = idOf('·girl') ?? idOf('girl');
    await page.waitForFunction((id) => document.querySelector('#one-hot').result?.id === id, girl);
    const result = await page.evaluate(() => document.querySelector('#one-hot').result);
    assert.deepEqual(result.product, Array.from(rowView(model.wte, girl)));
    assert.equal(result.equal, model.width);
    const text = await page.locator('#one-hot').innerText();
    assert.match(text, new RegExp(`all ${model.width} of its ${model.width} numbers are equal`));
    assert.match(text, new RegExp(`${(model.vocabSize - 1).toLocaleString('en-US')} of them by 0 and row ${girl.toLocaleString('en-US')} by 1`));
    // Four rows of zeros around the one row drawn times 1, and the rows between counted.
    assert.equal(await page.locator('#one-hot .ew-onehot-one').count(), 1);
    assert.match(await page.locator('#one-hot .ew-onehot-gap').first().textContent(), /more rows, each × 0/);
    // A tap on the row below moves the 1 there; the arrow keys move it back.
    await page.locator(`#one-hot [data-row="${girl + 1}"]`).tap();
    await page.waitForFunction((id) => document.querySelector('#one-hot').result?.id === id, girl + 1);
    await page.locator('#one-hot .ew-onehot').focus();
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((id) => document.querySelector('#one-hot').result?.id === id, girl);
    assert.equal(await page.evaluate(() => document.querySelector('#one-hot').result.equal), model.width);
  });

  test('the dot product of real rows: the three cases found from the model, a tapped place, the lengths and the cosine', async () => {
    const model = suite.model;
    const widget = page.locator('#row-dot');
    const cases = await widget.locator('.ew-rowdot-presets button').evaluateAll((buttons) => buttons.map((b) => ({ name: b.dataset.case, id: Number(b.dataset.id) })));
    assert.deepEqual(cases.map((c) => c.name), ['big', 'near zero', 'below zero']);
    const [a] = await page.evaluate(() => document.querySelector('#row-dot').pair);
    const rowA = rowView(model.wte, a);
    const dots = cases.map((c) => dot(rowA, rowView(model.wte, c.id)));
    assert.ok(dots[0] > Math.abs(dots[1]) && dots[2] < 0 && Math.abs(dots[1]) < Math.abs(dots[2]), JSON.stringify(dots));
    for (const [i, expected] of [[2, /^Below zero: the signs disagree/], [1, /^Near zero: the lists have nothing in common/], [0, /^Big: the two lists have large numbers/]]) {
      await widget.locator('.ew-rowdot-presets button').nth(i).tap();
      await page.waitForFunction((id) => document.querySelector('#row-dot').pair[1] === id, cases[i].id);
      const verdict = await widget.locator('.ew-rowdot-verdict').textContent();
      assert.match(verdict, expected);
      assert.ok(verdict.includes(`the dot product is ${num(dots[i])}`), verdict);
    }
    // Big: the pair is a, b; its lengths and cosine broken down.
    const b = cases[0].id, rowB = rowView(model.wte, b);
    const lengths = [Math.sqrt(dot(rowA, rowA)), Math.sqrt(dot(rowB, rowB))];
    const cosineLine = await widget.locator('.ew-rowdot-cosine').textContent();
    assert.ok(cosineLine.includes(`= ${num(dot(rowA, rowB))} ÷ (${num(lengths[0])} × ${num(lengths[1])}) = ${num(dot(rowA, rowB) / (lengths[0] * lengths[1]))}`), cosineLine);
    assert.ok(cosineLine.includes(`cosine(a, b): ${num(cosine(rowA, rowB))}`), cosineLine);
    // A tap on the products' strip reads that place; the arrow key goes on.
    const strip = widget.locator('.ew-rowdot-strip').nth(2);
    await strip.scrollIntoViewIfNeeded();
    const area = await strip.boundingBox();
    const k = 40;
    await page.touchscreen.tap(area.x + area.width * ((k + 0.5) / model.width), area.y + area.height / 2);
    const readout = widget.locator('.ew-rowdot-readout');
    assert.ok((await readout.textContent()).startsWith(`Place ${k + 1}: ${num(rowA[k])} × ${num(rowB[k])} = ${num(Math.fround(rowA[k] * rowB[k]), 4)}`), await readout.textContent());
    await widget.locator('.ew-rowdot-strips').focus();
    await page.keyboard.press('ArrowRight');
    assert.match(await readout.textContent(), new RegExp(`^Place ${k + 2}: `));
    // Linked to the three-number editor: the first three places go there, and it adds them up.
    // The button names no direction (the editor's place depends on the page), and brings the editor into view.
    await widget.locator('button', { hasText: 'Put the first three places into the three-number editor' }).tap();
    const three = (row) => Array.from(row.subarray(0, 3), (x) => Math.fround(Number(x.toFixed(3))));
    const vectors = await page.evaluate(() => document.querySelector('#dot-widget').vectors);
    assert.deepEqual(vectors, [three(rowA), three(rowB)]);
    const sum = dot(three(rowA), three(rowB));
    assert.equal(await page.evaluate(() => document.querySelector('#dot-widget').result.sum), sum);
    // Its Code line writes the numbers as the table shows them (0.152, not 0.15199999511241913), and the sum as its table does.
    const typed = (row) => Array.from(row.subarray(0, 3), (x) => String(Number(x.toFixed(3)))).join(', ');
    const shown = String(Number(sum.toPrecision(7)));
    assert.equal(await page.locator('#dot-widget pre').textContent(),
      `dot([${typed(rowA)}], [${typed(rowB)}]); // ${String(sum) === shown ? shown : `≈ ${shown}`}`);
    assert.equal(await page.locator('#dot-widget .ew-dot-sum').textContent(), shown.replace('-', '−'));
    const box = await page.locator('#dot-widget').boundingBox();
    assert.ok(box.y < 812 && box.y + Math.min(box.height, 200) > 0, `the editor is in view after the button: ${JSON.stringify(box)}`);
  });

  test('the editor: an emptied box counts as 0, a box that is not a number has no product, never the old one', async () => {
    const editor = page.locator('#dot-widget');
    await editor.locator('button', { hasText: 'Back to the example' }).tap();
    const first = editor.locator('input').first();  // a, place 1: 1, times 4
    await first.tap();
    await first.fill('');
    assert.equal(await editor.locator('tbody tr').first().locator('.ew-dot-product').textContent(), '0');
    assert.equal(await editor.locator('.ew-dot-sum').textContent(), '−3');
    assert.match(await editor.locator('.ew-dot-sentence').textContent(), /An empty box counts as 0 \(a, place 1\)/);
    await page.keyboard.type('x');
    assert.equal(await editor.locator('tbody tr').first().locator('.ew-dot-product').textContent(), '—');
    assert.equal(await editor.locator('.ew-dot-sum').textContent(), '—');
    assert.match(await editor.locator('.ew-dot-sentence').textContent(), /“x” in a, place 1, is not a number: that place has no product/);
    await first.fill('2');
    assert.equal(await editor.locator('.ew-dot-sum').textContent(), '5');
  });

  test('the sine and cosine waves beside the learned positions: both maps, places 2/3 and 2/51 scored in both', async () => {
    const model = suite.model;
    const positions = page.locator('#positions');
    await page.locator('[data-places="2 51"]').tap();
    const readouts = await positions.locator('.ew-grid-readout').allTextContents();
    const far = Math.min(51, model.context);
    const learned = model.cosineMatrix(model.wpe);
    // The waves by the formula, in plain JavaScript (doubles), against the page's (kernels, float32).
    const d = model.width;
    const wave = (pos) => Array.from({ length: d }, (_, k) => {
      const angle = pos / 10000 ** ((2 * Math.floor(k / 2)) / d);
      return k % 2 ? Math.cos(angle) : Math.sin(angle);
    });
    const waveCosine = (p, q) => cosine(wave(p - 1), wave(q - 1));
    assert.equal(readouts[0], `Places 2 and ${far} (rows 1 and ${far - 1} of the position table): cosine ${num(learned.at(1, far - 1), 2)}`);
    assert.equal(readouts[1], `Waves: places 2 and ${far} (rows 1 and ${far - 1} of the waves’ table): cosine ${num(waveCosine(2, far), 2)}`);
    const rows = await positions.locator('.ew-position-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    assert.deepEqual(rows[0], ['2 and 3', num(learned.at(1, 2), 2), num(waveCosine(2, 3), 2)]);
    assert.deepEqual(rows[1], [`2 and ${far}`, num(learned.at(1, far - 1), 2), num(waveCosine(2, far), 2)]);
    const page2 = await page.evaluate(() => document.querySelector('#positions').waves.at(1, 2));
    assert.ok(Math.abs(page2 - waveCosine(2, 3)) < 1e-5);
    // The chapter's figures in words, from the same waves.
    assert.equal(await page.locator('[data-when="positions"] [data-fig="wave-near"]').textContent(), num(waveCosine(2, 3), 2));
    // A tap on the waves' map selects the same places on the learned one.
    const point = await page.evaluate(() => document.querySelector('#positions').wavesGrid.cellPoint(9, 19));
    await page.touchscreen.tap(point.x, point.y);
    await page.keyboard.press('Escape');  // the loupe
    assert.deepEqual(await page.evaluate(() => document.querySelector('#positions').grid.cursor), { r: 9, c: 19 });
  });

  test('the trace: the same tokens swapped differ only by the position rows; different tokens are said to be; grammar by count', async () => {
    const model = suite.model;
    const compare = page.locator('#trace .ew-compare > p');
    const defaults = await page.evaluate(() => [document.querySelector('#trace').text, document.querySelector('#trace').compareText]);
    const [one, two] = defaults.map((text) => model.trace(text));
    assert.equal(one.tokens.length, 6, 'the default text has 6 tokens, as the chapter\'s 6 × 128');
    const ids = (t) => t.tokens.map((token) => token.id).sort((x, y) => x - y);
    assert.deepEqual(ids(one), ids(two), 'the same tokens, swapped');
    const said = await compare.textContent();
    assert.match(said, /All 6 shared words are the same token in both texts/);
    assert.match(said, /are the same tokens at other places, so their sums differ only by the position rows/);
    // The chapter's own pair, from its button: "Lily" at the start is another token than "·Lily".
    await page.locator('[data-texts^="Lily saw Max"]').tap();
    await page.waitForFunction(() => document.querySelector('#trace').compareText.startsWith('Max saw Lily'));
    assert.match(await compare.textContent(), /“Lily” is Lily at place 1 in text 1 and ·Lily at place 3 in text 2; “Max” is ·Max at place 3 in text 1 and Max at place 1 in text 2: different tokens each/);
    assert.match(await compare.textContent(), /not only because they moved/);
    // The issue's case, typed: one of three shared words is the same token.
    const boxes = page.locator('#trace textarea');
    await boxes.nth(0).fill('Lily saw Max');
    await boxes.nth(1).fill('Max saw Lily');
    await page.waitForFunction(() => document.querySelector('#trace').compareTrace?.text === 'Max saw Lily');
    assert.match(await compare.textContent(), /^1 of 3 shared words is the same token in both texts, so it gets the same token list in both\./);
    await page.locator('[data-texts^="One day"]').tap();
    await page.waitForFunction(() => document.querySelector('#trace').text.startsWith('One day'));
  });

  test('the trace\'s strips: each an image of its numbers, a pixel a number in the scale\'s colours, and no canvas (a repaint copies each canvas again)', async () => {
    const strips = await page.evaluate(() => {
      const view = document.querySelector('#trace').viewA;
      const images = [...document.querySelectorAll('#trace .ew-trace-body .ew-strip')].slice(0, 3 * 2);
      return {
        text: document.querySelector('#trace').text,
        limit: view.limit,
        canvases: document.querySelectorAll('#trace .ew-trace-body canvas').length,
        pixels: images.map((image) => {
          const canvas = document.createElement('canvas');
          canvas.width = image.naturalWidth;
          canvas.height = image.naturalHeight;
          const context = canvas.getContext('2d');
          context.drawImage(image, 0, 0);
          const { data } = context.getImageData(0, 0, canvas.width, 1);
          return { tag: image.localName, height: canvas.height, rgb: Array.from({ length: canvas.width }, (_, c) => `rgb(${data[4 * c]}, ${data[4 * c + 1]}, ${data[4 * c + 2]})`) };
        }),
      };
    });
    assert.equal(strips.canvases, 0);
    const expected = suite.model.trace(strips.text);
    // Places 1 and 2, each its token list, its position list and their sum.
    const lists = ['tokenEmbeddings', 'positionEmbeddings', 'embeddings'];
    strips.pixels.forEach((strip, k) => {
      const row = Math.floor(k / 3), list = expected[lists[k % 3]];
      assert.equal(strip.tag, 'img');
      assert.equal(strip.height, 1);
      assert.deepEqual(strip.rgb, Array.from({ length: suite.model.width }, (_, c) => colorOf(list.at(row, c), strips.limit)), `place ${row + 1}, ${lists[k % 3]}`);
    });
  });

  test('in dark mode the new parts draw in the page\'s ink; at 1280 px the two position maps sit side by side', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    // A tapped place redraws the running sum in the ink of the moment: light on dark.
    const strip = page.locator('#row-dot .ew-rowdot-strip').first();
    await strip.scrollIntoViewIfNeeded();
    const area = await strip.boundingBox();
    await page.touchscreen.tap(area.x + area.width / 2, area.y + area.height / 2);
    assert.match(await page.locator('#row-dot .ew-rowdot-readout').textContent(), new RegExp(`^Place ${Math.floor(suite.model.width / 2) + 1}: `));
    const lightest = await page.evaluate(() => {
      const canvas = document.querySelector('#row-dot .ew-rowdot-chart');
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let best = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 200) best = Math.max(best, data[i] + data[i + 1] + data[i + 2]);
      return best;
    });
    assert.ok(lightest > 600, `the running sum's line is drawn light on the dark page (brightest ${lightest})`);
    for (const id of ['row-dot', 'positions']) {
      const png = await checkPng(suite.browser, await screenshot(page, `live-${id}-375-dark`, { locator: page.locator(`#${id}`) }));
      assert.ok(png.colours > 20, `${id}: only ${png.colours} colours`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await settle();
    const [learned, waves] = await page.locator('#positions .ew-position-column').evaluateAll((columns) => columns.map((c) => c.getBoundingClientRect().toJSON()));
    assert.ok(Math.abs(learned.top - waves.top) < 1 && waves.left >= learned.right, JSON.stringify([learned, waves]));
    assert.deepEqual(page.problems, []);
    assert.deepEqual(await page.violations(), []);
  });
});
