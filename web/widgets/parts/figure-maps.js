// The figures of the maps: <ew-vocabulary-map>'s map of every token with its
// labels (the widget's own drawing, drawInto), and <ew-training-slider>'s
// map of the token table at the step shown and its loss curve, each with the
// groups it marks named under it.
import { VOCABULARY_GROUPS, drawShape } from './vocabulary-groups.js';
import { SvgContext, escapeXml } from './figure-svg.js';
import { PAPER } from './figure-export.js';
import { int } from './format.js';

const KEY_HEIGHT = 26;

/** The groups marked, as a key under a map: each group's shape in its colour, and its name. Returns its lines' count. */
function drawKey(context, groups, y, width, palette, draw = true) {
  context.font = `13px ${palette.font}`;
  let x = 0, lines = 1;
  for (const group of groups) {
    const room = 18 + context.measureText(group.label).width + 18;
    if (x > 0 && x + room > width) {
      x = 0;
      lines += 1;
    }
    if (draw) {
      const line = y + (lines - 1) * KEY_HEIGHT + 13;
      context.fillStyle = group.colour;
      drawShape(context, group.shape, x + 6, line, 5);
      context.fill();
      context.fillStyle = palette.ink;
      context.textAlign = 'left';
      context.textBaseline = 'middle';
      context.fillText(group.label, x + 18, line);
    }
    x += room;
  }
  return groups.length ? lines : 0;
}

/** A map's picture with the key of its groups under it. */
function mapFigure({ title, caption, width, height, groups, draw }) {
  const lines = drawKey(new SvgContext(), groups, 0, width, PAPER, false);
  return {
    title,
    caption,
    width,
    height: height + (lines ? 8 + lines * KEY_HEIGHT : 0),
    draw(context, palette) {
      draw(context, palette);
      drawKey(context, groups, height + 8, width, palette);
    },
  };
}

function vocabularyFigure(widget, label) {
  const groups = widget.markedGroups;
  const how = widget.legend.textContent.replace(/ Your browser computed this map in .*$/, '');
  const picked = widget.tokenId === undefined ? '' : ` Ringed: ${label(widget.tokenId)} and its ${int(widget.neighbours?.length ?? 0)} closest tokens by cosine` +
    `${widget.neighbours?.length ? ` (${widget.neighbours.map(label).join(', ')})` : ''}.`;
  const lit = widget.lit ? ` Lit: ${widget.lit.label}.` : '';
  return mapFigure({
    title: widget.method === 'axes' ? 'The tokens along your own axes' : `The tokens on a map (${widget.method.toUpperCase()})`,
    caption: `${how}${picked}${lit}`,
    width: widget.width,
    height: widget.height,
    groups,
    draw: (context, palette) => widget.drawInto(context, palette),
  });
}

function trainingMapFigure(slider) {
  const view = slider.learnMap;
  const { width, height } = view.pictureSize;
  const groups = VOCABULARY_GROUPS.filter((group) => view.groups?.[group.key]?.length);
  const shown = view.showing === 'pca' ? 'a quick map of its table (PCA), while its UMAP is laid out' : 'a UMAP of its token table, aligned to the next step’s map';
  return mapFigure({
    title: `The token table on a map, at step ${int(slider.step)}`,
    caption: `Each dot is one of the tokens of the training snapshot at step ${int(slider.step)}, placed by ${shown}. ${view.words.textContent}`,
    width,
    height,
    groups,
    draw: (context, palette) => view.drawInto(context, width, height, palette),
  });
}

// The curve's parts, in the figure's colours: what widgets.css gives them on screen.
const CURVE_STYLES = {
  'ew-curve-axis': (p) => ({ line: { stroke: p.line, 'stroke-width': 0.6 }, text: { fill: p.muted } }),
  'ew-curve-train': (p) => ({ polyline: { fill: 'none', stroke: p.accent, 'stroke-width': 1.6 } }),
  'ew-curve-val': () => ({ circle: { fill: '#D55E00' } }),
  'ew-curve-snapshots': (p) => ({ line: { stroke: p.ink, 'stroke-width': 1.5 } }),
  'ew-curve-marker': (p) => ({ line: { stroke: p.ink, 'stroke-width': 1, 'stroke-dasharray': '3 2' }, circle: { fill: 'none', stroke: p.ink, 'stroke-width': 2 } }),
};

/** The loss curve's drawing as SVG markup, its styles written into it as attributes. */
function curveMarkup(svg, palette) {
  const copy = svg.cloneNode(true);
  for (const [name, styles] of Object.entries(CURVE_STYLES)) {
    for (const element of [...copy.querySelectorAll(`.${name}`), ...(copy.classList.contains(name) ? [copy] : [])]) {
      const own = styles(palette);
      const targets = own[element.localName] ? [element] : [];
      for (const [tag, attributes] of Object.entries(own)) {
        for (const target of [...targets, ...element.querySelectorAll(tag)]) {
          if (target.localName !== tag) continue;
          for (const [key, value] of Object.entries(attributes)) target.setAttribute(key, String(value));
        }
      }
    }
  }
  for (const element of copy.querySelectorAll('[class]')) element.removeAttribute('class');
  const inner = [...copy.childNodes].filter((node) => node.localName !== 'title').map((node) => new XMLSerializer().serializeToString(node)).join('');
  return `<g font-size="13" font-family="${escapeXml(palette.font)}">${inner.replace(/ xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, '')}</g>`;
}

function lossCurveFigure(slider) {
  const curve = slider.lossCurve;
  const box = curve.svg.viewBox.baseVal;
  return {
    title: 'The loss during training',
    caption: `${curve.caption.textContent} The dashed line and the ring mark step ${int(slider.step)}.`,
    width: box.width,
    height: box.height,
    svg: (palette) => curveMarkup(curve.svg, palette),
  };
}

/** The figure `which` of an <ew-vocabulary-map> or <ew-training-slider>; `label(id)` is a token's text. */
export function figureSpec(widget, which, { label }) {
  if (which === 'vocabulary-map') return vocabularyFigure(widget, label);
  if (which === 'training-map') return trainingMapFigure(widget);
  return lossCurveFigure(widget);
}
