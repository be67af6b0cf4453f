// The package in the frameworks books are built with, from `npm pack`'s
// tarball, each app as its section of docs/embedding.md has it: Next.js
// (next build, next start, the page in Chromium), React with TypeScript
// (tsc over .tsx), Vue (vue-tsc, and App.vue mounted by Vue under Vitest's
// jsdom with the model in ref()), Svelte (svelte-check), Vitest (its node
// environment and jsdom, no canvas mock), every entry in plain Node (as a
// server render or Astro's frontmatter imports it), and TypeScript with no
// framework installed at all. The tools are this repository's pinned dev
// dependencies; nothing is downloaded. Next.js builds while the checkers
// and Vitest run one after another beside it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { launch, openPage } from '../browser/helpers/browser.js';
import { app as appIn, apps, command, expectedAnswers, outcome, packedInto, repository, settled } from './helpers.js';

const work = join(repository, 'build/frameworks');
const tool = (path) => join(repository, 'node_modules', path);
const state = {};

/** An app of this file's folder of apps (their one node_modules, or `modules(folder)`'s). */
const app = (name, files, options) => appIn(work, name, files, options);

/** A command's exit code and output, whether it failed or not (a checker that must find errors). */
async function exitAndOutput(file, args, cwd) {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { cwd, maxBuffer: 1 << 24 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (typeof error.code !== 'number') throw error;
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

/** A port nobody listens on now, for `next start`. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Next.js's app: its own node_modules (Turbopack compiles nothing outside
 * the app's folder, and refuses a symlinked one), hard links of this
 * repository's and of the installed package. Its next.config.mjs is the
 * test's, not an author's: the app lies inside this repository, whose
 * lockfile Next.js would take for the project's root, and is built once, so
 * Turbopack's cache for the next build is not written (a third of its CPU time).
 */
async function nextApp() {
  return app('next', {
    'app/layout.js': 'next/app/layout.js', 'app/page.js': 'next/app/page.js', 'app/widgets.js': 'next/app/widgets.js',
    'next.config.mjs': { text: 'export default { turbopack: { root: import.meta.dirname }, experimental: { turbopackFileSystemCacheForBuild: false } };\n' },
  }, {
    modules: async (folder) => {
      await command('cp', ['-al', join(repository, 'node_modules'), join(folder, 'node_modules')], folder);
      await command('cp', ['-al', join(work, 'node_modules/embeddings-and-position'), join(folder, 'node_modules/embeddings-and-position')], folder);
    },
  });
}

/** Builds and starts the Next.js app, with its own copy of Next.js (and so of React): its origin, once `next start` answers. */
async function buildAndStartNext(folder) {
  const env = { NEXT_TELEMETRY_DISABLED: '1' };
  const next = join(folder, 'node_modules/next/dist/bin/next');
  state.nextBuild = await command(process.execPath, [next, 'build'], folder, env);
  const port = await freePort();
  const server = execFile(process.execPath, [next, 'start', '-p', String(port), '-H', '127.0.0.1'], { cwd: folder, env: { ...process.env, ...env } });
  state.stopNext = () => new Promise((resolve) => { server.once('exit', resolve); server.kill(); });
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    try {
      if ((await fetch(origin)).ok) return origin;
    } catch (error) {
      if (tries > 300 || server.exitCode !== null) throw new Error(`next start did not answer at ${origin}: ${error.message}`);
    }
    await new Promise((resolve) => { setTimeout(resolve, 100); });
  }
}

/**
 * TypeScript's app of consumers.test.js in a folder of the system's, with
 * the package copied in (not linked: TypeScript follows a link to where the
 * package lies, beside this repository's React, Vue and Svelte): a program
 * in which no framework can be found.
 */
async function frameworklessTypeScript() {
  const folder = await mkdtemp(join(tmpdir(), 'embeddings-and-position-'));
  state.cleanUp = () => rm(folder, { recursive: true, force: true });
  for (const file of ['main.ts', 'tsconfig.json']) await cp(join(apps, 'typescript', file), join(folder, file));
  const installed = join(work, 'node_modules/embeddings-and-position');
  await mkdir(join(folder, 'node_modules/embeddings-and-position'), { recursive: true });
  for (const part of ['package.json', 'web']) await cp(join(installed, part), join(folder, 'node_modules/embeddings-and-position', part), { recursive: true });
  return folder;
}

/** The checkers and Vitest, one after another (two cores: Next.js builds meanwhile). */
async function checkOneByOne(folders) {
  const tsc = tool('typescript/bin/tsc');
  // Vitest's report as JSON: how many tests passed and failed.
  const vitest = async (folder) => {
    await command(process.execPath, [tool('vitest/vitest.mjs'), 'run', '--reporter=json', '--outputFile=report.json'], folder);
    return JSON.parse(await readFile(join(folder, 'report.json'), 'utf8'));
  };
  const steps = {
    entries: () => command(process.execPath, ['entries.mjs'], folders.node),
    react: () => command(process.execPath, [tsc, '-p', 'tsconfig.json'], folders.react),
    frameworkless: () => command(process.execPath, [tsc, '-p', 'tsconfig.json'], folders.frameworkless),
    vueTypes: () => command(process.execPath, [tool('vue-tsc/bin/vue-tsc.js'), '-p', 'tsconfig.json'], folders.vue),
    svelte: () => exitAndOutput(process.execPath, [tool('svelte-check/bin/svelte-check'), '--tsconfig', './tsconfig.json', '--output', 'machine'], folders.svelte),
    vitest: () => vitest(folders.vitest),
    vueMounted: () => vitest(folders.vue),
  };
  state.checks = {};
  let previous = Promise.resolve();
  for (const [name, step] of Object.entries(steps)) {
    previous = previous.then(() => step());
    state.checks[name] = settled(previous);
    previous = previous.catch(() => {});
  }
}

before(async () => {
  Object.assign(state, await packedInto(work));
  state.expected = await expectedAnswers();
  const [next, node, react, vue, svelte, vitest, frameworkless] = await Promise.all([
    nextApp(),
    app('node', { 'entries.mjs': 'node/entries.mjs' }),
    app('react-ts', { 'App.tsx': 'react-ts/App.tsx', 'Mistakes.tsx': 'react-ts/Mistakes.tsx', 'tsconfig.json': 'react-ts/tsconfig.json' }),
    app('vue', {
      'App.vue': 'vue/App.vue', 'Mistakes.vue': 'vue/Mistakes.vue', 'main.ts': 'vue/main.ts', 'vite.config.js': 'vue/vite.config.js',
      'tsconfig.json': 'vue/tsconfig.json', 'App.spec.js': 'vue/App.spec.js',
    }),
    app('svelte', { 'Widgets.svelte': 'svelte/Widgets.svelte', 'Mistakes.svelte': 'svelte/Mistakes.svelte', 'tsconfig.json': 'svelte/tsconfig.json' }),
    app('vitest', {
      'api.spec.js': 'vitest/api.spec.js', 'widgets.spec.js': 'vitest/widgets.spec.js',
      // The same test under happy-dom, as docs/embedding.md says it passes.
      'widgets.happy-dom.spec.js': { text: (await readFile(join(apps, 'vitest/widgets.spec.js'), 'utf8')).replace('@vitest-environment jsdom', '@vitest-environment happy-dom') },
    }),
    frameworklessTypeScript(),
  ]);
  checkOneByOne({ node, react, vue, svelte, vitest, frameworkless });
  [state.next, state.browser] = await Promise.all([buildAndStartNext(next), launch()]);
});

after(async () => {
  await state.browser?.close();
  await state.stopNext?.();
  // Nothing left running when the checks are done.
  await Promise.all(Object.values(state.checks ?? {}));
  await state.cleanUp?.();
});

test('every entry in plain Node (a server render, Astro\'s frontmatter, a Worker): nothing thrown, no element defined', async () => {
  const { exports, customElements, document, HTMLElement } = JSON.parse(outcome(await state.checks.entries).stdout);
  assert.deepEqual({ customElements, document, HTMLElement }, { customElements: 'undefined', document: 'undefined', HTMLElement: 'undefined' });
  assert.ok(exports['embeddings-and-position'].includes('loadModel'));
  assert.ok(exports['embeddings-and-position/widgets'].includes('TraceTable'));
  // 13 elements, each with its module, and the previous version's row-dot and one-hot (deprecated).
  assert.equal(Object.keys(exports).length, 18, 'the API, the widgets, the definitions and each element module');
  assert.deepEqual(exports['embeddings-and-position/widgets/nearest-words'], ['NearestWords', 'WordPairs'], 'a deprecated entry exports what it did');
  for (const [entry, names] of Object.entries(exports)) assert.ok(names.length > 0, `${entry} exports its classes`);
});

test('React with TypeScript: tsc over .tsx takes the elements, their model and their events, and refuses their misuse', async () => {
  const { stdout, stderr } = outcome(await state.checks.react);
  assert.equal(stdout + stderr, '');
});

test('TypeScript with no framework installed: the framework typings resolve nothing and break nothing (strict, skipLibCheck false)', async () => {
  const { stdout, stderr } = outcome(await state.checks.frameworkless);
  assert.equal(stdout + stderr, '');
});

test('Vue: vue-tsc over the templates; App.vue mounted by Vue in jsdom hands a model kept in ref() to <ew-trace-table>', async () => {
  const { stdout, stderr } = outcome(await state.checks.vueTypes);
  assert.equal(stdout + stderr, '');
  const report = outcome(await state.checks.vueMounted);
  assert.deepEqual({ passed: report.numPassedTests, failed: report.numFailedTests }, { passed: 1, failed: 0 });
});

test('Svelte: svelte-check takes the elements, their model and their events, and refuses their misuse', async () => {
  const { stdout } = outcome(await state.checks.svelte);
  const problems = stdout.split('\n').filter((line) => /^\d+ (ERROR|WARNING) /.test(line)).map((line) => line.replace(/^\d+ /, ''));
  assert.deepEqual(problems, [
    'ERROR "Mistakes.svelte" 6:17 "Type \'string\' is not assignable to type \'Model | PromiseLike<Model> | undefined\'."',
    'ERROR "Mistakes.svelte" 7:55 "Property \'word\' does not exist on type \'{ id: number; }\'."',
  ]);
});

test('Vitest: the node environment, jsdom and happy-dom (no canvas mock), with no configuration', async () => {
  const report = outcome(await state.checks.vitest);
  assert.deepEqual({ passed: report.numPassedTests, failed: report.numFailedTests }, { passed: 4, failed: 0 });
});

test('Next.js: next build and next start; the widgets upgrade in place, one link per stylesheet, no error and no hydration warning', async () => {
  assert.match(state.nextBuild.stdout, /Compiled successfully/);
  // Before the widgets' script runs (here: never), each element keeps its room and says it is loading.
  const context = await state.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const waiting = await context.newPage();
  await waiting.goto(state.next);
  const placeholders = await waiting.evaluate(() => [...document.querySelectorAll('main > :is(ew-nearest-words, ew-trace-table, ew-dot-product)')]
    .map((element) => ({ name: element.localName, height: element.getBoundingClientRect().height, before: getComputedStyle(element, '::before').content })));
  await context.close();
  assert.deepEqual(placeholders.map(({ name, before }) => `${name} ${before}`),
    ['ew-nearest-words "Loading…"', 'ew-trace-table "Loading…"', 'ew-dot-product "Loading…"']);
  for (const { name, height } of placeholders) assert.ok(height >= 96, `${name} keeps its room (${height} px)`);

  const page = await openPage(state.browser);
  await page.addInitScript(() => document.addEventListener('DOMContentLoaded', () => {
    window.serverRendered = [...document.querySelectorAll('ew-nearest-words, ew-trace-table, ew-dot-product')];
  }));
  try {
    await page.goto(state.next);
    await page.waitForFunction(() => [...document.querySelectorAll('ew-nearest-words, ew-trace-table')].every((w) => ['ready', 'error'].includes(w.dataset.state))
      && document.querySelector('ew-dot-product').result, undefined, { timeout: 120000 });
    const seen = await page.evaluate(() => ({
      states: [...document.querySelectorAll('ew-nearest-words, ew-trace-table')].map((w) => `${w.localName} ${w.dataset.state}`),
      nearest: [...document.querySelectorAll('ew-nearest-words .ew-neighbour .ew-token')].slice(0, 3).map((token) => token.textContent),
      traced: document.querySelector('ew-trace-table').trace?.tokens.map((token) => token.text),
      sum: document.querySelector('ew-dot-product').result.sum,
      inPlace: window.serverRendered.length === 3 && window.serverRendered.every((element) => element.isConnected && element.dataset.state),
      stylesheets: [...document.querySelectorAll('link[rel="stylesheet"]')].map((link) => link.href),
    }));
    assert.deepEqual(seen.states, ['ew-nearest-words ready', 'ew-trace-table ready']);
    assert.deepEqual(seen.nearest, state.expected.nearest);
    assert.deepEqual(seen.traced, ['Lily', '·saw', '·Max'], 'the model handed over in the effect is taken (one copy of the package)');
    assert.equal(seen.sum, 1);
    assert.ok(seen.inPlace, 'the elements the server wrote are the ones upgraded: React rendered nothing again');
    assert.deepEqual(seen.stylesheets, [...new Set(seen.stylesheets)], 'one link per stylesheet');
    assert.ok(seen.stylesheets.some((href) => /\/widgets\.[\w-]+\.css$/.test(href)), `the widgets linked their stylesheet: ${seen.stylesheets}`);
    assert.deepEqual(page.messages.filter(({ text }) => /hydrat/i.test(text)), [], 'no hydration warning');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.context().close();
  }
});

test('docs/embedding.md shows these apps\' files as they are', async () => {
  const docs = await readFile(join(repository, 'docs/embedding.md'), 'utf8');
  for (const file of ['next/app/layout.js', 'next/app/widgets.js', 'react-ts/App.tsx', 'vue/App.vue', 'vue/main.ts', 'vue/vite.config.js',
    'svelte/Widgets.svelte', 'vitest/widgets.spec.js']) {
    assert.ok(docs.includes(await readFile(join(apps, file), 'utf8')), `docs/embedding.md holds tests/consumers/apps/${file}`);
  }
});
