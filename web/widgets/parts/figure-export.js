// A widget's figure for a book: its drawing, with a title above it and under
// it the figure's caption and the model it was computed from, as SVG (vector
// shapes, text as <text>) or as PNG at a scale (2 × the CSS size, say) or at
// print resolution (300 dpi for a stated width in millimetres, which the PNG
// records in its pHYs chunk). The drawing is the widget's own drawing code,
// run on an SvgContext or on a canvas of the PNG's size, so the figure shows
// what the widget's canvas shows, in the colours of paper (ink on white)
// whatever the page's colour scheme.
import { SvgContext, escapeXml } from './figure-svg.js';
import { int } from './format.js';
import { PAPER } from './paper.js';

export { PAPER };

const PAD = 12;
const TITLE = `bold 15px ${PAPER.font}`;
const CAPTION = `13px ${PAPER.font}`;
const SOURCE = `12px ${PAPER.font}`;
const LINE = { [TITLE]: 20, [CAPTION]: 18, [SOURCE]: 16 };
const MM_PER_INCH = 25.4;
const CSS_PX_PER_INCH = 96;

/** "/model/model.safetensors, 4,096 tokens × 128 numbers": which model a figure shows. */
export function modelLine(model) {
  const source = typeof location === 'object' ? String(model.source).replace(location.origin, '') : String(model.source);
  const places = model.hasPositionTable ? `${int(model.context)} places` : 'rotary positions';
  return `Computed from the model ${source} (${int(model.vocabSize)} tokens × ${int(model.width)} numbers, ${places}).`;
}

/** Words wrapped into lines no wider than `width`, measured in `font`. */
function wrap(context, text, font, width) {
  context.font = font;
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && context.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Where everything goes: the title, the drawing (at PAD, drawingTop), and
 * the caption's and the model's lines, for a figure `spec` of a `model`.
 */
function layoutOf(spec, model, withCaption) {
  const measure = new SvgContext();
  const width = Math.ceil(Math.max(spec.width + 2 * PAD, 320));
  const textWidth = width - 2 * PAD;
  const lines = [];
  let y = PAD;
  const add = (text, font, colour) => {
    for (const line of wrap(measure, text, font, textWidth)) {
      lines.push({ text: line, font, colour, y: y + LINE[font] * 0.75 });
      y += LINE[font];
    }
  };
  if (withCaption) {
    add(spec.title, TITLE, PAPER.ink);
    y += 6;
  }
  const drawingTop = y;
  y += spec.height;
  if (withCaption) {
    y += 10;
    add(spec.caption, CAPTION, PAPER.ink);
    add(modelLine(model), SOURCE, PAPER.muted);
  }
  return { width, height: Math.ceil(y + PAD), drawingTop, lines };
}

function drawLines(context, lines) {
  context.textAlign = 'left';
  context.textBaseline = 'alphabetic';
  for (const line of lines) {
    context.font = line.font;
    context.fillStyle = line.colour;
    context.fillText(line.text, PAD, line.y);
  }
}

/** The figure as an SVG document. */
function svgOf(spec, model, layout) {
  const head = `<title>${escapeXml(spec.title)}</title><desc>${escapeXml(`${spec.caption} ${modelLine(model)}`)}</desc>` +
    `<rect width="100%" height="100%" fill="${PAPER.bg}"/>`;
  const context = new SvgContext();
  drawLines(context, layout.lines);
  let drawing = '';
  if (spec.svg) {
    drawing = `<svg x="${PAD}" y="${layout.drawingTop}" width="${spec.width}" height="${spec.height}" viewBox="0 0 ${spec.width} ${spec.height}">${spec.svg(PAPER)}</svg>`;
  } else {
    context.save();
    context.translate(PAD, layout.drawingTop);
    spec.draw(context, PAPER);
    context.restore();
  }
  const svg = context.toSvg(layout.width, layout.height, head);
  return drawing ? svg.replace(/<\/svg>$/, `${drawing}</svg>`) : svg;
}

/** How many device pixels a CSS pixel becomes: `scale`, or what `dpi` gives over `widthMm` (or at the CSS size). */
export function scaleOf(layout, { scale, dpi, widthMm }) {
  if (dpi !== undefined) {
    if (!(dpi > 0) || !Number.isFinite(dpi)) throw new RangeError(`figure: dpi must be a positive number, got ${dpi}`);
    if (widthMm === undefined) return dpi / CSS_PX_PER_INCH;
    if (!(widthMm > 0) || !Number.isFinite(widthMm)) throw new RangeError(`figure: widthMm must be a positive number, got ${widthMm}`);
    return Math.round((widthMm / MM_PER_INCH) * dpi) / layout.width;
  }
  const s = scale ?? 2;
  if (!(s > 0) || !Number.isFinite(s) || s > 16) throw new RangeError(`figure: scale must be a number above 0 and at most 16, got ${s}`);
  return s;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, k) => {
  let c = k;
  for (let i = 0; i < 8; i++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A PNG's bytes with a pHYs chunk saying `dpi` (as pixels per metre), right after its IHDR. */
export function withResolution(png, dpi) {
  const perMetre = Math.round(dpi / 0.0254);
  const chunk = new Uint8Array(21);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, 9);
  chunk.set([0x70, 0x48, 0x59, 0x73], 4);  // "pHYs"
  view.setUint32(8, perMetre);
  view.setUint32(12, perMetre);
  chunk[16] = 1;  // the unit: the metre
  view.setUint32(17, crc32(chunk.subarray(4, 17)));
  const ihdrEnd = 8 + 25;
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, ihdrEnd), 0);
  out.set(chunk, ihdrEnd);
  out.set(png.subarray(ihdrEnd), ihdrEnd + chunk.length);
  return out;
}

function canvasOf(width, height) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('figure: a PNG needs a canvas, and this browser gives none');
  return { canvas, context };
}

async function rasterized(svg, width, height) {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const { canvas, context } = canvasOf(width, height);
  context.drawImage(image, 0, 0, width, height);
  return canvas;
}

/** The figure on a canvas `s` times its CSS size: the widget's drawing code run on it. */
async function pngCanvas(spec, model, layout, s) {
  const width = Math.round(layout.width * s), height = Math.round(layout.height * s);
  if (spec.svg) return rasterized(svgOf(spec, model, layout), width, height);
  const { canvas, context } = canvasOf(width, height);
  context.fillStyle = PAPER.bg;
  context.fillRect(0, 0, width, height);
  context.setTransform(s, 0, 0, s, 0, 0);
  drawLines(context, layout.lines);
  // The drawing on a canvas of its own (it may clear and clip its area), then put in place.
  const drawing = canvasOf(Math.max(1, Math.round(spec.width * s)), Math.max(1, Math.round(spec.height * s)));
  drawing.context.setTransform(s, 0, 0, s, 0, 0);
  spec.draw(drawing.context, PAPER);
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.drawImage(drawing.canvas, Math.round(PAD * s), Math.round(layout.drawingTop * s));
  return canvas;
}

/**
 * A figure `spec` ({ title, caption, width, height, draw(context, palette)
 * or svg(palette) }) of `model` as SVG markup, or as a PNG Blob with
 * { format: 'png', scale } or { format: 'png', dpi, widthMm }.
 */
export async function exportFigure(spec, model, { format = 'svg', caption = true, ...size } = {}) {
  if (format !== 'svg' && format !== 'png') throw new RangeError(`figure: format must be 'svg' or 'png', got ${String(format)}`);
  const layout = layoutOf(spec, model, caption !== false);
  if (format === 'svg') return svgOf(spec, model, layout);
  const s = scaleOf(layout, size);
  const canvas = await pngCanvas(spec, model, layout, s);
  const blob = await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('figure: the browser made no PNG'))), 'image/png'));
  // Its resolution as asked (so that its pixels over it are the width asked), or the scale's over CSS's 96 a inch.
  const bytes = withResolution(new Uint8Array(await blob.arrayBuffer()), size.dpi ?? s * CSS_PX_PER_INCH);
  return new Blob([bytes], { type: 'image/png' });
}
