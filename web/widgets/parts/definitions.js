// When the widgets' custom elements are defined. Every widget module defines
// its element as it is imported (defineWidget), so a page that imports
// web/widgets/index.js has them all at once, as an embedding page expects.
// A page may first ask for some to be defined later (deferWidgetDefinitions):
// the chapter page defines only its first model widget, the token table,
// at once, and the others once the table shows its model. Defining an
// element upgrades every one of them in the document (its status line, its
// observer, its share of the load's progress, and the layout all of that
// costs), which on the phone profile sat between the model's instances and
// its first table (docs/page.md). This module
// imports nothing, so the chapter's first module can ask before any widget
// module runs.

// { except: Set of names defined at once, waiting: Map of name → class } while a page holds definitions back.
let held;

/** Every element the package defines is named with this prefix, as its events are: one prefix keeps a page free of clashes. */
const PREFIX = 'ew-';

// The old names said once each: <trace-table> is <ew-trace-table> now.
const noted = new Set();

/**
 * The element under its name before the prefix (<trace-table>), kept for
 * one version: the same class, each name its own constructor (one can be
 * defined only once), saying once in the console what the new name is.
 */
function underOldName(oldName, name, constructor) {
  return class extends constructor {
    constructor() {
      super();
      if (noted.has(oldName)) return;
      noted.add(oldName);
      console.warn(`<${oldName}> is now <${name}>; the old name will go in the next version.`);
    }
  };
}

// Where there is no DOM (Node, a server render, a Worker) there is nothing to
// define: the widget modules import there and define their elements when the
// browser imports them again (element-base.js).
const canDefine = () => typeof customElements === 'object' && customElements !== null;

/** Defines `name` now, or holds it back while a page holds definitions and `group` (its names) is not excepted. */
function defineOne(name, constructor, group) {
  if (!canDefine() || customElements.get(name)) return;
  if (held && !group.some((n) => held.except.has(n))) {
    held.waiting.set(name, constructor);
    return;
  }
  customElements.define(name, constructor);
}

/**
 * Defines the custom element `name` now, unless a page is holding
 * definitions back (then it waits for defineDeferredWidgets). A name
 * defined already, by this or another copy of the package, is left as it
 * is. A name with the package's prefix (ew-trace-table) is defined under its
 * old name (trace-table) as well, for one version.
 */
export function defineWidget(name, constructor) {
  const oldName = name.startsWith(PREFIX) ? name.slice(PREFIX.length) : undefined;
  const group = oldName ? [name, oldName] : [name];
  defineOne(name, constructor, group);
  if (oldName) defineOne(oldName, underOldName(oldName, name, constructor), group);
}

/**
 * Holds back the definitions of the widget modules imported from now on,
 * but those named in `except` (by either name: ew-embedding-table or
 * embedding-table), until defineDeferredWidgets(). Until then the
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
  if (!held || !canDefine()) return;
  const { waiting } = held;
  held = undefined;
  for (const [name, constructor] of waiting) defineHeld(name, constructor);
}

/**
 * The same, one name at a time, each in a task of its own: defining a name
 * upgrades every element of it (its status line, its observer, its share
 * of the load), and all of them at once was a long task on a phone. A
 * defineDeferredWidgets() meanwhile (a key, a touch) defines the rest at
 * once. Resolves once every held element is defined.
 */
export async function defineDeferredWidgetsInTurns() {
  while (held?.waiting.size) {
    const [name, constructor] = held.waiting.entries().next().value;
    held.waiting.delete(name);
    defineHeld(name, constructor);
    await nextTask();
  }
  held = undefined;
}

function defineHeld(name, constructor) {
  const early = [...document.getElementsByTagName(name)].map((element) => {
    const members = Object.keys(element).filter((key) => hasSetter(constructor.prototype, key)).map((key) => [key, element[key]]);
    for (const [key] of members) delete element[key];
    return [element, members];
  });
  if (!customElements.get(name)) customElements.define(name, constructor);
  for (const [element, members] of early) for (const [key, value] of members) element[key] = value;
}

/** A turn of the event loop (scheduler.yield() where there is one, whose continuation goes first). */
function nextTask() {
  if (typeof globalThis.scheduler?.yield === 'function') return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
