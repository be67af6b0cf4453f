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

export const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());
