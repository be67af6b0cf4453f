// The chapter page in headless Chromium under the server's strict
// Content-Security-Policy: it loads cleanly, every widget answers the mouse
// and the keyboard, and what the page shows (and its console objects) equals
// what the Node API computes from the same model files.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rowView, cosine } from '../../web/index.js';
import { num } from '../../web/widgets/parts/format.js';
import {
  startServer, launch, openPage, waitForWidgets, screenshot, checkModel, nodeModel, nodeSnapshot,
  snapshotIndex, modelMode, checkPng,
} from './helpers/browser.js';

let server, browser, page, model;
// The first text box's text: six tokens with the default model, as the chapter's "6 × 128".
const firstText = 'One day Lily saw Max.';

/** A token's id in the Node model, or undefined. */
function idOf(text) {
  try {
    return model.tokenId(text);
  } catch {
    return undefined;
  }
}

/** Two token ids to compare: the chapter's pair when the model has it. */
function pairIds() {
  const a = idOf('·girl'), b = idOf('·boy');
  return a !== undefined && b !== undefined ? [a, b] : [11, 12];
}

before(async () => {
  checkModel();
  model = await nodeModel();
  server = await startServer();
  browser = await launch();
  page = await openPage(browser);
  await page.goto(`${server.origin}/web/page/`);
});

after(async () => {
  await browser?.close();
  await server?.close();
  model?.dispose();
});

describe(`the chapter page (${modelMode} model)`, () => {
  test('loads under the CSP with no console errors and no violations; every widget gets ready', async (t) => {
    await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
    const failed = await waitForWidgets(page, '#table, #nearest, #pairs, #dot-widget, #positions, #trace');
    assert.deepEqual(failed, []);
    await page.waitForFunction(() => document.documentElement.dataset.formulas === 'ready');

    // Measured, not asserted: when the first widget answered, when all above did, and what travelled.
    const timing = await page.evaluate(() => {
      const marks = performance.getEntriesByType('mark').filter((m) => m.name.startsWith('embeddings:'));
      const ready = marks.filter((m) => m.name.startsWith('embeddings:ready:'));
      return {
        first: Math.min(...ready.map((m) => m.startTime)),
        firstName: ready.sort((a, b) => a.startTime - b.startTime)[0]?.name,
        modelWidgets: Math.max(...ready.filter((m) => !m.name.endsWith('dot-product')).map((m) => m.startTime)),
        figures: marks.find((m) => m.name === 'embeddings:figures')?.startTime,
      };
    });
    const bytes = server.requests.reduce((sum, r) => sum + r.bytes, 0);
    const byKind = {};
    for (const r of server.requests) {
      const kind = r.path.includes('/model/') ? r.path.replace(/^.*\/model\//, 'model/') : r.path.includes('katex') ? 'katex' : r.path.replace(/^.*\./, '.');
      byKind[kind] = (byKind[kind] ?? 0) + r.bytes;
    }
    t.diagnostic(`navigation → first interactive widget (${timing.firstName}): ${timing.first.toFixed(0)} ms`);
    t.diagnostic(`navigation → every model widget interactive: ${timing.modelWidgets.toFixed(0)} ms; figures filled: ${timing.figures?.toFixed(0)} ms`);
    t.diagnostic(`bytes fetched before scrolling: ${bytes.toLocaleString('en-US')} in ${server.requests.length} requests`);
    t.diagnostic(`by kind: ${JSON.stringify(byKind)}`);
    const weights = server.requests.filter((r) => r.path.endsWith('model.safetensors'));
    assert.ok(weights.every((r) => r.status === 206), 'the weights travel as range requests');
    assert.ok(!server.requests.some((r) => r.path.includes('/snapshots/')), 'no snapshot before the slider is in view');
    assert.deepEqual(page.problems, []);
    assert.deepEqual(await page.violations(), []);
  });

  test('every figure of the Numbers parts comes from the loaded model', async () => {
    const figures = await page.evaluate(() => Object.fromEntries(
      [...document.querySelectorAll('[data-fig]')].map((el) => [el.dataset.fig, el.textContent])));
    assert.equal(figures.rows, model.vocabSize.toLocaleString('en-US'));
    assert.equal(figures.width, model.width.toLocaleString('en-US'));
    assert.equal(figures.context, model.context.toLocaleString('en-US'));
    assert.equal(figures.count, (model.vocabSize * model.width).toLocaleString('en-US'));
    assert.equal(figures.params, model.parameterCount.toLocaleString('en-US'));
    const lily = idOf('Lily');
    if (lily !== undefined) {
      assert.equal(figures['lily-id'], String(lily));
      const five = Array.from(rowView(model.wte, lily).subarray(0, 5), (x) => num(x));
      assert.equal(figures['lily-five'], `${five.slice(0, 4).join(', ')} and ${five[4]}`);
    }
    const [a, b] = [idOf('·girl'), idOf('·boy')];
    if (a !== undefined && b !== undefined) assert.equal(figures['pair-girl'], num(cosine(rowView(model.wte, a), rowView(model.wte, b)), 2));
    const map = model.cosineMatrix(model.wpe);
    assert.equal(figures['pos-near'], num(map.at(1, 2), 2));
    if (model.context >= 51) assert.equal(figures['pos-far'], num(map.at(1, 50), 2));
    assert.equal(figures['dot-sum'], '1');
    assert.ok(!Object.values(figures).includes('…'), 'no figure left unfilled');
  });

  test('the console objects work as the Code lines read and equal the Node API', async () => {
    const [a, b] = pairIds();
    const pageCosine = await page.evaluate(([x, y]) => cosine(rowView(model.wte, x), rowView(model.wte, y)), [a, b]);
    assert.equal(pageCosine, cosine(rowView(model.wte, a), rowView(model.wte, b)));
    assert.equal(await page.evaluate(() => dot([1, 2, 3], [4, 0, -1])), 1);
    const lily = idOf('Lily') ?? 5;
    assert.deepEqual(await page.evaluate((id) => Array.from(rowView(model.wte, id)), lily), Array.from(rowView(model.wte, lily)));
    const expected = model.trace(firstText);
    const got = await page.evaluate(() => ({
      text: trace.text,
      tokens: trace.tokens.map((t) => ({ id: t.id, text: t.text })),
      token: Array.from(trace.tokenEmbeddings.data),
      position: Array.from(trace.positionEmbeddings.data),
      sum: Array.from(trace.embeddings.data),
      shape: String(trace.embeddings),
    }));
    assert.equal(got.text, firstText);
    assert.deepEqual(got.tokens, expected.tokens.map((t) => ({ id: t.id, text: t.text })));
    assert.deepEqual(got.token, Array.from(expected.tokenEmbeddings.data));
    assert.deepEqual(got.position, Array.from(expected.positionEmbeddings.data));
    assert.deepEqual(got.sum, Array.from(expected.embeddings.data));
    assert.equal(got.shape, `Matrix ${expected.tokens.length} × ${model.width}`);
    // The default model's tokenizer adds no special token around a text, and the trace says nothing of one.
    assert.deepEqual(model.specialTokensAround, { before: [], after: [] });
    assert.equal(await page.locator('#trace .ew-trace-special').isHidden(), true);
    // `trace` follows the text box.
    await page.locator('#trace textarea').first().fill('Once upon a time');
    await page.waitForFunction(() => trace.text === 'Once upon a time');
    assert.deepEqual(await page.evaluate(() => Array.from(trace.embeddings.data)), Array.from(model.trace('Once upon a time').embeddings.data));
    await page.locator('#trace textarea').first().fill(firstText);
    await page.waitForFunction((text) => trace.text === text, firstText);
  });

  test('Run shows each Code line\'s live result', async () => {
    for (const id of ['code-embeddings', 'code-similar', 'code-position']) {
      await page.locator(`#${id} button.ew-run`).click();
      await page.locator(`#${id} output`).waitFor();
    }
    await page.locator('#code-dot button.ew-run').press('Enter');
    await page.locator('#code-dot output').waitFor();
    assert.match(await page.locator('#code-dot output').textContent(), /< 1$/m);
    const [a, b] = pairIds();
    const jsDot = (x, y) => x.reduce((sum, v, k) => sum + v * y[k], 0);
    const jsCosine = (x, y) => jsDot(x, y) / Math.sqrt(jsDot(x, x) * jsDot(y, y));
    const similar = await page.evaluate(() => document.querySelector('#code-similar').results[2]);
    assert.equal(similar, jsCosine(rowView(model.wte, a), rowView(model.wte, b)));
    // Declarations print the function as its source, exactly as the line reads.
    const output = await page.locator('#code-similar output').textContent();
    assert.ok(output.includes('< dot = (a, b) => a.reduce((sum, x, k) => sum + x * b[k], 0)'), output);
    assert.ok(output.includes('< cosine = (a, b) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b))'), output);
    const lines = await page.locator('#code-similar pre').textContent();
    assert.ok(lines.includes(`rowView(model.wte, ${a})`), lines);
    const embeddings = await page.locator('#code-embeddings output').textContent();
    assert.match(embeddings, new RegExp(`lily = Float32Array\\(${model.width}\\)`));
    const n = model.trace(firstText).tokens.length;
    assert.match(embeddings, new RegExp(`Matrix ${n} × ${model.width}`));
    assert.match(await page.locator('#code-position output').textContent(), new RegExp(`Matrix ${n} × ${model.width}`));
    assert.match(await page.locator('#code-position pre').textContent(), new RegExp(`one row per place, ${n} × ${model.width}`));
  });

  test('token table: search, click and keyboard read the numbers of wte', async () => {
    const girl = idOf('·girl') ?? 42;
    const input = page.locator('#table input[role="combobox"]');
    await input.fill(model.tokenText(girl));
    await input.press('Enter');
    assert.equal(await page.evaluate(() => document.querySelector('#table').grid.highlighted), girl);
    // Click a cell.
    const point = await page.evaluate((r) => document.querySelector('#table').grid.cellPoint(r, 5), girl);
    await page.mouse.click(point.x, point.y);
    const readout = page.locator('#table .ew-grid-readout');
    assert.equal(await readout.textContent(), `${model.tokenText(girl)} (row ${girl}), column 5: ${num(model.wte.at(girl, 5))}`);
    // Keyboard: the table has focus after the click.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    assert.equal(await readout.textContent(), `${model.tokenText(girl + 1)} (row ${girl + 1}), column 6: ${num(model.wte.at(girl + 1, 6))}`);
    await page.keyboard.press('Control+End');
    const last = model.vocabSize - 1;
    assert.match(await readout.textContent(), new RegExp(`\\(row ${last}\\), column ${model.width - 1}: `));
    // The combobox by keyboard: type, arrow to the first match, Enter.
    await input.fill('Lil');
    await input.press('ArrowDown');
    const active = await input.getAttribute('aria-activedescendant');
    assert.ok(active, 'an option is active');
    const chosen = Number(await page.locator(`#${active}`).getAttribute('data-id'));
    await input.press('Enter');
    assert.equal(await page.evaluate(() => document.querySelector('#table').grid.highlighted), chosen);
    assert.equal(await input.getAttribute('aria-expanded'), 'false');
    // A click on a row's label picks that token.
    const label = await page.evaluate((r) => {
      const grid = document.querySelector('#table').grid;
      const point = grid.cellPoint(r, 0);
      return { x: grid.viewport.getBoundingClientRect().left + 10, y: point.y };
    }, chosen + 2);
    await page.mouse.click(label.x, label.y);
    assert.equal(await page.evaluate(() => document.querySelector('#table').grid.highlighted), chosen + 2);
    assert.equal(await input.inputValue(), model.tokenText(chosen + 2));
  });

  test('nearest words: the list equals model.nearest; clicking and typing follow; a word of several tokens is explained', async () => {
    const list = () => page.evaluate(() => [...document.querySelectorAll('#nearest .ew-neighbour')].map((li) => ({
      text: li.querySelector('.ew-token').textContent,
      id: Number(li.querySelector('.ew-muted').textContent),
      score: li.querySelector('.ew-score').textContent,
    })));
    // Rows past the tokenizer's last token (padding) are named by the page.
    const tokens = model.vocabulary().length;
    const expectFor = (id) => model.nearest(id, 10).map((n) => ({
      text: n.id < tokens ? n.text : `(row ${n.id}, no token)`, id: n.id, score: num(n.score, 2),
    }));
    const start = idOf('·girl');
    if (start !== undefined) assert.deepEqual(await list(), expectFor(start));
    // Type a word.
    const boy = idOf('·boy') ?? 77;
    const input = page.locator('#nearest input[role="combobox"]');
    await input.fill(model.tokenText(boy));
    await input.press('Enter');
    assert.deepEqual(await list(), expectFor(boy));
    // Follow a neighbour by keyboard.
    const first = (await list())[0];
    await page.locator('#nearest .ew-neighbour button').first().focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await list(), expectFor(first.id));
    // Not one token: its pieces as it stands inside a sentence.
    await input.fill('girlsxq');
    await input.press('Enter');
    const note = await page.locator('#nearest .ew-note').textContent();
    assert.match(note, /is not a single token in this model: inside a sentence it is \d+ tokens/);
    const pieces = model.tokenize(' girlsxq');
    assert.equal(await page.locator('#nearest .ew-pieces button').count(), pieces.length);
  });

  test('word pairs: live scores with the book\'s figures', async () => {
    const results = await page.evaluate(() => document.querySelector('#pairs').results);
    assert.equal(results.length, 3);
    for (const r of results) {
      if (r.missing.length) {
        assert.equal(r.score, null);
        continue;
      }
      assert.equal(r.score, cosine(rowView(model.wte, model.tokenId(r.a)), rowView(model.wte, model.tokenId(r.b))));
    }
    assert.match(await page.locator('#pairs').textContent(), /the book’s model: 0\.74/);
    // A word of a pair shows its neighbours in the nearest-words widget, by click and by keyboard.
    const words = page.locator('#pairs button.ew-token');
    if (await words.count() >= 2) {
      const [first, second] = [await words.nth(0).textContent(), await words.nth(1).textContent()];
      await words.nth(1).click();
      assert.equal(await page.evaluate(() => document.querySelector('#nearest').tokenId), model.tokenId(second));
      await words.nth(0).focus();
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.querySelector('#nearest').tokenId), model.tokenId(first));
    }
  });

  test('dot product: editing a number by keyboard updates products and sum', async () => {
    const first = page.locator('#dot-widget input').first();
    await first.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    assert.equal(await page.locator('#dot-widget .ew-dot-sum').textContent(), '5');
    assert.deepEqual(await page.evaluate(() => document.querySelector('#dot-widget').result), { products: [8, 0, -3], sum: 5 });
    await page.keyboard.type('x');
    assert.equal(await first.getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('#dot-widget .ew-dot-sentence').textContent(), /is not a number/);
    await page.locator('#dot-widget button', { hasText: 'Add a place' }).press('Enter');
    assert.equal(await page.locator('#dot-widget tbody tr').count(), 4);
    await page.locator('#dot-widget button', { hasText: 'Back to the example' }).click();
    assert.equal(await page.locator('#dot-widget .ew-dot-sum').textContent(), '1');
    assert.match(await page.locator('#dot-widget pre').textContent(), /^dot\(\[1, 2, 3\], \[4, 0, -1\]\); \/\/ 1$/);
  });

  test('position map: places count from 1; click, keyboard and the chapter\'s pairs', async () => {
    const map = model.cosineMatrix(model.wpe);
    const readout = page.locator('#positions .ew-grid-readout').first();  // the learned map's (the waves' is beside it)
    const far = Math.min(51, model.context);
    await page.locator('[data-places="2 51"]').click();
    assert.equal(await readout.textContent(), `Places 2 and ${far} (rows 1 and ${far - 1} of the position table): cosine ${num(map.at(1, far - 1), 2)}`);
    // The button moved focus to the map: arrow keys go on from there.
    await page.keyboard.press('ArrowDown');
    assert.equal(await readout.textContent(), `Places 3 and ${far} (rows 2 and ${far - 1} of the position table): cosine ${num(map.at(2, far - 1), 2)}`);
    const point = await page.evaluate(() => document.querySelector('#positions').grid.cellPoint(9, 19));
    await page.mouse.click(point.x, point.y);
    assert.equal(await readout.textContent(), `Places 10 and 20 (rows 9 and 19 of the position table): cosine ${num(map.at(9, 19), 2)}`);
  });

  test('trace: rows read out by keyboard; too long a text says how many tokens it has', async () => {
    const view = page.locator('#trace .ew-trace').first();
    await view.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const expected = model.trace(firstText);
    // The first key puts the cursor on the first number; the next ones move it.
    const t = expected.tokenEmbeddings.at(0, 1), p = expected.positionEmbeddings.at(0, 1), s = expected.embeddings.at(0, 1);
    assert.equal(await page.locator('#trace .ew-grid-readout').first().textContent(),
      `Place 1, ${expected.tokens[0].text} (id ${expected.tokens[0].id}), column 1: token ${num(t)} + position ${num(p)} = sum ${num(s)}`);
    await page.keyboard.press('ArrowDown');
    assert.match(await page.locator('#trace .ew-grid-readout').first().textContent(), new RegExp(`^Place 2, .*column 1: token`));
    // A click on a strip reads the number under the pointer.
    const strip = page.locator('#trace .ew-trace').first().locator('.ew-strip').nth(2 * 3 + 2);
    const box = await strip.evaluate((canvas) => {
      const r = canvas.getBoundingClientRect();
      return { x: r.left + canvas.clientLeft, y: r.top + canvas.clientTop, width: canvas.clientWidth, height: canvas.clientHeight };
    });
    await page.mouse.click(box.x + box.width * (100.5 / model.width), box.y + box.height / 2);
    assert.match(await page.locator('#trace .ew-grid-readout').first().textContent(), new RegExp(`^Place 3, .*column 100: token`));

    const long = ' Lily'.repeat(model.context + 5);
    const n = model.encode(long).length;
    await page.locator('#trace textarea').first().fill(long);
    const message = page.locator('#trace .ew-warning').first();
    await page.waitForFunction(() => document.querySelector('#trace .ew-warning').textContent !== '');
    const text = await message.textContent();
    assert.ok(text.includes(`${n} tokens long`) && text.includes(`at most ${model.context}`), text);
    assert.match(await page.locator('#trace .ew-count').first().textContent(), new RegExp(`${n - model.context} too many`));
    assert.equal(await page.evaluate(() => trace.tokens.length), model.context);
    await page.locator('#trace textarea').first().fill(firstText);
    await page.waitForFunction(() => document.querySelector('#trace .ew-warning').textContent === '');
  });

  test('trace comparison: same token rows, different sums', async () => {
    // With a space before each name every word is the same token in both texts.
    await page.locator('#trace textarea').nth(0).fill(' Lily saw Max');
    await page.locator('#trace textarea').nth(1).fill(' Max saw Lily');
    await page.waitForFunction(() => document.querySelector('#trace').compareTrace?.text === ' Max saw Lily');
    const rows = await page.evaluate(() => document.querySelector('#trace').comparisonRows);
    const a = model.trace(' Lily saw Max'), b = model.trace(' Max saw Lily');
    const moved = rows.filter((r) => r.a !== r.b);
    assert.ok(rows.every((r) => r.sameToken), JSON.stringify(rows));
    for (const r of rows) {
      assert.deepEqual(Array.from(rowView(a.tokenEmbeddings, r.a)), Array.from(rowView(b.tokenEmbeddings, r.b)));
      assert.equal(r.sameSum, r.a === r.b);
    }
    assert.ok(moved.length >= 2);
    // The chapter's texts: "Lily" at the start is another token than " Lily".
    await page.locator('#trace textarea').nth(0).fill(firstText);
    await page.locator('#trace textarea').nth(1).fill('Max saw Lily in the park');
    await page.waitForFunction(() => document.querySelector('#trace').compareTrace?.text === 'Max saw Lily in the park');
    const text = await page.locator('#trace .ew-compare').textContent();
    assert.match(text, /same token/);
  });

  test('every control has an accessible name; maps are labelled; canvases are not read as images', async () => {
    const unnamed = await page.evaluate(() => {
      const name = (el) => (el.getAttribute('aria-label') || (el.getAttribute('aria-labelledby') ?? '').split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '').join('') || [...(el.labels ?? [])].map((l) => l.textContent).join('') ||
        (el.localName === 'button' ? el.textContent : '')).trim();
      return [...document.querySelectorAll('input, textarea, select, button, meter, progress, [role="application"], [role="combobox"], [tabindex="0"]')]
        .filter((el) => !el.closest('[hidden]') && !name(el))
        .map((el) => el.outerHTML.slice(0, 80));
    });
    assert.deepEqual(unnamed, []);
    const loose = await page.evaluate(() => [...document.querySelectorAll('canvas')]
      .filter((c) => c.getAttribute('aria-hidden') !== 'true' && !c.closest('[aria-hidden="true"], [role="img"]')).length);
    assert.equal(loose, 0);
  });

  test('the token table zooms by keyboard', async () => {
    const viewport = page.locator('#table .ew-grid-viewport');
    await viewport.focus();
    const before = await page.locator('#table .ew-grid-zoom').textContent();
    await page.keyboard.press('+');
    const after = await page.locator('#table .ew-grid-zoom').textContent();
    assert.notEqual(after, before);
    await page.keyboard.press('-');
    assert.equal(await page.locator('#table .ew-grid-zoom').textContent(), before);
  });

  test('glossary terms open by keyboard', async () => {
    const term = page.locator('button.term').first();
    await term.focus();
    await page.keyboard.press('Enter');
    assert.equal(await term.getAttribute('aria-expanded'), 'true');
    assert.ok(await page.locator(`#${await term.getAttribute('aria-controls')}`).isVisible());
  });

  test('training slider: loads snapshots lazily; step 0 shows the random table\'s neighbours', async () => {
    const index = await snapshotIndex();
    await page.locator('#slider').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('#slider').dataset.state !== 'loading');
    assert.equal(await page.locator('#slider').getAttribute('data-state'), 'ready');
    await page.waitForFunction((i) => document.querySelector('#slider').dataset.shown === String(i), index.snapshots.length - 1);
    const last = index.snapshots.length - 1;
    assert.equal(await page.locator('#slider input[type="range"]').inputValue(), String(last));
    const word = await page.evaluate(() => document.querySelector('#slider ew-nearest-words').tokenId);
    const shown = () => page.evaluate(() => [...document.querySelectorAll('#slider .ew-neighbour')].map((li) => Number(li.querySelector('.ew-muted').textContent)));
    const expected = async (i) => {
      const snapshot = await nodeSnapshot(index.snapshots[i].file);
      const ids = snapshot.nearest(word, 10).map((n) => n.id);
      snapshot.dispose();
      return ids;
    };
    assert.deepEqual(await shown(), await expected(last));
    // Keyboard: Home goes to step 0.
    await page.locator('#slider input[type="range"]').focus();
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('#slider').dataset.shown === '0');
    assert.deepEqual(await shown(), await expected(0));
    assert.match(await page.locator('#slider .ew-summary').first().textContent(), /step 0 of/);
    const snapshotRequests = server.requests.filter((r) => r.path.includes('/snapshots/step-'));
    assert.ok(snapshotRequests.length >= 2);
    await page.keyboard.press('End');
    await page.waitForFunction((i) => document.querySelector('#slider').dataset.shown === String(i), last);
    // Play starts again from step 0; Pause stops.
    const play = page.locator('#slider .ew-slider-line > button');
    await play.click();
    assert.equal(await play.getAttribute('aria-pressed'), 'true');
    await page.waitForFunction(() => document.querySelector('#slider').dataset.shown === '0');
    await play.click();
    assert.equal(await play.getAttribute('aria-pressed'), 'false');
    assert.equal(await play.textContent(), 'Play');
    assert.deepEqual(page.problems, []);
    assert.deepEqual(await page.violations(), []);
  });

  test('screenshot at 1280 px: the whole page, its expected size, not blank; one per section', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    // Widgets below still finish in the background (the training slider's
    // status line goes when its maps are laid out), so the page's height is
    // read on both sides of the screenshot, which is taken again until the
    // two agree.
    const pageHeight = () => page.evaluate(() => document.documentElement.scrollHeight);
    let height, path;
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await pageHeight();
      path = await screenshot(page, 'page-1280', { fullPage: true });
      height = await pageHeight();
      if (height === before) break;
    }
    const png = await checkPng(browser, path);
    assert.equal(png.width, 1280);
    assert.ok(Math.abs(png.height - height) <= 2, `${png.height} px tall for a page of ${height} px`);
    assert.ok(png.colours > 50, `only ${png.colours} colours: blank?`);
    for (const id of ['embeddings', 'similar', 'dot', 'position', 'training']) {
      const box = await page.locator(`#${id}`).boundingBox();
      const section = await checkPng(browser, await screenshot(page, `section-${id}-1280`, { locator: page.locator(`#${id}`) }));
      assert.equal(section.width, Math.round(box.width), id);
      assert.ok(section.colours > 20, `${id}: only ${section.colours} colours`);
    }
  });
});

describe('the chapter page at 375 px', () => {
  let narrow;
  before(async () => {
    narrow = await openPage(browser, { width: 375, height: 812 });
    await narrow.goto(`${server.origin}/web/page/`);
    await narrow.waitForFunction(() => document.documentElement.dataset.page === 'ready');
  });
  after(() => narrow?.context().close());

  test('no horizontal scrolling; canvases fit; screenshots', async () => {
    await narrow.locator('#slider').scrollIntoViewIfNeeded();
    const failed = await waitForWidgets(narrow);
    assert.deepEqual(failed, []);
    await narrow.waitForFunction(() => document.documentElement.dataset.formulas === 'ready');
    const widths = await narrow.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      window: window.innerWidth,
      wide: [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && !el.closest('.katex-display, .tex.display, .ew-table-scroll'))
        .map((el) => `${el.localName}.${el.className}`).slice(0, 5),
    }));
    assert.ok(widths.page <= widths.window, `page is ${widths.page} px wide in a ${widths.window} px window: ${widths.wide.join(', ')}`);
    assert.deepEqual(widths.wide, []);
    await narrow.evaluate(() => window.scrollTo(0, 0));
    await screenshot(narrow, 'page-375-top');
    await screenshot(narrow, 'page-375', { fullPage: true });
    await narrow.locator('#table').scrollIntoViewIfNeeded();
    await screenshot(narrow, 'page-375-table');
    await narrow.locator('#trace').scrollIntoViewIfNeeded();
    await screenshot(narrow, 'page-375-trace');
    // Tap a cell of the token table.
    const point = await narrow.evaluate(() => document.querySelector('#table').grid.cellPoint(3, 3));
    await narrow.mouse.click(point.x, point.y);
    assert.match(await narrow.locator('#table .ew-grid-readout').textContent(), /\(row 3\), column 3: /);
    assert.deepEqual(narrow.problems, []);
    assert.deepEqual(await narrow.violations(), []);
  });
});
