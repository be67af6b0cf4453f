// How <ew-vocabulary-map> follows the widget its `for` attribute names: a
// pick there (its ew-token event) is taken once the frame that shows that
// pick has been painted (afterNextPaint), as the map's picture is the larger
// work; a later pick replaces one still waiting. What the map is asked
// meanwhile settles a waiting pick first, so that nothing asked after it is
// undone: a view set takes it at once (the view then applies to it), a pick
// of the map's own drops it.
import { afterNextPaint } from '../../src/event-loop.js';

export class TargetFollower {
  #waiting = null;

  /** @param {{ target: Element | null, tokenId: number | undefined, pick(id: number): void }} map */
  constructor(map) {
    this.map = map;
    document.addEventListener('ew-token', (event) => {
      const id = event.detail?.id;
      if (event.target !== map.target || typeof id !== 'number') return;
      this.drop();
      this.#waiting = { id, cancel: afterNextPaint(() => this.flush()) };
    });
  }

  /** Takes a waiting pick now. */
  flush() {
    const waiting = this.#waiting;
    this.drop();
    if (waiting && waiting.id !== this.map.tokenId) this.map.pick(waiting.id);
  }

  /** Forgets a waiting pick. */
  drop() {
    this.#waiting?.cancel();
    this.#waiting = null;
  }
}
