// Canvases drawn in CSS pixels, sharp on any screen, and redrawn when their
// box changes size.

/**
 * The canvas's 2D context, its backing store sized to its CSS box times the
 * device's pixel ratio and scaled back, so that drawing is in CSS pixels;
 * with the box's width and height (the fallbacks before it is laid out).
 * The context is null where there is no canvas to draw on (jsdom,
 * happy-dom, a locked-down browser): the caller draws nothing then.
 */
export function cssPixelContext(canvas, fallbackWidth, fallbackHeight) {
  const width = canvas.clientWidth || fallbackWidth, height = canvas.clientHeight || fallbackHeight;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const context = canvas.getContext('2d');
  context?.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { context, width, height };
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
