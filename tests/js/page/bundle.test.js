// The chapter page loads one bundle, web/dist/page.js, built from its
// sources by tools/page/bundle.mjs: the bundle on disk must be the one
// those sources build today (or the page would show yesterday's code), and
// the page must load it rather than the sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { blobWorkerFile, bundlePage, bundleFile, firstScriptFile, shippedTableRanges, trainingFilesModule, trainingFilesSource } from '../../../tools/page/bundle.mjs';
import { attributeText, formulasModule, formulasOf, formulasSource, typeset } from '../../../tools/page/typeset-formulas.mjs';

const root = new URL('../../../', import.meta.url);

test('web/dist/page.js is what the sources build now (else: tools/build.sh page)', async () => {
  const fresh = await bundlePage({ write: false });
  const onDisk = readFileSync(bundleFile, 'utf8');
  assert.ok(onDisk === fresh.code, 'web/dist/page.js is older than its sources: run tools/build.sh page (or wasm)');
  // Everything the page imports is inside: the page, the widgets, the package and Emscripten's glue.
  for (const source of ['web/page/page.js', 'web/index.js', 'web/src/model/model.js', 'web/widgets/index.js',
    'web/widgets/embedding-table.js', 'web/dist/embeddings.js']) {
    assert.ok(fresh.inputs.includes(source), `the bundle holds ${source}`);
  }
});

test('each bundled module resolves its own URLs as its source did (the .wasm, the model, the stylesheet, KaTeX)', async () => {
  const { code } = await bundlePage({ write: false });
  assert.doesNotMatch(code, /new URL\("\.\/widgets\.css",import\.meta\.url\)/, 'a source URL left relative to the bundle');
  for (const own of ['../widgets/parts/dom.js', '../src/default-model.js', '../src/runtime.js', '../page/formulas.js']) {
    assert.ok(code.includes(`new URL(${JSON.stringify(own)},import.meta.url)`), `${own} keeps its own import.meta.url`);
  }
});

test('the bundle opens with V8\'s compile hint, so its functions compile as it streams in; the first script has none', async () => {
  const { code, firstScript } = await bundlePage({ write: false });
  // The hint counts only as the file's first line (docs/page.md).
  assert.equal(code.split('\n', 1)[0], '//# allFunctionsCalledOnLoad');
  assert.ok(!firstScript.code.includes('allFunctionsCalledOnLoad'), 'the first script gained nothing from the hint');
});

test('the chapter page loads its small first script, then the bundle', () => {
  const html = readFileSync(new URL('web/page/index.html', root), 'utf8');
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.deepEqual(scripts, ['<script src="../dist/first-requests.js">', '<script type="module" async src="../dist/page.js">']);
  // The one module the bundle imports is announced beside it, so it travels at once, not after the bundle's parse.
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
  assert.deepEqual(preloaded, ['code-parts.js']);
});

test('the first script is what its sources build now, holds no more than the early requests and compile and the model\'s address, and resolves the model beside the page', async () => {
  const { firstScript } = await bundlePage({ write: false });
  assert.ok(readFileSync(firstScriptFile, 'utf8') === firstScript.code, 'web/dist/first-requests.js is older than its sources: run tools/build.sh page');
  assert.deepEqual(firstScript.inputs, ['<define:SHIPPED_MODEL_TABLES>', 'web/page/blob-reader.js', 'web/page/first-requests.js', 'web/page/model-choice.js', 'web/page/quote.js',
    'web/src/default-model.js', 'web/src/early-compile.js', 'web/src/early-requests.js', 'web/src/files.js',
    'web/src/sources/http.js', 'web/src/sources/signals.js']);
  assert.doesNotMatch(firstScript.code, /import\.meta/, 'a classic script has no import.meta');
  assert.ok(firstScript.code.includes('new URL("../src/default-model.js",document.currentScript.src)'));
  // The .wasm it compiles is the runtime's chapter build, beside the script.
  assert.ok(firstScript.code.includes('new URL("../dist/embeddings.wasm",new URL("../page/first-requests.js",document.currentScript.src).href)'));
  // Its Worker, which reads the large bodies (web/page/blob-worker.js), beside it, built now too.
  assert.ok(firstScript.code.includes('new URL("../dist/blob-worker.js",new URL("../page/first-requests.js",document.currentScript.src).href)'));
  assert.ok(readFileSync(blobWorkerFile, 'utf8') === firstScript.worker, 'web/dist/blob-worker.js is older than its sources: run tools/build.sh page');
  assert.doesNotMatch(firstScript.worker, /\bimport\b|importScripts/, 'the Worker is one classic script that loads nothing');
});

test('the first script carries where the shipped model\'s two tables lie, as its header says', async () => {
  const weights = readFileSync(new URL('model/model.safetensors', root));
  const headerLength = Number(weights.readBigUInt64LE(0));
  const header = JSON.parse(weights.subarray(8, 8 + headerLength).toString('utf8'));
  const at = (name) => {
    const [begin, end] = header[name].data_offsets;
    return { offset: 8 + headerLength + begin, length: end - begin };
  };
  const expected = [at('transformer.wpe.weight'), at('transformer.wte.weight')];
  assert.deepEqual(await shippedTableRanges(), expected);
  const { firstScript } = await bundlePage({ write: false });
  assert.ok(firstScript.code.includes(JSON.stringify(expected).replace(/"/g, '')), 'the ranges are in the script');
});

test('web/dist/default-training.js names every training file of the default model, as its snapshots\' index lists them (else: tools/build.sh page)', async () => {
  const fresh = await trainingFilesSource();
  assert.ok(readFileSync(trainingFilesModule, 'utf8') === fresh, 'web/dist/default-training.js is older than model/snapshots/index.json');
  const { default: named } = await import('../../../web/dist/default-training.js');
  const index = JSON.parse(readFileSync(new URL('model/snapshots/index.json', root), 'utf8'));
  const paths = ['snapshots/index.json', ...index.snapshots.map(({ file }) => `snapshots/${file}`), 'training-curve.json'];
  assert.deepEqual(Object.keys(named).sort(), paths.sort());
  for (const path of paths) assert.equal(named[path]().href, new URL(`model/${path}`, root).href);
  // The page leaves it out of its bundle: <ew-training-slider> imports it when it shows the default model.
  const { code, inputs } = await bundlePage({ write: false });
  assert.ok(!inputs.includes('web/dist/default-training.js'));
  assert.match(code, /import\("\.\/default-training\.js"\)/);
});

test('web/dist/formulas.js holds every formula of the page, typeset as KaTeX renders it (else: tools/build.sh page)', async () => {
  assert.ok(readFileSync(formulasModule, 'utf8') === await formulasSource(), 'web/dist/formulas.js is older than web/page/index.html');
  const html = readFileSync(new URL('web/page/index.html', root), 'utf8');
  const { default: typesetHtml } = await import('../../../web/dist/formulas.js');
  const { default: katex } = await import('katex');
  const formulas = formulasOf(html);
  // Each element of class "tex" is one of them (the same formula twice is typeset once).
  const elements = [...html.matchAll(/class="tex( display)?" data-tex="([^"]*)"/g)];
  assert.equal(new Set(elements.map((m) => `${Boolean(m[1])} ${attributeText(m[2])}`)).size, formulas.length);
  assert.deepEqual(Object.keys(typesetHtml).length, formulas.length);
  for (const { tex, display } of formulas) {
    const html = typesetHtml[`${display ? 'display' : 'inline'} ${tex}`];
    // KaTeX's own HTML, the style attributes (which the page's policy refuses in markup) as data-style.
    assert.equal(html.replace(/ data-style="/g, ' style="'), katex.renderToString(tex, { displayMode: display, output: 'htmlAndMathml' }));
    assert.doesNotMatch(html, / style="/);
  }
  // The page leaves it out of its bundle and imports it when it typesets.
  const { code, inputs } = await bundlePage({ write: false });
  assert.ok(!inputs.includes('web/dist/formulas.js'));
  assert.match(code, /import\("\.\/formulas\.js"\)/);
});

test('formulas are read from the page as the browser reads their attributes, and a formula KaTeX cannot typeset fails the build by name', () => {
  assert.equal(attributeText('a &amp; b &lt; c &#39;d&#x27; &quot;e&quot;'), 'a & b < c \'d\' "e"');
  assert.deepEqual(formulasOf('<p><span class="tex" data-tex="x &amp; y">x</span> <div class="tex display" data-tex="\\frac{1}{2}">1/2</div>' +
    '<span class="other" data-tex="z">z</span><span data-tex="w" class="tex">w</span><span class="tex" data-tex="x &amp; y">again</span></p>'),
  [{ tex: 'x & y', display: false }, { tex: '\\frac{1}{2}', display: true }, { tex: 'w', display: false }]);
  assert.throws(() => typeset('\\frac{1}{', true), /web\/page\/index\.html: the formula "\\\\frac\{1\}\{" could not be typeset: /);
});

test('the Code parts\' definitions stay outside the bundle, spelled as the chapter writes them', async () => {
  const { code, inputs } = await bundlePage({ write: false });
  assert.ok(!inputs.includes('web/page/code-parts.js'));
  assert.match(code, /from"\.\.\/page\/code-parts\.js"/);
  const parts = await import('../../../web/page/code-parts.js');
  assert.equal(String(parts.dot), '(a, b) => a.reduce((sum, x, k) => sum + x * b[k], 0)');
  assert.equal(String(parts.cosine), '(a, b) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b))');
  assert.equal(parts.dot([1, 2, 3], [4, 0, -1]), 1);
});

// The chapter's module, loaded first, is one .wasm of at most 150,000 bytes (the
// issue's budget; docs/benchmarks.md): the components only other models need
// live in embeddings-full.wasm, fetched for those models alone.
test('the page\'s .wasm is at most 150,000 bytes', () => {
  const bytes = readFileSync(new URL('web/dist/embeddings.wasm', root)).length;
  assert.ok(bytes <= 150000, `web/dist/embeddings.wasm is ${bytes} bytes`);
});
