// Where <ew-vocabulary-map> draws what: the canvas's size, the map's points
// on the screen and back, and moving the view (fit, centre, zoom, pan), each
// move said as an "ew-map-view" event.

/** The zoom's range: from half the whole map to close enough to part the tightest clusters' dots. */
export const MIN_SCALE = 0.5, MAX_SCALE = 400;

export function resizeCanvas(widget) {
  const width = Math.max(200, Math.round(widget.frame.clientWidth || 320));
  const height = Math.round(Math.min(520, Math.max(260, width * 0.8)));
  const ratio = window.devicePixelRatio || 1;
  widget.width = width;
  widget.height = height;
  widget.canvas.width = Math.round(width * ratio);
  widget.canvas.height = Math.round(height * ratio);
  widget.canvas.style.width = `${width}px`;
  widget.canvas.style.height = `${height}px`;
  widget.ratio = ratio;
  // The data's bounds, fitted with a margin. UMAP keeps its aspect ratio; the
  // axes of PCA and the reader's own are real directions, and keep it too.
  const data = widget.map_.data;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < data.length; i += 2) {
    minX = Math.min(minX, data[i]); maxX = Math.max(maxX, data[i]);
    minY = Math.min(minY, data[i + 1]); maxY = Math.max(maxY, data[i + 1]);
  }
  const margin = 16;
  const fit = Math.min((width - 2 * margin) / (maxX - minX || 1), (height - 2 * margin) / (maxY - minY || 1));
  widget.base = { fit, cx: (minX + maxX) / 2, cy: (minY + maxY) / 2, spanX: maxX - minX || 1, spanY: maxY - minY || 1 };
}

export function toScreen(widget, x, y) {
  const { fit, cx, cy } = widget.base, { scale, x: ox, y: oy } = widget.view;
  return [widget.width / 2 + ((x - cx) * fit * scale) + ox, widget.height / 2 - ((y - cy) * fit * scale) + oy];
}

/**
 * Puts the map's point (x, y) in the middle of the view at `scale`: a point
 * within the map's bounds and a span of them around (a centre given far off,
 * or not a number, comes to the nearest such point), a scale within the
 * zoom's range. So any view asked for shows the map, in finite numbers.
 */
export function setCentre(widget, scale, [x, y]) {
  widget.fitted = false;
  // The tip named a dot where it was: the view moving leaves it behind.
  widget.tip.hidden = true;
  const { fit, cx, cy, spanX, spanY } = widget.base;
  const within = (value, middle, span) => (Number.isFinite(value) ? Math.max(middle - span, Math.min(middle + span, value)) : middle);
  x = within(x, cx, spanX);
  y = within(y, cy, spanY);
  const s = Math.max(MIN_SCALE, Math.min(MAX_SCALE, Number(scale) || 1));
  widget.view = { scale: s, x: -(x - cx) * fit * s, y: (y - cy) * fit * s };
  widget.draw();
}

/** The whole map, or (isolated) the picked word and its neighbours, with room for their labels. */
export function fitView(widget) {
  if (!widget.isolated || widget.id_ === undefined || !widget.neighbours) {
    widget.tip.hidden = true;
    widget.view = { scale: 1, x: 0, y: 0 };
    widget.fitted = true;
    return;
  }
  const ids = [widget.id_, ...widget.neighbours];
  const xs = ids.map((id) => widget.map_.at(id, 0)), ys = ids.map((id) => widget.map_.at(id, 1));
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const { fit } = widget.base;
  // Room beside the dots for labels: about a label's width across, two lines up and down.
  const across = (widget.width - 2 * Math.min(90, widget.width / 4)) / ((x1 - x0) * fit || 1e-9);
  const up = (widget.height - 2 * 36) / ((y1 - y0) * fit || 1e-9);
  setCentre(widget, Math.min(across, up), [(x0 + x1) / 2, (y0 + y1) / 2]);
  widget.fitted = true;
}

/** Pans so that a token's dot is on the map, when it is off it or at its very edge. */
export function bringIntoView(widget, id) {
  const [x, y] = widget.screenPosition(id);
  const edge = 24;
  if (x >= edge && y >= edge && x <= widget.width - edge && y <= widget.height - edge) return;
  setCentre(widget, widget.view.scale, [widget.map_.at(id, 0), widget.map_.at(id, 1)]);
}

/** Where zooming keeps still: the picked word's dot while it is on the map, else the middle. */
export function zoomAnchor(widget) {
  if (widget.id_ !== undefined && widget.id_ < widget.map_.rows) {
    const [x, y] = widget.screenPosition(widget.id_);
    if (x >= 0 && y >= 0 && x <= widget.width && y <= widget.height) return [x, y];
  }
  return [widget.width / 2, widget.height / 2];
}

/** The token whose dot is nearest a point of the canvas, within `radius` pixels (or -1). */
export function dotNear(widget, px, py, radius = 12) {
  if (!widget.map_) return -1;
  let best = -1, bestDistance = radius * radius;
  for (let i = 0; i < widget.map_.rows; i++) {
    const [sx, sy] = toScreen(widget, widget.map_.at(i, 0), widget.map_.at(i, 1));
    const d = (sx - px) ** 2 + (sy - py) ** 2;
    if (d < bestDistance) { bestDistance = d; best = i; }
  }
  return best;
}

export function zoomAt(widget, factor, px, py) {
  const scale = Math.max(MIN_SCALE, Math.min(MAX_SCALE, widget.view.scale * factor));
  const applied = scale / widget.view.scale;
  // Keep the point under (px, py) where it is.
  widget.view.x = px - widget.width / 2 - (px - widget.width / 2 - widget.view.x) * applied;
  widget.view.y = py - widget.height / 2 - (py - widget.height / 2 - widget.view.y) * applied;
  widget.view.scale = scale;
  widget.fitted = false;
  widget.tip.hidden = true;
  widget.draw();
  viewChanged(widget);
}

export function panBy(widget, dx, dy) {
  widget.fitted = false;
  widget.tip.hidden = true;
  widget.view.x += dx;
  widget.view.y += dy;
  widget.draw();
  viewChanged(widget);
}

/**
 * Says the view changed ("ew-map-view", its detail the viewState): at
 * once for a pick or a choice (`now`), so that it comes with the choice's
 * own events; a move's, one a frame at most, however many moves the frame had.
 */
export function viewChanged(widget, { now = false } = {}) {
  if (now) cancelAnimationFrame(widget.viewFrame);
  else if (widget.viewFrame) return;
  const send = () => {
    widget.viewFrame = 0;
    widget.dispatchEvent(new CustomEvent('ew-map-view', { bubbles: true, detail: widget.viewState }));
  };
  if (now) send(); else widget.viewFrame = requestAnimationFrame(send);
}
