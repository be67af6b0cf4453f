// A page may hold the widgets' custom element definitions back
// (web/widgets/parts/definitions.js), as the chapter page does for every widget
// but its token table: held elements stay unknown elements until
// defineDeferredWidgets(), and a member a page set on one meanwhile reaches
// the class's setter once it is defined.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, startServer } from './helpers/browser.js';

let browser, server, page;

before(async () => {
  [browser, server] = await Promise.all([launch(), startServer()]);
  page = await openPage(browser);
  // A bare page of the server's origin, so that the widget modules load from it and nothing defines them first.
  await page.route('**/blank.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title><body></body>' }));
  await page.goto(`${server.origin}/web/blank.html`);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('held definitions wait for defineDeferredWidgets; the ones excepted are defined at once; a member set meanwhile is kept', async () => {
  const result = await page.evaluate(async () => {
    document.body.innerHTML = '<ew-dot-product id="dot"></ew-dot-product><ew-chapter-code id="code"></ew-chapter-code>';
    const definitions = await import('/web/widgets/parts/definitions.js');
    definitions.deferWidgetDefinitions({ except: ['ew-dot-product'] });
    await import('/web/widgets/dot-product.js');
    await import('/web/widgets/chapter-code.js');
    const code = document.getElementById('code');
    const held = { dot: Boolean(customElements.get('ew-dot-product')), code: Boolean(customElements.get('ew-chapter-code')),
      dotBuilt: document.getElementById('dot').querySelector('table') !== null };
    // What the chapter does while the module loads: the Code part's lines, set before its class exists.
    code.lines = [{ code: 'const answer = 6 * 7;', run: () => 42 }];
    definitions.defineDeferredWidgets();
    definitions.defineDeferredWidgets();  // again: nothing more to do
    return {
      held,
      defined: Boolean(customElements.get('ew-chapter-code')),
      upgraded: code instanceof customElements.get('ew-chapter-code'),
      ownMember: Object.hasOwn(code, 'lines'),
      lines: code.lines.map((line) => line.code),
      shown: code.textContent.includes('const answer = 6 * 7;'),
    };
  });
  assert.deepEqual(result.held, { dot: true, code: false, dotBuilt: true });
  assert.equal(result.defined, true);
  assert.equal(result.upgraded, true);
  assert.equal(result.ownMember, false, 'the early member went to the class\'s setter, not an own property hiding it');
  assert.deepEqual(result.lines, ['const answer = 6 * 7;']);
  assert.equal(result.shown, true, 'the Code part shows the lines set before it was defined');
  assert.deepEqual(page.problems, []);
});

test('after that, a widget module imported again or later defines at once, and a name defined already is left alone', async () => {
  const result = await page.evaluate(async () => {
    const definitions = await import('/web/widgets/parts/definitions.js');
    await import('/web/widgets/position-map.js');
    const first = customElements.get('ew-position-map');
    class Other extends HTMLElement {}
    definitions.defineWidget('ew-position-map', Other);
    return { defined: Boolean(first), kept: customElements.get('ew-position-map') === first };
  });
  assert.deepEqual(result, { defined: true, kept: true });
});

test('an element under its old name, without the ew- prefix, still works for one version and says its new name once', async () => {
  const sameClass = await page.evaluate(async () => {
    await import('/web/widgets/dot-product.js');
    const DotProduct = customElements.get('ew-dot-product');
    document.body.innerHTML = '<dot-product id="old" a="1 2 3" b="4 0 -1"></dot-product><dot-product id="again" a="2" b="3"></dot-product>';
    const fresh = document.createElement('dot-product');
    return [document.getElementById('old'), document.getElementById('again'), fresh].every((element) => element instanceof DotProduct) &&
      customElements.get('dot-product') !== DotProduct;
  });
  assert.equal(sameClass, true, 'each old name is a subclass of its element\'s class, a constructor of its own');
  // Ready once the kernels are, and styled by widgets.css as the new name is.
  await page.waitForFunction(() => ['old', 'again'].every((id) => document.getElementById(id).dataset.state === 'ready') &&
    getComputedStyle(document.getElementById('old')).display === 'block');
  const sums = await page.evaluate(() => ['old', 'again'].map((id) => document.getElementById(id).result?.sum));
  assert.deepEqual(sums, [1, 6]);
  const notes = page.messages.filter((m) => m.text.includes('<dot-product> is now <ew-dot-product>'));
  assert.deepEqual(notes.map((m) => m.type), ['warning'], 'one note, however many elements use the old name');
  assert.deepEqual(page.problems, []);
});

/** A fresh page of the server's origin with no widget module loaded. */
async function blankPage() {
  const fresh = await openPage(browser);
  await fresh.route('**/blank.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title><body></body>' }));
  await fresh.goto(`${server.origin}/web/blank.html`);
  return fresh;
}

const TAGS = ['chapter-code', 'dot-product', 'embedding-table', 'nearest-words', 'one-hot-lookup', 'position-map', 'row-dot-product',
  'trace-table', 'training-slider', 'vocabulary-map', 'word-analogy', 'word-cosine', 'word-pairs'];

/** What importing web/widgets/<module>.js alone defines, in a fresh page: its ew- names and its classes. */
async function definedBy(fresh, module) {
  await fresh.goto(`${server.origin}/web/blank.html`);
  return fresh.evaluate(async ([name, tags]) => {
    const exports = await import(`/web/widgets/${name}.js`);
    const classes = Object.keys(exports).filter((key) => /^[A-Z][a-z]/.test(key)).sort();
    return {
      defines: tags.map((tag) => `ew-${tag}`).filter((tag) => customElements.get(tag)),
      classes,
      // Each class exported is the one an element is defined with: a re-export is the same class, not a copy.
      same: classes.every((key) => tags.some((tag) => customElements.get(`ew-${tag}`) === exports[key])),
    };
  }, [module, TAGS]);
}

test('each element\'s module, named after its tag, defines that element alone; the previous version\'s entries still define what they did', async () => {
  const fresh = await blankPage();
  const seen = {};
  for (const module of [...TAGS, 'row-dot', 'one-hot']) seen[module] = await definedBy(fresh, module);
  const defines = Object.fromEntries(Object.entries(seen).map(([module, { defines }]) => [module, defines]));
  assert.deepEqual(defines, {
    ...Object.fromEntries(TAGS.map((tag) => [tag, [`ew-${tag}`]])),
    // The slider shows the two it nests; the deprecated re-exports define theirs for one version.
    'training-slider': ['ew-nearest-words', 'ew-position-map', 'ew-training-slider', 'ew-word-pairs'],
    'nearest-words': ['ew-nearest-words', 'ew-word-pairs'],
    'word-analogy': ['ew-word-analogy', 'ew-word-cosine'],
    'row-dot': ['ew-row-dot-product'],
    'one-hot': ['ew-one-hot-lookup'],
  });
  assert.deepEqual(Object.entries(seen).filter(([, { same }]) => !same), []);
  assert.deepEqual({ rowDot: seen['row-dot'].classes, oneHot: seen['one-hot'].classes, nearest: seen['nearest-words'].classes, analogy: seen['word-analogy'].classes },
    { rowDot: ['RowDotProduct'], oneHot: ['OneHotLookup'], nearest: ['NearestWords', 'WordPairs'], analogy: ['WordAnalogy', 'WordCosine'] });
  assert.deepEqual(fresh.problems, []);
  await fresh.context().close();
});

test('a <ew-word-pairs> whose <ew-nearest-words> is defined after it makes its words buttons once that one is', async () => {
  const fresh = await blankPage();
  const before = await fresh.evaluate(async () => {
    document.body.innerHTML = '<ew-nearest-words id="nearest"></ew-nearest-words><ew-word-pairs id="pairs" for="nearest" pairs="·girl ·boy"></ew-word-pairs>';
    await import('/web/widgets/word-pairs.js');
    const pairs = document.getElementById('pairs');
    await pairs.updated;
    return { buttons: pairs.querySelectorAll('button').length, words: pairs.querySelectorAll('.ew-token').length };
  });
  assert.deepEqual(before, { buttons: 0, words: 2 });
  await fresh.evaluate(() => import('/web/widgets/nearest-words.js'));
  await fresh.waitForFunction(() => document.getElementById('pairs').querySelectorAll('button.ew-token').length === 2);
  await fresh.locator('#pairs button', { hasText: '·boy' }).click();
  await fresh.waitForFunction(() => document.getElementById('nearest').word === '·boy');
  assert.deepEqual(fresh.problems, []);
  await fresh.context().close();
});
