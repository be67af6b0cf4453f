// The one object <ew-vocabulary-map>'s internals work through (geometry.js,
// drawing.js, input.js, words.js, axes-form.js), as Lit's ReactiveController
// works through its host's small interface: the element makes it, hands it to
// them, and keeps none of the map's state in fields of its own. The internals
// read and write its fields and call its methods, never the element's; what
// only the element does (pick a word, draw the reader's axes, zoom, reset,
// say what it shows) the state asks of it through the element's public API.
import { VOCABULARY_GROUPS } from '../parts/vocabulary-groups.js';

export class MapState {
  #host;

  /**
   * @param {HTMLElement} host the element: only its public API is used
   *   (model, draw, pick, setAxes, zoomBy, resetView, viewState, dispatchEvent).
   */
  constructor(host) {
    this.#host = host;

    // What the map shows.
    /** How the map is made: 'umap', 'pca' or 'axes' (from the element's attribute when it is built). */
    this.method = undefined;
    /** The map shown (a Matrix of vocabSize × 2), or undefined while none is. */
    this.map = undefined;
    /** The token picked, and its closest tokens by cosine (ids, best first). */
    this.picked = undefined;
    this.neighbours = undefined;
    /** A token lit up without being picked: { id, label }, or undefined. */
    this.lit = undefined;
    /** Whether the picked word and its neighbours are shown alone. */
    this.isolated = false;
    /** The reader's axes ({ from, to, upFrom?, upTo? }, token ids), and what axisMap made of them (word-axes.js). */
    this.axes = undefined;
    this.axisDetails = undefined;
    /** How long the map shown took to make, in ms (undefined: not said). */
    this.computeMs = undefined;
    /** The groups' token ids ({ key: ids }), each token's first group (id → group), and the keys of the groups marked. */
    this.groups = {};
    this.groupOf = new Map();
    this.shownGroups = new Set(VOCABULARY_GROUPS.map((g) => g.key));

    // The view (geometry.js).
    /** The canvas's size in CSS pixels, and its pixels per CSS pixel. */
    this.width = 0;
    this.height = 0;
    this.ratio = 1;
    /** The map's bounds fitted to the canvas: { fit, cx, cy, spanX, spanY }. */
    this.base = undefined;
    /** The zoom and the offsets (CSS pixels) on that; whether the view is the one first shown (fitted). */
    this.view = { scale: 1, x: 0, y: 0 };
    this.fitted = undefined;
    /** The frame that will say the view moved (requestAnimationFrame's id; 0: none). */
    this.viewFrame = 0;

    // The picture (drawing.js).
    /** The theme's colours: { ink, bg, muted, accent }. */
    this.colours = undefined;
    /** Each label drawn, { id, left, top, right, bottom }, and the ringed tokens whose labels had no room. */
    this.labelBoxes = [];
    this.leftOut = [];
    /** Texts' widths by font, measured once. */
    this.textWidths = new Map();

    // The reader's hands (input.js).
    /** The pointers down on the map: id → { x, y, startX, startY, type }. */
    this.pointers = new Map();
    /** Whether one finger moves the map; whether the wheel zooms it (after a click into it). */
    this.moveMode = false;
    this.wheelArmed = false;
    this.wheelHintTimer = undefined;

    /**
     * The element's parts that the internals fill in or listen to, set as
     * they are made: canvas, frame, tip, wheelHint, hoverText, legend,
     * listHeading, list, fitNote, and the axes' form (axesForm, axisBoxes,
     * axisExamples, axisNote; axes-form.js).
     */
    this.parts = {};
  }

  /** The model shown (undefined before the first). */
  get model() {
    return this.#host.model;
  }

  /** Draws the map as the view is now. */
  draw() {
    this.#host.draw();
  }

  /** Picks a token, as the reader does (`keepView`: the view stays where it is). */
  pick(id, options) {
    this.#host.pick(id, options);
  }

  /** Shows the map along the reader's own axes (token ids). */
  setAxes(axes) {
    return this.#host.setAxes(axes);
  }

  /** Zooms by `factor` around the picked word, as + and − do. */
  zoomBy(factor) {
    this.#host.zoomBy(factor);
  }

  /** The whole map again. */
  resetView() {
    this.#host.resetView();
  }

  /** What the reader sees, as the element's viewState says it. */
  get viewState() {
    return this.#host.viewState;
  }

  /** Says something happened: an event of the element's, of `type`, that bubbles. */
  tell(type, detail) {
    this.#host.dispatchEvent(new CustomEvent(type, { bubbles: true, detail }));
  }

  /** The element's computed style, where the theme's custom properties are read. */
  style() {
    return getComputedStyle(this.#host);
  }
}
