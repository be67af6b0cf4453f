// <ew-word-analogy> and <ew-word-cosine> on the chapter page: typed words give
// what the Node API computes, the three inputs of an analogy are never in
// its results, and a word that is not one token is named.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rowView, cosine } from '../../web/index.js';
import { openPage, screenshot, chapterSuite, waitForWidgets } from './helpers/browser.js';

const suite = chapterSuite({ before, after });

describe('<ew-word-analogy> and <ew-word-cosine>', () => {
  let page;
  before(async () => {
    page = await openPage(suite.browser, { width: 1100, height: 900 });
    await page.goto(`${suite.server.origin}/web/page/#similar`);
    assert.deepEqual(await waitForWidgets(page, '#analogy, #word-cosine'), []);
  });
  after(() => page.close());

  const expectedAnalogy = (a, b, c) => {
    const { model } = suite;
    const [x, y, z] = [a, b, c].map((w) => rowView(model.wte, model.tokenId(w)));
    return model.nearest(x.map((_, k) => x[k] - y[k] + z[k]), 5, { exclude: [a, b, c] });
  };

  test('·king − ·man + ·woman: the Node API\'s answer, ·queen first, the inputs left out', async () => {
    const answer = await page.evaluate(() => document.querySelector('#analogy').answer);
    assert.deepEqual(answer, expectedAnalogy('·king', '·man', '·woman'));
    assert.equal(answer[0].text, '·queen');
    assert.match(await page.locator('#analogy .ew-summary').textContent(), /·king − ·man \+ ·woman is closest to ·queen/);
    await page.locator('#analogy').scrollIntoViewIfNeeded();
    await screenshot(page, 'word-analogy');
  });

  test('typed words and Enter give a new analogy; the three inputs are never among the results', async () => {
    const inputs = page.locator('#analogy input');
    await inputs.nth(0).fill('ran');
    await inputs.nth(1).fill('run');
    await inputs.nth(2).fill('walk');
    await inputs.nth(2).press('Enter');
    const answer = await page.evaluate(() => document.querySelector('#analogy').answer);
    assert.deepEqual(answer, expectedAnalogy('·ran', '·run', '·walk'));
    const ids = ['·ran', '·run', '·walk'].map((w) => suite.model.tokenId(w));
    for (const n of answer) assert.ok(!ids.includes(n.id));
  });

  test('a word that is not one token is named, and marked invalid', async () => {
    const inputs = page.locator('#analogy input');
    await inputs.nth(0).fill('elephantine');
    await page.locator('#analogy button[type="submit"]').click();
    assert.match(await page.locator('#analogy .ew-summary').textContent(), /not a single token/);
    assert.equal(await inputs.nth(0).getAttribute('aria-invalid'), 'true');
  });

  test('the cosine of any two typed words', async () => {
    const { model } = suite;
    const initial = await page.evaluate(() => document.querySelector('#word-cosine').score);
    assert.equal(initial, cosine(rowView(model.wte, model.tokenId('·girl')), rowView(model.wte, model.tokenId('·boy'))));
    const inputs = page.locator('#word-cosine input');
    await inputs.nth(0).fill('red');
    await inputs.nth(1).fill('blue');
    await inputs.nth(1).press('Enter');
    const score = await page.evaluate(() => document.querySelector('#word-cosine').score);
    assert.equal(score, cosine(rowView(model.wte, model.tokenId('·red')), rowView(model.wte, model.tokenId('·blue'))));
    assert.match(await page.locator('#word-cosine .ew-summary').textContent(), /cos\(·red, ·blue\) = 0\.\d\d/);
    assert.deepEqual(page.problems, []);
  });
});
