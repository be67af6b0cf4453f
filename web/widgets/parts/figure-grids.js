// The figures of the heat maps: <ew-embedding-table>'s token table and
// <ew-position-map>'s maps of places and the chosen place's line, each the
// widget's own picture (HeatGrid.paintInto, drawProfileInto) with its colour
// scale under it. figure-control.js gives the widgets figure(); this module
// says what each figure is.
import { colorOf } from './color.js';
import { int, num } from './format.js';
import { gridStyle } from './paper.js';

/** Height a colour scale takes under a drawing. */
export const LEGEND_HEIGHT = 40;

/**
 * A colour scale from −limit to +limit at (x, y), `width` wide: the bar
 * (each step its colour, as the maps colour their numbers) and its three numbers.
 */
export function drawLegend(context, x, y, width, limit, digits, palette, label = '') {
  const steps = 64;
  for (let i = 0; i < steps; i++) {
    context.fillStyle = colorOf(-limit + (2 * limit * (i + 0.5)) / steps, limit);
    context.fillRect(x + (i * width) / steps, y, width / steps + 0.05, 10);
  }
  context.strokeStyle = palette.line;
  context.lineWidth = 1;
  context.strokeRect(x + 0.5, y + 0.5, width - 1, 9);
  context.fillStyle = palette.muted;
  context.font = `12px ${palette.font}`;
  context.textBaseline = 'alphabetic';
  const line = y + 26;
  context.textAlign = 'left';
  context.fillText(`${num(-limit, digits)} blue`, x, line);
  context.textAlign = 'center';
  context.fillText('0 white', x + width / 2, line);
  context.textAlign = 'right';
  context.fillText(`${num(limit, digits)} red`, x + width, line);
  if (label) {
    context.textAlign = 'left';
    context.fillText(label, x + width + 12, line);
  }
}

/** A heat grid's picture with its scale under it. */
function gridFigure(grid, { limit, digits, title, caption }) {
  const { width, height } = grid.pictureSize;
  return {
    title,
    caption,
    width,
    height: height + LEGEND_HEIGHT,
    draw(context, palette) {
      grid.paintInto(context, gridStyle(palette));
      drawLegend(context, 0, height + 8, Math.min(width, 320), limit, digits, palette);
    },
  };
}

function tableFigure(widget, label) {
  const { grid } = widget;
  const { first, last } = grid.window ?? { first: 0, last: grid.rows - 1 };
  const r = grid.highlighted;
  const framed = r === null || r === undefined ? '' : ` The framed row is ${label(r)} (row ${int(r)}).`;
  return gridFigure(grid, {
    limit: grid.options.limit,
    digits: 2,
    title: 'The token table',
    caption: `Rows ${int(first)} to ${int(last)} of the token table (${int(grid.rows)} rows, one for each token, of ${int(grid.cols)} numbers): ` +
      `each number a colour, blue below 0, white at 0, red above, full at ±${num(grid.options.limit, 2)}.${framed}`,
  });
}

function placeMapFigure(widget, which) {
  const waves = which === 'waves-map';
  const grid = waves ? widget.wavesGrid : widget.grid;
  const map = waves ? widget.waves : widget.map;
  const n = map.rows, cursor = grid.cursor;
  const chosen = cursor ? ` The framed cell is places ${cursor.r + 1} and ${cursor.c + 1}: ${num(map.at(cursor.r, cursor.c), 2)}.` : '';
  const what = widget.rotary
    ? `How alike a vector turned by rotary positions is at two places, for places 1 to ${int(n)} (base ${int(widget.rotary.theta)}, ` +
      `${int(widget.rotary.dims)} numbers of a head turn): it depends on their distance alone.`
    : waves
      ? `The cosine similarity of every two places’ lists in the fixed sine and cosine waves of the original transformer ` +
        `(Vaswani et al., 2017), for ${int(n)} places of ${int(widget.model.width)} numbers.`
      : `The cosine similarity of every two of the ${int(n)} lists of the position table, place by place (place i is row i − 1).`;
  return gridFigure(grid, {
    limit: 1,
    digits: 0,
    title: widget.rotary ? 'Rotary positions: similarity by distance' : waves ? 'Sine and cosine waves: how alike two places are' : 'The position map',
    caption: `${what} Red: the two lists point the same way (1); white: nothing in common (0); blue: opposite ways (−1).${chosen}`,
  });
}

function placeLineFigure(widget) {
  const { profile, map, selected } = widget;
  const width = profile.clientWidth || 300, height = profile.clientHeight || 90;
  return {
    title: `Place ${selected.r + 1} against every place`,
    caption: `Place ${selected.r + 1}’s row of the ${widget.rotary ? 'rotary' : 'position'} map: its cosine with each of places 1 to ${int(map.rows)}` +
      `${widget.waves ? '; dashed, the same for the sine and cosine waves' : ''}. The ring marks place ${selected.c + 1}.`,
    width,
    height,
    draw(context, palette) {
      widget.drawProfileInto(context, width, height, { ink: palette.ink, font: palette.font });
    },
  };
}

/** The figure `which` of an <ew-embedding-table> or <ew-position-map>; `label(id)` is a token's text. */
export function figureSpec(widget, which, { label }) {
  if (which === 'token-table') return tableFigure(widget, label);
  if (which === 'place-line') return placeLineFigure(widget);
  return placeMapFigure(widget, which);
}
