// The widgets' DOM helpers: their stylesheet linked once, unique ids,
// elements made in one call, a tapped box's text selected, and a cue on a
// box that scrolls sideways.
import { packageFile } from '../../src/files.js';

let stylesheetUrl;

/**
 * Links the stylesheet at `url` into the document's head once: not when a
 * link to the same address is there already, the page's own or one a widget
 * added. Addresses are compared resolved, as the link's `href` reads: a
 * bundler may give the package's URL relative (Turbopack's `new URL(…)` has
 * the href "/_next/static/media/…"), which no resolved href equals.
 */
export function linkStylesheet(url) {
  const href = new URL(String(url), document.baseURI).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((link) => link.href === href)) return;
  document.head.append(el('link', { rel: 'stylesheet', href }));
}

/** Adds the widgets' stylesheet to the document once, unless the page links it already. */
export function ensureStylesheet() {
  stylesheetUrl ??= packageFile('web/widgets/widgets.css', () => new URL('../widgets.css', import.meta.url));
  linkStylesheet(stylesheetUrl);
}

let uniqueCount = 0;
/** An id unique on the page, for aria-labelledby and friends. */
export function uniqueId(prefix) {
  uniqueCount += 1;
  return `${prefix}-${uniqueCount}`;
}

/** Creates an element: el('p', { className: 'x', textContent: 'y' }, child...). */
export function el(tag, properties = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(properties)) {
    if (value === undefined || value === null) continue;
    if (key.startsWith('aria-') || key.startsWith('data-') || key === 'role' || key === 'for') element.setAttribute(key, value);
    else element[key] = value;
  }
  element.append(...children.filter((child) => child !== undefined && child !== null));
  return element;
}

/**
 * A tap into a filled box selects its text, so that typing replaces it: a
 * finger would otherwise leave the caret wherever it landed, often in the
 * middle of the word. The mouse and the keyboard keep their own caret.
 * Selected on the click, after the browser has placed its caret.
 */
export function selectAllOnTap(input) {
  let tapped = false;
  input.addEventListener('pointerdown', (event) => {
    tapped = event.pointerType === 'touch' && document.activeElement !== input;
  });
  input.addEventListener('click', () => {
    if (tapped && input.value) input.select();
    tapped = false;
  });
}

/**
 * A box that scrolls sideways (a wide table on a phone) says so when its
 * content is cut off: a shadow at its right edge, a line under it, and,
 * for the keyboard, a focusable region that names itself. Checked again
 * when the box or its content changes width. Returns the cue's element, to
 * put after the box.
 */
export function scrollCue(box, { label = 'Table', text = 'The table goes on: swipe it sideways →' } = {}) {
  const cue = el('span', { className: 'ew-scroll-cue', textContent: text, hidden: true });
  const check = () => {
    const wide = box.scrollWidth > box.clientWidth + 1;
    if (box.classList.contains('ew-scrolls') === wide) return;
    box.classList.toggle('ew-scrolls', wide);
    cue.hidden = !wide;
    if (wide) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', `${label} (scrolls sideways)`);
    } else {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  };
  if (typeof ResizeObserver === 'function') {
    const watcher = new ResizeObserver(check);
    watcher.observe(box);
    new MutationObserver(() => {
      for (const child of box.children) watcher.observe(child);
      check();
    }).observe(box, { childList: true });
  }
  return cue;
}
