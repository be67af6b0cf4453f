// The chapter as a book: printed with Chromium's own PDF output and read back
// with poppler (pdftotext, pdfimages, pdftoppm), every section's figures in
// it and nothing of the screen (no "Loading", no "…", no button); Ctrl+P
// draws every figure before the print dialog opens; each widget's figures
// exported as SVG (vector, text as text) and PNG (2×, 300 dpi at a width),
// matching what the widget's canvas shows; and the book's values beside
// the sentences, at 1280 px (375 px: touch-targets.test.js).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { colorOf } from '../../web/widgets/parts/color.js';
import { openPage, waitForWidgets, chapterSuite, resultsDir, modelMode } from './helpers/browser.js';
import { bookValuesBeside, directionsHold } from './helpers/layout-claims.js';

const suite = chapterSuite({ before, after });
let page;

function poppler(tool, args, options = {}) {
  try {
    return execFileSync(tool, args, { encoding: options.encoding ?? 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error(`${tool} is missing: tools/setup.sh test installs poppler-utils`);
    throw error;
  }
}

/** The PDF's text, page by page (pdftotext's form feeds). */
function pagesOf(file) {
  return poppler('pdftotext', ['-layout', file, '-']).split('\f').filter((text, i, all) => i < all.length - 1 || text.trim());
}

/** pdfimages -list: [{ page, object, width, height }]. */
function imagesOf(file) {
  return poppler('pdfimages', ['-list', file]).split('\n').slice(2).filter(Boolean).map((line) => {
    const cells = line.trim().split(/\s+/);
    return { page: Number(cells[0]), width: Number(cells[3]), height: Number(cells[4]), object: Number(cells[10]) };
  });
}

async function printToPdf(name) {
  await mkdir(resultsDir, { recursive: true });
  const file = `${resultsDir}/${name}.pdf`;
  await writeFile(file, await page.pdf({ format: 'A4' }));
  return file;
}

/** What the PDF shows of the screen that it should not: [text found]. */
function screenLeftovers(text) {
  const found = [];
  if (/Loading/.test(text)) found.push('Loading');
  // The formulas' own dots (\dots) are mathematics; any other "…" is a number or a word still to come.
  const dots = (text.match(/…/g) ?? []).length;
  if (dots > FORMULA_DOTS) found.push(`${dots} “…” (the formulas have ${FORMULA_DOTS})`);
  for (const label of ['Run', 'Play', 'Earlier rows', 'Later rows', 'Reset view', 'Choose File', 'No file chosen', 'Save a figure',
    'Add a place', 'Back to the example', 'Print the chapter', 'Zoom in', 'Isolate', 'Move the map', 'Show all']) {
    if (new RegExp(`(^|\\s)${label}\\b`, 'm').test(text)) found.push(label);
  }
  return found;
}
// The formulas' \dots, typeset: (0, …, 0, 1, 0, …, 0) and i = 1, …, n (and + ⋯ +, a centred ellipsis).
const FORMULA_DOTS = 3;

describe(`the chapter as a book, at 1280 px (${modelMode} model)`, () => {
  before(async () => {
    page = await openPage(suite.browser, { width: 1280, height: 900 });
    await page.goto(`${suite.server.origin}/web/page/`);
    await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
  });
  after(() => page.context().close());

  test('printed from the browser\'s menu at once, nothing prints "Loading", "…" or a button: what is not drawn yet says so', async () => {
    // The training slider has not been near the screen: its snapshots are not loaded.
    const file = await printToPdf('book-at-once');
    const text = pagesOf(file).join('\n');
    assert.deepEqual(screenLeftovers(text), []);
    assert.match(text.replace(/\s+/g, ' '), /This part was not drawn yet when the page was printed: print again \(Ctrl\+P or ⌘P\) to include it\./);
    assert.deepEqual(page.problems, []);
  });

  test('preparePrint() (what Ctrl+P does first) then Chromium\'s PDF: every section\'s figures, whole, headings kept with their text', async () => {
    await page.evaluate(() => window.preparePrint());
    assert.deepEqual(await waitForWidgets(page), []);
    // The canvases the print shows (the slider's among them, drawn now), to count in the PDF.
    const canvases = await page.evaluate(() => {
      dispatchEvent(new Event('beforeprint'));
      const shown = [...document.querySelectorAll('.ew canvas')].filter((canvas) => canvas.getClientRects().length && !canvas.closest('.ew-loupe, [hidden]')).length;
      dispatchEvent(new Event('afterprint'));
      return shown;
    });
    const file = await printToPdf('book');
    poppler('pdftoppm', ['-r', '60', '-png', file, `${resultsDir}/book-page`]);
    const pages = pagesOf(file);
    const text = pages.join('\n');
    assert.deepEqual(screenLeftovers(text), []);
    assert.doesNotMatch(text, /not drawn yet/);
    // Every section's figures, by the words that come with each.
    const figures = {
      Embeddings: ['Rows 624–706 of 4,096', 'Sum of all 4,096', '0 white'],
      'Similar words': ['Each dot is one of the 4,096 tokens', 'closest to ·girl (id 477)'],
      'Dot product': ['a × b', 'The running sum, place by place', 'Sum: the dot product'],
      Position: ['Token list', 'Position list', 'Learned by this model', 'Sine and cosine waves', 'Two places scored in both maps'],
      'Watch it learn': ['Snapshot 13 of 13', 'The token table on a map', 'Loss during training', 'training step (log scale)', 'Colours'],
    };
    if (modelMode !== 'default') figures.Embeddings[0] = 'Rows ';
    const flat = text.replace(/\s+/g, ' ');
    for (const [section, words] of Object.entries(figures)) {
      const from = flat.indexOf(` ${section} `);
      assert.ok(from >= 0, `${section} is printed`);
      for (const word of words) assert.ok(flat.indexOf(word, from) >= 0, `${section}: “${word}” is printed`);
    }
    // Every canvas is in the PDF as a picture, and none is cut across two pages (an image on two pages is one split).
    const images = imagesOf(file);
    assert.ok(images.length >= canvases, `${images.length} pictures in the PDF for ${canvases} canvases`);
    // A colour bar or a strip is one row of pixels, and one picture may be
    // printed in several places (every legend's bar is the same image): the
    // figures, which could be cut, are the taller pictures.
    const pagesOfObject = new Map();
    for (const image of images.filter((picture) => picture.height > 1)) pagesOfObject.set(image.object, new Set([...(pagesOfObject.get(image.object) ?? []), image.page]));
    assert.deepEqual([...pagesOfObject].filter(([, on]) => on.size > 1), []);
    // No page ends with a heading: a section's or a part's title stays with what it introduces.
    const headings = new Set(['Embeddings', 'Similar words', 'Dot product', 'Position', 'Watch it learn', 'STORY', 'NUMBERS', 'FORMULA', 'CODE']);
    pages.forEach((pageText, i) => {
      const lines = pageText.split('\n').map((line) => line.trim()).filter(Boolean);
      // The last line is the page's number (@page's margin box).
      const last = lines[lines.length - 1] === String(i + 1) ? lines[lines.length - 2] : lines[lines.length - 1];
      assert.ok(!headings.has(last), `page ${i + 1} ends with the heading “${last}”`);
      assert.equal(lines[lines.length - 1], String(i + 1), `page ${i + 1} has its number`);
    });
    // A list is not split: ·girl's ten closest tokens on one page.
    const list = await page.evaluate(() => [...document.querySelectorAll('#nearest .ew-neighbour-word')].map((word) => word.textContent.replace(/\s+/g, ' ').trim()));
    const holding = (words) => pages.findIndex((pageText) => pageText.replace(/\s+/g, ' ').includes(words));
    assert.ok(holding(list[0]) >= 0 && holding(list[0]) === holding(list[list.length - 1]), `the list ${list[0]} … ${list[list.length - 1]} is on one page`);
    assert.deepEqual(page.problems, []);
  });

  test('Ctrl+P draws every figure, the training slider\'s too, before the browser\'s print dialog opens', async () => {
    const other = await openPage(suite.browser, { width: 1280, height: 900 });
    try {
      await other.goto(`${suite.server.origin}/web/page/`);
      await other.waitForFunction(() => document.documentElement.dataset.page === 'ready');
      await other.evaluate(() => {
        window.printedWith = [];
        addEventListener('beforeprint', () => window.printedWith.push({
          prepared: document.documentElement.dataset.print,
          slider: document.querySelector('#slider').learnMap.shown,
          curve: Boolean(document.querySelector('#slider .ew-curve-plot')),
        }));
      });
      await other.keyboard.press('Control+KeyP');
      assert.match(await other.locator('#print-status').textContent(), /Preparing the chapter for print|Drawing every figure/);
      await other.waitForFunction(() => window.printedWith.length > 0, undefined, { timeout: 120000 });
      const [printed] = await other.evaluate(() => window.printedWith);
      const last = await other.evaluate(() => document.querySelector('#slider').snapshots.length - 1);
      assert.deepEqual(printed, { prepared: 'ready', slider: last, curve: true });
      assert.deepEqual(other.problems, []);
    } finally {
      await other.context().close();
    }
  });

  /** A widget's figure made in the page: { svg } or { png: { width, height, dpi, bytes } } as base64. */
  function figureOf(selector, options) {
    return page.evaluate(async ([sel, opts]) => {
      const made = await document.querySelector(sel).figure(opts);
      if (typeof made === 'string') return { svg: made };
      const bytes = new Uint8Array(await made.arrayBuffer());
      const view = new DataView(bytes.buffer);
      const type = (at) => String.fromCharCode(...bytes.subarray(at, at + 4));
      const dpi = type(37) === 'pHYs' ? view.getUint32(41) * 0.0254 : undefined;
      return { type: made.type, width: view.getUint32(16), height: view.getUint32(20), dpi };
    }, [selector, options]);
  }

  test('each widget\'s figures as SVG: it parses, its numbers are its colours, its labels, caption and model are text', async () => {
    // The page's own widgets (the slider's nested ones have figures too, and no id).
    const names = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-state="ready"][id]')]
      .filter((widget) => widget.figureNames?.length).map((widget) => [widget.id, widget.figureNames])));
    assert.deepEqual(names, {
      table: ['token-table'], 'one-hot': ['one-hot-product'], 'vocabulary-map': ['vocabulary-map'], 'row-dot': ['row-strips', 'running-sum'],
      trace: ['trace-1', 'trace-2'], positions: ['position-map', 'waves-map', 'place-line'], slider: ['training-map', 'loss-curve'],
    });
    const parsed = await page.evaluate(async (all) => {
      const out = {};
      for (const [id, list] of Object.entries(all)) {
        for (const which of list) {
          const svg = await document.getElementById(id).figure({ which });
          const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
          out[which] = {
            error: doc.querySelector('parsererror')?.textContent ?? null,
            title: doc.querySelector('title')?.textContent,
            texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
            fills: [...new Set([...doc.querySelectorAll('[fill]')].map((e) => e.getAttribute('fill')))],
          };
        }
      }
      return out;
    }, names);
    const model = suite.model;
    for (const [which, svg] of Object.entries(parsed)) {
      assert.equal(svg.error, null, `${which}: ${svg.error}`);
      assert.ok(svg.title, which);
      assert.ok(svg.texts.some((text) => text.startsWith('Computed from the model /model/model.safetensors')), `${which} names its model`);
    }
    // The token table: the framed row's numbers are there, each in its colour; its labels are text.
    const hex = (css) => `#${css.match(/\d+/g).map((v) => Number(v).toString(16).padStart(2, '0')).join('')}`;
    const lily = model.tokenId('Lily');
    const limit = await page.evaluate(() => document.querySelector('#table').grid.options.limit);
    const colours = new Set(Array.from(model.wte.row(lily), (v) => hex(colorOf(v, limit))));
    assert.deepEqual([...colours].filter((colour) => !parsed['token-table'].fills.includes(colour)), []);
    assert.ok(parsed['token-table'].texts.includes(`▶ ${lily} Lily`), parsed['token-table'].texts.slice(0, 40).join('|'));
    assert.ok(parsed['token-table'].texts.includes('64'));
    // The map: the picked word and each labelled neighbour are text.
    const labelled = await page.evaluate(() => {
      const map = document.querySelector('#vocabulary-map');
      return map.labelBoxes.map((box) => window.model.tokenText(box.id));
    });
    for (const word of labelled) assert.ok(parsed['vocabulary-map'].texts.includes(word), `the map's label ${word}`);
    // The trace: each token's text; the one-hot product: its rows' names; the curve: its axis.
    const trace = model.trace('One day Lily saw Max.');
    for (const token of trace.tokens) assert.ok(parsed['trace-1'].texts.includes(`${token.text}  ${token.id}`), token.text);
    assert.ok(parsed['one-hot-product'].texts.includes(`${lily} Lily`));
    assert.ok(parsed['loss-curve'].texts.includes('training step (log scale)'));
  });

  test('each figure as PNG at 2× and at 300 dpi for a width in millimetres, with that resolution written in it', async () => {
    const svg = (await figureOf('#table', { format: 'svg' })).svg;
    const [width, height] = [/width="([\d.]+)"/, /height="([\d.]+)"/].map((re) => Number(re.exec(svg)[1]));
    const twice = await figureOf('#table', { format: 'png', scale: 2 });
    // 2 × CSS's 96 px an inch, as pixels a metre (a whole number) say it.
    assert.ok(Math.abs(twice.dpi - 192) < 0.01, `${twice.dpi} dpi`);
    assert.deepEqual({ ...twice, dpi: undefined }, { type: 'image/png', width: Math.round(2 * width), height: Math.round(2 * height), dpi: undefined });
    const print = await figureOf('#table', { format: 'png', dpi: 300, widthMm: 120 });
    const pixels = Math.round((120 / 25.4) * 300);
    assert.equal(print.width, pixels);
    assert.ok(Math.abs(print.dpi - 300) < 0.01, `${print.dpi} dpi`);
    assert.ok(Math.abs(print.width / print.dpi * 25.4 - 120) < 0.1, 'its pixels over its resolution are 120 mm');
    // A wrong request is named, in the API's words.
    const errors = await page.evaluate(async () => {
      const table = document.querySelector('#table');
      const reason = (options) => table.figure(options).then(() => 'no error', (error) => `${error.name}: ${error.message}`);
      return [await reason({ which: 'nope' }), await reason({ format: 'gif' }), await reason({ format: 'png', scale: 0 }), await reason({ format: 'png', dpi: -3 })];
    });
    assert.match(errors[0], /^RangeError: figure: ew-embedding-table has no figure 'nope' now; it has 'token-table'$/);
    assert.match(errors[1], /^RangeError: figure: format must be 'svg' or 'png', got gif$/);
    assert.match(errors[2], /^RangeError: figure: scale must be a number above 0/);
    assert.match(errors[3], /^RangeError: figure: dpi must be a positive number, got -3$/);
  });

  test('a figure\'s PNG is what its canvas shows, pixel for pixel, in paper\'s colours', async () => {
    const differences = await page.evaluate(async () => {
      const figures = [['#table', 'token-table', (w) => w.grid.canvas], ['#positions', 'position-map', (w) => w.grid.canvas],
        ['#positions', 'waves-map', (w) => w.wavesGrid.canvas], ['#vocabulary-map', 'vocabulary-map', (w) => w.canvas],
        ['#row-dot', 'running-sum', (w) => w.chart], ['#slider', 'training-map', (w) => w.learnMap.canvas]];
      const out = {};
      for (const [selector, which, canvasOf] of figures) {
        const widget = document.querySelector(selector);
        const canvas = canvasOf(widget);
        const blob = await widget.figure({ which, format: 'png', scale: window.devicePixelRatio || 1, caption: false });
        const image = await createImageBitmap(blob);
        const pad = 12 * (window.devicePixelRatio || 1);
        // The canvas over white, as the figure has it, against the PNG's drawing at its margin.
        const flat = (source, x, y) => {
          const c = new OffscreenCanvas(canvas.width, canvas.height);
          const g = c.getContext('2d');
          g.fillStyle = '#fff';
          g.fillRect(0, 0, c.width, c.height);
          g.drawImage(source, x, y);
          return g.getImageData(0, 0, c.width, c.height).data;
        };
        const a = flat(canvas, 0, 0), b = flat(image, -pad, -pad);
        let sum = 0, worst = 0;
        for (let i = 0; i < a.length; i++) {
          const d = Math.abs(a[i] - b[i]);
          sum += d;
          worst = Math.max(worst, d);
        }
        out[which] = { mean: sum / a.length, pixels: a.length / 4 };
      }
      return out;
    });
    for (const [which, { mean, pixels }] of Object.entries(differences)) {
      assert.ok(pixels > 1000, `${which}: ${pixels} pixels compared`);
      // The same drawing code on the same pixels: equal but where the screen's ink differs from paper's (none in the light scheme).
      assert.ok(mean < 0.5, `${which} differs from its canvas by ${mean.toFixed(3)} a channel on average`);
    }
  });

  test('the control under a widget saves its figure as a file', async () => {
    const control = page.locator('#row-dot > .ew-figure-save');
    await control.locator('summary').click();
    const [download] = await Promise.all([page.waitForEvent('download'), control.locator('button', { hasText: 'SVG' }).click()]);
    assert.equal(download.suggestedFilename(), 'row-strips.svg');
    const saved = await download.path().then((path) => execFileSync('cat', [path], { encoding: 'utf8' }));
    assert.match(saved, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(await control.locator('.ew-figure-status').textContent(), /^Saved row-strips\.svg \(\d+ KB\)\.$/);
    const [png] = await Promise.all([page.waitForEvent('download'), control.locator('button', { hasText: '300 dpi' }).click()]);
    assert.equal(png.suggestedFilename(), 'row-strips-300dpi.png');
    assert.deepEqual(page.problems, []);
  });

  test('at 1280 px the book\'s value is beside each sentence\'s figure that differs, the masthead counts them, and "above"/"below" hold', async () => {
    const values = await bookValuesBeside(page);
    const differing = values.filter((value) => value.ours !== value.book);
    assert.ok(differing.length > 0);
    for (const value of differing) {
      assert.equal(value.note, ` (the book: ${value.book})`, value.what);
      assert.ok(value.apart <= value.lineHeight + 1, `${value.what}: the book's value is ${value.apart} px from the figure`);
    }
    for (const value of values.filter((v) => v.ours === v.book)) assert.equal(value.note, null, value.what);
    const note = await page.locator('#book-note').textContent();
    const count = [...new Map(values.map((v) => [v.what, v])).values()];
    const same = count.filter((v) => v.ours === v.book).length;
    assert.ok(note.includes(`${same} of the chapter’s ${count.length} figures come out as the book’s`), note);
    if (modelMode === 'default') assert.match(note, /the scores differ by up to 0\.23 \(·Lily and Lily: 0\.53 here, 0\.76 in the book\)/);
    assert.deepEqual((await directionsHold(page)).filter((claim) => !claim.holds), []);
  });
});
