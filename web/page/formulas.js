// The chapter page's formulas, typeset by KaTeX once the browser is idle;
// a display formula wider than its column is marked as scrolling sideways.
import { whenIdle } from '../widgets/parts/base.js';

// KaTeX builds DOM nodes and sets styles through the CSSOM, which the page's
// Content-Security-Policy allows (renderToString + innerHTML would not be).
// It loads after the model and the widgets, when the browser is idle, with
// its stylesheet (so the page's first style passes do not match KaTeX's rules).
// The minified classic build is half the size of katex.mjs; a script element
// from our own origin is allowed by script-src 'self'.
const katexFolder = new URL('../../node_modules/katex/dist/', import.meta.url);

function loadElement(element, url) {
  return new Promise((resolve, reject) => {
    element.addEventListener('load', () => resolve());
    element.addEventListener('error', () => reject(new Error(`${url} could not be loaded`)));
    document.head.append(element);
  });
}

function loadKatex() {
  if (window.katex) return Promise.resolve(window.katex);
  const script = document.createElement('script');
  script.src = new URL('katex.min.js', katexFolder).href;
  const style = document.createElement('link');
  style.rel = 'stylesheet';
  style.href = new URL('katex.min.css', katexFolder).href;
  return Promise.all([loadElement(script, script.src), loadElement(style, style.href)]).then(() => window.katex);
}

async function typeset() {
  const katex = await loadKatex();
  for (const element of document.querySelectorAll('.tex[data-tex]')) {
    katex.render(element.dataset.tex, element, {
      displayMode: element.classList.contains('display'),
      throwOnError: false,
      output: 'htmlAndMathml',
    });
    element.classList.add('typeset');
  }
  // Each display formula is checked again when its own box changes width
  // (its column did) and when fonts arrive (KaTeX's glyphs widen it).
  // Watching the body instead ran the check on every change of the page's
  // height while the widgets build, and its reads between writes forced a
  // layout per formula: 345 ms of a phone's main thread in one profiled load.
  const formulas = [...document.querySelectorAll('.tex.display.typeset')];
  const checkAll = () => markWideFormulas(formulas);
  checkAll();
  const watcher = new ResizeObserver((entries) => markWideFormulas(entries.map((entry) => entry.target)));
  for (const element of formulas) watcher.observe(element);
  document.fonts?.addEventListener('loadingdone', checkAll);
  document.fonts?.ready.then(checkAll);
  document.documentElement.dataset.formulas = 'ready';
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
