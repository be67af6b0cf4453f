// How the chapter page loads: one bundled script (web/dist/page.js) in place
// of the sources' module graph, every file it asks for found, and the
// widgets' stylesheet linked once from where the page links it. The figures
// themselves are checked against the Node API by page.test.js, which loads
// the same page and so the same bundle.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, openPage, waitForWidgets, checkModel } from './helpers/browser.js';

let server, browser, page;

before(async () => {
  checkModel();
  server = await startServer();
  browser = await launch();
  page = await openPage(browser);
  await page.goto(`${server.origin}/web/page/`);
  await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
  assert.deepEqual(await waitForWidgets(page, '#table, #nearest, #pairs, #dot-widget, #positions, #trace'), []);
  await page.waitForFunction(() => document.documentElement.dataset.formulas === 'ready');
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('the page runs from the bundle: no source module is fetched, and nothing is missing', async () => {
  const paths = server.requests.map((r) => r.path);
  const scripts = paths.filter((p) => p.endsWith('.js'));
  assert.ok(scripts.includes('/web/dist/page.js'), `the bundle is fetched (scripts: ${scripts.join(', ')})`);
  // The Code parts' definitions travel as written, beside the bundle; nothing else of the sources does.
  assert.deepEqual(scripts.filter((p) => /^\/web\/(src|widgets|page)\/|^\/web\/index\.js$|^\/web\/dist\/embeddings\.js$/.test(p)),
    ['/web/page/code-parts.js'], 'no other module of the sources travels on its own');
  assert.deepEqual(server.requests.filter((r) => r.status >= 400).map((r) => `${r.status} ${r.path}`), []);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await page.violations(), []);
});

test('the widgets\' stylesheet is linked once, from web/widgets/, and the formulas found KaTeX\'s', async () => {
  const sheets = await page.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => new URL(l.href).pathname));
  assert.equal(sheets.filter((p) => p.endsWith('/widgets.css')).length, 1);
  assert.ok(sheets.includes('/web/widgets/widgets.css'));
  assert.ok(sheets.includes('/node_modules/katex/dist/katex.min.css'));
});

test('the formulas come typeset from the build: every one in place as KaTeX renders it, and KaTeX\'s script never travels', async () => {
  const paths = server.requests.map((r) => r.path);
  assert.ok(paths.includes('/web/dist/formulas.js'));
  assert.deepEqual(paths.filter((p) => p.includes('/katex/') && p.endsWith('.js')), [], 'no KaTeX script is fetched');
  const formulas = await page.evaluate(() => [...document.querySelectorAll('.tex[data-tex]')].map((element) => ({
    tex: element.dataset.tex, display: element.classList.contains('display'), typeset: element.classList.contains('typeset'),
    katex: element.querySelectorAll(':scope > .katex, :scope > .katex-display > .katex').length,
    // Its styles set through the CSSOM, as katex.render() sets them: none left in data-style.
    styled: element.querySelectorAll('[style]').length, left: element.querySelectorAll('[data-style]').length,
  })));
  assert.ok(formulas.length >= 10);
  const { default: katex } = await import('katex');
  for (const formula of formulas) {
    assert.ok(formula.typeset && formula.katex === 1, `${formula.tex} is typeset`);
    assert.equal(formula.left, 0);
    const styles = katex.renderToString(formula.tex, { displayMode: formula.display, output: 'htmlAndMathml' }).match(/ style="/g)?.length ?? 0;
    assert.equal(formula.styled, styles, `${formula.tex}: each of KaTeX's styles is set`);
  }
});

test('KaTeX\'s fonts that the formulas use are loaded ahead of them, and they are all it uses', async () => {
  await page.waitForFunction(() => document.documentElement.dataset.parts === 'laid-out');
  const { loaded, marks } = await page.evaluate(async () => {
    await document.fonts.ready;
    return {
      loaded: [...document.fonts].filter((face) => face.family.startsWith('KaTeX_') && face.status === 'loaded')
        .map((face) => `${face.family} ${face.style} ${face.weight}`).sort(),
      marks: Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])),
    };
  });
  const { FORMULA_FONTS } = await import('../../web/page/formulas.js');
  // A formula that needs another face makes the browser load it late, and lay the whole page out again.
  assert.deepEqual(loaded, FORMULA_FONTS.map(({ family, style, weight }) => `${family} ${style} ${weight}`).sort(),
    'web/page/formulas.js lists the faces the formulas use');
  assert.ok(marks['embeddings:formula-fonts'] > marks['embeddings:model-requested'], 'the fonts are loaded once the model is in');
});

test('the model is asked for once, before the widgets are up, and every widget shares that load', async () => {
  const count = (path) => server.requests.filter((r) => r.path === path).length;
  // The size and header in one range request, then the two tables: one load, not one per widget.
  assert.equal(count('/model/model.safetensors'), 3);
  assert.equal(count('/model/config.json'), 1);
  assert.equal(count('/model/tokenizer.json'), 1);
  // The first script compiles it; the preload, the compile and the runtime share one request.
  assert.equal(count('/web/dist/embeddings.wasm'), 1);
  const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])));
  assert.ok(marks['embeddings:model-requested'] < marks['embeddings:ready:ew-dot-product'],
    'web/page/start.js asks for the model before the first widget (the dot product, which needs no model) is up');
  assert.ok(marks['embeddings:ready:ew-embedding-table'] <= marks['embeddings:ready:ew-dot-product'],
    'the other widgets are defined once the token table has shown its model (web/widgets/parts/definitions.js)');
  assert.equal(await page.evaluate(() => document.querySelector('#table').model === window.model), true);
});

test('the first model\'s load marks its steps, in order, for the Performance panel and tools/bench/page.mjs', async () => {
  const names = ['model-requested', 'load:instance-tables', 'load:header-read', 'load:tables-copied',
    'load:instance-tokenizer', 'load:tokenizer-loaded', 'showing:ew-embedding-table', 'ready:ew-embedding-table'];
  const at = Object.fromEntries(await page.evaluate((list) => list.map((name) =>
    [name, performance.getEntriesByName(`embeddings:${name}`, 'mark')[0]?.startTime]), names));
  for (const name of names) assert.ok(Number.isFinite(at[name]), `the page marks embeddings:${name}`);
  // The tables and the tokenizer load side by side; each in its own order, and both before the table shows.
  const inOrder = (...chain) => chain.slice(1).forEach((name, i) =>
    assert.ok(at[chain[i]] <= at[name], `embeddings:${chain[i]} (${at[chain[i]]}) comes before embeddings:${name} (${at[name]})`));
  inOrder('model-requested', 'load:instance-tables', 'load:header-read', 'load:tables-copied', 'showing:ew-embedding-table', 'ready:ew-embedding-table');
  inOrder('model-requested', 'load:instance-tokenizer', 'load:tokenizer-loaded', 'showing:ew-embedding-table');
  const kernels = await page.evaluate(() => performance.getEntriesByName('embeddings:load:instance-kernels', 'mark').length);
  assert.equal(kernels, 1, 'the kernels\' instance is started once');
});

// ---- The second WebAssembly module (docs/tokenizer.md) ----
// The page with its own model never fetches embeddings-full.*; a tokenizer.json
// with a Split pre-tokenizer, loaded through the package in the same page,
// fetches it over HTTP and gives the ids of the page's own tokenizer when its
// Split is GPT-2's pattern. (After the tests above, which count the page's requests.)

const fullModuleRequests = () => server.requests.filter((r) => /\/embeddings-full\.(js|wasm)$/.test(r.path));

test('the page with its own model does not fetch embeddings-full', () => {
  assert.deepEqual(fullModuleRequests(), []);
});

test('a Split tokenizer.json loads through embeddings-full.wasm and agrees with the page\'s tokenizer', async () => {
  const result = await page.evaluate(async () => {
    const { loadModel } = await import('/web/index.js');
    const json = await (await fetch('/model/tokenizer.json')).json();
    if (json.pre_tokenizer.type !== 'ByteLevel') return { skipped: `the page's model has a ${json.pre_tokenizer.type} pre-tokenizer` };
    json.pre_tokenizer = {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+" }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: json.pre_tokenizer.add_prefix_space, trim_offsets: true, use_regex: false },
      ],
    };
    const split = await loadModel({ weights: '/model/model.safetensors', config: '/model/config.json', tokenizer: new TextEncoder().encode(JSON.stringify(json)) });
    const texts = ['Once upon a time, there was a girl named Lily.', "She said: \"I'M HERE!\"\n\n  Then 12345 cats ran.", 'naïve café 😀 日本語'];
    return { ours: texts.map((t) => split.encode(t)), page: texts.map((t) => window.model.encode(t)) };
  });
  assert.equal(result.skipped, undefined, result.skipped);
  assert.deepEqual(result.ours, result.page);
  const fetched = fullModuleRequests();
  assert.deepEqual(fetched.map((r) => `${r.status} ${r.path}`).sort(), ['200 /web/dist/embeddings-full.js', '200 /web/dist/embeddings-full.wasm']);
  assert.deepEqual(page.problems, []);
});

/** Holds back the answers to `page`'s requests matching `pattern`; resolves with the function that lets them go. */
async function holdBack(page, pattern) {
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  await page.route(pattern, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

// ---- The first script (web/page/first-requests.js) ----------------------------

test('the first script alone asks for the weights\' first bytes and both tables, before the bundle has arrived; the bundle takes them over', async () => {
  const held = await openPage(browser);
  const weightRequests = () => server.requests.filter((r) => r.path === '/model/model.safetensors').length;
  const earlier = weightRequests();
  let askedWithoutTheBundle;
  await held.route('**/web/dist/page.js', async (route) => {
    // The bundle is held back until the weights' three requests have been
    // answered (or, if they never come, for ten seconds: the check below then fails).
    for (let i = 0; i < 200 && weightRequests() - earlier < 3; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    askedWithoutTheBundle = weightRequests() - earlier;
    await route.continue();
  });
  try {
    await held.goto(`${server.origin}/web/page/`);
    await held.waitForFunction(() => document.documentElement.dataset.page === 'ready');
    assert.equal(askedWithoutTheBundle, 3, 'the size and header, then the two tables, asked for before the bundle ran');
    assert.equal(weightRequests() - earlier, 3, 'the bundle\'s load took those requests over and asked for nothing again');
    assert.deepEqual(await waitForWidgets(held, '#table, #nearest, #trace'), []);
    assert.deepEqual(held.problems, []);
    assert.deepEqual(await held.violations(), []);
  } finally {
    await held.context().close();
  }
});

test('for the shipped model the first script asks for both tables beside the first bytes, without waiting for them', async () => {
  const held = await openPage(browser);
  const ranges = [];
  let tablesBeforeFirstBytes;
  await held.route('**/model/model.safetensors', async (route) => {
    const range = route.request().headers().range;
    ranges.push(range);
    if (range === 'bytes=0-16383') {
      // The first bytes are answered once the two tables have been asked for
      // (or after ten seconds, when the check below fails).
      for (let i = 0; i < 200 && ranges.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      tablesBeforeFirstBytes = ranges.filter((r) => r !== range);
    }
    await route.continue();
  });
  try {
    await held.goto(`${server.origin}/web/page/`);
    await held.waitForFunction(() => document.documentElement.dataset.page === 'ready');
    assert.equal(tablesBeforeFirstBytes.length, 2, `the tables' ranges asked for before the first bytes came back: ${tablesBeforeFirstBytes}`);
    assert.equal(ranges.length, 3, `each range once: ${ranges.join(', ')}`);
    assert.deepEqual(await waitForWidgets(held, '#table'), []);
    assert.deepEqual(held.problems, []);
  } finally {
    await held.context().close();
  }
});

test('the first script reads the tables\' and tokenizer.json\'s bytes in its Worker: while its file is held back, the first view waits; then it shows', async () => {
  const held = await openPage(browser);
  const release = await holdBack(held, '**/web/dist/blob-worker.js');
  try {
    await held.goto(`${server.origin}/web/page/`);
    // The bundle has run and every byte has arrived; without the Worker the
    // loader has no bytes of the tables or the tokenizer, so the table waits.
    await held.waitForFunction(() => performance.getEntriesByName('embeddings:load:header-read').length > 0);
    await held.waitForTimeout(1500);
    assert.equal(await held.evaluate(() => performance.getEntriesByName('embeddings:load:tables-copied').length), 0,
      'the tables were copied in before their Worker had started');
    assert.notEqual(await held.locator('#table').getAttribute('data-state'), 'ready');
    release();
    await held.waitForFunction(() => document.documentElement.dataset.page === 'ready');
    assert.ok(held.workers().some((worker) => worker.url().endsWith('/web/dist/blob-worker.js')), 'the Worker runs');
    assert.deepEqual(await waitForWidgets(held, '#table, #nearest, #trace'), []);
    assert.deepEqual(held.problems, []);
    assert.deepEqual(await held.violations(), []);
  } finally {
    release();
    await held.context().close();
  }
});

test('where the Worker cannot start (its file missing), the page reads the bytes itself: the same model, each range asked for once', async () => {
  const held = await openPage(browser);
  await held.route('**/web/dist/blob-worker.js', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'missing' }));
  const earlier = server.requests.filter((r) => r.path === '/model/model.safetensors').length;
  try {
    await held.goto(`${server.origin}/web/page/`);
    await held.waitForFunction(() => document.documentElement.dataset.page === 'ready');
    assert.deepEqual(await waitForWidgets(held, '#table, #nearest, #trace'), []);
    assert.equal(server.requests.filter((r) => r.path === '/model/model.safetensors').length - earlier, 3);
    // The same numbers as the page with its Worker: Lily's id and her row's first five.
    const figures = (p) => p.evaluate(() => ['lily-id', 'lily-five', 'rows', 'params'].map((name) => document.querySelector(`[data-fig="${name}"]`)?.textContent));
    assert.deepEqual(await figures(held), await figures(page));
    // The browser's own line for the missing file is all that is said.
    assert.deepEqual(held.problems.filter((problem) => !/404/.test(problem)), []);
  } finally {
    await held.context().close();
  }
});

// ---- The document's first layout (web/page/page.css, later-parts.js) ----------

test('the document\'s first layout lays out the first screen\'s part alone; the later parts follow, one per idle task, and then are parts like any other', async () => {
  const held = await openPage(browser, { width: 375, height: 812, touch: true });
  const release = await holdBack(held, '**/web/dist/page.js');
  try {
    await held.goto(`${server.origin}/web/page/`, { waitUntil: 'domcontentloaded' });
    // The parser can finish before page.css is in (the page's one script in the head runs
    // before the stylesheets' links): the browser's first layout is the one with it, and a frame.
    await held.waitForFunction(() => getComputedStyle(document.querySelector('.colophon')).contentVisibility === 'auto' &&
      new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
    // Laid out by the browser before any script of the page's has run: the first screen's
    // part and those near it (the browser's margin), none of the chapter's second half.
    const parts = () => held.evaluate(() => [...document.querySelectorAll('main .part, #training, .colophon')].map((part) => ({
      name: `${part.closest('section')?.id ?? 'footer'} ${part.className}`,
      laidOut: part.firstElementChild.checkVisibility({ contentVisibilityAuto: true }),
    })));
    const first = await parts();
    assert.ok(first.length > 10 && first[0].name === 'embeddings part story' && first[0].laidOut);
    const far = first.filter((part) => /^(dot|position|training|footer) /.test(part.name));
    assert.ok(far.length >= 9 && far.every((part) => !part.laidOut), JSON.stringify(first));
    // Each marked laid out in a task of its own (one record per observer callback), in the document's order.
    await held.evaluate(() => {
      window.__batches = [];
      new MutationObserver((records) => {
        window.__batches.push(records.filter((record) => record.target.classList.contains('laid-out')).map((record) => record.target));
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] });
    });
    release();
    await held.waitForFunction(() => document.documentElement.dataset.parts === 'laid-out', undefined, { timeout: 60000 });
    const after = await parts();
    assert.ok(after.every((part) => part.laidOut), JSON.stringify(after.filter((part) => !part.laidOut)));
    const marked = await held.evaluate(() => {
      const later = [...document.querySelectorAll('main > section > .part:not(#embeddings > .story), #training, .colophon')];
      const batches = window.__batches.filter((batch) => batch.length);
      return { alone: batches.every((batch) => batch.length === 1), inOrder: batches.flat().every((part, i) => later[i] === part), count: batches.length, later: later.length };
    });
    assert.deepEqual(marked, { alone: true, inOrder: true, count: first.length - 1, later: first.length - 1 });
    assert.equal(await held.evaluate(() => getComputedStyle(document.querySelector('#dot .part')).contentVisibility), 'visible');
    assert.deepEqual(held.problems, []);
  } finally {
    release();
    await held.context().close();
  }
});

// ---- No long task: the load's steps and the widgets' shows are tasks of their own ----------

test('the model\'s load and the widgets\' shows are split into tasks: each instance\'s start-up, each step of the load and each widget\'s show a task of its own', async () => {
  const traced = await openPage(browser);
  const cdp = await traced.context().newCDPSession(traced);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'toplevel,blink.user_timing', transferMode: 'ReportEvents' });
  try {
    await traced.goto(`${server.origin}/web/page/`);
    await traced.waitForFunction(() => document.documentElement.dataset.page === 'ready');
    assert.deepEqual(await waitForWidgets(traced, '#table, #nearest, #pairs, #dot-widget, #positions, #trace'), []);
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await traced.context().close();
  }
  // Each mark's task: the main thread's outermost events, one after the other (a task's microtask
  // checkpoint, traced just after it, counts as that task's).
  const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && String(e.name).startsWith('embeddings:'));
  const { pid, tid } = marks.find((e) => e.name === 'embeddings:model-requested');
  const tasks = [];
  for (const e of events.filter((x) => x.pid === pid && x.tid === tid && x.ph === 'X' && x.dur >= 0).sort((a, b) => a.ts - b.ts)) {
    const last = tasks.at(-1);
    if (last && e.ts < last.ts + last.dur) continue;  // inside the last one
    if (last && e.name === 'BlinkScheduler_PerformMicrotaskCheckpoint' && e.ts - (last.ts + last.dur) < 50) {
      last.dur = e.ts + e.dur - last.ts;
      continue;
    }
    tasks.push({ ts: e.ts, dur: e.dur });
  }
  const taskOf = (name) => {
    const mark = marks.find((e) => e.name === `embeddings:${name}`);
    assert.ok(mark, `the page marks embeddings:${name}`);
    return tasks.findIndex((task) => task.ts <= mark.ts && mark.ts <= task.ts + task.dur);
  };
  const apart = (...names) => {
    const found = names.map(taskOf);
    assert.ok(found.every((task) => task >= 0), `${names.join(', ')}: each inside a task of the main thread`);
    assert.equal(new Set(found).size, names.length, `${names.join(', ')} come in tasks of their own (${found.join(', ')})`);
  };
  // The three instances' start-ups (20-80 ms each on a phone), the load's steps, and the first widgets' shows.
  apart('load:instance-tables', 'load:instance-kernels', 'load:instance-tokenizer');
  apart('load:instance-tables', 'load:header-read', 'load:tables-copied');
  // The tokenizer's load in its steps (one call, 70-140 ms on a phone, before).
  apart('load:instance-tokenizer', 'load:tokenizer-step-1', 'load:tokenizer-step-2', 'load:tokenizer-step-3',
    'load:tokenizer-step-4', 'load:tokenizer-loaded');
  apart('ready:ew-embedding-table', 'ready:ew-nearest-words', 'ready:ew-dot-product');
});

// ---- A key or a tap is painted first, what it causes a frame later (afterNextPaint) --------

test('a key in the trace\'s box and in the token search is painted before the rows and the list follow it; an arrow key acts on the list for the text as typed', async () => {
  // A frame asked for after the widget's own input handler has run: with the trace's work on that frame,
  // the rows would already have changed in it; painted first, they change after it, in a task of their own.
  const watch = (selector, watched) => page.evaluate(([box, target]) => {
    const input = document.querySelector(box), rows = document.querySelector(target);
    window.__keyFrame = new Promise((resolve) => {
      input.addEventListener('input', () => {
        // What they say (their classes change with the caret, which the box lights in the rows at once).
        const before = rows.textContent;
        requestAnimationFrame(() => {
          const inFrame = rows.textContent;
          const changed = new Promise((done) => {
            const check = () => (rows.textContent !== inFrame ? done(true) : setTimeout(check, 10));
            setTimeout(check, 0);
          });
          changed.then(() => resolve({ sameInKeyFrame: inFrame === before, changedAfter: rows.textContent !== before }));
        });
      }, { once: true });
    });
  }, [selector, watched]);
  await watch('#trace textarea', '#trace .ew-trace-body');
  await page.locator('#trace textarea').first().focus();
  await page.keyboard.press('End');
  await page.keyboard.type(' Tom');
  assert.deepEqual(await page.evaluate(() => window.__keyFrame), { sameInKeyFrame: true, changedAfter: true });

  await page.locator('#nearest input').fill('');
  await watch('#nearest input', '#nearest [role="listbox"]');
  await page.locator('#nearest input').focus();
  await page.keyboard.type('b');
  assert.deepEqual(await page.evaluate(() => window.__keyFrame), { sameInKeyFrame: true, changedAfter: true });
  // Typed, then the arrow and Enter at once (the list for "boy" not drawn yet): they act on the list for "boy".
  await page.keyboard.type('oy');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#nearest .ew-neighbours'));
  assert.match(await page.locator('#nearest').textContent(), /closest to ·boy/);
  assert.deepEqual(page.problems, []);
});
