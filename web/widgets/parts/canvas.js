// Canvases drawn in CSS pixels, sharp on any screen.

/**
 * The canvas's 2D context, its backing store sized to its CSS box times the
 * device's pixel ratio and scaled back, so that drawing is in CSS pixels;
 * with the box's width and height (the fallbacks before it is laid out).
 */
export function cssPixelContext(canvas, fallbackWidth, fallbackHeight) {
  const width = canvas.clientWidth || fallbackWidth, height = canvas.clientHeight || fallbackHeight;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const context = canvas.getContext('2d');
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { context, width, height };
}
