// The token table's first view reads no more than it shows: an
// <ew-embedding-table> given a fresh model is ready with its start token found
// and highlighted without reading the vocabulary, its search box finds
// tokens by text, id and word form exactly as the vocabulary's index does,
// before and after a reader's first visit to the box reads it, and its
// colours keep the limit the sorted sample gave. On the chapter page, the
// figures beside the table are filled when it is ready, the rest after.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { num } from '../../web/widgets/parts/format.js';
import { wordForms } from '../../web/widgets/parts/word-forms.js';
import { colorOf, KEPT_PIXELS } from '../../web/widgets/parts/color.js';
import { sortedColourLimit } from '../js/helpers/reference.js';
import { startServer, launch, openPage, waitForWidgets, checkModel, nodeModel, modelMode } from './helpers/browser.js';

let server, browser, model;

before(async () => {
  checkModel();
  model = await nodeModel();
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  model?.dispose();
});

function idOf(text) {
  try {
    return model.tokenId(text);
  } catch {
    return undefined;
  }
}

/** What a reader may type into the table's box: words in their forms, row ids, odd texts. */
function typedTexts() {
  const words = model.vocabulary();
  const texts = ['Lily', 'lily', ' Lily', '·Lily', 'girl', 'Girl', '·girl', 'red', ' red ', 'the', 'The', 'zzqx', '·', ' ',
    '0', '7', '#7', '665', String(model.wte.rows - 1), String(model.wte.rows), '#99999', '12a', '😀', 'a b'];
  for (let id = 0; id < words.length; id += 97) texts.push(words[id], words[id].replace(/^·/, ''), words[id].toLowerCase());
  // A byte's token in lower case ("<0xc2>") is settled by the vocabulary (tests/js/page/first-view.test.js).
  return texts.filter((text) => !/<0x/i.test(text));
}

describe(`an <ew-embedding-table> given a fresh model (${modelMode} model)`, () => {
  let page;
  before(async () => {
    page = await openPage(browser, { width: 375, height: 800 });
    await page.goto(`${server.origin}/web/examples/embed.html`);
    assert.deepEqual(await waitForWidgets(page), []);
    // A model of its own (the page's shared one may have had its vocabulary read by
    // other widgets), its vocabulary() counted from the start.
    await page.evaluate(async () => {
      const { loadModel } = await import('/web/src/model/index.js');
      const fresh = await loadModel();
      window.vocabularyReads = 0;
      const read = fresh.vocabulary;
      fresh.vocabulary = function vocabulary() {
        window.vocabularyReads += 1;
        return read.call(this);
      };
      const table = document.createElement('ew-embedding-table');
      table.id = 'fresh';
      table.setAttribute('token', 'Lily');
      table.model = fresh;
      document.querySelector('main').append(table);
      await new Promise((resolve) => table.addEventListener('ew-ready', resolve, { once: true }));
      // Each picture of the grid starts with a clear of its canvas: count them from here on.
      window.gridPaints = 0;
      const context = table.grid.canvas.getContext('2d');
      const clear = context.clearRect;
      context.clearRect = function clearRect(...args) {
        window.gridPaints += 1;
        return clear.apply(this, args);
      };
      for (let frame = 0; frame < 4; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
      window.firstViewPaints = window.gridPaints;
    });
  });
  after(() => page?.context().close());

  test('is ready with the start token highlighted and named, the vocabulary unread', async () => {
    const lily = idOf('Lily');
    const state = await page.evaluate(() => {
      const table = document.querySelector('#fresh');
      return {
        reads: window.vocabularyReads,
        highlighted: table.grid.highlighted,
        value: table.picker.input.value,
        token: table.token,
        rowText: table.rowText.textContent,
        readout: table.grid.readout.textContent,
      };
    });
    assert.equal(state.reads, 0, 'the vocabulary is not read for the first view');
    if (lily === undefined) return;
    assert.equal(state.highlighted, lily);
    assert.equal(state.value, 'Lily');
    assert.equal(state.token, 'Lily');
    assert.match(state.rowText, new RegExp(`^Row ${lily}, Lily, starts `));
    assert.match(state.readout, new RegExp(`^Lily \\(row ${lily}\\), column 0: `));
  });

  test('its first picture is painted once: the scroll to the start token it makes as it lays out is not painted again', async () => {
    assert.equal(await page.evaluate(() => window.firstViewPaints), 1);
    // A scroll of the reader's is painted.
    const after = await page.evaluate(async () => {
      const viewport = document.querySelector('#fresh .ew-grid-viewport');
      viewport.scrollTop += 40;
      for (let frame = 0; frame < 3; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
      return window.gridPaints;
    });
    assert.equal(after, 2);
  });

  test('the rows off screen are painted in the browser\'s idle time, a slice at a time, until every block it keeps is', async () => {
    // Each idle callback paints for a few milliseconds and asks for another: the last leaves none asked for.
    await page.waitForFunction(() => document.querySelector('#fresh').grid.image.idle === 0, undefined, { timeout: 30000 });
    const { painted, blocks, blockPixels } = await page.evaluate(() => {
      const { image } = document.querySelector('#fresh').grid;
      return { painted: image.painted.filter(Boolean).length, blocks: image.painted.length, blockPixels: image.blockRows * Math.max(1, image.cols) };
    });
    // All of a small table; of a large one, as many blocks as half of what is kept.
    assert.equal(painted, Math.min(blocks, Math.max(1, Math.floor(KEPT_PIXELS / 2 / blockPixels))));
  });

  test('its picture is each number\'s colour, on both sides of every block of rows it paints apart', async () => {
    const { rows, cols } = model.wte;
    const limit = sortedColourLimit(model.wte.data, model.wte.dtype);
    const cells = [];
    for (const r of [0, 1, 15, 16, 63, 64, 65, 127, 128, 635, 636, 1000, 2047, 2048, rows - 2, rows - 1]) {
      if (r >= 0 && r < rows) for (const c of [0, 1, 63, cols - 1]) cells.push([r, c]);
    }
    const pixels = await page.evaluate((wanted) => {
      const { image } = document.querySelector('#fresh').grid;
      image.ensureRows(0, image.rows);  // every block, not only those the idle time has reached
      return wanted.map(([r, c]) => {
        const block = image.blocks.get(Math.floor(r / image.blockRows));
        return Array.from(block.getContext('2d').getImageData(c, r % image.blockRows, 1, 1).data.slice(0, 3));
      });
    }, cells);
    cells.forEach(([r, c], i) => {
      const value = model.wte.dtype === 'float32' ? model.wte.data[r * cols + c] : model.wte.at(r, c);
      assert.equal(`rgb(${pixels[i].join(', ')})`, colorOf(value, limit), `row ${r}, column ${c}`);
    });
  });

  test('its colours and legend keep the limit of the sorted sample', async () => {
    const limit = sortedColourLimit(model.wte.data, model.wte.dtype);
    const shown = await page.evaluate(() => {
      const table = document.querySelector('#fresh');
      return { limit: table.grid.options.limit, legend: table.querySelector('.ew-legend').getAttribute('aria-label') };
    });
    assert.equal(shown.limit, limit);
    assert.equal(shown.legend, `Colours of the token table: blue is ${num(-limit, 2)} or less, white is 0, red is ${num(limit, 2)} or more`);
  });

  test('its box finds tokens by text, id and form as the index does, before and after the vocabulary is read', async () => {
    const texts = typedTexts();
    const expected = texts.map((text) => wordForms(model.vocabulary(), text, { rowIds: true, rows: model.wte.rows }));
    const resolveAll = () => page.evaluate((list) => list.map((text) => document.querySelector('#fresh').picker.resolve(text)), texts);
    assert.deepEqual(await resolveAll(), expected, 'looked up in the module');
    assert.equal(await page.evaluate(() => window.vocabularyReads), 0, 'still unread');
    // A reader comes to the box: the vocabulary and the search index are made (once the focus has been painted).
    const input = page.locator('#fresh input[role="combobox"]');
    await input.focus();
    await page.waitForFunction(() => window.vocabularyReads === 1);
    assert.deepEqual(await resolveAll(), expected, 'from the index');
    // And the list offers what it offered before: both forms of Lily, named.
    await input.fill('Lily');
    const options = await page.locator('#fresh [role="option"]').evaluateAll((list) => list.map((o) => Number(o.dataset.id)));
    const forms = expected[0].map((form) => form.id);
    assert.deepEqual(options.slice(0, forms.length), forms);
    const row = Math.min(665, model.wte.rows - 1);
    await input.fill(String(row));
    await input.press('Enter');
    assert.equal(await page.evaluate(() => document.querySelector('#fresh').grid.highlighted), row);
    assert.equal(await page.evaluate(() => window.vocabularyReads), 1, 'read once');
    assert.deepEqual(page.problems, []);
  });
});

describe('the chapter page\'s figures', () => {
  let page;
  before(async () => {
    page = await openPage(browser);
    // Which figures are filled when the token table first answers: read in the page, at that moment.
    await page.addInitScript(() => {
      document.addEventListener('ew-ready', (event) => {
        if (event.target.id !== 'table' || window.atTableReady) return;
        const filled = (name) => [...document.querySelectorAll(`[data-fig="${name}"]`)].every((e) => e.textContent !== '…');
        window.atTableReady = Object.fromEntries(['rows', 'width', 'count', 'share', 'params', 'lily-id', 'lily-five'].map((name) => [name, filled(name)]));
      });
    });
    await page.goto(`${server.origin}/web/page/`);
    await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
  });
  after(() => page?.context().close());

  test('those of the first screen are filled when the token table is ready, every one when the page is', async () => {
    const atReady = await page.evaluate(() => window.atTableReady);
    assert.deepEqual(Object.values(atReady).filter((filled) => !filled), [], JSON.stringify(atReady));
    const empty = await page.evaluate(() => [...document.querySelectorAll('[data-fig]')].filter((e) => e.textContent === '…').map((e) => e.dataset.fig));
    assert.deepEqual(empty, []);
    assert.ok(await page.evaluate(() => performance.getEntriesByName('embeddings:figures').length === 1));
    assert.deepEqual(page.problems, []);
  });
});
