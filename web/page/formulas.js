// The chapter page's formulas, typeset when the page is built
// (tools/page/typeset-formulas.mjs writes KaTeX's HTML of each into
// web/dist/formulas.js): put in place a few at a time in the browser's idle
// time, those near the screen first, so that no task of the reader's
// browser typesets them (KaTeX's script typeset them here before: 0.28 MB,
// and a third of a second of a phone's main thread). A display formula
// wider than its column is marked as scrolling sideways.
import { whenIdle } from '../widgets/parts/scheduler.js';

// KaTeX's stylesheet and fonts, as the formulas' HTML expects them.
const katexFolder = new URL('../../node_modules/katex/dist/', import.meta.url);
// Milliseconds of putting formulas in place per idle period, and characters
// of their HTML: the layout the next frame does for them costs ten times the
// time they take to put in place (on the phone profile, 60 ms for 6 ms of
// formulas), so a slice also ends after about the largest formula's HTML.
const SLICE_MS = 6;
const SLICE_HTML = 8000;

// The faces of KaTeX's fonts that the chapter's formulas use (page-loading.test.js
// checks this list against the faces loaded once every formula is laid out).
export const FORMULA_FONTS = [
  { family: 'KaTeX_Main', style: 'normal', weight: '400' },
  { family: 'KaTeX_Main', style: 'normal', weight: '700' },
  { family: 'KaTeX_Math', style: 'italic', weight: '400' },
  { family: 'KaTeX_Size2', style: 'normal', weight: '400' },
  { family: 'KaTeX_AMS', style: 'normal', weight: '400' },
];

function loadStylesheet() {
  const url = new URL('katex.min.css', katexFolder).href;
  const present = [...document.querySelectorAll('link[rel="stylesheet"]')].find((link) => link.href === url);
  if (present) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const style = document.createElement('link');
    style.rel = 'stylesheet';
    style.href = url;
    style.addEventListener('load', () => resolve());
    style.addEventListener('error', () => reject(new Error(`${url} could not be loaded`)));
    document.head.append(style);
  });
}

let fontsLoaded;

/**
 * Loads the formulas' fonts now, ahead of the formulas. A web font that
 * arrives changes the fonts of every text on the page, and the browser lays
 * out again all that it had laid out: arriving with the formulas, once the
 * widgets and the later parts were laid out, that was one layout of the
 * whole page (240 ms on the phone profile, the page's longest task). Asked
 * for once the model is in, while little of the page is laid out, the same
 * arrival costs next to nothing. Never fails: without them the formulas
 * fall back to the fonts KaTeX names after its own.
 */
export function loadFormulaFonts() {
  // (The page links KaTeX's stylesheet in its head, loaded by then: a face it
  // has not declared yet is simply not loaded early.)
  fontsLoaded ??= (async () => {
    if (typeof document === 'undefined' || !document.fonts?.load) return;
    await loadStylesheet();
    await Promise.all(FORMULA_FONTS.map(({ family, style, weight }) => document.fonts.load(`${style} ${weight} 1em ${family}`)));
    performance.mark('embeddings:formula-fonts');
  })().catch(() => {});
  return fontsLoaded;
}

/** The formulas, those within a screen of the viewport first (as the browser reports after its next layout). */
function nearFirst(formulas) {
  if (typeof IntersectionObserver === 'undefined') return Promise.resolve(formulas);
  return new Promise((resolve) => {
    const observer = new IntersectionObserver((entries) => {
      observer.disconnect();
      const near = new Set(entries.filter((entry) => entry.isIntersecting).map((entry) => entry.target));
      resolve([...formulas.filter((f) => near.has(f)), ...formulas.filter((f) => !near.has(f))]);
    }, { rootMargin: '100% 0px' });
    for (const element of formulas) observer.observe(element);
  });
}

/**
 * Puts a formula's typeset HTML in place of its plain text. The page's
 * Content-Security-Policy refuses style attributes in markup, so the HTML
 * carries KaTeX's styles as data-style, set here through the CSSOM.
 */
function place(element, html) {
  element.innerHTML = html;
  for (const styled of element.querySelectorAll('[data-style]')) {
    styled.style.cssText = styled.dataset.style;
    styled.removeAttribute('data-style');
  }
  element.classList.add('typeset');
}

async function typeset() {
  const [{ default: typeset }] = await Promise.all([import('../dist/formulas.js'), loadStylesheet(), loadFormulaFonts()]);
  const waiting = await nearFirst([...document.querySelectorAll('.tex[data-tex]')]);
  const missing = [];
  while (waiting.length) {
    await whenIdle();
    const start = performance.now();
    let placed = 0;
    do {
      const element = waiting.shift();
      const html = typeset[`${element.classList.contains('display') ? 'display' : 'inline'} ${element.dataset.tex}`];
      if (html === undefined) missing.push(element.dataset.tex);
      else place(element, html);
      placed += html?.length ?? 0;
    } while (waiting.length && performance.now() - start < SLICE_MS && placed < SLICE_HTML);
  }
  if (missing.length) console.warn(`Formulas left as plain text (web/dist/formulas.js is older than the page: tools/build.sh page): ${missing.join('; ')}`);
  // Each display formula is checked again when its own box changes width
  // (its column did) and when its pieces do (KaTeX's fonts arrived and
  // widened its glyphs), as the browser reports them after its own layout,
  // so that reading the widths forces no layout. (Watching the body instead
  // ran the check on every change of the page's height while the widgets
  // built, and its reads between writes forced a layout per formula: 345 ms
  // of a phone's main thread in one profiled load; checking when the fonts
  // arrived forced one of the whole page.) The formulas are "ready" once
  // each has been checked the first time (a formula in a part not laid out
  // yet, page.css, is checked once it is).
  const formulas = [...document.querySelectorAll('.tex.display.typeset')];
  const formulaOf = new Map();
  const checked = new Set();
  const watcher = new ResizeObserver((entries) => {
    const changed = [...new Set(entries.map((entry) => formulaOf.get(entry.target)))];
    markWideFormulas(changed);
    if (checked.size === formulas.length) return;
    for (const formula of changed) checked.add(formula);
    if (checked.size === formulas.length) document.documentElement.dataset.formulas = 'ready';
  });
  for (const formula of formulas) {
    for (const watched of [formula, ...formula.querySelectorAll('.katex-html > .base')]) {
      formulaOf.set(watched, formula);
      watcher.observe(watched);
    }
  }
  if (!formulas.length) document.documentElement.dataset.formulas = 'ready';
}

/**
 * A display formula wider than its column gets a visible cue that it scrolls
 * sideways. All widths are read before anything is written, so the check
 * costs one layout however many formulas it looks at.
 */
function markWideFormulas(formulas) {
  const wide = formulas.map((element) => element.scrollWidth > element.clientWidth + 1);
  formulas.forEach((element, i) => {
    const isWide = wide[i];
    if (element.classList.contains('scrolls') !== isWide) element.classList.toggle('scrolls', isWide);
    if (isWide && element.tabIndex !== 0) {
      element.tabIndex = 0;
      element.setAttribute('role', 'region');
      element.setAttribute('aria-label', 'Formula, scrolls sideways');
    }
    let cue = element.nextElementSibling?.classList.contains('scroll-cue') ? element.nextElementSibling : null;
    if (isWide && !cue) {
      cue = document.createElement('span');
      cue.className = 'scroll-cue';
      cue.textContent = 'The formula goes on: swipe it sideways →';
      element.after(cue);
    }
    if (cue && cue.hidden === isWide) cue.hidden = !isWide;
  });
}

// After the widgets still waiting for idle time (the same queue, in order).
export function typesetWhenIdle() {
  whenIdle().then(typeset).catch((error) => {
    console.warn(`The formulas stay as plain text: ${error.message}`);
    document.documentElement.dataset.formulas = 'plain';
  });
}
