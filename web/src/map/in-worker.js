// A map computed in the page's map Worker (map-worker.js, built into
// web/dist/map-worker.js, a file that imports nothing; one for the page,
// sent the compiled module), whole: the page's main thread only sends the
// table, in its own numbers (a 16-bit table stays 16-bit), a chunk per
// task, and receives the points; an AbortSignal ends the Worker (another
// takes the jobs left). A Worker that cannot start or fails leaves its jobs,
// and the maps after them, to this thread (in-slices.js).
import { yieldToEventLoop } from '../event-loop.js';
import { locatedFile } from '../files.js';
import { tableBytes } from './layout-run.js';
import { helperCount, sharedMemoryAllowed } from './layout-threads.js';
import { compiledLayout } from './instance.js';
import { CHUNK_BYTES, mapInSlices } from './in-slices.js';
import { jobSpec } from './options.js';

/** Chunks sent to the Worker and not yet copied in by it: what the page holds beside its table. */
const CHUNKS_IN_FLIGHT = 3;

let mapWorker, workerFailed = false, jobCount = 0;

/** Whether maps go to the Worker here: a page that can start one (and has not failed to). */
export const useWorker = () => !workerFailed && typeof Worker === 'function' && typeof document !== 'undefined';

/** Says on the console why maps leave the Worker for this thread. */
function warnMainThread(started, reason) {
  console.warn(`[embeddings] model.map: the map's Worker ${started ? 'failed' : 'could not start'} (${reason}); maps go on the main thread, in slices`);
}

/** Lays out a job that was meant for the Worker on this thread. */
function inSlices(job) {
  mapInSlices(job.table, job.settings, job.caller).then((result) => job.settle(result), (error) => job.settle(undefined, error));
}

/**
 * The page's map Worker: { worker, jobs (id → job), ready }, started with
 * the compiled module; undefined when no Worker can be made here.
 */
function workerState() {
  if (mapWorker) return mapWorker;
  const threaded = sharedMemoryAllowed() && helperCount(typeof navigator === 'object' ? navigator.hardwareConcurrency : 1) > 0;
  const promise = compiledLayout(threaded).catch((error) => {
    if (!threaded) throw error;
    return compiledLayout(false);  // no threaded module where it was looked for: one thread
  }).then((wasm) => {
    let worker;
    try {
      // The Worker's file is built from map-worker.js and the layout
      // module's glue (tools/page/bundle.mjs) into one that imports nothing,
      // named in the form bundlers (Vite, webpack) recognise, bundle and
      // rewrite: a literal URL beside import.meta.url, inside new Worker().
      const located = locatedFile('web/dist/map-worker.js');
      worker = located ? new Worker(located, { type: 'module' })
        : new Worker(new URL('../../dist/map-worker.js', import.meta.url), { type: 'module' });
    } catch (error) {
      // A policy that forbids Workers here (some browsers say so at once).
      workerFailed = true;
      if (mapWorker === promise) mapWorker = undefined;
      warnMainThread(false, error.message);
      return undefined;
    }
    const state = { worker, jobs: new Map(), ready: false, promise };
    worker.onmessage = ({ data }) => {
      if (data.ready) { state.ready = true; return; }
      const job = state.jobs.get(data.id);
      if (!job) return;
      if (data.received !== undefined) { job.received(); return; }
      if (data.progress) { job.settings.onProgress(data.progress); return; }
      state.jobs.delete(data.id);
      job.settle(data.error ? undefined : data.result, data.error && new (data.name === 'RangeError' ? RangeError : Error)(data.error.replace(/^map:/, `${job.caller}:`)));
    };
    worker.onerror = (event) => {
      // A Worker that cannot start (its file missing, a policy that forbids
      // it) or that failed: its jobs, and the maps after them if it never
      // started, go in slices on this thread.
      event.preventDefault?.();
      if (!state.ready) workerFailed = true;
      warnMainThread(state.ready, event.message || 'its script did not load, or this page may not start Workers');
      dropWorker(state);
      for (const job of state.jobs.values()) inSlices(job);
      state.jobs.clear();
    };
    worker.postMessage({ wasm, threads: WebAssembly.Module.exports(wasm).some((e) => e.name === 'emscripten_tls_init'),
      cores: typeof navigator === 'object' ? navigator.hardwareConcurrency : 1 });
    return state;
  });
  promise.catch(() => { if (mapWorker === promise) mapWorker = undefined; });
  mapWorker = promise;
  return promise;
}

/** Ends a Worker; the next job starts another. */
function dropWorker(state) {
  state.worker.terminate();
  if (mapWorker === state.promise) mapWorker = undefined;
}

async function post(job) {
  const state = await workerState();
  if (job.settled) return;
  if (!state) {
    inSlices(job);
    return;
  }
  state.jobs.set(job.id, job);
  job.state = state;
  const spec = jobSpec(job.table, job.settings);
  state.worker.postMessage({ id: job.id, spec }, spec.init ? [spec.init.buffer] : []);
  // The table's bytes, a chunk per task, a few in flight: the page never
  // holds a second copy of a large table, and no task copies much.
  let inFlight = 0, wake = null;
  job.received = () => { inFlight -= 1; wake?.(); };
  const total = job.table.data.byteLength;
  for (let offset = 0; offset < total; offset += CHUNK_BYTES) {
    while (inFlight >= CHUNKS_IN_FLIGHT) await new Promise((resolve) => { wake = resolve; });
    if (job.settled || job.state !== state) return;
    const chunk = tableBytes(job.table.data).slice(offset, offset + CHUNK_BYTES);
    inFlight += 1;
    state.worker.postMessage({ id: job.id, offset, chunk }, [chunk.buffer]);
    await yieldToEventLoop();
  }
  if (!job.settled && job.state === state) state.worker.postMessage({ id: job.id, go: true });
}

/** A map computed in the Worker: LayoutJob's result. Aborting ends the Worker; its other jobs go to a new one. */
export function mapInWorker(table, settings, caller) {
  return new Promise((resolve, reject) => {
    const job = { id: ++jobCount, table, settings, caller, received: () => {} };
    const onAbort = () => {
      const { state } = job;
      job.settle(undefined, settings.signal.reason);
      if (!state) return;  // not posted yet: post() sees it settled
      state.jobs.delete(job.id);
      dropWorker(state);
      for (const other of state.jobs.values()) {
        other.state = undefined;
        post(other).catch((error) => other.settle(undefined, error));
      }
      state.jobs.clear();
    };
    job.settle = (result, error) => {
      if (job.settled) return;
      job.settled = true;
      settings.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error); else resolve(result);
    };
    settings.signal?.addEventListener('abort', onAbort, { once: true });
    post(job).catch((error) => job.settle(undefined, error));
  });
}
