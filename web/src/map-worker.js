// The vocabulary map's Worker (started by map.js in a browser): it computes
// maps (UMAP and PCA) in its own instance of the layout module, off the
// page's main thread, whole, with no slices to yield between.
//
// Messages in: { wasm } first (the compiled layout.wasm, so it is fetched
// and compiled once per page); then for each job { id, spec } (layout-run.js
// LayoutJob's spec, without the table), the table's bytes in chunks
// { id, offset, chunk } (each answered { id, received }, so the page keeps
// only a few in flight), and { id, go }. Out: { ready } once the instance is
// made, { id, progress } about every 50 ms, then { id, result } or
// { id, error, name }. A cancelled job is ended by terminating the Worker
// (map.js starts another for the rest).
import createLayoutModule from '../dist/layout.js';
import { LARGEST_KEPT_INSTANCE, LayoutJob, instantiateLayout } from './layout-run.js';

/** Milliseconds between two progress messages. */
const PROGRESS_MS = 50;
let compiled, module;
const jobs = new Map();

/** This Worker's layout instance; a fresh one after a job that made it large. */
async function layoutModule() {
  module ??= instantiateLayout(createLayoutModule, compiled);
  return module;
}

function run(id, job) {
  let reported = performance.now();
  job.start();
  while (job.step(1 << 16)) {
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
  queue = queue.then(() => handle(message));
};

async function handle(message) {
  if (message.wasm) {
    compiled = message.wasm;
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
      jobs.get(id)?.free();
      jobs.delete(id);
      const instance = await module;
      if (instance && instance.HEAPU8.byteLength > LARGEST_KEPT_INSTANCE && jobs.size === 0) module = undefined;
    }
  }
}
