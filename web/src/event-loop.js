// Giving the event loop a turn between slices of long work (maps, large
// cosine maps), so that a page keeps answering while it computes.

/** A turn of the event loop: a macrotask, so rendering and input get their turn too. */
export function yieldToEventLoop() {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
      channel.port2.postMessage(0);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A turn of the event loop between the steps of work that goes on at once
 * (loading a model, showing it): scheduler.yield() where the browser has
 * it, whose continuation comes before the tasks queued meanwhile, so the
 * work is not pushed back behind them; elsewhere a turn as above. Either
 * way input and rendering get their turn, and no step holds the page.
 */
export function yieldToMain() {
  const scheduler = globalThis.scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return yieldToEventLoop();
}

/**
 * Runs `callback` once the browser has painted the frame it is about to
 * draw: a task queued from that frame's animation callbacks, which runs
 * after its paint. What a key or a tap causes beyond its own feedback (the
 * character in the box, the pressed button) goes here, so that the browser
 * paints the feedback at once and the rest a frame later (what the Event
 * Timing API counts for a key or a tap is the time to its next paint).
 * Without animation frames (Node, a hidden page's timers aside) it is a
 * turn of the event loop. Returns a function that cancels it.
 */
export function afterNextPaint(callback) {
  let cancelled = false;
  const run = () => { if (!cancelled) callback(); };
  if (typeof requestAnimationFrame !== 'function') {
    yieldToEventLoop().then(run);
  } else {
    requestAnimationFrame(() => { yieldToEventLoop().then(run); });
  }
  return () => { cancelled = true; };
}

export const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());
