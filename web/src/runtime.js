// Compiles the WebAssembly module once and instantiates it as often as
// needed: the package gives every model its own instance (docs/design.md
// says why), plus one for vectors that live outside any model.
//
// There are two builds of the module (CMakeLists.txt): embeddings.wasm, the
// chapter's module, loaded first, and embeddings-full.wasm, which adds the
// Split pre-tokenizer and its regex engine (today's tokenizers: Llama 3,
// GPT-4o...) and the NFC and NFD normalizers (Qwen 3). The full one, and
// its loader, are fetched only when a tokenizer needs them.
import createEmbeddingsModule from '../dist/embeddings.js';
import { fetchAndCompileWasm, takeEarlyCompile } from './early-compile.js';
import { packageFile } from './files.js';
import { guardedInstantiation, registerGuard } from './instance-guard.js';
import { yieldToMain } from './event-loop.js';

const builds = {
  chapter: {
    wasmUrl: () => packageFile('web/dist/embeddings.wasm', () => new URL('../dist/embeddings.wasm', import.meta.url)),
    create: async () => createEmbeddingsModule,
  },
  full: {
    wasmUrl: () => packageFile('web/dist/embeddings-full.wasm', () => new URL('../dist/embeddings-full.wasm', import.meta.url)),
    create: async () => (await import('../dist/embeddings-full.js')).default,
  },
};
const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

const compiled = {};
let observer;

/**
 * For the tests only (web/index.js does not export it): `callback(module,
 * role)` sees every new instance, role being "tables", "tokenizer",
 * "kernels" or "layout" (the map's), so a test can read an instance's C++ heap.
 */
export function observeInstances(callback) {
  observer = callback;
}

/** Shows a new instance to the tests' observer (the map's layout instances, map/instance.js). */
export function observed(module, role) {
  observer?.(module, role);
}

/**
 * Compiles the .wasm at `url` (a file: URL in Node); also the layout
 * module's (map/instance.js). Over HTTP, a compile the page's first script started
 * for the same URL is taken instead of fetching again; if that one failed
 * (a network error while the page loaded), this tries once more. A file
 * that is not there, or is no WebAssembly (a server's page for a missing
 * file), is an error that names its URL and what to do.
 */
export async function compileWasm(url) {
  if (url.protocol === 'file:') {
    const { readFileBytes } = await import('#platform');
    const bytes = await readFileBytes(url).catch((error) => {
      throw new Error(`Could not read ${url.href}: ${error.code ?? error.message}${WHERE_FILES_ARE}`, { cause: error });
    });
    return WebAssembly.compile(bytes).catch((error) => { throw notWebAssembly(url, error); });
  }
  const early = takeEarlyCompile(url);
  const compiled = early ? early.catch(() => fetchAndCompileWasm(url)) : fetchAndCompileWasm(url);
  return compiled.catch((error) => {
    throw error instanceof WebAssembly.CompileError ? notWebAssembly(url, error) : new Error(`${error.message}${WHERE_FILES_ARE}`, { cause: error });
  });
}

// What to do when the package's .wasm is not where its modules look for it (docs/embedding.md, "Rollup", "esbuild").
const WHERE_FILES_ARE = '. The package finds its files beside its modules (new URL(…, import.meta.url)); ' +
  'where a bundler does not copy them (Rollup, esbuild), copy them yourself and call locateFiles() with where they are served from, ' +
  'before anything loads';

function notWebAssembly(url, error) {
  return new Error(`${url.href ?? url} is not WebAssembly (${error.message})${WHERE_FILES_ARE}`, { cause: error });
}

// What each role's instance is called in the messages of a failed instance, and what to do then.
const GUARD_WORDS = {
  tables: ["the model's tables'", 'Load the model again with loadModel().'],
  tokenizer: ["the tokenizer's", 'Load the model again with loadModel().'],
  kernels: ["the package's shared kernels'", 'Reload the page (in Node: start again) to have a new one.'],
};

/**
 * A fresh instance of the module: its own memory, its own C++ objects.
 * `full`: of embeddings-full.wasm rather than the chapter's build (embeddings.wasm).
 */
export async function instantiate(role = 'kernels', { full = false } = {}) {
  const build = builds[full ? 'full' : 'chapter'];
  compiled[full ? 'full' : 'chapter'] ??= Promise.all([compileWasm(build.wasmUrl()), build.create()]);
  const [wasmModule, create] = await compiled[full ? 'full' : 'chapter'];
  const done = await ownTurn();
  try {
    // Stopped at its first failure inside WebAssembly (instance-guard.js).
    const instantiateWasm = guardedInstantiation(wasmModule, ...GUARD_WORDS[role]);
    const module = registerGuard(await create({
      instantiateWasm,
      // Failures inside the runtime would otherwise print and continue silently.
      printErr: (text) => console.error(`[embeddings] ${text}`),
    }), instantiateWasm.state);
    observer?.(module, role);
    mark(`load:instance-${role}`);
    return module;
  } finally {
    done();
  }
}

// Instances start one at a time, each in a task of its own: an instance's
// start-up (its static constructors, Embind's registrations) takes 20–80 ms
// of a phone's main thread, and a page asks for three at once (the
// tables', the tokenizer's, the shared one), which ran as one long task.
let lastStart = Promise.resolve();

/** Waits for the instances asked for before to have started, then for a turn of the event loop; resolves with the function that ends this turn. */
async function ownTurn() {
  const before = lastStart;
  let done;
  lastStart = new Promise((resolve) => { done = resolve; });
  await before;
  await yieldToMain();
  return done;
}

/**
 * A performance mark, "embeddings:<name>": the loader's at each step of a
 * model's load ("load:instance-tables", "load:header-read",
 * "load:tables-copied", "load:tokenizer-step-<n>" after each step of the
 * tokenizer's load but its last, "load:tokenizer-loaded"), the widgets' when they
 * show and are ready. DevTools' Performance panel shows them in its Timings
 * track; tools/bench/page.mjs reads the first model's to say where the page's
 * load goes. Marks are a nicety: where there are none, nothing is lost.
 */
export function mark(name) {
  try {
    globalThis.performance?.mark?.(`embeddings:${name}`);
  } catch {
    // A runtime without the User Timing API.
  }
}

export { isNode };
