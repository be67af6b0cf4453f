// A heat map on a canvas that mouse, touch and keyboard can all read: the
// drawing part of <ew-embedding-table> and <ew-position-map>.
//
// The whole table is painted into an image of one pixel per number (color.js
// tableImage, or RowImage, which paints each block of rows on a canvas of
// its own when it is first needed, and keeps only some blocks of a large table);
// each frame draws only the visible rows of it, scaled up with smoothing off. A tall table shows a window of its rows
// (a canvas over a spacer as tall as the table, in a box that does not
// scroll by itself), moved by its "earlier / later rows" buttons, the
// keyboard or a search (a number is a row id): so a swipe or a wheel over the table
// always scrolls the page, never traps the reader. A square map shows whole.
// On a touch screen a tap opens a loupe (loupe.js) with the numbers around
// the tapped cell, big enough for a finger, next to the finger.
//
// The grid never asks for a layout while a page is building: its size comes
// from the ResizeObserver (which reports after the browser's own layout),
// and the first picture and any scroll asked for before that wait for it.
// Reading a size while other widgets are still adding to the page would make
// the browser lay out the whole long page again, once per read.
import { el, uniqueId } from './dom.js';
import { int } from './format.js';
import { Loupe, neighbourhood } from './loupe.js';
import { paintCells, paintColumnLabels, paintMarks, paintRowLabels } from './heat-grid-paint.js';
import { whenResized } from './canvas.js';
import { yieldToEventLoop } from '../../src/event-loop.js';

const ZOOMS = [1, 2, 3, 4, 6, 8, 12, 16, 24];

// The labels' colours follow the page's colour scheme: a change of scheme
// makes every grid read its colours again.
let schemeGeneration = 0;
if (typeof matchMedia === 'function') {
  matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => { schemeGeneration += 1; });
}

export class HeatGrid {
  /**
   * @param {{
   *   rows: number, cols: number,
   *   image: CanvasImageSource | { canvas: CanvasImageSource, ensureRows(first: number, count: number): void },
   *   value: (r: number, c: number) => number,
   *   describe: (r: number, c: number, value: number) => string,
   *   rowLabel?: (r: number, short: boolean) => string,
   *   colLabel?: (c: number) => string,
   *   square?: boolean, rowHeight?: number, label: string, help?: string, digits?: number,
   *   onSelect?: (r: number, c: number) => void,
   * }} options
   */
  constructor(options) {
    this.options = options;
    this.rows = options.rows;
    this.cols = options.cols;
    this.image = options.image;
    this.square = Boolean(options.square);
    this.rowHeight = options.rowHeight ?? 4;
    this.cursor = null;
    this.hover = null;
    this.highlighted = null;
    this.frame = 0;
    this.paints = 0;            // paints done or asked for (a paint asked for runs if none came since)
    this.size = null;           // the viewport's client box, { width, height }, once measured
    this.pendingScroll = null;  // a scroll asked for before the first measure
    this.style = null;          // colours and font of the labels, read once per layout
    this.paintedScrollTop = null;  // the scroll position the canvas shows

    this.#build();
    this.#listen();
    this.#updateZoomLabel();
  }

  /** The canvas in its viewport, the readout and help, and a tall table's toolbars. */
  #build() {
    const { options } = this;
    const helpId = uniqueId('ew-grid-help');
    this.canvas = el('canvas', { className: 'ew-grid-canvas', 'aria-hidden': 'true' });
    this.spacer = el('div', { className: 'ew-grid-spacer' });
    this.viewport = el('div', {
      className: `ew-grid-viewport${this.square ? ' ew-grid-square' : ''}`,
      tabIndex: 0,
      role: 'application',
      'aria-roledescription': 'heat map',
      'aria-label': options.label,
      'aria-describedby': helpId,
    }, this.canvas, this.spacer);
    this.tip = el('div', { className: 'ew-grid-tip', 'aria-hidden': 'true', hidden: true });
    this.readout = el('p', { className: 'ew-grid-readout ew-prompt', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.readout.textContent = options.prompt ?? 'Tap or click a cell, or focus the map and use the arrow keys, to read its number.';
    const help = el('p', { className: 'ew-grid-help', id: helpId, textContent: options.help ??
      (this.square
        ? 'Arrow keys move between cells; Home and End go to the ends of a row.'
        : 'Arrow keys move between cells; Page Up and Page Down move a screenful; Home and End go to the ends of a row, with Ctrl to the first and last rows; + and − zoom.') });
    this.element = el('div', { className: 'ew-grid' });
    if (!this.square) this.#buildToolbars();
    this.loupe = new Loupe({ label: `${options.label}: the numbers around the tapped cell`, onPick: (r, c) => this.#loupeAt(r, c) });
    this.element.append(this.viewport, this.tip, this.readout, help);
  }

  /** Zoom and the window of rows: a tall table's two toolbars. */
  #buildToolbars() {
    this.zoomOut = el('button', { type: 'button', className: 'ew-button', textContent: '−', 'aria-label': 'Zoom out: thinner rows' });
    this.zoomIn = el('button', { type: 'button', className: 'ew-button', textContent: '+', 'aria-label': 'Zoom in: taller rows' });
    this.zoomLabel = el('span', { className: 'ew-grid-zoom' });
    this.zoomOut.addEventListener('click', () => this.zoom(-1));
    this.zoomIn.addEventListener('click', () => this.zoom(1));
    this.earlier = el('button', { type: 'button', className: 'ew-button', textContent: '▲ Earlier rows' });
    this.later = el('button', { type: 'button', className: 'ew-button', textContent: '▼ Later rows' });
    this.earlier.addEventListener('click', () => this.#page(-1));
    this.later.addEventListener('click', () => this.#page(1));
    // No slider: a finger swiping the page over it would move the rows instead.
    this.windowLabel = el('span', { className: 'ew-grid-rows' });
    this.element.append(
      el('div', { className: 'ew-grid-toolbar' }, this.zoomOut, this.zoomIn, this.zoomLabel),
      el('div', { className: 'ew-grid-toolbar ew-grid-window' }, this.earlier, this.later, this.windowLabel));
  }

  /** Scroll, pointer, keyboard and focus, and the viewport's size as the browser reports it. */
  #listen() {
    // A scroll the grid made itself (to the picked row, as it lays out) has
    // been painted already: the event comes after, and would paint it twice.
    this.viewport.addEventListener('scroll', () => {
      if (this.viewport.scrollTop !== this.paintedScrollTop) this.draw();
    }, { passive: true });
    this.viewport.addEventListener('pointermove', (event) => this.#pointerMove(event));
    this.viewport.addEventListener('pointerleave', () => this.#setHover(null));
    this.viewport.addEventListener('pointerdown', (event) => { this.lastPointer = event.pointerType; }, { passive: true });
    this.viewport.addEventListener('click', (event) => {
      const cell = this.#cellAt(event);
      const touch = (event.pointerType || this.lastPointer) === 'touch';
      if (cell) {
        this.select(cell.r, cell.c);
        if (touch) this.#openLoupe(event.clientX, event.clientY);
        return;
      }
      const row = this.#labelAt(event);
      if (row !== null) this.options.onRowLabel?.(row);
    });
    this.viewport.addEventListener('keydown', (event) => this.#key(event));
    this.viewport.addEventListener('focus', () => this.draw());
    this.viewport.addEventListener('blur', () => this.draw());
    // Sizes are read when the browser reports them, after its own layout: no
    // forced layout. That report comes inside the frame that laid the grid
    // out: the first one only takes the size; the sizes are set in a task
    // of its own after it and the first picture (40-90 ms at 4x slower)
    // painted in the next, so neither joins that frame, nor do the other
    // grids' reports lay the page out again to read their sizes after this
    // one's writes. A report of the height a square grid set itself is let
    // go; a later new size lays out and paints at once.
    this.resizeObserver = whenResized(this.viewport, () => {
      const before = this.size;
      this.#measure();
      if (!before) this.#inNextTask(() => this.layout({ paintLater: true }));
      else if (before.width !== this.size.width || (!this.square && before.height !== this.size.height)) this.layout();
    });
  }

  #measure() {
    this.size = { width: this.viewport.clientWidth, height: this.viewport.clientHeight };
  }

  /** Sizes of the drawing in CSS pixels. */
  #metrics() {
    // Before the first report (an event that came first, say), measure now.
    if (!this.size) this.#measure();
    const width = this.size.width || 300;
    const narrow = width < 480;
    const left = this.options.rowLabel ? (this.square ? 30 : narrow ? 56 : 104) : 0;
    const top = 18;
    const cellWidth = Math.max(0.5, (width - left) / Math.max(1, this.cols));
    const rowHeight = this.square ? cellWidth : this.rowHeight;
    const height = this.square ? Math.ceil(top + rowHeight * this.rows + 7) : (this.size.height || 300);
    return { width, height, left, top, cellWidth, rowHeight, narrow };
  }

  /**
   * Recomputes sizes after a resize or zoom and redraws at once (paintLater:
   * in the next task). Before the first measure, which lays it out, nothing.
   */
  layout({ paintLater = false } = {}) {
    if (!this.size) return;
    const m = this.#metrics();
    // Read before the sizes are written: after them, it would restyle the page.
    this.style = null;
    this.#labelStyle();
    if (this.square) {
      this.viewport.style.height = `${m.height}px`;
      this.spacer.style.height = '0px';
    } else {
      this.spacer.style.height = `${Math.max(0, m.top + this.rows * m.rowHeight - m.height)}px`;
    }
    this.canvas.style.height = `${m.height}px`;
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(m.width * ratio);
    this.canvas.height = Math.round(m.height * ratio);
    if (this.pendingScroll) {
      const { row, centre } = this.pendingScroll;
      this.pendingScroll = null;
      this.#scrollTo(row, centre);
    }
    // Drawn now rather than on the next frame: after a resize the canvas is blank until drawn.
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    if (paintLater) this.#inNextTask(() => this.#paint());
    else this.#paint();
  }

  /** Runs `job` (a layout or a paint) in a task of its own, unless a paint comes first. */
  #inNextTask(job) {
    const asked = ++this.paints;
    yieldToEventLoop().then(() => {
      if (this.paints === asked) job();
    });
  }

  /** Replaces the picture (same shape), e.g. for another training step. */
  setImage(image, value) {
    this.image = image;
    if (value) this.options.value = value;
    if (this.cursor) this.#announce(this.cursor.r, this.cursor.c);
    this.draw();
  }

  zoom(direction) {
    const at = ZOOMS.indexOf(this.rowHeight);
    const next = ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, (at < 0 ? 3 : at) + direction))];
    if (next === this.rowHeight) return;
    const m = this.#metrics();
    const centreRow = this.cursor?.r ?? this.highlighted ?? (this.viewport.scrollTop + (m.height - m.top) / 2) / m.rowHeight;
    this.rowHeight = next;
    this.layout();
    this.#scrollTo(centreRow, true);
    this.#updateZoomLabel();
  }

  #updateZoomLabel() {
    if (!this.zoomLabel) return;
    this.zoomLabel.textContent = `${this.rowHeight} px a row`;
    this.zoomOut.disabled = this.rowHeight === ZOOMS[0];
    this.zoomIn.disabled = this.rowHeight === ZOOMS[ZOOMS.length - 1];
  }

  /** Marks a row (a picked token) and scrolls it to the middle. */
  highlightRow(r) {
    this.highlighted = r;
    if (r !== null && r !== undefined) {
      this.#scrollTo(r, true);
      this.select(r, this.cursor?.c ?? 0, { scroll: false });
    }
    this.draw();
  }

  /** Puts the cursor on a cell, says its number and tells the owner. */
  select(r, c, { scroll = true } = {}) {
    r = Math.max(0, Math.min(this.rows - 1, r));
    c = Math.max(0, Math.min(this.cols - 1, c));
    this.cursor = { r, c };
    if (scroll) this.#scrollTo(r, false);
    this.#announce(r, c);
    this.options.onSelect?.(r, c);
    this.draw();
  }

  #announce(r, c) {
    this.readout.classList.remove('ew-prompt');
    this.readout.textContent = this.options.describe(r, c, this.options.value(r, c));
  }

  /** Moves the row window by a windowful (direction −1 or 1), keeping a row of overlap. */
  #page(direction) {
    const m = this.#metrics();
    const visible = Math.max(1, Math.floor((m.height - m.top) / m.rowHeight) - 1);
    this.viewport.scrollTop += direction * visible * m.rowHeight;
    this.draw();
  }

  /** The first and last rows in the window, and the state of its controls. */
  #updateWindow(first, last) {
    /** The first and last rows the window shows whole. */
    this.window = { first, last };
    if (!this.windowLabel) return;
    const text = `Rows ${int(first)}–${int(last)} of ${int(this.rows)}`;
    if (this.windowLabel.textContent !== text) this.windowLabel.textContent = text;
    this.earlier.disabled = first <= 0;
    this.later.disabled = last >= this.rows - 1;
  }

  #openLoupe(x, y, stay = false) {
    if (!this.cursor || !this.options.limit) return;
    const { r, c } = this.cursor;
    const rows = neighbourhood(r, 2, this.rows), cols = neighbourhood(c, 2, this.cols);
    const rowName = this.options.loupeRowLabel ?? ((row) => String(row));
    const colName = this.options.loupeColLabel ?? ((col) => `col ${col}`);
    this.loupe.show({
      x, y, stay,
      host: this.element,
      anchor: this.viewport,
      title: this.options.describe(r, c, this.options.value(r, c)),
      limit: this.options.limit,
      digits: this.options.digits,
      colLabels: cols.map(colName),
      rows: rows.map((row) => ({
        label: rowName(row),
        cells: cols.map((col) => ({ r: row, c: col, value: this.options.value(row, col), current: row === r && col === c })),
      })),
    });
  }

  /** A tap in the loupe: moves the cursor there and shows the loupe around it, where it was (under the finger, rather than jumping after the cell). */
  #loupeAt(r, c) {
    this.select(r, c, { scroll: false });
    this.#openLoupe(0, 0, true);
  }

  #scrollTo(row, centre) {
    if (this.square) return;
    if (!this.size) {
      // Not laid out yet: scroll once it is (setting scrollTop now would force a layout).
      this.pendingScroll = { row, centre: centre || Boolean(this.pendingScroll?.centre) };
      return;
    }
    const m = this.#metrics();
    const visible = m.height - m.top;
    const y = row * m.rowHeight;
    const top = this.viewport.scrollTop;
    if (centre) this.viewport.scrollTop = y - visible / 2 + m.rowHeight / 2;
    else if (y < top) this.viewport.scrollTop = y;
    else if (y + m.rowHeight > top + visible) this.viewport.scrollTop = y + m.rowHeight - visible;
  }

  /** The centre of a cell in client (viewport) coordinates, scrolling it into view first. */
  cellPoint(r, c) {
    this.#scrollTo(r, false);
    this.viewport.scrollIntoView?.({ block: 'nearest' });
    return this.#clientPoint(r, c);
  }

  #clientPoint(r, c) {
    const m = this.#metrics();
    const box = this.viewport.getBoundingClientRect();
    const scrollTop = this.square ? 0 : this.viewport.scrollTop;
    return {
      x: box.left + this.viewport.clientLeft + m.left + (c + 0.5) * m.cellWidth,
      y: box.top + this.viewport.clientTop + m.top + (r + 0.5) * m.rowHeight - scrollTop,
    };
  }

  #cellAt(event) {
    const m = this.#metrics();
    const box = this.viewport.getBoundingClientRect();
    const x = event.clientX - box.left - this.viewport.clientLeft, y = event.clientY - box.top - this.viewport.clientTop;
    if (x < m.left || y < m.top || x >= m.width) return null;
    const c = Math.floor((x - m.left) / m.cellWidth);
    const r = Math.floor((y - m.top + (this.square ? 0 : this.viewport.scrollTop)) / m.rowHeight);
    if (r < 0 || r >= this.rows || c < 0 || c >= this.cols) return null;
    return { r, c, x, y };
  }

  /** The row whose label is under the pointer, or null. */
  #labelAt(event) {
    const m = this.#metrics();
    const box = this.viewport.getBoundingClientRect();
    const x = event.clientX - box.left - this.viewport.clientLeft, y = event.clientY - box.top - this.viewport.clientTop;
    if (x >= m.left || y < m.top) return null;
    const r = Math.floor((y - m.top + (this.square ? 0 : this.viewport.scrollTop)) / m.rowHeight);
    return r >= 0 && r < this.rows ? r : null;
  }

  #pointerMove(event) {
    if (event.pointerType === 'touch') return;
    const cell = this.#cellAt(event);
    const label = !cell && this.options.onRowLabel && this.#labelAt(event) !== null;
    this.viewport.style.cursor = cell ? 'crosshair' : label ? 'pointer' : '';
    this.#setHover(cell);
  }

  #setHover(cell) {
    const before = this.hover;
    this.hover = cell;
    if (!cell) {
      this.tip.hidden = true;
    } else {
      this.tip.textContent = this.options.describe(cell.r, cell.c, this.options.value(cell.r, cell.c));
      this.tip.hidden = false;
      const width = this.#metrics().width;
      const tipWidth = this.tip.offsetWidth;
      const left = cell.x + 14 + tipWidth > width ? Math.max(0, cell.x - 14 - tipWidth) : cell.x + 14;
      this.tip.style.left = `${left}px`;
      this.tip.style.top = `${this.viewport.offsetTop + cell.y + 16}px`;
    }
    if (before?.r !== cell?.r || before?.c !== cell?.c) this.draw();
  }

  #key(event) {
    const m = this.#metrics();
    const page = Math.max(1, Math.floor((m.height - m.top) / m.rowHeight) - 1);
    let { r, c } = this.cursor ?? { r: this.highlighted ?? Math.floor(this.viewport.scrollTop / m.rowHeight), c: 0 };
    const had = Boolean(this.cursor);
    switch (event.key) {
      case 'ArrowLeft': if (had) c -= 1; break;
      case 'ArrowRight': if (had) c += 1; break;
      case 'ArrowUp': if (had) r -= 1; break;
      case 'ArrowDown': if (had) r += 1; break;
      case 'PageUp': r -= page; break;
      case 'PageDown': r += page; break;
      case 'Home': if (event.ctrlKey || event.metaKey) r = 0; c = 0; break;
      case 'End': if (event.ctrlKey || event.metaKey) r = this.rows - 1; c = this.cols - 1; break;
      case 'Enter': case ' ': break;
      case '+': case '=': if (this.square) return; this.zoom(1); event.preventDefault(); return;
      case '-': case '_': if (this.square) return; this.zoom(-1); event.preventDefault(); return;
      default: return;
    }
    event.preventDefault();
    this.select(r, c);
  }

  /** Redraws on the next animation frame (many calls, one drawing). */
  draw() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.#paint();
    });
  }

  /**
   * The labels' ink, background and font, read once per layout or change of
   * colour scheme (reading them may force a style pass of the whole page).
   */
  #labelStyle() {
    if (!this.style || this.style.generation !== schemeGeneration) {
      const computed = getComputedStyle(this.viewport);
      this.style = { color: computed.color, backgroundColor: computed.backgroundColor, fontFamily: computed.fontFamily, generation: schemeGeneration };
    }
    return this.style;
  }

  #paint() {
    // Not measured yet: the first measure lays the grid out and paints it.
    if (!this.size) return;
    this.paints += 1;  // a paint asked for in the next task is not needed now
    const m = this.#metrics();
    const ratio = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.round(m.width * ratio) || this.canvas.height !== Math.round(m.height * ratio)) {
      this.layout();
      return;
    }
    const context = this.canvas.getContext('2d');
    if (!context) return;  // no canvas to draw on (jsdom): the readout still says each number
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    this.paintInto(context);
  }

  /** The size of the picture the canvas shows, in CSS pixels: { width, height }. */
  get pictureSize() {
    const { width, height } = this.#metrics();
    return { width, height };
  }

  /**
   * Draws the picture the canvas shows (the rows in its window, the marks and
   * the labels) into any 2D context, in CSS pixels: the canvas's, or a
   * figure's (figure-export.js), whose `style` gives the labels' colours and font.
   */
  paintInto(context, style = this.#labelStyle()) {
    const m = this.#metrics();
    context.clearRect(0, 0, m.width, m.height);
    // Everything read from the page first, before the window's label is
    // written: a read after that write would make the browser restyle.
    const scrollTop = this.square ? 0 : this.viewport.scrollTop;
    this.paintedScrollTop = scrollTop;
    const gridHeight = m.height - m.top;
    const first = Math.max(0, Math.floor(scrollTop / m.rowHeight));
    const offset = scrollTop - first * m.rowHeight;
    const count = Math.max(0, Math.min(this.rows - first, Math.ceil((gridHeight + offset) / m.rowHeight) + 1));
    const whole = Math.max(1, Math.floor(gridHeight / m.rowHeight));
    this.#updateWindow(first, Math.min(this.rows - 1, Math.floor(scrollTop / m.rowHeight) + whole - 1));
    // What every part of the picture shares: the rows on screen and where a row lands.
    const view = {
      m, first, count, gridHeight,
      gridWidth: m.cellWidth * this.cols,
      yOf: (r) => m.top + r * m.rowHeight - scrollTop,
    };

    context.save();
    context.beginPath();
    context.rect(m.left, m.top, m.width - m.left, gridHeight);
    context.clip();
    paintCells(context, view, this);
    paintMarks(context, view, this);
    context.restore();

    // Labels: row names on the left, column numbers on top.
    context.fillStyle = style.color || '#222';
    context.textBaseline = 'middle';
    context.font = `12px ${style.fontFamily || 'system-ui, sans-serif'}`;
    if (this.options.rowLabel && m.left > 0) paintRowLabels(context, view, style, this);
    if (this.options.colLabel) paintColumnLabels(context, view, this);
  }
}
