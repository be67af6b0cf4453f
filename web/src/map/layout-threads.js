// Several threads for one map (layout-run.js): where shared memory is
// allowed (a cross-origin isolated page, or Node), the map runs in
// web/dist/layout-threads.wasm, the layout module built with shared memory
// and atomics, and helpers (Workers, or worker threads in Node) each make a
// further instance of the same compiled module on the same memory. No
// pthreads are started: the helpers only run tasks (UmapLayout::run_task,
// PcaSteps::run_task), which allocate nothing and read what the rounds'
// begin left in memory. A round goes like this:
//
//   the thread that owns the job: begin_tasks -> n tasks; publish n and
//     wake the helpers; take tasks itself; wait until every helper has
//     taken its last; finish_tasks.
//   each helper: wait for a round; take task numbers (an atomic counter)
//     until they run out; say it has left the round.
//
// Which thread runs which task does not change the result (the tasks'
// sums are added in task order in finish_tasks), so a map is the same bits
// on one thread or eight. No imports, so that the Workers load nothing else.

// The control block's fields (Int32 slots).
const GENERATION = 0, NEXT = 1, COUNT = 2, LEFT = 3, KIND = 4, HANDLE = 5, SLOTS = 8;
const KINDS = { exit: 0, umap: 1, pca: 2 };
const STACK_BYTES = 1 << 20;

/** How many helpers to start beside the thread that owns a job: one per other core, at most 7. */
export function helperCount(cores) {
  return Math.max(0, Math.min(7, (cores || 1) - 1));
}

/** Whether this context may make shared WebAssembly memory (a cross-origin isolated page or Worker; Node). */
export function sharedMemoryAllowed() {
  if (typeof SharedArrayBuffer !== 'function' || typeof Atomics !== 'object') return false;
  return typeof globalThis.crossOriginIsolated === 'boolean' ? globalThis.crossOriginIsolated : typeof process === 'object';
}

/**
 * The helpers of one threaded instance (`module`, made from `wasm`, the
 * compiled layout-threads.wasm). `start(message)` starts one helper and
 * sends it `message` (a Worker, or a worker thread in Node), resolving once
 * it is ready; `count` helpers are started.
 */
export class ThreadPool {
  static async create(module, wasm, count, start) {
    const pool = new ThreadPool(module, count);
    const memory = module.wasmMemory;
    pool.helpers = await Promise.all(Array.from({ length: count }, () => {
      const stack = module._malloc(STACK_BYTES);
      if (!stack) throw new RangeError('map: out of memory for a helper thread');
      pool.stacks.push(stack);
      return start({ helper: { wasm, memory, control: pool.control, stackTop: (stack + STACK_BYTES) & ~15, threads: count } });
    }));
    return pool;
  }

  constructor(module, count) {
    this.module = module;
    this.count = count;
    /** Multiply-adds a round holds: a few milliseconds of every thread's work. */
    this.roundWork = 8e6 * (count + 1);
    this.stacks = [];
    this.control = module._malloc(SLOTS * 4);
    if (!this.control) throw new RangeError('map: out of memory for the threads\' control block');
    this.slots = new Int32Array(module.wasmMemory.buffer, this.control, SLOTS);
    this.slots.fill(0);
  }

  /** Runs tasks 0 … tasks − 1 of the job `handle` (of `kind`, 'umap' or 'pca') on every thread; returns when all are done. */
  round(kind, handle, tasks) {
    const { slots, count } = this;
    Atomics.store(slots, NEXT, 0);
    Atomics.store(slots, COUNT, tasks);
    Atomics.store(slots, LEFT, 0);
    Atomics.store(slots, KIND, KINDS[kind]);
    Atomics.store(slots, HANDLE, handle);
    Atomics.add(slots, GENERATION, 1);
    Atomics.notify(slots, GENERATION);
    const run = kind === 'umap' ? this.module._layout_umap_run_task : this.module._layout_pca_run_task;
    for (let task = Atomics.add(slots, NEXT, 1); task < tasks; task = Atomics.add(slots, NEXT, 1)) run(handle, task);
    // Every helper has left the round (its last task done) before the next begins.
    for (let left = Atomics.load(slots, LEFT); left < count; left = Atomics.load(slots, LEFT)) Atomics.wait(slots, LEFT, left);
  }

  /** Ends the helpers and frees their stacks. */
  close() {
    const { slots } = this;
    Atomics.store(slots, KIND, KINDS.exit);
    Atomics.add(slots, GENERATION, 1);
    Atomics.notify(slots, GENERATION);
    for (const helper of this.helpers ?? []) helper.terminate?.();
    for (const stack of this.stacks) this.module._free(stack);
    this.module._free(this.control);
    this.stacks = [];
  }
}

/**
 * A helper's life, in its Worker or worker thread: instantiate the compiled
 * module on the shared memory, with a stack of its own and its own
 * thread-local storage, say `ready` through `post`, then run tasks round
 * after round until told to stop. It never returns to its event loop.
 */
export function serveAsHelper({ wasm, memory, control, stackTop }, post) {
  // The module's imports are the glue's JavaScript, which tasks never call: each one throws if it is.
  const imports = { env: {} };
  for (const { module, name, kind } of WebAssembly.Module.imports(wasm)) {
    imports[module] ??= {};
    if (kind === 'memory') imports[module][name] = memory;
    else if (kind === 'function') imports[module][name] = () => { throw new Error(`map helper: ${name} is not available here`); };
  }
  imports.env.emscripten_get_now = () => performance.now();
  const { exports } = new WebAssembly.Instance(wasm, imports);
  exports.stackRestore(stackTop);
  exports.emscripten_tls_init();
  const slots = new Int32Array(memory.buffer, control, SLOTS);
  post({ ready: true });
  // The block starts at 0, before any helper: a round begun before this one waits is still seen.
  for (let seen = 0; ;) {
    Atomics.wait(slots, GENERATION, seen);
    seen = Atomics.load(slots, GENERATION);
    const kind = Atomics.load(slots, KIND);
    if (kind === KINDS.exit) return;
    const handle = Atomics.load(slots, HANDLE), tasks = Atomics.load(slots, COUNT);
    const run = kind === KINDS.umap ? exports.layout_umap_run_task : exports.layout_pca_run_task;
    for (let task = Atomics.add(slots, NEXT, 1); task < tasks; task = Atomics.add(slots, NEXT, 1)) run(handle, task);
    Atomics.add(slots, LEFT, 1);
    Atomics.notify(slots, LEFT);
  }
}
