#!/usr/bin/env node
// Bundles the chapter page's scripts into one minified module,
// web/dist/page.js: the page, the widgets, the package and Emscripten's glue,
// which the browser would otherwise fetch as some 25 modules, the later ones
// found only once the earlier ones have arrived and been parsed. The
// package keeps its sources (import ... from 'embeddings-and-position' loads
// web/index.js as before); only the chapter page loads the bundle.
//
//   node tools/page/bundle.mjs      (tools/build.sh wasm runs it after the link)
//
// Beside it, the page's first script, web/dist/first-requests.js: a small
// classic script that asks for the weights before the bundle has arrived,
// and the Worker it reads their large bodies in, web/dist/blob-worker.js.
// And the vocabulary map's Worker (web/src/map/map-worker.js and what it
// imports, the layout module's glue included) as one file that imports
// nothing, web/dist/map-worker.js, which model.map() starts in a browser.
//
// Each module's import.meta.url stays its own source file's URL, so what
// the sources find relative to themselves (the .wasm, the default model,
// the widgets' stylesheet, KaTeX) is found at the same place from the
// bundle. The build is deterministic: tests/js/page/bundle.test.js builds it
// again in memory and fails when web/dist/page.js is older than its sources.
import { open, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

import { tableRangesOf } from '../../web/src/early-requests.js';
import { writeFormulas } from './typeset-formulas.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const entry = resolve(root, 'web/page/page.js');
export const bundleFile = resolve(root, 'web/dist/page.js');
export const workerEntry = resolve(root, 'web/src/map/map-worker.js');
export const workerFile = resolve(root, 'web/dist/map-worker.js');

// The chapter's definitions that its Code parts print as their source stay
// a file of their own, as written (the page preloads it beside the bundle).
export const unbundled = resolve(root, 'web/page/code-parts.js');
// The loader of embeddings-full.wasm (web/src/runtime.js) stays out too: it is
// imported only when a model's tokenizer needs that module; and so does the
// list of the default model's training files, imported by <ew-training-slider>
// when it shows them (web/dist/default-training.js, below); and so do the
// page's typeset formulas (web/dist/formulas.js, tools/page/typeset-formulas.mjs),
// imported once the first widget has shown its model.
const fullModuleLoader = resolve(root, 'web/dist/embeddings-full.js');
export const trainingFilesModule = resolve(root, 'web/dist/default-training.js');
const formulasModuleFile = resolve(root, 'web/dist/formulas.js');
const modelFolder = resolve(root, 'model');
const keepAsWritten = {
  name: 'keep-as-written',
  setup(context) {
    context.onResolve({ filter: /(code-parts|embeddings-full|default-training|formulas)\.js$/ }, ({ path, resolveDir }) => {
      const resolved = resolve(resolveDir, path);
      if (resolved === fullModuleLoader) return { path: './embeddings-full.js', external: true };
      if (resolved === trainingFilesModule) return { path: './default-training.js', external: true };
      if (resolved === formulasModuleFile) return { path: './formulas.js', external: true };
      if (resolved !== unbundled) return undefined;
      return { path: relative(dirname(bundleFile), unbundled).split('\\').join('/'), external: true };
    });
  },
};

// The vocabulary map's module glue (web/dist/layout.js, beside the bundle)
// stays a file of its own: model.map() imports it at the first map, so the
// page's first script does not carry it.
// So does the same module's threaded build (layout-threads.js), which only
// a cross-origin isolated page's map Worker imports.
const layoutGlues = [resolve(root, 'web/dist/layout.js'), resolve(root, 'web/dist/layout-threads.js')];
const keepLayoutApart = {
  name: 'keep-layout-apart',
  setup(context) {
    context.onResolve({ filter: /layout(-threads)?\.js$/ }, ({ path, resolveDir }) => {
      const glue = resolve(resolveDir, path);
      if (!layoutGlues.includes(glue)) return undefined;
      return { path: `./${relative(dirname(bundleFile), glue).split('\\').join('/')}`, external: true };
    });
  },
};

// A widget's figures for a book (web/widgets/parts/figure-*.js: the SVG writer,
// the PNG maker, each figure's layout) stay files of their own, imported
// the first time a figure is asked for: the page's load neither fetches nor
// compiles them. They import only modules that keep no state (format.js,
// color.js, src/matrix.js, vocabulary-groups.js), as a second copy of those
// changes nothing.
const figureModules = /\/widgets\/parts\/figure-(export|svg|grids|strips|maps)\.js$/;
const keepFiguresApart = {
  name: 'keep-figures-apart',
  setup(context) {
    context.onResolve({ filter: /figure-(export|svg|grids|strips|maps)\.js$/ }, ({ path, resolveDir }) => {
      const resolved = resolve(resolveDir, path);
      if (!figureModules.test(resolved.split('\\').join('/'))) return undefined;
      return { path: relative(dirname(bundleFile), resolved).split('\\').join('/'), external: true };
    });
  },
};

/**
 * import.meta.url in a source file, spelled as that file's URL relative to
 * the output's: from `base`, the output's own URL (import.meta.url in a
 * module, document.currentScript.src in a classic script).
 */
const ownUrl = (outFile, base) => ({
  name: 'own-import-meta-url',
  setup(context) {
    context.onLoad({ filter: /\.js$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const fromOutput = relative(dirname(outFile), path).split('\\').join('/');
      return {
        contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOutput)}, ${base}).href`),
        loader: 'js',
      };
    });
  },
});

/** What the page's bundle, its first script (a classic script instead) and the Worker's are built with. */
const moduleBuild = {
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  // Top-level await (web/index.js) and class fields as written: what the page's browsers run already.
  target: 'es2022',
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
};

// The page's first script: a classic script (a module would wait behind the
// document's first layout), run as soon as the parser reaches it, which asks
// for the weights (web/page/first-requests.js and what it imports).
export const firstScriptEntry = resolve(root, 'web/page/first-requests.js');
export const firstScriptFile = resolve(root, 'web/dist/first-requests.js');
// The Worker the first script reads the model's large bodies in (web/page/blob-worker.js): a classic script too.
export const blobWorkerEntry = resolve(root, 'web/page/blob-worker.js');
export const blobWorkerFile = resolve(root, 'web/dist/blob-worker.js');

// The shipped model's weights, whose tables' places the first script carries.
export const shippedWeights = resolve(root, 'model/model.safetensors');

/**
 * Where the tables lie in the shipped model's weights, as [{ offset,
 * length }] read from the file's header (tableRangesOf, the reading the page
 * does): none when the file is absent or unreadable.
 */
export async function shippedTableRanges() {
  let file;
  try {
    file = await open(shippedWeights);
  } catch {
    return [];
  }
  try {
    const { size } = await file.stat();
    if (size < 8) return [];
    const prefix = Buffer.alloc(8);
    await file.read(prefix, 0, 8, 0);
    const headerLength = Number(prefix.readBigUInt64LE(0));
    if (headerLength < 2 || headerLength > Math.min(16 * 1024 * 1024, size - 8)) return [];
    const header = Buffer.alloc(headerLength);
    await file.read(header, 0, headerLength, 8);
    return tableRangesOf(JSON.parse(header.toString('utf8')), headerLength, size).map(({ offset, length }) => ({ offset, length }));
  } catch {
    return [];
  } finally {
    await file.close();
  }
}

async function bundleFirstScript(write) {
  const result = await build({
    ...moduleBuild,
    format: 'iife',
    entryPoints: [firstScriptEntry],
    outfile: firstScriptFile,
    metafile: true,
    define: { SHIPPED_MODEL_TABLES: JSON.stringify(await shippedTableRanges()) },
    // Read while the script runs: document.currentScript is this script then.
    plugins: [ownUrl(firstScriptFile, 'document.currentScript.src')],
  });
  const [code] = result.outputFiles;
  const worker = await build({ ...moduleBuild, format: 'iife', entryPoints: [blobWorkerEntry], outfile: blobWorkerFile });
  const [workerCode] = worker.outputFiles;
  if (write) await Promise.all([writeFile(code.path, code.contents), writeFile(workerCode.path, workerCode.contents)]);
  return { code: code.text, bytes: code.contents.length, inputs: Object.keys(result.metafile.inputs).sort(), worker: workerCode.text };
}

/**
 * Builds the bundle and its source map, and the page's first script;
 * writes them into web/dist/ unless `write` is false. Returns the bundle's
 * text and the sources it holds (paths relative to the repository), and the
 * same of the first script (firstScript).
 */
export async function bundlePage({ write = true } = {}) {
  const result = await build({
    ...moduleBuild,
    entryPoints: [entry],
    outfile: bundleFile,
    // Class and function names as written: the console and DevTools show them (a Trace, a Matrix).
    keepNames: true,
    // What only Node does (the package's "#platform": files on disk) is
    // imported only for file paths and file: URLs, which a page never has.
    external: ['#platform'],
    sourcemap: 'linked',
    metafile: true,
    // V8's explicit compile hint (Chrome 136 and later; other engines read a
    // comment): compile every function of the bundle as it streams in, on a
    // background thread, instead of each one on the main thread at its first
    // call. Most of the bundle runs while the page loads: the first screen's
    // widgets, the package, Emscripten's glue (what it bought: docs/page.md).
    banner: { js: '//# allFunctionsCalledOnLoad' },
    plugins: [keepAsWritten, keepLayoutApart, keepFiguresApart, ownUrl(bundleFile, 'import.meta.url')],
  });
  const code = result.outputFiles.find((file) => file.path === bundleFile);
  if (write) await Promise.all(result.outputFiles.map((file) => writeFile(file.path, file.contents)));
  const firstScript = await bundleFirstScript(write);
  return { code: code.text, bytes: code.contents.length, inputs: Object.keys(result.metafile.inputs).sort(), firstScript };
}

/**
 * Builds web/dist/map-worker.js (no source map: it is short); writes it
 * unless `write` is false. Returns its text. The file imports nothing, the
 * layout module's glue included, and never reads import.meta (the glue's
 * own use of it is the Worker's address): an author's bundler (Vite,
 * webpack) then takes it as it is into a Worker of its own, in whatever
 * format it gives Workers, and a server needs no file beside it.
 */
export async function bundleWorker({ write = true } = {}) {
  const result = await build({ ...moduleBuild, entryPoints: [workerEntry], outfile: workerFile, define: { 'import.meta.url': 'self.location.href' } });
  const [file] = result.outputFiles;
  if (write) await writeFile(file.path, file.contents);
  return file.text;
}

// The default model's training files (its snapshots, their index and the
// loss curve), each named by a module of its own, web/dist/default-training.js,
// in the form an author's bundler finds and copies: <ew-training-slider> reads
// them from there when it shows the default model (a bundler gives each
// file a name of its own, so none is found beside another). Built from
// model/snapshots/index.json, whose list of files it follows.

/** The text of web/dist/default-training.js for the model's files as they are now. */
export async function trainingFilesSource() {
  const names = [];
  let index;
  try {
    index = JSON.parse(await readFile(resolve(modelFolder, 'snapshots/index.json'), 'utf8'));
  } catch {
    index = undefined;  // no snapshots: the slider looks beside the weights, and says what it found
  }
  if (Array.isArray(index?.snapshots)) {
    names.push('snapshots/index.json');
    for (const { file } of index.snapshots) {
      if (typeof file !== 'string' || !/^[\w.-]+$/.test(file) || file.startsWith('.')) {
        throw new Error(`model/snapshots/index.json: ${JSON.stringify(file)} is not the name of a file beside it`);
      }
      names.push(`snapshots/${file}`);
    }
  }
  try {
    await readFile(resolve(modelFolder, 'training-curve.json'));
    names.push('training-curve.json');
  } catch {
    // no loss curve: the slider says so
  }
  const fromModule = relative(dirname(trainingFilesModule), modelFolder).split('\\').join('/');
  return ['// Built by tools/page/bundle.mjs from model/snapshots/index.json: the default',
    '// model\'s training files by their path in model/, each named where bundlers',
    '// find and copy it (web/widgets/parts/model-source.js reads them).',
    'export default {',
    ...names.map((name) => `  ${JSON.stringify(name)}: () => new URL(${JSON.stringify(`${fromModule}/${name}`)}, import.meta.url),`),
    '};', ''].join('\n');
}

/** Writes web/dist/default-training.js (unless `write` is false); returns its text. */
export async function writeTrainingFiles({ write = true } = {}) {
  const text = await trainingFilesSource();
  if (write) await writeFile(trainingFilesModule, text);
  return text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { bytes, inputs, firstScript } = await bundlePage();
  console.log(`web/dist/page.js: ${bytes} bytes from ${inputs.length} modules`);
  console.log(`web/dist/first-requests.js: ${firstScript.bytes} bytes from ${firstScript.inputs.length} modules`);
  console.log(`web/dist/map-worker.js: ${Buffer.byteLength(await bundleWorker())} bytes`);
  console.log(`web/dist/default-training.js: ${(await writeTrainingFiles()).split('\n').filter((line) => line.includes('new URL')).length} files named`);
  console.log(`web/dist/formulas.js: ${Buffer.byteLength(await writeFormulas())} bytes`);
}
