// Where <ew-vocabulary-map> draws what: the canvas's size, the map's points
// on the screen and back, and moving the view (fit, centre, zoom, pan), each
// move said as an "ew-map-view" event. Each works on the map's state (state.js).
import { tokenLabel } from '../parts/token-picker.js';
import { VOCABULARY_GROUPS } from '../parts/vocabulary-groups.js';

/** The zoom's range: from half the whole map to close enough to part the tightest clusters' dots. */
export const MIN_SCALE = 0.5, MAX_SCALE = 400;

export function resizeCanvas(state) {
  const width = Math.max(200, Math.round(state.parts.frame.clientWidth || 320));
  const height = Math.round(Math.min(520, Math.max(260, width * 0.8)));
  const ratio = window.devicePixelRatio || 1;
  state.width = width;
  state.height = height;
  state.parts.canvas.width = Math.round(width * ratio);
  state.parts.canvas.height = Math.round(height * ratio);
  state.parts.canvas.style.width = `${width}px`;
  state.parts.canvas.style.height = `${height}px`;
  state.ratio = ratio;
  // The data's bounds, fitted with a margin. UMAP keeps its aspect ratio; the
  // axes of PCA and the reader's own are real directions, and keep it too.
  const data = state.map.data;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < data.length; i += 2) {
    minX = Math.min(minX, data[i]); maxX = Math.max(maxX, data[i]);
    minY = Math.min(minY, data[i + 1]); maxY = Math.max(maxY, data[i + 1]);
  }
  const margin = 16;
  const fit = Math.min((width - 2 * margin) / (maxX - minX || 1), (height - 2 * margin) / (maxY - minY || 1));
  state.base = { fit, cx: (minX + maxX) / 2, cy: (minY + maxY) / 2, spanX: maxX - minX || 1, spanY: maxY - minY || 1 };
}

/** Where the map's point (x, y) is drawn, in CSS pixels from the canvas's top left corner. */
export function toScreen(state, x, y) {
  const { fit, cx, cy } = state.base, { scale, x: ox, y: oy } = state.view;
  return [state.width / 2 + ((x - cx) * fit * scale) + ox, state.height / 2 - ((y - cy) * fit * scale) + oy];
}

/** Where a token's dot is drawn. */
export function screenPosition(state, id) {
  return toScreen(state, state.map.at(id, 0), state.map.at(id, 1));
}

/**
 * Puts the map's point (x, y) in the middle of the view at `scale`: a point
 * within the map's bounds and a span of them around (a centre given far off,
 * or not a number, comes to the nearest such point), a scale within the
 * zoom's range. So any view asked for shows the map, in finite numbers.
 */
export function setCentre(state, scale, [x, y]) {
  state.fitted = false;
  // The tip named a dot where it was: the view moving leaves it behind.
  state.parts.tip.hidden = true;
  const { fit, cx, cy, spanX, spanY } = state.base;
  const within = (value, middle, span) => (Number.isFinite(value) ? Math.max(middle - span, Math.min(middle + span, value)) : middle);
  x = within(x, cx, spanX);
  y = within(y, cy, spanY);
  const s = Math.max(MIN_SCALE, Math.min(MAX_SCALE, Number(scale) || 1));
  state.view = { scale: s, x: -(x - cx) * fit * s, y: (y - cy) * fit * s };
  state.draw();
}

/** The whole map, or (isolated) the picked word and its neighbours, with room for their labels. */
export function fitView(state) {
  if (!state.isolated || state.picked === undefined || !state.neighbours) {
    state.parts.tip.hidden = true;
    state.view = { scale: 1, x: 0, y: 0 };
    state.fitted = true;
    return;
  }
  const ids = [state.picked, ...state.neighbours];
  const xs = ids.map((id) => state.map.at(id, 0)), ys = ids.map((id) => state.map.at(id, 1));
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const { fit } = state.base;
  // Room beside the dots for labels: about a label's width across, two lines up and down.
  const across = (state.width - 2 * Math.min(90, state.width / 4)) / ((x1 - x0) * fit || 1e-9);
  const up = (state.height - 2 * 36) / ((y1 - y0) * fit || 1e-9);
  setCentre(state, Math.min(across, up), [(x0 + x1) / 2, (y0 + y1) / 2]);
  state.fitted = true;
}

/** Pans so that a token's dot is on the map, when it is off it or at its very edge. */
export function bringIntoView(state, id) {
  const [x, y] = screenPosition(state, id);
  const edge = 24;
  if (x >= edge && y >= edge && x <= state.width - edge && y <= state.height - edge) return;
  setCentre(state, state.view.scale, [state.map.at(id, 0), state.map.at(id, 1)]);
}

/** Where zooming keeps still: the picked word's dot while it is on the map, else the middle. */
export function zoomAnchor(state) {
  if (state.picked !== undefined && state.picked < state.map.rows) {
    const [x, y] = screenPosition(state, state.picked);
    if (x >= 0 && y >= 0 && x <= state.width && y <= state.height) return [x, y];
  }
  return [state.width / 2, state.height / 2];
}

/** The token whose dot is nearest a point of the canvas, within `radius` pixels (or -1). */
export function dotNear(state, px, py, radius = 12) {
  if (!state.map) return -1;
  let best = -1, bestDistance = radius * radius;
  for (let i = 0; i < state.map.rows; i++) {
    const [sx, sy] = toScreen(state, state.map.at(i, 0), state.map.at(i, 1));
    const d = (sx - px) ** 2 + (sy - py) ** 2;
    if (d < bestDistance) { bestDistance = d; best = i; }
  }
  return best;
}

export function zoomAt(state, factor, px, py) {
  const scale = Math.max(MIN_SCALE, Math.min(MAX_SCALE, state.view.scale * factor));
  const applied = scale / state.view.scale;
  // Keep the point under (px, py) where it is.
  state.view.x = px - state.width / 2 - (px - state.width / 2 - state.view.x) * applied;
  state.view.y = py - state.height / 2 - (py - state.height / 2 - state.view.y) * applied;
  state.view.scale = scale;
  state.fitted = false;
  state.parts.tip.hidden = true;
  state.draw();
  viewChanged(state);
}

export function panBy(state, dx, dy) {
  state.fitted = false;
  state.parts.tip.hidden = true;
  state.view.x += dx;
  state.view.y += dy;
  state.draw();
  viewChanged(state);
}

/**
 * What the reader sees, as the element's viewState gives it: the method,
 * the zoom, the map's point in the middle of the view, whether the word is
 * isolated, the axes' words, the groups not marked; `whole` when the view is
 * the map as first shown. Undefined while no map is shown.
 */
export function viewStateOf(state) {
  if (!state.map || !state.base) return undefined;
  const { fit, cx, cy } = state.base, { scale, x, y } = state.view;
  const view = { method: state.method, scale, centre: [cx - x / (fit * scale), cy + y / (fit * scale)], isolated: state.isolated,
    whole: state.fitted === true, hidden: VOCABULARY_GROUPS.map((g) => g.key).filter((key) => !state.shownGroups.has(key)) };
  if (state.method === 'axes' && state.axes && state.model) {
    view.axes = [state.axes.from, state.axes.to, state.axes.upFrom, state.axes.upTo].filter((id) => id !== undefined).map((id) => tokenLabel(state.model, id));
  }
  return view;
}

/**
 * Says the view changed ("ew-map-view", its detail the viewState): at
 * once for a pick or a choice (`now`), so that it comes with the choice's
 * own events; a move's, one a frame at most, however many moves the frame had.
 */
export function viewChanged(state, { now = false } = {}) {
  if (now) cancelAnimationFrame(state.viewFrame);
  else if (state.viewFrame) return;
  const send = () => {
    state.viewFrame = 0;
    state.tell('ew-map-view', state.viewState);
  };
  if (now) send(); else state.viewFrame = requestAnimationFrame(send);
}
