// The figures made of strips, a colour per number: <ew-trace-table>'s trace
// (each token's token list, position list and sum), <ew-row-dot-product>'s two
// rows and their products (and its running sum, the widget's own chart), and
// <ew-one-hot-lookup>'s product row by row. Each strip is the same picture
// the widget shows (tableImage of the same numbers on the same scale), laid
// out as a table with its labels as text and its colour scale under it.
import { tableImage } from './color.js';
import { int, num } from './format.js';
import { LEGEND_HEIGHT, drawLegend } from './figure-grids.js';

const WIDTH = 720;
const HEAD = 24, ROW = 26, STRIP = 14;

/**
 * A table of text and strips: `columns` ([{ header, width }], the last
 * taking what is left of WIDTH), `rows` ([{ cells: [text | { data, limit }],
 * strong }] or { gap: text }, a line across). Returns its height; draws it
 * when given a context.
 */
function stripTable(columns, rows) {
  const fixed = columns.slice(0, -1).reduce((sum, column) => sum + column.width, 0);
  const widths = [...columns.slice(0, -1).map((column) => column.width), WIDTH - fixed];
  const lefts = widths.map((_, i) => widths.slice(0, i).reduce((sum, w) => sum + w, 0));
  const height = HEAD + rows.length * ROW;
  const draw = (context, palette) => {
    context.textBaseline = 'middle';
    context.textAlign = 'left';
    context.font = `600 12px ${palette.font}`;
    context.fillStyle = palette.muted;
    columns.forEach((column, i) => context.fillText(column.header, lefts[i], HEAD / 2));
    context.fillStyle = palette.line;
    context.fillRect(0, HEAD - 1, WIDTH, 1);
    rows.forEach((row, k) => {
      const y = HEAD + k * ROW;
      if (row.gap !== undefined) {
        context.font = `13px ${palette.font}`;
        context.fillStyle = palette.muted;
        context.fillText(row.gap, lefts[0], y + ROW / 2);
        return;
      }
      row.cells.forEach((cell, i) => {
        const x = lefts[i], w = widths[i] - 8;
        if (typeof cell === 'string') {
          context.font = `${row.strong ? '600 ' : ''}13px ${palette.font}`;
          context.fillStyle = palette.ink;
          context.fillText(cell, x, y + ROW / 2);
          return;
        }
        context.imageSmoothingEnabled = false;
        context.drawImage(tableImage(cell.data, 1, cell.data.length, cell.limit), x, y + (ROW - STRIP) / 2, w, STRIP);
        context.strokeStyle = palette.line;
        context.lineWidth = 1;
        context.strokeRect(x - 0.5, y + (ROW - STRIP) / 2 - 0.5, w + 1, STRIP + 1);
      });
    });
  };
  return { height, draw };
}

/** A strip table with the colour scale of `limit` under it. */
function tableFigure({ title, caption, columns, rows, limit, scales = [] }) {
  const table = stripTable(columns, rows);
  const legends = [{ limit, label: '' }, ...scales];
  return {
    title,
    caption,
    width: WIDTH,
    height: table.height + 8 + legends.length * LEGEND_HEIGHT,
    draw(context, palette) {
      table.draw(context, palette);
      legends.forEach((scale, i) => drawLegend(context, 0, table.height + 12 + i * LEGEND_HEIGHT, 320, scale.limit, 2, palette, scale.label));
    },
  };
}

function traceFigure(widget, which) {
  const second = which === 'trace-2';
  const view = second ? widget.viewB : widget.viewA;
  const trace = view.trace, model = widget.model;
  const shown = view.shownRows;
  const rows = trace.tokens.slice(0, shown).map((token, i) => ({
    cells: [String(i + 1), `${token.text}  ${token.id}`, ...view.parts.map(([part]) => ({ data: trace[part].row(i), limit: widget.limit }))],
  }));
  if (shown < trace.tokens.length) rows.push({ gap: `⋮ ${int(trace.tokens.length - shown)} more tokens` });
  const parts = view.parts.map(([, name]) => name.toLowerCase()).join(', ');
  return tableFigure({
    title: `What the first layer reads: “${trace.text}”`,
    caption: `The ${int(trace.tokens.length)} tokens of “${trace.text}”, each with its ${parts}: ${int(model.width)} numbers each, ` +
      `a colour per number (blue below 0, white at 0, red above, full at ±${num(widget.limit, 2)}).` +
      (trace.positionEmbeddings ? ' The sum is the token’s row of the token table plus its place’s row of the position table.'
        : ' This model has no position table (rotary positions): what the first layer reads is the token list itself.'),
    columns: [{ header: 'Place', width: 48 }, { header: 'Token and id', width: 130 },
      ...view.parts.map(([, name], i, all) => ({ header: name, width: i < all.length - 1 ? (WIDTH - 178) / all.length : 0 }))],
    rows,
    limit: widget.limit,
  });
}

function rowStripsFigure(widget, label) {
  const { ids, rows: [rowA, rowB], numbers: p } = widget;
  const [a, b] = ids.map(label);
  return tableFigure({
    title: `The dot product of ${a} and ${b}, place by place`,
    caption: `The ${int(rowA.length)} numbers of ${a} (id ${ids[0]}) and ${b} (id ${ids[1]}), and their products place by place: ` +
      `red where the signs agree and the product adds, blue where they disagree and it takes away (the products on a scale of their own, ` +
      `full at ±${num(widget.productLimit)}). The products add up to the dot product, ${num(p.dot)}; over the lengths, the cosine ${num(p.cosine)}.`,
    columns: [{ header: 'Row', width: 170 }, { header: 'Its numbers, place 1 to ' + int(rowA.length), width: 0 }],
    rows: [
      { cells: [`${a}  id ${ids[0]}`, { data: rowA, limit: widget.limit }] },
      { cells: [`${b}  id ${ids[1]}`, { data: rowB, limit: widget.limit }] },
      { cells: ['a × b', { data: p.products, limit: widget.productLimit }], strong: true },
    ],
    limit: widget.limit,
    scales: [{ limit: widget.productLimit, label: 'the products (a × b)' }],
  });
}

function runningSumFigure(widget, label) {
  const { chart, numbers: p } = widget;
  const width = chart.clientWidth || 300, height = chart.clientHeight || 110;
  const [a, b] = widget.ids.map(label);
  return {
    title: `The running sum of ${a} · ${b}`,
    caption: `The sum of the products of ${a} and ${b} over places 1 to k, for each place k: it ends at their dot product, ${num(p.dot)}. ` +
      `The ring marks place ${widget.place + 1}.`,
    width,
    height,
    draw(context, palette) {
      widget.drawChartInto(context, width, height, { ink: palette.ink, font: palette.font });
    },
  };
}

function oneHotFigure(widget, label) {
  const { model, current: t, product, limit } = widget;
  const zeros = new Float32Array(model.width);
  const rows = [];
  let previous = -1;
  for (const r of widget.drawnRows) {
    const skipped = r - previous - 1;
    if (skipped > 0) rows.push({ gap: `⋮ ${int(skipped)} more ${skipped === 1 ? 'row' : 'rows'}, each × 0 = ${int(model.width)} zeros` });
    previous = r;
    const row = model.wte.row(r);
    rows.push({ cells: [`${r} ${label(r)}`, r === t ? '1' : '0', { data: row, limit }, { data: r === t ? row : zeros, limit }], strong: r === t });
  }
  rows.push({ cells: [`Sum of all ${int(model.vocabSize)} terms`, '', product ? 'computed by the kernels' : 'not multiplied yet',
    product ? { data: product, limit } : ''], strong: true });
  const name = label(t);
  return tableFigure({
    title: `The lookup as a product: the one-hot vector of ${name} times W_E`,
    caption: `The one-hot vector of ${name} has ${int(model.vocabSize)} numbers, all 0 but a 1 at place ${int(t)}. Times the token table W_E, ` +
      `every row is multiplied by its number of the vector and the results added up: the sum is row ${int(t)} itself` +
      `${widget.result ? `, ${int(widget.result.equal)} of its ${int(widget.result.width)} numbers equal` : ''}. The rows between those drawn are counted.`,
    columns: [{ header: 'Row of W_E', width: 190 }, { header: 'One-hot', width: 70 }, { header: '× the row', width: 230 }, { header: '= term', width: 0 }],
    rows,
    limit,
  });
}

/** The figure `which` of an <ew-trace-table>, <ew-row-dot-product> or <ew-one-hot-lookup>; `label(id)` is a token's text. */
export function figureSpec(widget, which, { label }) {
  if (which === 'trace-1' || which === 'trace-2') return traceFigure(widget, which);
  if (which === 'row-strips') return rowStripsFigure(widget, label);
  if (which === 'running-sum') return runningSumFigure(widget, label);
  return oneHotFigure(widget, label);
}
