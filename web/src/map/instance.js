// The layout module on this thread: compiled once for the page or process
// (and sent to the Worker, in-worker.js), and the one instance of it that
// lays out maps here (in-slices.js), with helper threads where shared
// memory is allowed and there are other cores. Both the module's
// JavaScript and its .wasm are fetched only at the first map.
import { compileWasm, observed } from '../runtime.js';
import { packageFile } from '../files.js';
import { LARGEST_KEPT_INSTANCE, instanceFailed, instantiateLayout } from './layout-run.js';
import { ThreadPool, helperCount, sharedMemoryAllowed } from './layout-threads.js';

const compiled = {};
let instance, instanceMade, threadsWanted;

/**
 * layout.wasm, or layout-threads.wasm (the same module with shared memory,
 * where several threads may share a map: layout-threads.js), compiled once
 * for this page or process (and sent to the Worker).
 */
export function compiledLayout(threaded = false) {
  const key = threaded ? 'threads' : 'single';
  compiled[key] ??= compileWasm(threaded
    ? packageFile('web/dist/layout-threads.wasm', () => new URL('../../dist/layout-threads.wasm', import.meta.url))
    : packageFile('web/dist/layout.wasm', () => new URL('../../dist/layout.wasm', import.meta.url)));
  compiled[key].catch(() => { compiled[key] = undefined; });
  return compiled[key];
}

/**
 * For tests and benchmarks: how many threads a map computed on this thread
 * (in Node) uses: 1 for one, undefined (the default) for one per core.
 */
export function setMapThreads(count) {
  threadsWanted = count;
  if (instance) instance.then(({ pool }) => pool?.close(), () => {});
  instance = undefined;
}

/** How many cores this machine has, as far as this context can tell. */
async function cores() {
  if (typeof navigator === 'object' && navigator.hardwareConcurrency) return navigator.hardwareConcurrency;
  if (typeof process !== 'object') return 1;
  return (await import('#platform')).coreCount();
}

/** A helper thread in Node, ready: a worker thread that runs serveAsHelper (layout-helper.js). */
async function startNodeHelper(message) {
  return (await import('#platform')).startLayoutHelper(message);
}

/**
 * The one layout instance of this thread (layouts run one slice at a time):
 * { module, pool }, pool the helper threads where shared memory is allowed
 * and there are other cores (Node; a page's own thread never waits for
 * others, so there it has none).
 */
export function layoutInstance() {
  // A new one once it has failed (it refuses every call then: instance-guard.js).
  if (instanceMade && instanceFailed(instanceMade)) {
    // Its helpers go too (closing frees nothing: the instance refuses every call).
    instance?.then(({ pool }) => { try { pool?.close(); } catch { /* refused */ } }, () => {});
    instance = instanceMade = undefined;
  }
  instance ??= (async () => {
    const helpers = typeof document === 'undefined' && sharedMemoryAllowed() && threadsWanted !== 1
      ? (threadsWanted ? threadsWanted - 1 : helperCount(await cores())) : 0;
    // The module's JavaScript too is fetched only now: a page without a map never loads either.
    const [wasm, { default: create }] = await Promise.all([compiledLayout(helpers > 0),
      // The threaded glue through #platform: only Node's main thread runs it here, so a
      // bundle for browsers never meets it (their Worker carries its own copy).
      helpers > 0 ? import('#platform').then((platform) => platform.threadedLayoutGlue()) : import('../../dist/layout.js')]);
    const module = await instantiateLayout(create, wasm);
    instanceMade = module;
    observed(module, 'layout');
    const pool = helpers > 0 ? await ThreadPool.create(module, wasm, helpers, startNodeHelper) : null;
    return { module, pool };
  })();
  instance.catch(() => { instance = undefined; });
  return instance;
}

/** After a job: an instance a large table made large is dropped, so that its memory goes back. */
export async function releaseLargeInstance(module) {
  if (module.HEAPU8.byteLength <= LARGEST_KEPT_INSTANCE || !instance) return;
  const current = await instance;
  if (current.module !== module) return;
  instance = undefined;
  current.pool?.close();
}
