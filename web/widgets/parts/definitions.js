// When the widgets' custom elements are defined. Every widget module defines
// its element as it is imported (defineWidget), so a page that imports
// web/widgets/index.js has them all at once, as an embedding page expects.
// A page may first ask for some to be defined later (deferWidgetDefinitions):
// the chapter page defines only its first model widget, the token table,
// at once, and the others once the table shows its model. Defining an
// element upgrades every one of them in the document (its status line, its
// observer, its share of the load's progress, and the layout all of that
// costs), which on the phone profile sat between the model's instances and
// its first table (docs/benchmarks.md). This module
// imports nothing, so the chapter's first module can ask before any widget
// module runs.

// { except: Set of names defined at once, waiting: Map of name → class } while a page holds definitions back.
let held;

/**
 * Defines the custom element `name` now, unless a page is holding
 * definitions back (then it waits for defineDeferredWidgets). A name
 * defined already, by this or another copy of the package, is left as it is.
 */
export function defineWidget(name, constructor) {
  if (customElements.get(name)) return;
  if (held && !held.except.has(name)) {
    held.waiting.set(name, constructor);
    return;
  }
  customElements.define(name, constructor);
}

/**
 * Holds back the definitions of the widget modules imported from now on,
 * but those named in `except`, until defineDeferredWidgets(). Until then the
 * held elements are plain unknown elements: their CSS keeps their place
 * (widgets.css, `:not(:defined)`); a member set on one meanwhile is set
 * again through its class once it is defined, but none can be read.
 */
export function deferWidgetDefinitions({ except = [] } = {}) {
  held ??= { except: new Set(except), waiting: new Map() };
}

/** Whether `prototype` (or a class above it, below HTMLElement) has a setter for `key`. */
function hasSetter(prototype, key) {
  for (let p = prototype; p && p !== HTMLElement.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.getOwnPropertyDescriptor(p, key)?.set) return true;
  }
  return false;
}

/**
 * Defines every element held back, in the order their modules were
 * imported; then stops holding. Safe to call again. A member a page set on a
 * held element before this (the chapter gives a Code part its lines while
 * the module loads) is an own property that would hide the class's setter:
 * it is taken off before the element is upgraded and set again through the
 * class after.
 */
export function defineDeferredWidgets() {
  if (!held) return;
  const { waiting } = held;
  held = undefined;
  for (const [name, constructor] of waiting) {
    const early = [...document.getElementsByTagName(name)].map((element) => {
      const members = Object.keys(element).filter((key) => hasSetter(constructor.prototype, key)).map((key) => [key, element[key]]);
      for (const [key] of members) delete element[key];
      return [element, members];
    });
    defineWidget(name, constructor);
    for (const [element, members] of early) for (const [key, value] of members) element[key] = value;
  }
}
