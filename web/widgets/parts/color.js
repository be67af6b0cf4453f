// The colour scale of every heat map, and its legend.
//
// Scale: Paul Tol's diverging "BuRd" (the same nine colours as ColorBrewer's
// RdBu), blue for negative, white for zero, red for positive. It was chosen
// because it stays readable with the common colour-vision deficiencies
// (deuteranopia, protanopia, tritanopia): its two arms differ in hue *and*
// get darker away from zero, so the sign and the size of a number survive
// even in greyscale-like vision. It avoids a red–green split, which about 1 in
// 12 men cannot see. Colour never carries a value alone: every cell's number
// is shown on hover, tap and keyboard focus.
//   https://personal.sron.nl/~pault/#sec:diverging
import { num } from './format.js';
import { widen } from '../../src/matrix.js';
import { tableRobustLimit } from '../../src/model/for-widgets.js';

const STOPS = ['#2166ac', '#4393c3', '#92c5de', '#d1e5f0', '#f7f7f7', '#fddbc7', '#f4a582', '#d6604d', '#b2182b'];
const SIZE = 256;

function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** 256 colours from −1 to 1 as packed RGBA (little-endian ABGR) for fast image fills. */
const packed = new Uint32Array(SIZE);
const rgbTable = [];
{
  const stops = STOPS.map(hexToRgb);
  for (let i = 0; i < SIZE; i++) {
    const t = (i / (SIZE - 1)) * (stops.length - 1);
    const k = Math.min(stops.length - 2, Math.floor(t));
    const f = t - k;
    const rgb = [0, 1, 2].map((j) => Math.round(stops[k][j] * (1 - f) + stops[k + 1][j] * f));
    rgbTable.push(rgb);
    packed[i] = (255 << 24) | (rgb[2] << 16) | (rgb[1] << 8) | rgb[0];
  }
}

function indexOf(value, limit) {
  const t = limit > 0 ? value / limit : 0;
  if (!(t === t)) return (SIZE - 1) >> 1; // NaN: the middle
  const clamped = t < -1 ? -1 : t > 1 ? 1 : t;
  return Math.round((clamped + 1) * 0.5 * (SIZE - 1));
}

/** The CSS colour of a value on a scale from −limit to +limit. */
export function colorOf(value, limit) {
  const [r, g, b] = rgbTable[indexOf(value, limit)];
  return `rgb(${r}, ${g}, ${b})`;
}

/** Whether dark text reads better than light text on a value's colour. */
export function darkTextOn(value, limit) {
  const [r, g, b] = rgbTable[indexOf(value, limit)];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140;
}

/**
 * A canvas of cols × rows pixels, one per number of a row-major table, for
 * drawing scaled up with smoothing off.
 */
export function tableImage(data, rows, cols, limit) {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, cols);
  canvas.height = Math.max(1, rows);
  if (rows === 0 || cols === 0) return canvas;
  const context = canvas.getContext('2d');
  if (!context) return canvas;  // no canvas to draw on (jsdom): the picture stays blank
  const image = context.createImageData(cols, rows);
  fillPixels(new Uint32Array(image.data.buffer), data, rows * cols, limit);
  context.putImageData(image, 0, 0);
  return canvas;
}

/**
 * An <img> of one row of numbers, one pixel per number (`cols` wide), for
 * a picture that never changes once made: a strip of the trace or of a row
 * product, drawn scaled up with smoothing off.
 *
 * An image rather than a canvas, because the browser keeps an image's
 * decoded pixels and paints them again at no cost, while a canvas on the
 * page is copied for the compositor again each time the part of the page
 * around it is repainted: a tap that put a line under the trace repainted
 * its 37 strip canvases and cost two frames of 60–100 ms on the phone
 * profile (CPU 4× slower), about 2 ms a canvas (docs/page.md).
 */
export function stripImage(data, cols, limit) {
  const pixels = new Uint32Array(Math.max(0, cols));
  fillPixels(pixels, data, pixels.length, limit);
  return pictureImage(rowImageURL(pixels));
}

/** An <img> showing `url` (none: blank), for stripImage and legend. */
function pictureImage(url) {
  const image = document.createElement('img');
  image.alt = '';
  image.decoding = 'sync';  // a row rebuilt as a key is typed shows its strip in the same frame
  image.draggable = false;
  if (url) image.src = url;
  return image;
}

/**
 * A data URL of one row of pixels (packed as fillPixels packs them): an
 * uncompressed 24-bit BMP, which every browser decodes. Written here
 * rather than by a canvas's PNG encoder, which took about 1.2 ms a strip on
 * the phone profile (96 ms of the page's load for its 80 strips, against
 * 0.13 ms so): the format is two fixed headers and the pixels' bytes. It
 * needs no canvas either, so a strip shows wherever an image does.
 */
function rowImageURL(pixels) {
  const cols = pixels.length;
  if (!cols) return '';
  const rowBytes = (cols * 3 + 3) & ~3;  // a row is padded to 4 bytes
  const bytes = new Uint8Array(54 + rowBytes);
  const header = new DataView(bytes.buffer);
  bytes[0] = 0x42;  // "BM"
  bytes[1] = 0x4d;
  header.setUint32(2, bytes.length, true);  // the file's size
  header.setUint32(10, 54, true);  // where the pixels start
  header.setUint32(14, 40, true);  // the info header's size (BITMAPINFOHEADER)
  header.setInt32(18, cols, true);
  header.setInt32(22, 1, true);  // one row
  header.setUint16(26, 1, true);  // one plane
  header.setUint16(28, 24, true);  // 24 bits a pixel, uncompressed (the rest stays 0)
  for (let i = 0, at = 54; i < cols; i++, at += 3) {
    const pixel = pixels[i];  // red in the low byte, then green, then blue
    bytes[at] = (pixel >>> 16) & 255;
    bytes[at + 1] = (pixel >>> 8) & 255;
    bytes[at + 2] = pixel & 255;
  }
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
  return `data:image/bmp;base64,${btoa(text)}`;
}

// The colour bar of every legend, made once.
let legendURL;

// The blocks of rows a RowImage keeps painted, in pixels: the token table
// of the shipped model (half a million numbers) whole, a real vocabulary's
// (Llama 3's 128,256 rows) in part.
export const KEPT_PIXELS = 1 << 23;
// Milliseconds of painting blocks per idle callback (paintRestWhenIdle).
const IDLE_SLICE_MS = 12;

/**
 * The picture of a tall table, painted a block of rows at a time: the rows
 * asked for at once (those on screen), others when the browser is idle.
 * The token table has half a million numbers; the first screenful needs
 * about a fiftieth of them. `read()` gives the table's numbers each time
 * (a view of WebAssembly memory can be replaced when the memory grows).
 * Each block is a canvas of its own, and only those near what was drawn
 * last are kept of a large table.
 *
 * Blocks, not one canvas for a whole small table: a block painted into a
 * canvas that a draw has just read makes the browser copy all of it (the
 * token table's first drawing took 46–60 ms on the phone profile with one
 * canvas of 4,096 rows, 13–22 ms with blocks); and one canvas for a whole
 * real table would be too tall for any browser (Chromium draws nothing on
 * a canvas over 65,535 pixels high, Safari on a phone nothing over 16
 * million pixels).
 */
export class RowImage {
  /**
   * @param {() => Float32Array | Uint16Array} read the table's numbers, row-major
   *   (a 16-bit table's bits: each block is widened as it is painted)
   * @param {number} rows
   * @param {number} cols
   * @param {number} limit the colour scale runs from −limit to +limit
   * @param {number} [blockRows]
   * @param {string} [dtype] the numbers' format, as a Matrix's dtype
   */
  constructor(read, rows, cols, limit, blockRows = 128, dtype = 'float32') {
    this.read = read;
    this.dtype = dtype;
    this.rows = rows;
    this.cols = cols;
    this.limit = limit;
    this.blockRows = blockRows;
    /** Painted blocks (block → canvas), the one drawn longest ago first. */
    this.blocks = new Map();
    this.painted = new Uint8Array(Math.ceil(rows / blockRows));
    this.left = this.painted.length;
  }

  /** Paints rows first … first + count − 1 if they are not yet. */
  ensureRows(first, count) {
    const last = Math.min(this.rows, first + count) - 1;
    const from = Math.max(0, Math.floor(first / this.blockRows)), to = Math.floor(last / this.blockRows);
    for (let block = from; block <= to; block++) {
      this.#paintBlock(block);
      if (this.blocks.has(block)) {
        // Drawn now: the last to go.
        const canvas = this.blocks.get(block);
        this.blocks.delete(block);
        this.blocks.set(block, canvas);
      }
    }
    this.#forget(from, to);
  }

  /**
   * Draws rows first … first + count − 1 into `context` at (x, y), `width`
   * wide and `rowHeight` a row, painting any not painted yet.
   */
  drawRows(context, first, count, x, y, width, rowHeight) {
    if (count <= 0) return;
    this.ensureRows(first, count);
    const end = Math.min(this.rows, first + count);
    for (let block = Math.floor(first / this.blockRows); block * this.blockRows < end; block++) {
      const top = Math.max(first, block * this.blockRows), bottom = Math.min(end, (block + 1) * this.blockRows);
      const canvas = this.blocks.get(block);
      if (canvas) {
        context.drawImage(canvas, 0, top - block * this.blockRows, this.cols, bottom - top,
          x, y + (top - first) * rowHeight, width, (bottom - top) * rowHeight);
      }
    }
  }

  /**
   * Paints the rest a few blocks at a time in idle time, nearest `row`
   * first: all of a small table, as many blocks around `row` as are kept of
   * a large one.
   */
  paintRestWhenIdle(row = 0) {
    if (!this.left || this.idle) return;
    const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback : (callback) => setTimeout(() => callback({ timeTaken: 0, timeRemaining: () => 8 }), 16);
    const start = Math.min(this.painted.length - 1, Math.max(0, Math.floor(row / this.blockRows)));
    const most = Math.max(1, Math.floor(KEPT_PIXELS / 2 / (this.blockRows * Math.max(1, this.cols))));
    const order = [];
    for (let step = 0; order.length < Math.min(most, this.painted.length); step++) {
      if (start + step < this.painted.length) order.push(start + step);
      if (step > 0 && start - step >= 0) order.push(start - step);
    }
    const work = (deadline) => {
      // The page is gone (an author's test whose DOM was torn down meanwhile): nothing to paint for.
      if (typeof document === 'undefined') return;
      // A few blocks, not the whole idle period: an idle period runs up to 50 ms,
      // and a key or a tap that comes meanwhile waits for it (the whole period
      // made tasks of 40–50 ms at 4×, 8–10 ms with this slice: docs/benchmarks.md).
      const start = performance.now();
      do {
        const block = order.shift();
        if (block === undefined) break;
        this.#paintBlock(block);
      } while (this.left && deadline.timeRemaining() > 3 && performance.now() - start < IDLE_SLICE_MS);
      this.idle = this.left && order.length ? idle(work) : 0;
    };
    this.idle = idle(work);
  }

  /** Lets go of the blocks drawn longest ago while more than KEPT_PIXELS are painted, keeping blocks from … to. */
  #forget(from, to) {
    const blockPixels = this.blockRows * this.cols;
    for (const block of this.blocks.keys()) {
      if (this.blocks.size * blockPixels <= KEPT_PIXELS) break;
      if (block >= from && block <= to) continue;
      this.blocks.delete(block);
      this.painted[block] = 0;
      this.left += 1;
    }
  }

  #paintBlock(block) {
    if (this.painted[block] || this.blank) return;
    const first = block * this.blockRows;
    const rows = Math.min(this.blockRows, this.rows - first);
    let data;
    try {
      data = this.read();
    } catch {
      return;  // a disposed model: nothing left to draw
    }
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, this.cols);
    canvas.height = rows;
    const context = canvas.getContext('2d');
    if (!context) {
      // No canvas to draw on (jsdom, happy-dom): the picture stays blank, and nothing is left to paint in idle time.
      this.blank = true;
      this.left = 0;
      return;
    }
    this.painted[block] = 1;
    this.left -= 1;
    this.blocks.set(block, canvas);
    const image = context.createImageData(this.cols, rows);
    const numbers = data.subarray(first * this.cols, (first + rows) * this.cols);
    fillPixels(new Uint32Array(image.data.buffer), this.dtype === 'float32' ? numbers : widen(numbers, this.dtype), rows * this.cols, this.limit);
    context.putImageData(image, 0, 0);
  }
}

/**
 * pixels[i] = the packed colour of data[i], for i < n: indexOf inlined, so
 * that the first call (half a million numbers for the token table, run
 * before V8 has optimised anything) is a plain loop without a call per number.
 * Same colours as indexOf, to the bit.
 */
function fillPixels(pixels, data, n, limit) {
  if (!(limit > 0)) {
    for (let i = 0; i < n; i++) pixels[i] = packed[indexOf(data[i], limit)];
    return;
  }
  const top = SIZE - 1, middle = packed[top >> 1], low = packed[0], high = packed[top];
  const half = top / 2;
  for (let i = 0; i < n; i++) {
    const t = data[i] / limit;
    pixels[i] = t > -1 ? (t < 1 ? packed[Math.round((t + 1) * half)] : high) : t <= -1 ? low : middle;
  }
}

/**
 * A symmetric limit for a table's colours: the 99.5th percentile of |x|, so a
 * few large numbers do not wash the rest out. Larger numbers get the end colours.
 * Read from a sample of about 20,000 numbers, evenly spaced. (The module
 * reads the same number of a loaded model's tables: robust_limit in
 * cpp/include/embeddings/formats/tables.h, tested against this.)
 */
export function robustLimit(data, dtype = 'float32') {
  const n = data.length;
  if (n === 0) return 1;
  const step = Math.max(1, Math.floor(n / 20000));
  const sample = new Float64Array(Math.ceil(n / step));
  for (let i = 0, k = 0; i < n; i += step, k++) sample[k] = data[i];
  // A 16-bit table's sample is its numbers' bits until widened.
  const values = dtype === 'float32' ? sample : widen(Uint16Array.from(sample), dtype);
  // The place the percentile has in the sorted sample; NaN sorts last
  // (as a typed array's sort puts it), so only the numbers are searched.
  const rank = Math.min(sample.length - 1, Math.floor(sample.length * 0.995));
  let numbers = 0;
  for (let k = 0; k < sample.length; k++) {
    const size = Math.abs(values[k]);
    if (size === size) sample[numbers++] = size;
  }
  if (rank >= numbers) return 1;  // NaN there: no scale to read
  const value = selectRank(sample, numbers, rank);
  return value > 0 ? value : 1;
}

const limits = new WeakMap();
/**
 * The colour limit of a model's token table, computed once: the token
 * table, the trace, the row products and the one-hot lookup colour their
 * rows by it alike.
 */
export function tableLimit(model) {
  let limit = limits.get(model);
  if (limit === undefined) {
    // A model loadModel() gave has it read already, by the module.
    limit = tableRobustLimit(model) ?? robustLimit(model.wte.data, model.wte.dtype);
    limits.set(model, limit);
  }
  return limit;
}

/**
 * The value at `rank` of values[0 … count − 1] once sorted (no NaN among
 * them), found by selection in O(count) on average rather than by sorting:
 * the first view of the token table waits for this. Reorders the values.
 */
export function selectRank(values, count, rank) {
  let low = 0, high = count - 1;
  while (high > low) {
    // The middle of three as the pivot: sorted or constant runs stay linear.
    const middle = (low + high) >>> 1;
    const a = values[low], b = values[middle], c = values[high];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
    // Three parts: below the pivot, equal to it, above it (equal values are many in a 16-bit table).
    let lt = low, i = low, gt = high;
    while (i <= gt) {
      const v = values[i];
      if (v < pivot) {
        values[i++] = values[lt];
        values[lt++] = v;
      } else if (v > pivot) {
        values[i] = values[gt];
        values[gt--] = v;
      } else {
        i++;
      }
    }
    if (rank < lt) high = lt - 1;
    else if (rank > gt) low = gt + 1;
    else return pivot;
  }
  return values[low];
}

/** A legend: the colour bar with its numbers at both ends and in the middle. */
export function legend(limit, { label = 'Colour scale', digits = 2 } = {}) {
  const figure = document.createElement('div');
  figure.className = 'ew-legend';
  figure.setAttribute('role', 'img');
  figure.setAttribute('aria-label', `${label}: blue is ${num(-limit, digits)} or less, white is 0, red is ${num(limit, digits)} or more`);
  // An image, as a strip is (stripImage says why), made once for every legend.
  legendURL ??= rowImageURL(packed);
  const bar = pictureImage(legendURL);
  bar.className = 'ew-legend-bar';
  const labels = document.createElement('div');
  labels.className = 'ew-legend-labels';
  for (const [text, name] of [[`${num(-limit, digits)} blue`, 'low'], ['0 white', 'zero'], [`${num(limit, digits)} red`, 'high']]) {
    const span = document.createElement('span');
    span.className = `ew-legend-${name}`;
    span.textContent = text;
    labels.append(span);
  }
  figure.append(bar, labels);
  return figure;
}
