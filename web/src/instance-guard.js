// Every WebAssembly instance the package makes (a model's tables, its
// tokenizer, the shared kernels, the map's layout module) is stopped at its
// first failure inside WebAssembly, and refuses every call after it.
//
// The C++ code throws no exceptions (it is built with -fno-exceptions), so
// anything that leaves a WebAssembly call by throwing has stopped it half
// way: a trap (memory access out of bounds, unreachable, abort(), a stack
// overflow) or an error thrown through it. Its memory is then in a state
// no C++ code expects: its stack pointer still deep, a buffer half written,
// its allocator's lists cut. Later calls would run on that state and give
// wrong answers (an encode that returns []) or trap again. So the first
// failure is reported as what it is, and every later call on the instance
// throws an error that names it, before any WebAssembly code runs.
//
// The guard sits where JavaScript enters WebAssembly, so it covers every
// entry, today's and tomorrow's: each exported function (Emscripten's
// Module._name wrappers call them) and each function of the table (Embind's
// class methods and functions are called through it). No imports, so that
// the map's Worker (map/map-worker.js) can hold it.

const states = new WeakMap();

/**
 * What an instance is, for its messages, and its failure once it has one:
 * { what: "the tokenizer's", name: the file it holds (set once known),
 * advice: what the reader can do, failure: { error } }.
 */
function newState(what, advice) {
  return { what, name: '', advice, failure: undefined, overflowed: false, stackPointer: undefined, stackTop: 0 };
}

function describeError(error, state) {
  const text = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0];
  return state.overflowed ? `${text}: its stack overflowed, calls nested too deep` : text;
}

function prefix(state) {
  return state.name ? `${state.name}: ` : '';
}

/** The error of every call after the failure. */
function stoppedError(state) {
  const { error } = state.failure;
  return new Error(`${prefix(state)}${state.what} WebAssembly instance was stopped when it failed ` +
    `(${describeError(error, state)}), and refuses every call since. ${state.advice}`, { cause: error });
}

/** Records the first failure; the error the failing call throws. */
function stop(state, error) {
  if (state.failure === undefined) {
    state.failure = { error };
    // A module whose stack lies below its data (--stack-first, CMakeLists.txt)
    // traps as its stack pointer passes address 0 and wraps around: left
    // above where the stack starts, it says the stack overflowed.
    const pointer = state.stackPointer?.();
    state.overflowed = pointer !== undefined && pointer >>> 0 > state.stackTop;
  }
  return new Error(`${prefix(state)}${state.what} WebAssembly instance failed (${describeError(error, state)}) ` +
    `and is stopped: its memory may be left inconsistent, so it refuses every later call. ${state.advice}`,
  { cause: error });
}

// The WebAssembly function behind each guarded one (see unguarded).
const unguardedOf = new WeakMap();

// One wrapper per arity up to 4 (a WebAssembly function's length is its
// number of parameters) rather than a rest parameter, which cost more.
// Every wrapper of an arity shares one call site, which sees every export:
// about 70 ns a call more than the export alone, nothing beside Embind's
// own cost; the two hottest calls go around it (unguarded).
function guard(fn, state) {
  const check = () => {
    if (state.failure !== undefined) throw stoppedError(state);
  };
  let guarded;
  switch (fn.length) {
    case 0: guarded = () => { check(); try { return fn(); } catch (error) { throw stop(state, error); } }; break;
    case 1: guarded = (a) => { check(); try { return fn(a); } catch (error) { throw stop(state, error); } }; break;
    case 2: guarded = (a, b) => { check(); try { return fn(a, b); } catch (error) { throw stop(state, error); } }; break;
    case 3: guarded = (a, b, c) => { check(); try { return fn(a, b, c); } catch (error) { throw stop(state, error); } }; break;
    case 4: guarded = (a, b, c, d) => { check(); try { return fn(a, b, c, d); } catch (error) { throw stop(state, error); } }; break;
    default: guarded = (...args) => { check(); try { return fn(...args); } catch (error) { throw stop(state, error); } };
  }
  unguardedOf.set(guarded, fn);
  return guarded;
}

// The function table as Emscripten's glue uses it (get, and set, grow and
// length for addFunction), handing out guarded functions.
function guardTable(table, state) {
  const guarded = [];
  return {
    get(index) {
      if (guarded[index] === undefined) {
        const fn = table.get(index);
        guarded[index] = typeof fn === 'function' ? guard(fn, state) : fn;
      }
      return guarded[index];
    },
    set(index, fn) {
      guarded[index] = undefined;
      table.set(index, fn);
    },
    grow(count) {
      return table.grow(count);
    },
    get length() {
      return table.length;
    },
  };
}

/**
 * An `instantiateWasm` hook for an Emscripten module's options: it
 * instantiates `wasmModule` and hands the glue the instance's exports
 * guarded. `what` names the instance in messages ("the tokenizer's"),
 * `advice` says what to do once it has failed. Register the module made
 * with it by registerGuard(module, hook.state).
 */
export function guardedInstantiation(wasmModule, what, advice) {
  const state = newState(what, advice);
  const hook = (imports, done) => {
    WebAssembly.instantiate(wasmModule, imports).then((instance) => {
      const exports = {};
      for (const [key, value] of Object.entries(instance.exports)) {
        exports[key] = typeof value === 'function' ? guard(value, state)
          : value instanceof WebAssembly.Table ? guardTable(value, state) : value;
      }
      // stackSave, where the module exports it, reads the stack pointer.
      if (typeof instance.exports.stackSave === 'function') {
        state.stackPointer = instance.exports.stackSave;
        state.stackTop = state.stackPointer() >>> 0;
      }
      done({ exports }, wasmModule);
    });
    return {};
  };
  hook.state = state;
  return hook;
}

/** Links the Emscripten module object made with a guarded instantiation to its state. */
export function registerGuard(module, state) {
  states.set(module, state);
  return module;
}

/** Names the file an instance holds, for its messages ("tokenizer.json"). */
export function nameInstance(module, name) {
  const state = states.get(module);
  if (state) state.name = name;
}

/**
 * The instance's guard state, for a check on a hot path without a lookup:
 * `state.failure !== undefined` once the instance has failed.
 */
export function guardOf(module) {
  return states.get(module) ?? { failure: undefined };
}

/** Whether the instance has failed (and so refuses every call). */
export function instanceFailed(module) {
  return states.get(module)?.failure !== undefined;
}

/** Throws the error every call on a failed instance throws; nothing for a working one. */
export function checkInstance(module) {
  const state = states.get(module);
  if (state?.failure !== undefined) throw stoppedError(state);
}

/**
 * For the hottest calls only (dot and cosine of two rows, vectors.js): the
 * WebAssembly function behind a guarded export, whose own call site is
 * then as fast as the export's. Its caller takes the guard's place: it
 * checks guardOf(module).failure first, and throws failInstance(module,
 * error) for whatever the function throws. (An export not yet called is
 * Emscripten's lazy stub, which has no function behind it: given back as it is.)
 */
export function unguarded(fn) {
  return unguardedOf.get(fn) ?? fn;
}

/** Stops the instance for `error`, thrown by one of its unguarded functions; the error to throw. */
export function failInstance(module, error) {
  const state = states.get(module);
  return state ? stop(state, error) : error;
}
