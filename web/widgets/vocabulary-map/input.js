// <ew-vocabulary-map>'s pointer, wheel, touch and keyboard: hover names a
// token, a click or tap picks it, a drag or two fingers pan, a pinch or
// (with Ctrl or ⌘, or once clicked) the wheel zooms; the arrows, + and −
// and 0 when the map has focus. Each works on the map's state (state.js).
import { tokenLabel } from '../parts/token-picker.js';
import { resizeCanvas, zoomAnchor, zoomAt, panBy, fitView, setCentre, dotNear } from './geometry.js';
import { readColours } from './drawing.js';

export function localPoint(state, event) {
  const box = state.parts.canvas.getBoundingClientRect();
  return [event.clientX - box.left, event.clientY - box.top];
}

export function showHover(state, id, px, py) {
  const { tip, hoverText } = state.parts;
  if (id < 0) { tip.hidden = true; return; }
  const text = tokenLabel(state.model, id);
  tip.textContent = text;
  tip.hidden = false;
  tip.style.left = `${Math.min(state.width - 60, px + 12)}px`;
  tip.style.top = `${Math.max(0, py - 28)}px`;
  hoverText.textContent = `Under the pointer: ${text} (id ${id}).`;
}

/** Says, over the map, how to zoom with the wheel: the page scrolled instead. */
export function hintWheel(state) {
  state.parts.wheelHint.hidden = false;
  clearTimeout(state.wheelHintTimer);
  state.wheelHintTimer = setTimeout(() => { state.parts.wheelHint.hidden = true; }, 1500);
}

/** Listens to the reader's hands and to the page: the pointers, the wheel, the keys, the map's width and the system's colours. */
export function listenToInput(state) {
  listenToPointers(state);
  listenToWheel(state);
  listenToKeys(state);
  followWidth(state);
  // Light or dark as the reader's system is, from the widgets' custom properties.
  const dark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  dark?.addEventListener?.('change', () => { readColours(state); state.draw(); });
}

/** A mouse, a pen or fingers: hover names, a click or tap picks, a drag pans, two fingers pan and pinch. */
function listenToPointers(state) {
  const canvas = state.parts.canvas;
  canvas.addEventListener('pointerdown', (event) => {
    const [x, y] = localPoint(state, event);
    state.pointers.set(event.pointerId, { x, y, startX: x, startY: y, type: event.pointerType });
    // A click into the map lets the wheel zoom it until the pointer leaves.
    if (event.pointerType === 'mouse') {
      state.wheelArmed = true;
      state.parts.wheelHint.hidden = true;
    }
    if (event.pointerType === 'mouse' || state.moveMode || state.pointers.size > 1) canvas.setPointerCapture?.(event.pointerId);
  });
  canvas.addEventListener('pointermove', (event) => movePointer(state, event));
  const end = (event) => endPointer(state, event);
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  canvas.addEventListener('pointerleave', (event) => {
    if (event.pointerType !== 'mouse') return;
    state.parts.tip.hidden = true;
    state.wheelArmed = false;
  });
  canvas.addEventListener('blur', () => { state.wheelArmed = false; });
}

function movePointer(state, event) {
  const [x, y] = localPoint(state, event);
  const pointer = state.pointers.get(event.pointerId);
  if (!pointer) {
    if (event.pointerType === 'mouse') showHover(state, dotNear(state, x, y), x, y);
    return;
  }
  if (state.pointers.size === 2) {
    // Two fingers: pan by the midpoint, zoom by the spread, around the picked word while it is on the map.
    const [a, b] = [...state.pointers.values()];
    const before = { mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
    pointer.x = x; pointer.y = y;
    const after = { mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
    panBy(state, after.mx - before.mx, after.my - before.my);
    if (before.d > 0) {
      const [ax, ay] = zoomAnchor(state);
      zoomAt(state, after.d / before.d, ax, ay);
    }
    return;
  }
  const dragging = pointer.type === 'mouse' ? (event.buttons & 1) === 1 : state.moveMode;
  if (dragging) panBy(state, x - pointer.x, y - pointer.y);
  pointer.x = x; pointer.y = y;
}

function endPointer(state, event) {
  const pointer = state.pointers.get(event.pointerId);
  state.pointers.delete(event.pointerId);
  if (!pointer || event.type === 'pointercancel') return;
  const [x, y] = localPoint(state, event);
  // A tap or click, not a drag: names and picks the token under it.
  if (Math.hypot(x - pointer.startX, y - pointer.startY) < 8 && state.pointers.size === 0) {
    const id = dotNear(state, x, y, pointer.type === 'mouse' ? 10 : 20);
    showHover(state, id, x, y);
    // The dot is under the finger already; isolated, the view follows the new word's neighbours.
    if (id >= 0) state.pick(id, { keepView: !state.isolated });
  }
}

/**
 * The wheel scrolls the page, as everywhere else on it, unless Ctrl or ⌘ is held (a
 * trackpad's pinch comes as a wheel with Ctrl) or the reader has clicked into the map.
 */
function listenToWheel(state) {
  state.parts.canvas.addEventListener('wheel', (event) => {
    if (!(event.ctrlKey || event.metaKey || state.wheelArmed)) {
      hintWheel(state);
      return;
    }
    event.preventDefault();
    const [x, y] = localPoint(state, event);
    zoomAt(state, Math.exp(-event.deltaY / 300), x, y);
  }, { passive: false });
}

function listenToKeys(state) {
  state.parts.canvas.addEventListener('keydown', (event) => {
    const step = 40;
    const actions = {
      ArrowLeft: () => panBy(state, step, 0), ArrowRight: () => panBy(state, -step, 0),
      ArrowUp: () => panBy(state, 0, step), ArrowDown: () => panBy(state, 0, -step),
      '+': () => state.zoomBy(1.5), '=': () => state.zoomBy(1.5), '-': () => state.zoomBy(1 / 1.5), 0: () => state.resetView(),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
}

/** The same view at a new width: the whole map fitted again, or the same point of the map in the middle at the same zoom. */
function followWidth(state) {
  if (typeof ResizeObserver !== 'function') return;
  const frame = state.parts.frame;
  let lastWidth = 0;
  new ResizeObserver(() => {
    const width = frame.clientWidth;
    if (!state.map || Math.abs(width - lastWidth) <= 1) return;
    lastWidth = width;
    const view = state.viewState;
    resizeCanvas(state);
    if (!view || view.whole) fitView(state);
    else setCentre(state, view.scale, view.centre);
    state.draw();
  }).observe(frame);
}
