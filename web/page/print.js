// The chapter printed as a book chapter. Its print stylesheet (page.css and
// widgets.css, @media print) hides the controls or shows their state in
// words, keeps figures and lists whole and headings with what follows. What
// only a script can do is here:
//
// - Before printing, every figure is drawn. Most already are once the page
//   has been idle a moment; "Watch it learn" loads its training snapshots
//   only when it comes near the screen. Ctrl+P (⌘P) and the Print button
//   first build every widget, load and draw the slider's step (its map of
//   the token table and its loss curve), wait for the formulas, and only
//   then open the browser's print dialog, saying meanwhile what is left.
//   Printing from the browser's menu cannot wait (beforeprint is
//   synchronous): what is not drawn yet is left out and said so in print,
//   never printed as "Loading", and the figures are made then for the next
//   print.
// - In the print the canvases are drawn in paper's colours (ink on white)
//   whatever the screen's scheme, and again in the screen's afterwards.
import { ModelWidget } from '../widgets/parts/model-widget.js';
import { PAPER, gridStyle } from '../widgets/parts/paper.js';
import { drawForPrint } from '../widgets/parts/canvas.js';
import { layOutLaterParts } from './later-parts.js';

const $ = (selector) => document.querySelector(selector);

/** Every model widget on the page. */
function widgets() {
  return [...document.querySelectorAll('*')].filter((element) => element instanceof ModelWidget);
}

/** Resolves once the formulas are typeset (or left as plain text), or after `ms` without that. */
function formulasDone(ms) {
  return new Promise((resolve) => {
    const done = () => document.documentElement.dataset.formulas !== undefined;
    if (done()) return resolve();
    const watcher = new MutationObserver(() => {
      if (!done()) return;
      watcher.disconnect();
      resolve();
    });
    watcher.observe(document.documentElement, { attributes: true, attributeFilter: ['data-formulas'] });
    setTimeout(() => { watcher.disconnect(); resolve(); }, ms);
  });
}

let preparing;

/**
 * Makes every figure of the page ready to print: builds every widget and
 * waits until each has shown its model, has the training slider load and
 * draw its step, and waits for the formulas. Resolves when done; sets
 * data-print="ready" on the document. `say` reports what it waits for.
 */
export function preparePrint(say = () => {}) {
  preparing ??= (async () => {
    const all = widgets();
    for (const widget of all) widget.ensureBuilt();
    say('Drawing every figure…');
    const slider = all.find((widget) => typeof widget.prepareForPrint === 'function');
    await Promise.all([
      ...all.map((widget) => widget.updated),
      slider?.prepareForPrint().then(() => say('The training snapshots are in; drawing the rest…')),
      formulasDone(10000),
      layOutLaterParts(),
    ]);
    // The canvases far from the screen wait to be drawn (canvas.js): all of
    // them now, once the browser has reported their sizes in the parts just laid out.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    drawForPrint();
    document.documentElement.dataset.print = 'ready';
  })().finally(() => { preparing = undefined; });
  return preparing;
}

/**
 * Each canvas of the page drawn again, in `palette`'s colours (paper's, for
 * print) or, without one, as the screen shows it.
 */
function repaint(palette) {
  const ratio = window.devicePixelRatio || 1;
  const onCanvas = (canvas, draw) => {
    const context = canvas?.getContext('2d');
    if (!context || !canvas.clientWidth) return;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    draw(context, canvas.clientWidth, canvas.clientHeight);
  };
  for (const widget of widgets()) {
    if (!widget.model || widget.dataset.state !== 'ready') continue;
    for (const grid of [widget.grid, widget.wavesGrid]) {
      if (!grid?.canvas) continue;
      if (palette) onCanvas(grid.canvas, (context) => grid.paintInto(context, gridStyle(palette)));
      else grid.layout();
    }
    if (typeof widget.drawInto === 'function' && widget.map) {
      if (palette) onCanvas(widget.canvas, (context) => widget.drawInto(context, palette));
      else widget.draw();
    }
    if (widget.profile && widget.selected) {
      onCanvas(widget.profile, (context, width, height) => widget.drawProfileInto(context, width, height, palette ?? screenInk(widget)));
    }
    if (widget.chart && widget.numbers) {
      onCanvas(widget.chart, (context, width, height) => widget.drawChartInto(context, width, height, palette ?? screenInk(widget)));
    }
    const learning = widget.learnMap;
    if (learning?.positions) {
      if (palette) onCanvas(learning.canvas, (context, width, height) => learning.drawInto(context, width, height, palette));
      else learning.draw();
    }
  }
}

function screenInk(widget) {
  const style = getComputedStyle(widget);
  return { ink: style.color || '#222', font: style.fontFamily || 'sans-serif' };
}

const dark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

/**
 * Right before the browser lays the page out for print (which waits for
 * nothing): what is not drawn yet is marked, to be left out of the print
 * and said so; the canvases take paper's colours; and the figures left are
 * made now, for the next print.
 */
/** The canvases whose width beforePrint fixed, to give back after the print. */
let fixed = [];

function beforePrint() {
  drawForPrint();
  // Still loading (a widget that failed prints why it failed, as on screen).
  for (const widget of widgets()) widget.classList.toggle('ew-unprinted', widget.dataset.state === 'loading');
  // Each drawing prints at the width the screen shows it, never wider (a phone's, stretched to the paper's
  // column, would print its labels twice as large); one wider than the column shrinks to it, its shape kept.
  const canvases = [...document.querySelectorAll('.ew canvas')].filter((canvas) => canvas.clientWidth && !canvas.style.width);
  const widths = canvases.map((canvas) => canvas.clientWidth);
  canvases.forEach((canvas, i) => { canvas.style.width = `${widths[i]}px`; });
  fixed = canvases;
  const slider = $('#slider');
  const learning = slider?.learnMap;
  const sliderDrawn = slider?.dataset.state === 'ready' && learning?.showing === 'layout' && learning.shown === slider.index && slider.lossCurve?.svg;
  slider?.classList.toggle('ew-unprinted', !sliderDrawn);
  if (dark?.matches) repaint(PAPER);
  if (document.documentElement.dataset.print !== 'ready') preparePrint().catch(() => {});
}

function afterPrint() {
  for (const canvas of fixed) canvas.style.width = '';
  fixed = [];
  if (dark?.matches) repaint(undefined);
}

/** Prepares every figure, saying so in the status line, then opens the browser's print dialog. */
async function printChapter() {
  const status = $('#print-status');
  const say = (text) => { if (status) status.textContent = text; };
  say('Preparing the chapter for print…');
  document.documentElement.dataset.print = 'preparing';
  try {
    await preparePrint(say);
    say('');
  } catch (error) {
    say(`Some figures could not be made (${error.message}); printing the rest.`);
  }
  window.print();
}

/**
 * Ctrl+P (⌘P) and the Print button prepare the figures first; the browser's
 * menu prints at once. `preparePrint()` is also the page's global, for a
 * book's own PDF made by a headless browser: await it, then print.
 */
export function installPrinting() {
  window.preparePrint = () => preparePrint();
  window.addEventListener('beforeprint', beforePrint);
  window.addEventListener('afterprint', afterPrint);
  window.addEventListener('keydown', (event) => {
    if (event.key.toLowerCase() !== 'p' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    event.preventDefault();
    printChapter();
  }, { capture: true });
  $('#print')?.addEventListener('click', () => printChapter());
}
