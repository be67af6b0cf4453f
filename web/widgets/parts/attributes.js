// Attributes that are properties too, for the frameworks that set them so
// (React 19, Vue and Svelte set a property where an element has one by its name).
/**
 * Makes each attribute of `names` settable as a property too: React 19, Vue
 * and Svelte set a property wherever an element has one of that name (a
 * getter alone made React throw and Vue drop the value), so `k={5}` in
 * their templates sets the attribute here. The getter the class has stays
 * (one that reads the attribute where it has none); null, undefined and
 * false remove the attribute, true sets it empty. The class keeps its own
 * state under other names, so nothing it stores is mistaken for an attribute.
 */
export function settableAttributes(constructor, names) {
  for (const name of names) {
    const own = Object.getOwnPropertyDescriptor(constructor.prototype, name);
    Object.defineProperty(constructor.prototype, name, {
      configurable: true,
      get: own?.get ?? function get() { return this.getAttribute(name); },
      set(value) {
        if (value === null || value === undefined || value === false) this.removeAttribute(name);
        else this.setAttribute(name, value === true ? '' : String(value));
      },
    });
  }
}
