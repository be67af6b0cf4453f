// The package's entries and start-up, from this repository (tests/consumers/
// takes the tarball into real apps): what package.json exports and to
// where, that no node: module is reachable from a browser's graph, that
// importing starts nothing that awaits at the top level (so require()
// works and every failure rejects loadModel()), and locateFiles().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = new URL('../../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const elements = readdirSync(new URL('web/widgets/', root)).filter((name) => name.endsWith('.js') && name !== 'index.js')
  .map((name) => name.slice(0, -3));

/** Runs an ES module's text in a Node process of its own (start-up is once per process); its stdout. */
async function inFreshNode(source) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', source], { cwd: fileURLToPath(root) });
  return stdout;
}

test('the widgets are exported by name, each element module and all of them, with their typings; their parts are not', () => {
  const resolve = (specifier) => fileURLToPath(import.meta.resolve(specifier)).slice(fileURLToPath(root).length);
  assert.equal(resolve('embeddings-and-position'), 'web/index.js');
  assert.equal(resolve('embeddings-and-position/widgets'), 'web/widgets/index.js');
  assert.equal(resolve('embeddings-and-position/widgets/definitions'), 'web/widgets/parts/definitions.js');
  assert.equal(resolve('embeddings-and-position/widgets.css'), 'web/widgets/widgets.css');
  for (const name of elements) {
    assert.equal(resolve(`embeddings-and-position/widgets/${name}`), `web/widgets/${name}.js`);
    assert.ok(existsSync(new URL(`web/widgets/${name}.d.ts`, root)), `web/widgets/${name}.d.ts types it`);
  }
  assert.throws(() => import.meta.resolve('embeddings-and-position/widgets/parts/model-widget'), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  // Nor an element's own folder of internals: its module beside the folder is the entry.
  assert.throws(() => import.meta.resolve('embeddings-and-position/widgets/vocabulary-map/state'), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  assert.equal(resolve('embeddings-and-position/vocabulary-map.css'), 'web/widgets/vocabulary-map.css');
  // Every path the exports name is there (a pattern's, for each element).
  const targets = JSON.stringify(manifest.exports).match(/"\.\/[^"]+"/g).map((quoted) => JSON.parse(quoted)).filter((t) => t.startsWith('./web/'));
  for (const target of targets.flatMap((t) => (t.includes('*') ? elements.map((name) => t.replace('*', name)) : [t]))) {
    assert.ok(existsSync(new URL(target, root)), `${target} exists`);
  }
});

// The previous version's entries, kept for one version: a module renamed re-exports its new one;
// a module that defined a second element still does, by re-exporting that element's own module.
const RENAMED = { 'row-dot': 'row-dot-product', 'one-hot': 'one-hot-lookup' };
const STILL_DEFINES = { 'nearest-words': 'word-pairs', 'word-analogy': 'word-cosine' };

test('each element has a module of its own, named after its tag; the previous version\'s entries re-export, marked deprecated', () => {
  const read = (file) => readFileSync(new URL(`web/widgets/${file}`, root), 'utf8');
  const tags = [];
  for (const name of elements) {
    const source = read(`${name}.js`);
    const defined = [...source.matchAll(/defineWidget\('([a-z-]+)'/g)].map((match) => match[1]);
    const reexported = [...source.matchAll(/^export (?:\*|\{ \w+ \}) from '\.\/([a-z-]+)\.js';$/gm)].map((match) => match[1]);
    tags.push(...defined);
    if (name in RENAMED) {
      assert.deepEqual({ defined, reexported }, { defined: [], reexported: [RENAMED[name]] }, name);
    } else {
      assert.deepEqual({ defined, reexported }, { defined: [`ew-${name}`], reexported: name in STILL_DEFINES ? [STILL_DEFINES[name]] : [] }, name);
    }
    if (reexported.length) {
      assert.match(source, /Deprecated/, `${name}.js says it is deprecated`);
      assert.match(read(`${name}.d.ts`), /@deprecated/, `${name}.d.ts marks it deprecated`);
    }
  }
  // Every element index.js lists has exactly its own module, which types it; the frameworks' typings have each.
  const listed = [...new Set(read('index.js').match(/<ew-[a-z-]+>/g))].map((tag) => tag.slice(1, -1)).sort();
  assert.deepEqual([...tags].sort(), listed);
  const frameworks = read('parts/frameworks.d.ts');
  for (const tag of tags) {
    assert.match(read(`${tag.slice('ew-'.length)}.d.ts`), new RegExp(`'${tag}': `), `${tag} is in its module's HTMLElementTagNameMap`);
    assert.ok(frameworks.includes(`'${tag}': `), `${tag} is typed for React, Vue and Svelte`);
  }
});

test('no node: module is reachable from a browser\'s graph: the entries bundle for the browser with nothing left out', async () => {
  const result = await build({
    entryPoints: ['web/index.js', 'web/widgets/index.js'].map((entry) => fileURLToPath(new URL(entry, root))),
    bundle: true, format: 'esm', platform: 'browser', splitting: true, outdir: 'unused', write: false, metafile: true, logLevel: 'silent',
  });
  const inputs = Object.entries(result.metafile.inputs);
  const nodeImports = inputs.flatMap(([file, { imports }]) => imports.filter(({ path }) => path.startsWith('node:')).map(({ path }) => `${file} → ${path}`));
  assert.deepEqual(nodeImports, []);
  assert.ok(inputs.some(([file]) => file === 'web/src/platform/browser.js'));
  assert.ok(!inputs.some(([file]) => file === 'web/src/platform/node.js' || file === 'web/src/sources/file.js'));
  // In Node, the same import is the files on disk.
  assert.equal(import.meta.resolve('#platform'), new URL('web/src/platform/node.js', root).href);
});

test('every entry imports in plain Node, as on a server or in a Worker: nothing thrown, no element defined, every class there', async () => {
  const entries = ['embeddings-and-position', 'embeddings-and-position/widgets', 'embeddings-and-position/widgets/definitions',
    ...elements.map((name) => `embeddings-and-position/widgets/${name}`)];
  // A fresh process: no other test's globals, so a module that touched a DOM API would throw.
  const out = JSON.parse(await inFreshNode(`
    const seen = {};
    for (const entry of ${JSON.stringify(entries)}) {
      const exports = await import(entry);
      seen[entry] = Object.keys(exports).filter((key) => typeof exports[key] === 'function').sort();
    }
    console.log(JSON.stringify({ seen, dom: ['document', 'HTMLElement', 'customElements'].filter((name) => name in globalThis) }));`));
  assert.deepEqual(out.dom, [], 'no DOM here, none made up');
  assert.deepEqual(Object.keys(out.seen), entries);
  assert.ok(out.seen['embeddings-and-position'].includes('loadModel'));
  assert.deepEqual(out.seen['embeddings-and-position/widgets'], ['ChapterCode', 'DotProduct', 'EmbeddingTable', 'NearestWords', 'OneHotLookup',
    'PositionMap', 'RowDotProduct', 'TraceTable', 'TrainingSlider', 'VocabularyMap', 'WordAnalogy', 'WordCosine', 'WordPairs', 'modelFilesOf', 'sharedModel']);
  assert.deepEqual(out.seen['embeddings-and-position/widgets/definitions'], ['deferWidgetDefinitions', 'defineDeferredWidgets', 'defineDeferredWidgetsInTurns', 'defineWidget']);
  // The previous version's entries export what they did.
  const entry = (name) => out.seen[`embeddings-and-position/widgets/${name}`];
  for (const [old, now] of Object.entries(RENAMED)) assert.deepEqual(entry(old), entry(now), `${old} re-exports ${now}`);
  assert.deepEqual(entry('nearest-words'), ['NearestWords', 'WordPairs']);
  assert.deepEqual(entry('word-analogy'), ['WordAnalogy', 'WordCosine']);
  for (const name of elements) assert.ok(out.seen[`embeddings-and-position/widgets/${name}`].length > 0, `${name} exports its class`);
});

test('require() loads the package (nothing awaits at a module\'s top level)', async () => {
  const required = createRequire(import.meta.url)('../../../web/index.js');
  const model = await required.loadModel();
  assert.equal(required.backend, (await import('../../../web/index.js')).backend);
  assert.equal(typeof required.dot([1, 2, 3], [4, 0, -1]), 'number');
  model.dispose();
});

test('before the module is up, dot() on plain arrays says to wait; `ready` resolves, then it computes', async () => {
  const out = await inFreshNode(`
    import { dot, ready, backend } from './web/index.js';
    let before;
    try { dot([1, 2, 3], [4, 0, -1]); } catch (error) { before = error.message; }
    const backendBefore = backend;
    await ready;
    const { backend: after } = await import('./web/index.js');
    console.log(JSON.stringify({ before, backendBefore, after, sum: dot([1, 2, 3], [4, 0, -1]) }));`);
  const { before, backendBefore, after, sum } = JSON.parse(out);
  assert.match(before, /^dot: the WebAssembly module is still starting: await ready/);
  assert.equal(backendBefore, '');
  assert.ok(after.length > 0);
  assert.equal(sum, 1);
});

test('a .wasm that cannot be read rejects loadModel() and ready, and dot() names the reason; nothing is thrown elsewhere', async () => {
  const out = await inFreshNode(`
    import { pathToFileURL } from 'node:url';
    import { locateFiles, loadModel, ready, dot, defaultModelFiles } from './web/index.js';
    process.on('uncaughtException', (error) => console.log(JSON.stringify({ uncaught: error.message })));
    const here = pathToFileURL(process.cwd() + '/');
    locateFiles((path) => new URL(path.endsWith('.wasm') ? 'missing/' + path : path, here));
    const load = await loadModel().then(() => 'loaded', (error) => error.message);
    const started = await ready.then(() => 'ready', (error) => error.message);
    let computed;
    try { dot([1], [2]); } catch (error) { computed = error.message; }
    console.log(JSON.stringify({ load, started, computed, weights: defaultModelFiles.weights.href }));`);
  const { load, started, computed, weights, uncaught } = JSON.parse(out);
  assert.equal(uncaught, undefined);
  // The file's URL, and what to do: where a bundler copied no file, locateFiles().
  assert.match(load, /^Could not read file:\/\/\S+\/missing\/web\/dist\/embeddings\.wasm: ENOENT\. The package finds its files beside its modules .*call locateFiles\(\) with where they are served from/);
  assert.equal(started, load);
  assert.match(computed, /^dot: the WebAssembly module could not start: /);
  assert.equal(weights, new URL('model/model.safetensors', root).href);
});

test('locateFiles: a folder or a function gives every file\'s URL; bad values are named; too late, it says so', async () => {
  const out = await inFreshNode(`
    import { locateFiles, defaultModelFiles, loadModel } from './web/index.js';
    const errors = [];
    for (const bad of [undefined, 3, 'not a url']) {
      try { locateFiles(bad); } catch (error) { errors.push(error.name + ': ' + error.message); }
    }
    locateFiles('https://books.example/embeddings-and-position');
    const folder = defaultModelFiles.weights.href;
    let late;
    try { locateFiles(() => 'x'); } catch (error) { late = error.message; }
    console.log(JSON.stringify({ errors, folder, late }));`);
  const { errors, folder, late } = JSON.parse(out);
  assert.deepEqual(errors, [
    'TypeError: locateFiles: expected the URL of a folder or a function (path) => URL, got undefined',
    'TypeError: locateFiles: expected the URL of a folder or a function (path) => URL, got number',
    'TypeError: locateFiles: "not a url" is not a URL',
  ]);
  assert.equal(folder, 'https://books.example/embeddings-and-position/model/model.safetensors');
  assert.match(late, /^locateFiles: the package has already looked for model\/model\.safetensors; call it before loadModel\(\)/);
  const fromFunction = await inFreshNode(`
    import { locateFiles, defaultModelFiles } from './web/index.js';
    locateFiles((path) => 'https://cdn.example/' + path.replaceAll('/', '_'));
    console.log(defaultModelFiles.tokenizer.href);
    try { locateFiles('/again/'); } catch (error) { console.log(error.message.slice(0, 40)); }`);
  assert.equal(fromFunction, 'https://cdn.example/model_tokenizer.json\nlocateFiles: the package has already loo\n');
});

test('a table of another copy of the package (a page that loads it twice) is refused by a message that says so', async () => {
  const { rowView } = await import('../../../web/index.js');
  const { Matrix: OtherMatrix } = await import('../../../web/src/matrix.js?another-copy');
  assert.throws(() => rowView(new OtherMatrix(new Float32Array(4), 2, 2), 0), {
    name: 'TypeError',
    message: 'rowView: the first argument must be a table such as model.wte, got a Matrix of another copy of the package ' +
      '(it is loaded twice: import it by its name everywhere)',
  });
});
