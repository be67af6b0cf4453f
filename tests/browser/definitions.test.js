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
    document.body.innerHTML = '<dot-product id="dot"></dot-product><chapter-code id="code"></chapter-code>';
    const definitions = await import('/web/widgets/parts/definitions.js');
    definitions.deferWidgetDefinitions({ except: ['dot-product'] });
    await import('/web/widgets/dot-product.js');
    await import('/web/widgets/chapter-code.js');
    const code = document.getElementById('code');
    const held = { dot: Boolean(customElements.get('dot-product')), code: Boolean(customElements.get('chapter-code')),
      dotBuilt: document.getElementById('dot').querySelector('table') !== null };
    // What the chapter does while the module loads: the Code part's lines, set before its class exists.
    code.lines = [{ code: 'const answer = 6 * 7;', run: () => 42 }];
    definitions.defineDeferredWidgets();
    definitions.defineDeferredWidgets();  // again: nothing more to do
    return {
      held,
      defined: Boolean(customElements.get('chapter-code')),
      upgraded: code instanceof customElements.get('chapter-code'),
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
    const first = customElements.get('position-map');
    class Other extends HTMLElement {}
    definitions.defineWidget('position-map', Other);
    return { defined: Boolean(first), kept: customElements.get('position-map') === first };
  });
  assert.deepEqual(result, { defined: true, kept: true });
});
