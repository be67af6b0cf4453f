// The vocabulary map's Worker (started by map.js in a browser): it computes
// maps (UMAP and PCA) in its own instance of the layout module, off the
// page's main thread, whole, with no slices to yield between.
//
// Messages in: { wasm, threads, cores } first (the compiled layout.wasm,
// so it is fetched and compiled once per page; or layout-threads.wasm in a
// cross-origin isolated page, and then the Worker starts a helper per other
// core: further Workers of this same script, whose first message is
// { helper }, layout-threads.js); then for each job { id, spec } (layout-run.js
// LayoutJob's spec, without the table), the table's bytes in chunks
// { id, offset, chunk } (each answered { id, received }, so the page keeps
// only a few in flight), and { id, go }. Out: { ready } once the instance is
// made, { id, progress } about every 50 ms, then { id, result } or
// { id, error, name }. A cancelled job is ended by terminating the Worker
// (map.js starts another for the rest).
import createLayoutModule from '../dist/layout.js';
import { LARGEST_KEPT_INSTANCE, LayoutJob, instanceFailed, instantiateLayout } from './layout-run.js';
import { ThreadPool, helperCount, serveAsHelper } from './layout-threads.js';

/** Milliseconds between two progress messages. */
const PROGRESS_MS = 50;
let compiled, threads = false, cores = 1, module, pool;
const jobs = new Map();

/** A helper Worker (this script again), ready. */
function startHelper(message) {
  return new Promise((resolve, reject) => {
    const helper = new Worker(new URL(import.meta.url), { type: 'module' });
    helper.onmessage = () => resolve(helper);
    helper.onerror = (event) => reject(new Error(`map: a helper thread failed to start (${event.message ?? 'no reason given'})`));
    helper.postMessage(message);
  });
}

/** Lets the instance and its helpers go: the next job makes new ones. */
function dropInstance() {
  module = undefined;
  try {
    pool?.close();
  } catch {
    // A failed instance refuses even the frees; the helpers were ended before them.
  }
  pool = undefined;
}

/** This Worker's layout instance (and its helpers); a fresh one after a job that made it large. */
async function layoutModule() {
  // An instance that failed refuses every call: the next job has a new one.
  if (module && instanceFailed(await module)) dropInstance();
  module ??= (async () => {
    if (!threads) return instantiateLayout(createLayoutModule, compiled);
    const { default: create } = await import('../dist/layout-threads.js');
    const made = await instantiateLayout(create, compiled);
    pool = await ThreadPool.create(made, compiled, helperCount(cores), startHelper);
    // Rounds of a few tens of milliseconds: nothing waits on this Worker between them.
    pool.roundWork *= 4;
    return made;
  })();
  return module;
}

function run(id, job) {
  let reported = performance.now();
  job.start();
  while (job.advance(1 << 16, pool)) {
    if (performance.now() - reported >= PROGRESS_MS) {
      self.postMessage({ id, progress: job.progress() });
      reported = performance.now();
    }
  }
  return job.result();
}

// Messages are handled one at a time, in order: a job's chunks wait behind its start.
let queue = Promise.resolve();
self.onmessage = ({ data: message }) => {
  if (message.helper) {
    serveAsHelper(message.helper, (reply) => self.postMessage(reply));
    return;
  }
  queue = queue.then(() => handle(message));
};

async function handle(message) {
  if (message.wasm) {
    ({ wasm: compiled, threads = false, cores = 1 } = message);
    await layoutModule();
    self.postMessage({ ready: true });
    return;
  }
  const { id } = message;
  try {
    if (message.spec) {
      jobs.set(id, new LayoutJob(await layoutModule(), message.spec));
    } else if (message.chunk) {
      jobs.get(id)?.write(message.offset, message.chunk);
      self.postMessage({ id, received: message.offset });
    } else if (message.go) {
      const job = jobs.get(id);
      if (!job) return;  // refused at its start: the error has gone out
      const result = run(id, job);
      self.postMessage({ id, result }, [result.points.buffer]);
    }
  } catch (error) {
    self.postMessage({ id, error: error.message, name: error.name });
  } finally {
    if (message.go || (message.spec && !jobs.get(id))) {
      const job = jobs.get(id);
      jobs.delete(id);
      const instance = await module;
      if (instance && instanceFailed(instance)) {
        dropInstance();  // it refuses even the job's free
      } else {
        job?.free();
        if (instance && instance.HEAPU8.byteLength > LARGEST_KEPT_INSTANCE && jobs.size === 0) dropInstance();
      }
    }
  }
}
