// The vocabulary map's Worker (started by in-worker.js in a browser): it
// computes maps (UMAP and PCA) in its own instance of the layout module,
// off the page's main thread.
//
// Messages in: { wasm, threads, cores } first (the compiled layout.wasm,
// so it is fetched and compiled once per page; or layout-threads.wasm in a
// cross-origin isolated page, and then the Worker starts a helper per other
// core: further Workers of this same script, whose first message is
// { helper }, layout-threads.js); then for each job { id, spec } (layout-run.js
// LayoutJob's spec, without the table), the table's bytes in chunks
// { id, offset, chunk } (each answered { id, received }, so the page keeps
// only a few in flight), and { id, go }. Out: { ready } once the instance is
// made, { id, progress } about every 50 ms, then { id, result } (its points'
// buffer transferred, not copied) or { id, error, name }. A cancelled job is
// ended by terminating the Worker (in-worker.js starts another for the rest).
//
// The jobs started run a slice of about SLICE_MS at a time, and between two
// slices the Worker reads its messages: a PCA (tens of milliseconds, such as
// the quick map the training slider shows while a step's UMAP is laid out)
// goes before a UMAP under way (seconds), rather than after it. Each job's
// slices do the same work in the same order as one long run: the same bits.
import createLayoutModule from '../../dist/layout.js';
import { LARGEST_KEPT_INSTANCE, LayoutJob, instanceFailed, instantiateLayout } from './layout-run.js';
import { ThreadPool, helperCount, serveAsHelper } from './layout-threads.js';
import { yieldToEventLoop } from '../event-loop.js';

/** Milliseconds between two progress messages. */
const PROGRESS_MS = 50;
/** Milliseconds of a job's work between two looks at the Worker's messages. */
const SLICE_MS = 25;
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
    const { default: create } = await import('../../dist/layout-threads.js');
    const made = await instantiateLayout(create, compiled);
    pool = await ThreadPool.create(made, compiled, helperCount(cores), startHelper);
    // Rounds of a few tens of milliseconds: nothing waits on this Worker between them.
    pool.roundWork *= 4;
    return made;
  })();
  return module;
}

// The jobs whose table is in and whose go has come, in that order: { id, job, started, reported }.
const runnable = [];
let running = false;

/** The job to give the next slice: the first PCA (short, asked for by someone waiting), else the first of all. */
function nextJob() {
  const quick = runnable.findIndex(({ job }) => !job.umap);
  return runnable[quick >= 0 ? quick : 0];
}

/** One slice of a job's work; false once it is done. */
function runSlice(entry) {
  const { id, job } = entry;
  if (!entry.started) {
    entry.started = true;
    entry.reported = performance.now();
    job.start();
  }
  const sliceStart = performance.now();
  do {
    if (!job.advance(1 << 16, pool)) return false;
    if (performance.now() - entry.reported >= PROGRESS_MS) {
      self.postMessage({ id, progress: job.progress() });
      entry.reported = performance.now();
    }
  } while (performance.now() - sliceStart < SLICE_MS);
  return true;
}

/** Runs the runnable jobs a slice at a time until none is left, reading messages between slices. */
async function runJobs() {
  if (running) return;
  running = true;
  try {
    while (runnable.length) {
      const entry = nextJob();
      let more = false;
      try {
        more = runSlice(entry);
        if (!more) {
          const result = entry.job.result();
          self.postMessage({ id: entry.id, result }, [result.points.buffer]);
        }
      } catch (error) {
        self.postMessage({ id: entry.id, error: error.message, name: error.name });
      }
      if (!more) {
        runnable.splice(runnable.indexOf(entry), 1);
        await endJob(entry.id);
      }
      await yieldToEventLoop();
    }
  } finally {
    running = false;
  }
}

/** Frees a job (or lets its failed instance go), and an instance a large table made large once no job is left. */
async function endJob(id) {
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
      runnable.push({ id, job, started: false, reported: 0 });
      runJobs();
    }
  } catch (error) {
    self.postMessage({ id, error: error.message, name: error.name });
    if (message.spec && !jobs.get(id)) await endJob(id);
  }
}
