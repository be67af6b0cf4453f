// The training slider's input before and beside the native range: a key,
// a click or a tap that comes before the snapshots are listed is kept and
// done once they are (the slider is enabled from the first paint, and
// loads on demand), and a click or tap on the line goes to the step nearest
// it. The line takes no pointer itself (widgets.css), so that a swipe over
// it scrolls the page; a click or tap lands on its box, here.
import { int } from './format.js';

/** The range's handle, as wide as Chromium and Firefox draw it by default (widgets.css leaves it so). */
const THUMB_WIDTH = 16;

/** A snapshot's step in words, for the line under the slider and its aria-valuetext: "step 160 of 2,000, …". */
export function stepWords(entry, last) {
  return `step ${int(entry.step)} of ${int(last.step)}` +
    (entry.step === 0 ? ', random numbers before any training' : '') +
    (entry.tokens_seen ? `, ${int(entry.tokens_seen)} tokens read` : '') +
    (entry.val_loss !== null && entry.val_loss !== undefined ? `, validation loss ${Number(entry.val_loss).toFixed(2)}` : '');
}

/** The index of a step's snapshot, or of the last one before it (the first for a step before all). */
export function indexOfStep(snapshots, step) {
  let found = 0;
  snapshots.forEach((entry, i) => { if (entry.step <= step) found = i; });
  return found;
}

export class StepInput {
  /**
   * @param slider the <ew-training-slider>: its range, rangeBox, snapshots,
   *   index, loading line and ask() (which starts the snapshots' load)
   * @param {{ go: (index: number) => void }} options how to go to a snapshot
   */
  constructor(slider, { go }) {
    this.slider = slider;
    this.go = go;
    /** What was asked for before the list: { by, to } from keys, or { fraction } from a click. */
    this.pending = undefined;
    slider.range.addEventListener('keydown', (event) => this.#key(event));
    slider.rangeBox.addEventListener('click', (event) => this.#clicked(event));
    slider.addEventListener('focusin', () => slider.ask());
  }

  /** A key on the range before the list: a step back or on, the first or the last, kept for later. */
  #key(event) {
    const slider = this.slider;
    if (slider.snapshots) return;
    const by = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -1, PageUp: 1 }[event.key];
    const to = { Home: 'first', End: 'last' }[event.key];
    if (by === undefined && to === undefined) return;
    event.preventDefault();
    slider.ask();
    const move = this.pending?.by !== undefined ? this.pending : { by: 0 };
    this.pending = to ? { to, by: 0 } : { ...move, by: move.by + by };
    slider.loading.textContent = 'Loading the list of training snapshots…';
  }

  /** A click or tap on the line (not on the handle, nor a step's button): the step nearest it. */
  #clicked(event) {
    const slider = this.slider;
    if (event.target === slider.range || event.target.closest?.('.ew-ticks')) return;
    const box = slider.range.getBoundingClientRect();
    if (event.clientY < box.top - 8 || event.clientY > box.bottom + 8) return;
    // The handle's middle runs from half its width inside the line's ends.
    const half = Math.min(box.width / 4, THUMB_WIDTH / 2);
    const fraction = Math.max(0, Math.min(1, (event.clientX - box.left - half) / Math.max(1, box.width - 2 * half)));
    if (!slider.snapshots) {
      slider.ask();
      this.pending = { fraction };
      slider.loading.textContent = 'Loading the list of training snapshots…';
      return;
    }
    const i = Math.round(fraction * (slider.snapshots.length - 1));
    if (i !== slider.index) this.go(i);
  }

  /**
   * Where the slider starts once its snapshots are listed: the step asked
   * for (`indexOfStep` of the slider's wantedStep), else the last, then any
   * key or click that came first.
   */
  startIndex(indexOfStep) {
    const slider = this.slider;
    const n = slider.snapshots.length;
    let start = slider.wantedStep === undefined ? n - 1 : indexOfStep(slider.wantedStep);
    const move = this.pending;
    if (move?.fraction !== undefined) start = Math.round(move.fraction * (n - 1));
    else if (move) start = (move.to === 'first' ? 0 : move.to === 'last' ? n - 1 : start) + move.by;
    slider.wantedStep = undefined;
    this.pending = undefined;
    return Math.max(0, Math.min(n - 1, start));
  }
}
