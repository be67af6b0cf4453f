// Widgets far from the screen are built later (web/widgets/parts/model-widget.js): when
// they come near, or in idle time. These tests hold the browser's idle
// callbacks back (requestIdleCallback queues them until the test lets them
// go), so "not built yet" is a state the test controls rather than a race:
// far widgets stay unbuilt until scrolled to or until idle time comes, and
// every public member of an unbuilt widget works as it does on a built one.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rowView, cosine } from '../../web/index.js';
import { openPage, waitForWidgets, chapterSuite, screenshot, checkPng } from './helpers/browser.js';

const suite = chapterSuite({ before, after });

/**
 * Runs in the page before its scripts: requestIdleCallback keeps its
 * callbacks in `window.__idle.held` until `window.__idle.release()`, and
 * each widget's ew-ready events are counted by id. With `useEarly`, the
 * far widgets' public members are used as soon as they exist.
 */
function holdIdleTime(useEarly) {
  const original = window.requestIdleCallback.bind(window);
  const held = [];
  let holding = true;
  window.requestIdleCallback = (callback, options) => {
    if (!holding) return original(callback, options);
    held.push([callback, options]);
    return held.length;
  };
  window.__idle = {
    get held() { return held.length; },
    release() {
      window.__builtBeforeIdle = window.__built.length;
      holding = false;
      for (const [callback, options] of held.splice(0)) original(callback, options);
    },
  };
  window.__ready = {};
  // The widgets with an id, in the order they were built.
  window.__built = [];
  new MutationObserver((records) => {
    for (const record of records) if (record.target.id && record.target.hasAttribute('data-built')) window.__built.push(record.target);
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-built'] });
  document.addEventListener('ew-ready', (event) => {
    const id = event.target.id || event.target.localName;
    window.__ready[id] = (window.__ready[id] ?? 0) + 1;
  });
  // The first moment the widgets' API exists and the whole document is
  // parsed: each widget's `built`, then every public member of the far ones
  // used, as a page's script would right after DOMContentLoaded.
  const names = ['ew-embedding-table', 'ew-nearest-words', 'ew-word-pairs', 'ew-position-map', 'ew-trace-table', 'ew-training-slider',
    'ew-vocabulary-map', 'ew-word-analogy', 'ew-word-cosine'];
  const parsed = new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  window.__early = Promise.all([parsed, ...names.map((name) => customElements.whenDefined(name))]).then(() => {
    if (!useEarly) return undefined;
    const $ = (selector) => document.querySelector(selector);
    const widgets = [...document.querySelectorAll(names.join(', '))].filter((w) => w.id);
    const early = { built: Object.fromEntries(widgets.map((w) => [w.id, w.built])) };
    // Far: below 1.5 screens (the widgets' margin is half a screen); measured by the test, after the flags were read.
    early.far = widgets.filter((w) => w.getBoundingClientRect().top > 1.6 * innerHeight).map((w) => w.id);
    early.states = Object.fromEntries(widgets.map((w) => [w.id, w.dataset.state]));
    early.status = $('#slider').querySelector('.ew-status')?.textContent;

    // Reads that need no part leave the widget unbuilt.
    early.reads = {
      nearest: { word: $('#nearest').word, k: $('#nearest').k, tokenId: $('#nearest').tokenId, model: $('#nearest').model },
      pairs: $('#pairs').pairs,
      table: $('#table').token,
      mapTarget: $('#vocabulary-map').target?.id,
      sliderKeep: $('#slider').keep,
      files: String($('#positions').files.weights),
      updated: $('#positions').updated instanceof Promise,
    };
    $('#pairs').setAttribute('pairs', '·cat ·dog; ·red ·blue 0.5');
    $('#nearest').word = '·boy';
    early.compare = $('#positions').compare(2, 51);
    $('#word-cosine').model = new Promise((resolve) => { window.__handModel = resolve; });
    early.stillUnbuilt = ['#pairs', '#nearest', '#positions', '#word-cosine'].filter((s) => !$(s).built);

    // Members that read parts build the widget on demand.
    early.traceText = [$('#trace').text, $('#trace').compareText];
    $('#trace').text = 'Max saw Lily';
    early.sliderWord = $('#slider').word;
    $('#vocabulary-map').setMethod('pca');
    early.builtOnDemand = ['#trace', '#slider', '#vocabulary-map'].filter((s) => $(s).built);
    early.dataBuilt = $('#trace').hasAttribute('data-built');
    return early;
  });
}

for (const profile of [{ name: '1280 px', width: 1280, height: 900 }, { name: '375 px touch', width: 375, height: 812, touch: true }]) {
  describe(`far widgets are built later (${profile.name})`, () => {
    let page, early;

    before(async () => {
      page = await openPage(suite.browser, profile);
      await page.context().addInitScript(holdIdleTime, true);
      await page.goto(`${suite.server.origin}/web/page/`);
      early = await page.evaluate(() => window.__early);
    });

    after(async () => {
      await page?.context().close();
    });

    test('at first the far widgets are not built: only their status line is there', () => {
      for (const id of ['nearest', 'vocabulary-map', 'word-cosine', 'pairs', 'positions', 'trace', 'slider']) assert.ok(early.far.includes(id), `#${id} is far from the first screen`);
      for (const id of early.far) assert.equal(early.built[id], false, `#${id} is not built at first`);
      for (const id of early.far) assert.equal(early.states[id], 'loading');
      assert.match(early.status, /Loading the model/);
    });

    test('every public member of an unbuilt widget works; those reading parts build it on demand', () => {
      assert.deepEqual(early.reads, {
        nearest: { word: '·girl', k: 10, tokenId: undefined, model: undefined },
        pairs: [{ a: '·girl', b: '·boy', book: 0.74 }, { a: '·three', b: '·3', book: 0.88 }, { a: '·Lily', b: 'Lily', book: 0.76 }],
        table: 'Lily',
        mapTarget: 'nearest',
        sliderKeep: 4,
        files: `${suite.server.origin}/model/model.safetensors`,
        updated: true,
      });
      assert.equal(early.compare, undefined);
      assert.deepEqual(early.stillUnbuilt, ['#pairs', '#nearest', '#positions', '#word-cosine'],
        'attributes, the model and reads that need no part leave a far widget unbuilt');
      assert.deepEqual(early.traceText, ['One day Lily saw Max.', 'One day Max saw Lily.']);
      assert.equal(early.sliderWord, '·girl');
      assert.deepEqual(early.builtOnDemand, ['#trace', '#slider', '#vocabulary-map']);
      assert.equal(early.dataBuilt, true);
    });

    test('near widgets build without idle time; far ones wait, model loaded or not', async () => {
      await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
      assert.deepEqual(await waitForWidgets(page, '#table'), []);
      const state = await page.evaluate(() => ({
        held: window.__idle.held,
        table: document.querySelector('#table').built,
        pairs: [document.querySelector('#pairs').built, document.querySelector('#pairs').dataset.state],
        positions: document.querySelector('#positions').built,
      }));
      assert.ok(state.held > 0, 'idle callbacks are waiting');
      assert.equal(state.table, true);
      assert.deepEqual(state.pairs, [false, 'loading']);
      assert.equal(state.positions, false);
      // The page as a reader who scrolls at once sees it: the far widgets' status lines in boxes of about their parts' height.
      const shot = await checkPng(suite.browser, await screenshot(page, `unbuilt-${profile.width}`, { fullPage: true }));
      assert.equal(shot.width, profile.width);
    });

    test('a far widget scrolled to builds and shows; compare() then works', async () => {
      await page.evaluate(() => document.querySelector('#positions').scrollIntoView({ block: 'center' }));
      assert.deepEqual(await waitForWidgets(page, '#positions'), []);
      const selected = await page.evaluate(() => {
        const map = document.querySelector('#positions');
        map.compare(2, 51);
        return { built: map.built, selected: map.selected, pairs: document.querySelector('#pairs').built, held: window.__idle.held > 0 };
      });
      assert.deepEqual(selected, { built: true, selected: { r: 1, c: 50 }, pairs: false, held: true });
      await page.evaluate(() => scrollTo(0, 0));
    });

    test('widgets made by script: built on demand before they are connected, or later when far', async () => {
      await page.evaluate(() => {
        const nearest = document.createElement('ew-nearest-words');
        nearest.id = 'made-nearest';
        nearest.setAttribute('word', '·cat');
        nearest.model = window.model;
        window.__madeWord = nearest.word;
        const trace = document.createElement('ew-trace-table');
        trace.id = 'made-trace';
        trace.setAttribute('external-model', '');
        trace.text = 'Lily ran home';
        window.__madeTraceBuilt = trace.built;
        document.body.append(nearest, trace);
        trace.model = window.model;
      });
      await page.waitForFunction(() => document.querySelector('#made-nearest').dataset.state === 'loading');
      const made = await page.evaluate(() => ({ word: window.__madeWord, traceBuilt: window.__madeTraceBuilt, nearestBuilt: document.querySelector('#made-nearest').built }));
      assert.deepEqual(made, { word: '·cat', traceBuilt: true, nearestBuilt: false });
    });

    test('a far widget built before it shows its model takes no typing in its token box until it does', async () => {
      const held = await page.evaluate(() => {
        const nearest = document.querySelector('#nearest');
        nearest.ensureBuilt();
        const box = nearest.querySelector('input[role="combobox"]');
        return { state: nearest.dataset.state, readOnly: box.readOnly };
      });
      // (A word typed there was lost: the widget's first show picked its own.)
      assert.deepEqual(held, { state: 'loading', readOnly: true });
    });

    test('a model in before the browser says what is near: a near widget shows in the same turn, a far one waits', async () => {
      const result = await page.evaluate(async () => {
        let frames = 0;
        requestAnimationFrame(() => { frames += 1; });
        const near = document.createElement('ew-word-cosine');
        near.id = 'made-near';
        near.model = window.model;
        const far = document.createElement('ew-word-pairs');
        far.id = 'made-far';
        far.model = window.model;
        document.body.prepend(near);
        document.body.append(far);
        await near.updated;
        return { frames, near: [near.built, near.dataset.state], far: [far.built, far.dataset.state] };
      });
      assert.deepEqual(result, { frames: 0, near: [true, 'ready'], far: [false, 'loading'] });
    });

    test('in idle time every widget builds and shows what was asked of it before', async () => {
      await page.evaluate(() => { window.__handModel(window.model); window.__idle.release(); });
      const all = '#table, #nearest, #vocabulary-map, #analogy, #word-cosine, #pairs, #dot-widget, #trace, #positions, #made-nearest, #made-trace, #made-far';
      assert.deepEqual(await waitForWidgets(page, all), []);
      await page.waitForFunction(() => document.querySelector('#vocabulary-map').dataset.method === 'pca');
      const shown = await page.evaluate(() => {
        const $ = (selector) => document.querySelector(selector);
        return {
          unbuilt: [...document.querySelectorAll('.ew')].filter((w) => 'built' in w && !w.built).map((w) => w.id || w.localName),
          trace: $('#trace').trace.tokens.map((t) => t.id),
          consoleTrace: window.trace === $('#trace').trace,
          nearest: $('#nearest').tokenId,
          pairs: $('#pairs').results.map((r) => [r.a, r.b, r.score]),
          cosine: [$('#word-cosine').model === window.model, $('#word-cosine').score],
          madeNearest: $('#made-nearest').tokenId,
          nearestBoxTakesTyping: !$('#nearest input[role="combobox"]').readOnly,
          madeTrace: $('#made-trace').trace.tokens.map((t) => t.id),
          ready: window.__ready,
          // Built in idle time: in the document's order, whatever order the browser answered in.
          idleOrder: window.__built.slice(window.__builtBeforeIdle).map((w) => w.id),
          documentOrder: window.__built.slice(window.__builtBeforeIdle)
            .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1)).map((w) => w.id),
        };
      });
      assert.deepEqual(shown.unbuilt, []);
      assert.ok(shown.idleOrder.length >= 4, `built in idle time: ${shown.idleOrder.join(', ')}`);
      assert.deepEqual(shown.idleOrder, shown.documentOrder);
      assert.deepEqual(shown.trace, suite.model.trace('Max saw Lily').tokens.map((t) => t.id));
      assert.equal(shown.consoleTrace, true);
      assert.equal(shown.nearest, suite.model.tokenId('·boy'));
      const score = (a, b) => cosine(rowView(suite.model.wte, suite.model.tokenId(a)), rowView(suite.model.wte, suite.model.tokenId(b)));
      assert.deepEqual(shown.pairs.map(([a, b]) => [a, b]), [['·cat', '·dog'], ['·red', '·blue']]);
      assert.ok(Math.abs(shown.pairs[0][2] - score('·cat', '·dog')) < 1e-6);
      assert.equal(shown.cosine[0], true);
      assert.ok(Math.abs(shown.cosine[1] - score('·girl', '·boy')) < 1e-6);
      assert.equal(shown.madeNearest, suite.model.tokenId('·cat'));
      assert.equal(shown.nearestBoxTakesTyping, true);
      assert.deepEqual(shown.madeTrace, suite.model.trace('Lily ran home').tokens.map((t) => t.id));
      for (const id of ['table', 'nearest', 'vocabulary-map', 'analogy', 'word-cosine', 'pairs', 'trace', 'positions', 'made-nearest', 'made-trace']) {
        assert.equal(shown.ready[id], 1, `#${id} said ew-ready once`);
      }
      assert.deepEqual(page.problems, []);
      assert.deepEqual(await page.violations(), []);
    });
  });
}

describe('the keyboard meets far widgets in their place', () => {
  test('Tab from the last stop before an unbuilt widget goes into it, as into a built one', async () => {
    const page = await openPage(suite.browser);
    try {
      await page.context().addInitScript(holdIdleTime, false);
      await page.goto(`${suite.server.origin}/web/page/`);
      await page.evaluate(() => window.__early);
      await page.waitForFunction(() => document.querySelector('#table').built);
      const before = await page.evaluate(() => {
        const target = document.querySelector('#trace');
        const stops = () => [...document.querySelectorAll('a[href], button, input, textarea, select, [tabindex]')]
          .filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0);
        const follows = (a, b) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
        const last = stops().filter((e) => follows(e, target) && !target.contains(e)).pop();
        // No other widget waiting to be built between that stop and the trace, so the next stop is the trace's first.
        const between = [...document.querySelectorAll('.ew')]
          .filter((w) => 'built' in w && !w.built && w !== target && follows(last, w) && follows(w, target));
        last.focus();
        window.__firstStopOfTrace = () => stops().find((e) => target.contains(e));
        return { traceBuilt: target.built, between: between.map((w) => w.id), held: window.__idle.held > 0 };
      });
      assert.deepEqual(before, { traceBuilt: false, between: [], held: true });
      await page.keyboard.press('Tab');
      const after = await page.evaluate(() => {
        const target = document.querySelector('#trace');
        const first = window.__firstStopOfTrace();
        return { traceBuilt: target.built, inside: target.contains(document.activeElement), first: document.activeElement === first, box: document.activeElement === target.boxA.input };
      });
      assert.deepEqual(after, { traceBuilt: true, inside: true, first: true, box: true });
      assert.deepEqual(page.problems, []);
    } finally {
      await page.context().close();
    }
  });
});
