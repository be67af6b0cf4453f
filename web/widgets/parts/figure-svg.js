// A drawing context that writes SVG: the part of CanvasRenderingContext2D the
// widgets draw with (rectangles, paths, arcs, text, clipping, images drawn
// with smoothing off), recorded as SVG elements, so that the same drawing
// code that paints a widget's canvas also writes its figure for a book:
// vector shapes, text as <text>, and a canvas drawn into it (a heat map's
// picture of one pixel per number) as one rectangle per run of equal
// pixels, each in its number's colour.

const ALIGN = { left: 'start', start: 'start', center: 'middle', right: 'end', end: 'end' };
const BASELINE = { top: 'text-before-edge', hanging: 'hanging', middle: 'central', alphabetic: 'auto', ideographic: 'ideographic', bottom: 'text-after-edge' };

/** Text and attribute values as XML wants them. */
export function escapeXml(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A number in SVG, to 2 decimals (a hundredth of a CSS pixel), without trailing zeros. */
function n(x) {
  return String(Math.round(x * 100) / 100);
}

/** A CSS colour as SVG 1.1 takes it: rgba() is split into rgb() and its opacity. */
function paint(colour) {
  const rgba = /^rgba\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)[\s,/]+([\d.]+%?)\s*\)$/.exec(String(colour));
  if (!rgba) return { colour: String(colour), opacity: 1 };
  const alpha = rgba[4].endsWith('%') ? parseFloat(rgba[4]) / 100 : Number(rgba[4]);
  return { colour: `rgb(${rgba[1]}, ${rgba[2]}, ${rgba[3]})`, opacity: alpha };
}

/** A canvas font ("bold 12px system-ui, sans-serif") as SVG text attributes. */
export function fontAttributes(font) {
  const match = /^\s*((?:(?:italic|oblique|normal|bold|bolder|lighter|small-caps|\d{3})\s+)*)([\d.]+)px\s+(.+)$/.exec(font);
  if (!match) return 'font-size="10" font-family="sans-serif"';
  const words = match[1].trim().split(/\s+/).filter(Boolean);
  const weight = words.find((w) => /^(bold|bolder|lighter|\d{3})$/.test(w));
  const style = words.find((w) => w === 'italic' || w === 'oblique');
  return `font-size="${n(Number(match[2]))}" font-family="${escapeXml(match[3])}"` +
    `${weight ? ` font-weight="${weight}"` : ''}${style ? ` font-style="${style}"` : ''}`;
}

let measurer;
/** A 2D context to measure text with, or null where there is no canvas. */
function measuringContext() {
  if (measurer === undefined) {
    measurer = null;
    try {
      const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
      measurer = canvas.getContext('2d');
    } catch {
      measurer = null;
    }
  }
  return measurer;
}

/** The pixels of a region of a canvas (or of an image, drawn onto one first); null where there is no canvas to read. */
function pixelsOf(image, sx, sy, sw, sh) {
  let source = image;
  if (typeof image.getContext !== 'function') {
    source = document.createElement('canvas');
    source.width = image.width;
    source.height = image.height;
    source.getContext('2d')?.drawImage(image, 0, 0);
  }
  return source.getContext('2d')?.getImageData(sx, sy, sw, sh) ?? null;
}

const IDENTITY = [1, 0, 0, 1, 0, 0];

/**
 * Records drawing as SVG. Use it as a canvas's 2D context, then toSvg().
 * Coordinates are CSS pixels; setTransform, scale and translate apply to
 * what follows, as on a canvas.
 */
export class SvgContext {
  constructor() {
    this.fillStyle = '#000';
    this.strokeStyle = '#000';
    this.lineWidth = 1;
    this.lineJoin = 'miter';
    this.lineCap = 'butt';
    this.font = '10px sans-serif';
    this.textAlign = 'start';
    this.textBaseline = 'alphabetic';
    this.globalAlpha = 1;
    this.imageSmoothingEnabled = true;
    this.dash = [];
    this.matrix = IDENTITY;
    this.path = '';
    this.root = { children: [] };
    this.group = this.root;
    this.states = [];
    this.clips = [];
  }

  // ---- state ---------------------------------------------------------------------

  save() {
    this.states.push({
      fillStyle: this.fillStyle, strokeStyle: this.strokeStyle, lineWidth: this.lineWidth, lineJoin: this.lineJoin,
      lineCap: this.lineCap, font: this.font, textAlign: this.textAlign, textBaseline: this.textBaseline,
      globalAlpha: this.globalAlpha, imageSmoothingEnabled: this.imageSmoothingEnabled, dash: this.dash,
      matrix: this.matrix, group: this.group,
    });
  }

  restore() {
    const state = this.states.pop();
    if (state) Object.assign(this, state);
  }

  setTransform(a, b, c, d, e, f) {
    this.matrix = typeof a === 'object' ? [a.a, a.b, a.c, a.d, a.e, a.f] : [a, b, c, d, e, f];
  }

  resetTransform() {
    this.matrix = IDENTITY;
  }

  transform(a, b, c, d, e, f) {
    const [p, q, r, s, t, u] = this.matrix;
    this.matrix = [p * a + r * b, q * a + s * b, p * c + r * d, q * c + s * d, p * e + r * f + t, q * e + s * f + u];
  }

  scale(x, y) {
    this.transform(x, 0, 0, y, 0, 0);
  }

  translate(x, y) {
    this.transform(1, 0, 0, 1, x, y);
  }

  setLineDash(segments) {
    this.dash = [...segments];
  }

  getLineDash() {
    return [...this.dash];
  }

  measureText(text) {
    const context = measuringContext();
    if (context) {
      context.font = this.font;
      return context.measureText(text);
    }
    const size = Number(/([\d.]+)px/.exec(this.font)?.[1] ?? 10);
    return { width: String(text).length * size * 0.55 };
  }

  // ---- output ----------------------------------------------------------------------

  #transformAttribute() {
    const m = this.matrix;
    return m.every((v, i) => v === IDENTITY[i]) ? '' : ` transform="matrix(${m.map(n).join(' ')})"`;
  }

  #emit(markup) {
    this.group.children.push(markup);
  }

  #opacity(extra = 1) {
    const alpha = this.globalAlpha * extra;
    return alpha < 1 ? ` opacity="${n(alpha)}"` : '';
  }

  #fillAttributes(style) {
    const { colour, opacity } = paint(style);
    return `fill="${escapeXml(colour)}"${this.#opacity(opacity)}`;
  }

  #strokeAttributes(style) {
    const { colour, opacity } = paint(style);
    const dash = this.dash.length ? ` stroke-dasharray="${this.dash.map(n).join(' ')}"` : '';
    const join = this.lineJoin === 'miter' ? '' : ` stroke-linejoin="${this.lineJoin}"`;
    const cap = this.lineCap === 'butt' ? '' : ` stroke-linecap="${this.lineCap}"`;
    return `fill="none" stroke="${escapeXml(colour)}" stroke-width="${n(this.lineWidth)}"${dash}${join}${cap}${this.#opacity(opacity)}`;
  }

  // ---- rectangles --------------------------------------------------------------------

  /** The canvas's own clearing: a figure has its background under everything, so nothing is drawn. */
  clearRect() {}

  fillRect(x, y, width, height) {
    this.#emit(`<rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" ${this.#fillAttributes(this.fillStyle)}${this.#transformAttribute()}/>`);
  }

  strokeRect(x, y, width, height) {
    this.#emit(`<rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" ${this.#strokeAttributes(this.strokeStyle)}${this.#transformAttribute()}/>`);
  }

  // ---- paths -------------------------------------------------------------------------------

  beginPath() {
    this.path = '';
  }

  moveTo(x, y) {
    this.path += `M${n(x)} ${n(y)}`;
  }

  lineTo(x, y) {
    this.path += `${this.path ? 'L' : 'M'}${n(x)} ${n(y)}`;
  }

  closePath() {
    if (this.path) this.path += 'Z';
  }

  rect(x, y, width, height) {
    this.path += `M${n(x)} ${n(y)}h${n(width)}v${n(height)}h${n(-width)}Z`;
  }

  arc(x, y, radius, start, end, anticlockwise = false) {
    const point = (angle) => [x + radius * Math.cos(angle), y + radius * Math.sin(angle)];
    let sweep = anticlockwise ? start - end : end - start;
    if (sweep >= 2 * Math.PI || sweep <= -2 * Math.PI) {
      // A whole circle: two half arcs (one arc cannot end where it starts).
      const [ax, ay] = point(start), [bx, by] = point(start + Math.PI);
      this.path += `${this.path ? 'L' : 'M'}${n(ax)} ${n(ay)}A${n(radius)} ${n(radius)} 0 1 1 ${n(bx)} ${n(by)}A${n(radius)} ${n(radius)} 0 1 1 ${n(ax)} ${n(ay)}`;
      return;
    }
    sweep = ((sweep % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    const [ax, ay] = point(start), [bx, by] = point(anticlockwise ? start - sweep : start + sweep);
    this.path += `${this.path ? 'L' : 'M'}${n(ax)} ${n(ay)}A${n(radius)} ${n(radius)} 0 ${sweep > Math.PI ? 1 : 0} ${anticlockwise ? 0 : 1} ${n(bx)} ${n(by)}`;
  }

  fill() {
    if (this.path) this.#emit(`<path d="${this.path}" ${this.#fillAttributes(this.fillStyle)}${this.#transformAttribute()}/>`);
  }

  stroke() {
    if (this.path) this.#emit(`<path d="${this.path}" ${this.#strokeAttributes(this.strokeStyle)}${this.#transformAttribute()}/>`);
  }

  /** What follows is drawn inside the current path, until the matching restore(). */
  clip() {
    const id = `clip-${this.clips.length + 1}`;
    this.clips.push(`<clipPath id="${id}"><path d="${this.path}"${this.#transformAttribute()}/></clipPath>`);
    const group = { open: `<g clip-path="url(#${id})">`, children: [] };
    this.group.children.push(group);
    this.group = group;
  }

  // ---- text ----------------------------------------------------------------------------------

  #text(text, x, y, paintAttributes) {
    const anchor = ALIGN[this.textAlign] ?? 'start';
    const baseline = BASELINE[this.textBaseline] ?? 'auto';
    this.#emit(`<text x="${n(x)}" y="${n(y)}" ${fontAttributes(this.font)}${anchor === 'start' ? '' : ` text-anchor="${anchor}"`}` +
      `${baseline === 'auto' ? '' : ` dominant-baseline="${baseline}"`} ${paintAttributes}${this.#transformAttribute()}>${escapeXml(text)}</text>`);
  }

  fillText(text, x, y) {
    this.#text(text, x, y, this.#fillAttributes(this.fillStyle));
  }

  strokeText(text, x, y) {
    this.#text(text, x, y, this.#strokeAttributes(this.strokeStyle));
  }

  // ---- images ----------------------------------------------------------------------------------

  /**
   * A canvas (or image) drawn in: a rectangle per run of equal pixels of
   * each row, in the pixel's colour, scaled as drawImage scales it (the
   * rectangles of one colour in one path). So a heat map's numbers stay
   * colours of their own, as sharp as the canvas shows them.
   */
  drawImage(image, ...args) {
    let [sx, sy, sw, sh, dx, dy, dw, dh] = [0, 0, image.width, image.height];
    if (args.length === 2) [dx, dy, dw, dh] = [args[0], args[1], image.width, image.height];
    else if (args.length === 4) [dx, dy, dw, dh] = args;
    else [sx, sy, sw, sh, dx, dy, dw, dh] = args;
    sx = Math.max(0, Math.round(sx)); sy = Math.max(0, Math.round(sy));
    sw = Math.min(image.width - sx, Math.round(sw)); sh = Math.min(image.height - sy, Math.round(sh));
    if (!(sw > 0 && sh > 0)) return;
    const pixels = pixelsOf(image, sx, sy, sw, sh);
    if (!pixels) return;
    const { data } = pixels;
    const words = new Uint32Array(data.buffer, data.byteOffset, sw * sh);
    const cellWidth = dw / sw, cellHeight = dh / sh;
    const paths = new Map();
    for (let row = 0; row < sh; row++) {
      for (let start = 0; start < sw;) {
        const at = (row * sw + start) * 4;
        let end = start + 1;
        while (end < sw && words[row * sw + end] === words[row * sw + start]) end++;
        if (data[at + 3] > 0) {
          const width = n((end - start) * cellWidth);
          const colour = `#${[data[at], data[at + 1], data[at + 2]].map((v) => v.toString(16).padStart(2, '0')).join('')}` +
            (data[at + 3] < 255 ? `" fill-opacity="${n(data[at + 3] / 255)}` : '');
          paths.set(colour, `${paths.get(colour) ?? ''}M${n(dx + start * cellWidth)} ${n(dy + row * cellHeight)}h${width}v${n(cellHeight)}h-${width}z`);
        }
        start = end;
      }
    }
    const shapes = [...paths].map(([colour, d]) => `<path fill="${colour}" d="${d}"/>`).join('');
    this.#emit(`<g shape-rendering="crispEdges"${this.#opacity()}${this.#transformAttribute()}>${shapes}</g>`);
  }

  /** The SVG document of everything drawn, `width` × `height` CSS px; `head` goes first (a title, a description). */
  toSvg(width, height, head = '') {
    const write = (node) => (typeof node === 'string' ? node : `${node.open ?? ''}${node.children.map(write).join('')}${node.open ? '</g>' : ''}`);
    const defs = this.clips.length ? `<defs>${this.clips.join('')}</defs>` : '';
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}">` +
      `${head}${defs}${write(this.root)}</svg>`;
  }
}
