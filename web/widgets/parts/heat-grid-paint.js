// What the heat grid (heat-grid.js) paints: its cells, and over them the
// picked row's frame, the hover and cursor outlines, and the row and column
// labels. Each takes the canvas context, the frame's view (the rows on
// screen and where a row lands) and the grid whose state it shows.

/** The numbers' colours, drawn from the row picture (one pixel per number), scaled up without smoothing. */
export function paintCells(context, { m, first, count, gridWidth, yOf }, grid) {
  context.imageSmoothingEnabled = false;
  if (count <= 0) return;
  const { image } = grid;
  // A RowImage draws its own rows (a large one is blocks); a canvas is drawn from.
  if (typeof image.drawRows === 'function') image.drawRows(context, first, count, m.left, yOf(first), gridWidth, m.rowHeight);
  else context.drawImage(image, 0, first, grid.cols, count, m.left, yOf(first), gridWidth, count * m.rowHeight);
}

/** The picked row's frame and the hover and cursor cells' outlines. */
export function paintMarks(context, { m, gridWidth, yOf }, grid) {
  // The picked row: a dark frame with a light one inside, visible on any colour.
  // Drawn around the row, not over it, so its colours stay visible.
  if (grid.highlighted !== null && grid.highlighted !== undefined) {
    const y = yOf(grid.highlighted);
    const h = m.rowHeight;
    context.fillStyle = '#fff';
    context.fillRect(m.left, y - 2, gridWidth, 2);
    context.fillRect(m.left, y + h, gridWidth, 2);
    context.fillStyle = '#000';
    context.fillRect(m.left, y - 4, gridWidth, 2);
    context.fillRect(m.left, y + h + 2, gridWidth, 2);
  }
  for (const [cell, strong] of [[grid.hover, false], [grid.cursor, true]]) {
    if (!cell) continue;
    const x = m.left + cell.c * m.cellWidth, y = yOf(cell.r);
    const w = Math.max(m.cellWidth, 3), h = Math.max(m.rowHeight, 3);
    context.lineWidth = strong ? 3 : 2;
    context.strokeStyle = '#000';
    context.strokeRect(x - 1.5, y - 1.5, w + 3, h + 3);
    context.lineWidth = strong ? 1.5 : 1;
    context.strokeStyle = '#fff';
    context.strokeRect(x - 0.25, y - 0.25, w + 0.5, h + 0.5);
  }
}

/** Row names on the left (every row when rows are tall enough, otherwise every few), and the picked row's word. */
export function paintRowLabels(context, { m, first, count, gridHeight, yOf }, style, grid) {
  const label = grid.options.rowLabel;
  const font = style.fontFamily || 'system-ui, sans-serif';
  const ink = style.color || '#222';
  context.save();
  if (!grid.square) {
    context.beginPath();
    context.rect(0, m.top, m.left, gridHeight);
    context.clip();
  }
  context.textAlign = 'right';
  const full = m.rowHeight >= 12;
  const every = full ? 1 : niceStep(Math.ceil(14 / m.rowHeight));
  const start = Math.floor(first / every) * every;
  const ticks = grid.options.rowTicks ?? range(start, first + count, every);
  for (const r of ticks) {
    if (r < first || r >= first + count) continue;
    const text = label(r, !full || m.narrow);
    context.fillText(fitText(context, text, m.left - 6), m.left - 4, yOf(r) + (full || grid.square ? m.rowHeight / 2 : 0));
  }
  const h = grid.highlighted;
  if (h !== null && h !== undefined && h >= first && h < first + count) {
    context.font = `bold 12px ${font}`;
    const y = yOf(h) + Math.max(m.rowHeight, 2) / 2;
    // The picked row keeps its word even where the other labels shrink to ids.
    const text = `▶ ${(grid.options.highlightLabel ?? label)(h, m.narrow)}`;
    const w = Math.min(m.left - 2, context.measureText(text).width + 4);
    context.fillStyle = style.backgroundColor && style.backgroundColor !== 'rgba(0, 0, 0, 0)' ? style.backgroundColor : '#fff';
    context.fillRect(m.left - 2 - w, y - 7, w, 14);
    context.fillStyle = ink;
    context.fillText(fitText(context, text, m.left - 6), m.left - 4, y);
    context.font = `12px ${font}`;
  }
  context.restore();
}

/** Column numbers on top, every few columns, kept inside the canvas at both ends. */
export function paintColumnLabels(context, { m }, grid) {
  context.textAlign = 'center';
  context.textBaseline = 'alphabetic';
  const every = niceStep(Math.ceil(30 / m.cellWidth));
  for (const c of grid.options.colTicks ?? range(0, grid.cols, every)) {
    const text = grid.options.colLabel(c);
    const half = context.measureText(text).width / 2;
    const x = m.left + (c + 0.5) * m.cellWidth;
    context.fillText(text, Math.min(m.width - 1 - half, Math.max(m.left + half, x)), m.top - 5);
  }
}

function range(start, end, step) {
  const out = [];
  for (let i = start; i < end; i += step) out.push(i);
  return out;
}

function niceStep(n) {
  for (const step of [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]) if (step >= n) return step;
  return 8192;
}

function fitText(context, text, width) {
  if (context.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && context.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}
