// Keeping what a tap just changed on screen.

/**
 * Scrolls the page, only as far as needed, so that `element` (the line a
 * tap has just rewritten) is in view: on a phone it is often under the
 * bottom edge, and the reader would not see what the tap did.
 */
export function keepInView(element) {
  const still = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
}
