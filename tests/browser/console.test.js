// The console explains itself to a newcomer typing the chapter's code: one
// console.info on load names the page's globals (and, where this model's ids
// differ from the book's, both), help() lists the API with an example each,
// and DevTools previews a Matrix, a Trace and a Model by their shape, name
// and numbers (the DevTools protocol's Runtime.evaluate with a preview).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, chapterSuite } from './helpers/browser.js';

const suite = chapterSuite({ before, after });
let page, cdp, model;

function idOf(text) {
  try {
    return model.tokenId(text);
  } catch {
    return undefined;
  }
}

describe('the console explains itself', () => {
  before(async () => {
    model = suite.model;
    page = await openPage(suite.browser, { width: 1280, height: 900 });
    cdp = await page.context().newCDPSession(page);
    await page.goto(`${suite.server.origin}/web/page/`);
    // The banner is written once the page is ready, before the formulas are typeset.
    await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
    await page.waitForFunction(() => document.documentElement.dataset.formulas === 'ready');
    await page.waitForFunction(() => window.trace !== undefined);
  });

  after(() => page?.context().close());

  test('one console.info on load names the globals; this model\'s ids and the book\'s only where they differ', async () => {
    const infos = page.messages.filter((m) => m.type === 'info');
    assert.equal(infos.length, 1, infos.map((m) => m.text).join('\n---\n'));
    const text = infos[0].text;
    for (const name of ['model', 'trace', 'rowView', 'dot', 'cosine', 'help()']) assert.ok(text.includes(name), name);
    if (idOf('Lily') === 665 && idOf('·girl') === 477 && idOf('·boy') === 497) {
      // The default model has the chapter's ids: its lines work as written, no warning.
      assert.match(text, /The chapter’s lines work as written: rowView\(model\.wte, 665\) is “Lily”/);
      assert.doesNotMatch(text, /belong to the book’s model/);
      return;
    }
    for (const token of ['Lily', '·Lily', '·girl', '·boy', '·three', '·3']) {
      const id = idOf(token);
      assert.ok(text.includes(`${token} ${id ?? '(not one token here)'}`), `${token} ${id}: ${text}`);
    }
    assert.match(text, /book’s ids .* belong to the book’s model/);
  });

  test('help() lists the API with an example each', async () => {
    const count = page.messages.length;
    await page.evaluate(() => help());
    const text = page.messages.slice(count).map((m) => m.text).join('\n');
    for (const name of ['model.tokenId', 'model.tokenText', 'model.tokenize', 'model.vocabulary', 'rowView', 'dot(', 'cosine(',
      'model.nearest', 'model.trace', 'trace', 'model.cosineMatrix', '.at(', '.row(']) assert.ok(text.includes(name), name);
    const girl = idOf('·girl');
    if (girl !== undefined) assert.ok(text.includes(`model.tokenId('·girl')  // ${girl}`));
  });

  test('DevTools previews a Matrix, a Trace and a Model by shape, name and numbers, with no undefined field', async () => {
    const preview = async (expression) => (await cdp.send('Runtime.evaluate', { expression, generatePreview: true })).result.preview;
    for (const expression of ['model.wte', 'model', 'trace', 'trace.embeddings', 'model.cosineMatrix(model.wpe)']) {
      const { properties } = await preview(expression);
      assert.deepEqual(properties.filter((p) => p.type === 'undefined' || p.name.startsWith('#')).map((p) => p.name), [], expression);
    }
    const fields = (properties) => Object.fromEntries(properties.map((p) => [p.name, p.value]));
    const wte = fields((await preview('model.wte')).properties);
    assert.equal(wte.rows, String(model.vocabSize));
    assert.equal(wte.cols, String(model.width));
    assert.equal(wte.name, 'wte');
    const first = Array.from(model.wte.data.subarray(0, 4), (x) => String(Number(x.toPrecision(3))));
    assert.ok(wte.preview.includes(first.join(', ')), wte.preview);
    const whole = fields((await preview('model')).properties);
    assert.match(whole.preview, new RegExp(`^${model.vocabSize} tokens × ${model.width} numbers, ${model.context} positions`));
    const trace = await preview('trace');
    assert.equal(trace.description, 'Trace');
    assert.equal(fields(trace.properties).text, 'One day Lily saw Max.');
    assert.equal(fields(trace.properties).tokens, `Array(${model.trace('One day Lily saw Max.').tokens.length})`);
  });
});
