// The package in an author's own site: `npm pack`'s tarball, installed
// offline into a fresh folder of apps, each built the way its tool's
// documentation says (docs/embedding.md has one section per consumer) and
// loaded in Chromium: Vite (build, then its preview server), webpack 5
// with no configuration, esbuild and Rollup with locateFiles() and the copy
// step (and Rollup without it, whose page must say what to do), Parcel with
// its two lines of configuration, a static page with an import map, Node by
// import and by require, and TypeScript's --strict. The bundlers come from
// this repository's node_modules (pinned dev dependencies), so nothing is
// downloaded. The frameworks (Next.js, React, Vue, Svelte, Vitest) are in
// frameworks.test.js.
//
// Each browser app loads the default model by the package's name, shows
// the answer of the API, defines every widget by name, hands its model to
// <ew-trace-table> by script (one copy of the package, or it is refused),
// lays a map out in the package's Worker (which must live until the map is
// done), then shows <ew-training-slider>, which finds the default model's
// snapshots by the names the package gives them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChapterServer, listenOnLoopback } from '../../tools/serve.mjs';
import { launch, openPage } from '../browser/helpers/browser.js';
import { app as appIn, apps, bin, command, expectedAnswers, outcome, packedInto, repository, settled, staticServer } from './helpers.js';

const work = join(repository, 'build/consumers');
const node = (script, { cwd }) => command(process.execPath, [script], cwd);

/**
 * An app's folder, sharing the one node_modules of the apps, or
 * (`ownInstall`) with one of its own: Vite's dev server serves no file
 * from outside its app.
 */
function app(name, files, { ownInstall = false } = {}) {
  return appIn(work, name, files, ownInstall ? { modules: (folder) => state.install(folder) } : {});
}

/** The app's page with its script tag(s) in place of the marker. */
async function pageWith(scripts) {
  const html = await readFile(join(apps, 'page/index.html'), 'utf8');
  return { text: html.replace('<!-- the script -->', scripts) };
}

const state = { servers: [] };

before(async () => {
  Object.assign(state, await packedInto(work));
  state.expected = await expectedAnswers();

  const [vite, webpack, esbuild, , typescript, , parcel, rollup, rollupUncopied] = await Promise.all([
    app('vite', { 'index.html': await pageWith('<script type="module" src="/main.js"></script>'), 'main.js': 'page/main.js' }, { ownInstall: true }),
    app('webpack', { 'src/index.js': 'page/main.js', 'dist/index.html': await pageWith('<script defer src="main.js"></script>') }),
    app('esbuild', {
      'src/main.js': 'esbuild/main.js', 'src/files.js': 'esbuild/files.js', 'src/page.js': 'page/main.js',
      'dist/index.html': await pageWith('<script type="module" src="main.js"></script>'),
    }),
    app('import-map', { 'index.html': await pageWith(await readFile(join(apps, 'import-map/scripts.html'), 'utf8')), 'main.js': 'page/main.js' }),
    app('typescript', { 'main.ts': 'typescript/main.ts', 'tsconfig.json': 'typescript/tsconfig.json', 'tsconfig.nodenext.json': 'typescript/tsconfig.nodenext.json' }),
    app('node', { 'import.mjs': 'node/import.mjs', 'require.cjs': 'node/require.cjs' }),
    // Its package.json as docs/embedding.md has it; a lockfile, as every app has, tells Parcel where the project is.
    app('parcel', {
      'package.json': 'parcel/package.json', '.parcelrc': 'parcel/.parcelrc', 'package-lock.json': { text: '{ "lockfileVersion": 3, "packages": {} }\n' },
      'index.html': await pageWith('<script type="module" src="main.js"></script>'), 'main.js': 'page/main.js',
    }),
    app('rollup', {
      'rollup.config.mjs': 'rollup/rollup.config.mjs', 'src/main.js': 'esbuild/main.js', 'src/files.js': 'esbuild/files.js', 'src/page.js': 'page/main.js',
      'dist/index.html': await pageWith('<script type="module" src="main.js"></script>'),
    }),
    // Rollup without locateFiles() and the copy step: the page must say what is missing and what to do.
    app('rollup-uncopied', {
      'rollup.config.mjs': 'rollup/rollup.config.mjs', 'src/main.js': 'page/main.js',
      'dist/index.html': await pageWith('<script type="module" src="main.js"></script>'),
    }),
  ]);

  // Node and TypeScript need no browser: they run beside the builds.
  const nodeFolder = join(work, 'node');
  state.node = settled(Promise.all([node('import.mjs', { cwd: nodeFolder }), node('require.cjs', { cwd: nodeFolder })]));
  const tsc = join(repository, 'node_modules/typescript/bin/tsc');
  state.typescript = settled(Promise.all(['tsconfig.json', 'tsconfig.nodenext.json']
    .map((config) => command(process.execPath, [tsc, '-p', config], typescript))));
  // The builds, side by side; each as its documentation says, the tools from this repository.
  const esbuildSteps = (await readFile(join(apps, 'esbuild/build.sh'), 'utf8')).replaceAll('npx esbuild', bin('esbuild'));
  const rollupSteps = (await readFile(join(apps, 'rollup/build.sh'), 'utf8')).replaceAll('npx rollup', bin('rollup'));
  state.builds = await Promise.all([
    command(process.execPath, [join(repository, 'node_modules/vite/bin/vite.js'), 'build'], vite),
    command(process.execPath, [fileURLToPath(new URL('run-webpack.mjs', import.meta.url))], webpack),
    command('sh', ['-e', '-c', esbuildSteps], esbuild),
    // Parcel's own cache would outlive the test: --no-cache.
    command(bin('parcel'), ['build', '--no-cache'], parcel),
    command('sh', ['-e', '-c', rollupSteps], rollup),
    command(bin('rollup'), ['-c'], rollupUncopied),
  ].map(settled));

  const { createServer: viteServer, preview } = await import('vite');
  const vitePreview = await preview({ root: vite, configFile: false, logLevel: 'silent', preview: { port: 0, host: '127.0.0.1' } });
  state.servers.push({ close: () => vitePreview.close() });
  // Its dev server too: the package's modules pre-bundled, the files found where they lie.
  const viteDev = await viteServer({ root: vite, configFile: false, logLevel: 'silent', server: { port: 0, host: '127.0.0.1' } });
  await viteDev.listen();
  state.servers.push({ close: () => viteDev.close() });
  const served = async (root) => {
    const server = createChapterServer({ root });
    const origin = await listenOnLoopback(server);
    state.servers.push({ close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }) });
    return origin;
  };
  const plain = await staticServer(work);
  // Parcel's page holds an import map (an inline script, which the chapter server's policy refuses), its files at the site's root.
  const parcelSite = await staticServer(join(parcel, 'dist'));
  state.servers.push(plain, parcelSite);
  state.origins = {
    vite: vitePreview.resolvedUrls.local[0],
    viteDev: viteDev.resolvedUrls.local[0],
    webpack: `${await served(join(webpack, 'dist'))}/`,
    esbuild: `${await served(join(esbuild, 'dist'))}/`,
    importMap: `${plain.origin}/import-map/`,
    parcel: `${parcelSite.origin}/`,
    rollup: `${await served(join(rollup, 'dist'))}/`,
    rollupUncopied: `${await served(join(rollupUncopied, 'dist'))}/`,
  };
  state.browser = await launch();
});

after(async () => {
  await state.browser?.close();
  for (const server of state.servers) await server.close();
});

/** A build's outcome: throws its output if it failed. */
function built(index) {
  return outcome(state.builds[index]);
}

/**
 * The app at `url` in Chromium, as a reader sees it: the API's answer, the
 * widgets, the map and its Worker, then the training slider.
 */
async function visit(url) {
  const page = await openPage(state.browser);
  const workers = [], failed = [], warnings = [];
  page.on('worker', (worker) => {
    const entry = { url: worker.url(), closed: false, worker };
    worker.on('close', () => { entry.closed = true; });
    workers.push(entry);
  });
  page.on('response', (response) => { if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) failed.push(`${response.status()} ${response.url()}`); });
  page.on('console', (message) => { if (message.type() === 'warning') warnings.push(message.text()); });
  try {
    await page.goto(url);
    await page.waitForFunction(() => {
      const answer = document.querySelector('#answer');
      return answer.dataset.map || answer.dataset.error;
    }, undefined, { timeout: 120000 });
    // The Worker as the map was done: still running, the package's script in
    // it. The first Worker is the map's; in a cross-origin isolated page it
    // starts helpers (the same script, one per other core), which wait on
    // shared memory and so are not asked anything.
    const mapWorkers = await Promise.all(workers.map(async ({ url: workerUrl, closed, worker }, index) => ({
      url: workerUrl, closed,
      listening: closed || index > 0 ? undefined : await worker.evaluate(() => typeof self.onmessage === 'function'),
    })));
    const isolated = await page.evaluate(() => self.crossOriginIsolated);
    const shown = await page.evaluate(async () => {
      const widgets = [...document.querySelectorAll('body > ew-nearest-words, body > ew-trace-table')];
      await Promise.all(widgets.map((widget) => widget.updated));
      const nearest = document.querySelector('ew-nearest-words');
      return {
        answer: document.querySelector('#answer').textContent,
        map: document.querySelector('#answer').dataset.map,
        error: document.querySelector('#answer').dataset.error,
        states: widgets.map((widget) => `${widget.localName} ${widget.dataset.state}`),
        nearest: [...nearest.querySelectorAll('.ew-neighbour .ew-token')].slice(0, 3).map((token) => token.textContent),
        traced: document.querySelector('ew-trace-table').trace?.tokens.map((token) => token.text),
      };
    });
    await page.evaluate(() => { document.querySelector('ew-training-slider').hidden = false; });
    await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('ew-training-slider').dataset.state)
      && document.querySelector('ew-training-slider').snapshots, undefined, { timeout: 120000 });
    const slider = await page.evaluate(() => {
      const element = document.querySelector('ew-training-slider');
      return { state: element.dataset.state, snapshots: element.snapshots.length, status: element.querySelector('.ew-status')?.textContent };
    });
    return { shown, slider, workers: mapWorkers, isolated, failed, warnings, problems: page.problems };
  } finally {
    await page.context().close();
  }
}

/**
 * The app at `url` until its widgets are ready, then closed (its map and
 * slider left unmade): for an app whose files take a road another app's
 * full visit has taken already.
 */
async function visitUntilReady(url) {
  const page = await openPage(state.browser);
  const failed = [];
  page.on('response', (response) => { if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) failed.push(`${response.status()} ${response.url()}`); });
  try {
    await page.goto(url);
    await page.waitForFunction(() => [...document.querySelectorAll('body > ew-nearest-words, body > ew-trace-table')]
      .every((widget) => ['ready', 'error'].includes(widget.dataset.state)) && document.querySelector('#answer').textContent !== '…', undefined, { timeout: 120000 });
    const shown = await page.evaluate(() => ({
      answer: document.querySelector('#answer').textContent,
      states: [...document.querySelectorAll('body > ew-nearest-words, body > ew-trace-table')].map((widget) => `${widget.localName} ${widget.dataset.state}`),
      nearest: [...document.querySelectorAll('ew-nearest-words .ew-neighbour .ew-token')].slice(0, 3).map((token) => token.textContent),
      traced: document.querySelector('ew-trace-table').trace?.tokens.map((token) => token.text),
    }));
    return { shown, failed, problems: page.problems };
  } finally {
    await page.context().close();
  }
}

/** What every browser app must show. */
function checkApp(seen) {
  assert.equal(seen.shown.error, undefined, 'loadModel() and model.map() succeed');
  assert.equal(Number(seen.shown.answer), state.expected.cosine, 'the API\'s answer');
  assert.equal(seen.shown.map, '4096 × 2');
  assert.deepEqual(seen.shown.states, ['ew-nearest-words ready', 'ew-trace-table ready']);
  assert.deepEqual(seen.shown.nearest, state.expected.nearest, '<ew-nearest-words> lists the closest tokens');
  assert.deepEqual(seen.shown.traced, ['Lily', '·saw', '·Max'], 'the model handed to <ew-trace-table> by script is taken');
  // One map Worker; with cross-origin isolation, its helper threads: more Workers of the same file.
  const helpers = seen.workers.slice(1);
  assert.ok(seen.workers.length >= 1 && (seen.isolated || helpers.length === 0), `one map Worker: ${JSON.stringify(seen.workers)}`);
  assert.ok(helpers.every((helper) => helper.url === seen.workers[0].url), `helpers run the map Worker's file: ${JSON.stringify(seen.workers)}`);
  assert.ok(!seen.workers[0].url.startsWith('data:'), 'the Worker is a file of its own');
  assert.deepEqual({ closed: seen.workers[0].closed, listening: seen.workers[0].listening }, { closed: false, listening: true },
    'the Worker lives until the map is done');
  assert.deepEqual(seen.warnings.filter((text) => text.includes('[embeddings]')), [], 'no fallback to the main thread');
  assert.deepEqual({ state: seen.slider.state, snapshots: seen.slider.snapshots }, { state: 'ready', snapshots: state.expected.snapshots },
    `<ew-training-slider> shows the default model's snapshots (${seen.slider.status})`);
  assert.deepEqual(seen.failed, [], 'every file the app asks for is there');
  assert.deepEqual(seen.problems, []);
}

test('the tarball: a LICENSE, the package\'s files and not the chapter page\'s, no runtime dependency it does not use', async () => {
  const files = state.pack.files.map((file) => file.path);
  assert.ok(files.includes('LICENSE'));
  for (const file of ['web/dist/page.js', 'web/dist/page.js.map', 'web/dist/first-requests.js', 'web/dist/blob-worker.js', 'model/claims.json']) {
    assert.ok(!files.includes(file), `${file} is the chapter page's`);
  }
  assert.ok(!files.some((file) => file.startsWith('web/page/') || file.startsWith('tests/') || file.startsWith('tools/')));
  const manifest = JSON.parse(await readFile(join(work, 'node_modules/embeddings-and-position/package.json'), 'utf8'));
  assert.deepEqual(manifest.dependencies ?? {}, {}, 'the published files import no other package');
  // Every file an export names is in it (a pattern's for each element module).
  const targets = JSON.stringify(manifest.exports).match(/"\.\/[^"]+"/g).map((quoted) => JSON.parse(quoted))
    .filter((target) => target.startsWith('./web/') || target === './package.json');
  const elements = files.filter((file) => /^web\/widgets\/[a-z-]+\.js$/.test(file) && file !== 'web/widgets/index.js');
  for (const target of targets) {
    const expanded = target.includes('*') ? elements.map((file) => target.replace('*', file.slice('web/widgets/'.length, -3))) : [target];
    for (const path of expanded) assert.ok(files.includes(path.slice(2)), `${path} (exports) is in the tarball`);
  }
  // Report the size (docs/embedding.md, "The tarball").
  console.log(`# tarball: ${(state.pack.size / 1e6).toFixed(1)} MB packed, ${(state.pack.unpackedSize / 1e6).toFixed(1)} MB installed, ${state.pack.entryCount} files`);
});

test('docs/embedding.md shows the configuration these apps have, as they have it', async () => {
  const docs = await readFile(join(repository, 'docs/embedding.md'), 'utf8');
  for (const file of ['esbuild/files.js', 'esbuild/build.sh', 'import-map/scripts.html', 'typescript/tsconfig.json',
    'parcel/package.json', 'parcel/.parcelrc', 'rollup/rollup.config.mjs', 'rollup/build.sh']) {
    assert.ok(docs.includes(await readFile(join(apps, file), 'utf8')), `docs/embedding.md holds tests/consumers/apps/${file}`);
  }
});

test('Vite: built with no configuration and served by its preview server', async () => {
  built(0);
  checkApp(await visit(state.origins.vite));
});

test('Vite\'s dev server, with no configuration: one copy of the package, its files where they lie', async () => {
  checkApp(await visit(state.origins.viteDev));
});

test('webpack 5: built with its default settings', async () => {
  const { errors, warnings } = JSON.parse(built(1).stdout);
  assert.deepEqual(errors, []);
  // webpack's only words: that the model's files are larger than it recommends for scripts.
  assert.deepEqual(warnings.filter((text) => !/exceed the recommended size limit|can impact web performance|webpack performance recommendations/.test(text)), []);
  checkApp(await visit(state.origins.webpack));
});

test('esbuild: with locateFiles() and the copy step', async () => {
  built(2);
  checkApp(await visit(state.origins.esbuild));
});

test('Parcel 2: with its .parcelrc and packageExports, as docs/embedding.md has them', async () => {
  built(3);
  checkApp(await visit(state.origins.parcel));
});

test('Rollup 4 with node-resolve: with locateFiles() and the copy step', async () => {
  built(4);
  // esbuild's road to the files (locateFiles() and the same copy), whose full visit sees the map's Worker and the slider's snapshots.
  const { shown, failed, problems } = await visitUntilReady(state.origins.rollup);
  assert.deepEqual(shown, {
    answer: String(state.expected.cosine), states: ['ew-nearest-words ready', 'ew-trace-table ready'],
    nearest: state.expected.nearest, traced: ['Lily', '·saw', '·Max'],
  });
  assert.deepEqual({ failed, problems }, { failed: [], problems: [] });
});

test('Rollup without the copy step: the page says which .wasm is missing, at which URL, and to call locateFiles()', async () => {
  built(5);
  const page = await openPage(state.browser);
  try {
    await page.goto(state.origins.rollupUncopied);
    await page.waitForFunction(() => document.querySelector('#answer').dataset.error
      && document.querySelector('ew-nearest-words').dataset.state === 'error', undefined, { timeout: 60000 });
    const said = await page.evaluate(() => ({
      answer: document.querySelector('#answer').dataset.error,
      widget: document.querySelector('ew-nearest-words .ew-error-message').textContent,
    }));
    // Where Rollup left the package's new URL('../dist/embeddings.wasm', import.meta.url): beside its bundle.
    const wasm = `${state.origins.rollupUncopied}dist/embeddings.wasm`;
    for (const message of [said.answer, said.widget]) {
      assert.ok(message.startsWith(`Could not fetch ${wasm}: HTTP 404. `), message);
      assert.match(message, /call locateFiles\(\) with where they are served from/);
    }
  } finally {
    await page.context().close();
  }
});

test('a static page with an import map', async () => {
  checkApp(await visit(state.origins.importMap));
});

test('Node: import and require()', async () => {
  const [imported, required] = outcome(await state.node);
  assert.deepEqual(JSON.parse(imported.stdout), { backend: state.expected.backend, cosine: state.expected.cosine, nearest: state.expected.nearest });
  assert.deepEqual(JSON.parse(required.stdout), { cosine: state.expected.cosine, nearest: state.expected.nearest });
});

test('TypeScript: --strict, lib es2022 and dom, skipLibCheck false; module resolution bundler and nodenext', async () => {
  // tsc says nothing when the program compiles (and fails, with its errors, when not).
  assert.deepEqual(outcome(await state.typescript).map(({ stdout, stderr }) => stdout + stderr), ['', '']);
});
