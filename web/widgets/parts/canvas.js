// Canvases drawn in CSS pixels, sharp on any screen, sized from what the
// browser reports after its own layout and redrawn when it reports a new
// size: reading a canvas's box while a widget builds or shows forced a
// layout of the whole page (212 ms of a phone's main thread for the row
// products, in one profiled load).

// The last size the browser reported for each watched canvas, in CSS pixels, and what draws it.
const sizes = new WeakMap();
const drawers = new WeakMap();
let watcher;

/**
 * Runs `draw()` each time the browser reports a new size for `canvas`
 * (its device-pixel box: after the browser's layout, so reading it costs
 * none), from the first report on; cssPixelContext then draws at that size.
 */
export function watchCanvas(canvas, draw) {
  drawers.set(canvas, draw);
  if (typeof ResizeObserver !== 'function') return;
  watchNearness(canvas);
  watcher ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      const ratio = window.devicePixelRatio || 1;
      const device = entry.devicePixelContentBoxSize?.[0];
      sizes.set(entry.target, device
        ? { width: device.inlineSize / ratio, height: device.blockSize / ratio }
        : { width: Math.round(entry.contentRect.width), height: Math.round(entry.contentRect.height) });
      drawers.get(entry.target)?.();
    }
  });
  try {
    watcher.observe(canvas, { box: 'device-pixel-content-box' });
  } catch {
    watcher.observe(canvas);  // a browser without device-pixel boxes
  }
}

// Whether each watched canvas is within a screen of the viewport, as the
// browser reports it (an IntersectionObserver: after its own layout, so
// reading it costs none). A canvas farther away, or in a part of the page
// whose rendering is skipped (content-visibility: auto, off screen), where
// reading a style forces that part's layout, is drawn when it comes near.
const near = new WeakMap();
const waiting = new WeakSet();
let nearness;

// Draws put off by drawWhenNear, by canvas: the latest one for each.
const putOff = new WeakMap();
const observed = new WeakSet();

/**
 * Starts asking the browser whether `canvas` is near the viewport, ahead of
 * its first drawWhenNear: a canvas first drawn from screens away (the
 * vocabulary map's, whose picture comes while the reader is at the top of
 * the page) is then put off from its first drawing on, where a canvas the
 * browser has not reported on yet is drawn at once.
 */
export function watchNearness(canvas) {
  if (typeof IntersectionObserver !== 'function' || observed.has(canvas)) return;
  observed.add(canvas);
  nearness ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      near.set(entry.target, entry.isIntersecting);
      if (!entry.isIntersecting) continue;
      if (waiting.has(entry.target)) {
        waiting.delete(entry.target);
        drawers.get(entry.target)?.();
      }
      const draw = putOff.get(entry.target);
      putOff.delete(entry.target);
      draw?.();
    }
  }, { rootMargin: '100% 0px' });
  nearness.observe(canvas);
}

/**
 * Runs `draw` now, or, where the browser has said `canvas` is more than a
 * screen from the viewport, once it comes near (the latest draw asked for
 * then): a widget that draws on its own canvas, re-pointed from far down the
 * page (the vocabulary map ringing a trace row's token), costs the tap that
 * did it nothing it cannot see. Until the browser's first report, and while
 * the page is printed, it draws at once.
 */
export function drawWhenNear(canvas, draw) {
  watchNearness(canvas);
  if (near.get(canvas) === false && !everywhere) {
    putOff.set(canvas, draw);
    return;
  }
  putOff.delete(canvas);
  draw();
}

// Set while the page is printed (drawForPrint): every watched canvas is
// drawn, near the viewport or not, for the paper shows them all.
let everywhere = false;

/**
 * The canvas's 2D context, its backing store sized to its CSS box times the
 * device's pixel ratio and scaled back, so that drawing is in CSS pixels;
 * with the box's width and height: the size the browser last reported for a
 * watched canvas (or the fallbacks, for a box of no size). The context is
 * null, and the caller draws nothing, where there is no canvas to draw on
 * (jsdom, happy-dom, a locked-down browser), and for a watched canvas before
 * the browser's first report of its size, which draws it, or while it is not
 * near the viewport (it is drawn when it comes near): until then it is not
 * seen, and reading its styles could force the layout this waits for.
 */
export function cssPixelContext(canvas, fallbackWidth, fallbackHeight) {
  const size = sizes.get(canvas);
  const width = size?.width || fallbackWidth, height = size?.height || fallbackHeight;
  if (drawers.has(canvas) && typeof ResizeObserver === 'function') {
    if (!size) return { context: null, width, height };
    const far = near.get(canvas) === false || (typeof IntersectionObserver === 'function' && !near.has(canvas));
    if (far && !everywhere) {
      waiting.add(canvas);
      return { context: null, width, height };
    }
  }
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const context = canvas.getContext('2d');
  context?.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { context, width, height };
}

/**
 * Draws every watched canvas of the document now, near the viewport or not,
 * and from then on each as it is asked: for a print, which shows them all.
 */
export function drawForPrint() {
  everywhere = true;
  for (const canvas of document.querySelectorAll('canvas')) {
    const draw = putOff.get(canvas);
    putOff.delete(canvas);
    draw?.();
    if (!waiting.has(canvas)) continue;
    waiting.delete(canvas);
    drawers.get(canvas)?.();
  }
}

/**
 * Calls `callback` each time `element`'s box changes size, as the browser
 * reports it after its own layout (no forced layout). Where there is no
 * ResizeObserver (jsdom, happy-dom) there is no layout either: nothing to redraw.
 */
export function whenResized(element, callback) {
  if (typeof ResizeObserver !== 'function') return undefined;
  const observer = new ResizeObserver(callback);
  observer.observe(element);
  return observer;
}
