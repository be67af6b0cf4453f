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

export const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());
