// The package's objects kept in a framework's Proxy: Vue's ref() and
// reactive() wrap a Model in one, as do MobX, Immer and any `new Proxy`.
// A Proxy hides its target: a private field (#x) read through it throws
// ("Receiver must be an instance of class Model"), and a WeakMap keyed by
// the object has no entry for the Proxy. So each Model and Matrix holds a
// function that gives the object itself, under a symbol of this module's; a
// Proxy that forwards reads (all of those do) forwards that one too, and a
// reactive Proxy returns a function as it is, where it would wrap an object
// in a Proxy of its own. Every method and getter of the classes then runs
// on the object itself (proxySafe), and functions that take one of them
// look through a Proxy first (unproxied).
const ITSELF = Symbol('embeddings-and-position: the object behind a Proxy');

/** Gives `object` the function that a Proxy of it forwards (before any Object.freeze). */
export function markItself(object) {
  Object.defineProperty(object, ITSELF, { value: () => object });
}

/** The Model or Matrix behind a Proxy of it; anything else as it is. */
export function unproxied(value) {
  const itself = value === null || value === undefined ? undefined : value[ITSELF];
  return typeof itself === 'function' ? itself() : value;
}

/**
 * Makes every method, getter and setter of `constructor`'s prototype run
 * on the object itself when called on a Proxy of it, so that its private
 * fields and its entries in WeakMaps are found.
 */
export function proxySafe(constructor) {
  const { prototype } = constructor;
  for (const key of Reflect.ownKeys(prototype)) {
    if (key === 'constructor') continue;
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
    for (const part of ['value', 'get', 'set']) {
      const original = descriptor[part];
      if (typeof original !== 'function') continue;
      // Named as the original, for stack traces.
      descriptor[part] = { [original.name](...args) { return original.apply(unproxied(this), args); } }[original.name];
    }
    Object.defineProperty(prototype, key, descriptor);
  }
}
