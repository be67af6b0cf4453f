// <ew-vocabulary-map>'s pointer, wheel, touch and keyboard: hover names a
// token, a click or tap picks it, a drag or two fingers pan, a pinch or
// (with Ctrl or ⌘, or once clicked) the wheel zooms; the arrows, + and −
// and 0 when the map has focus.
import { tokenLabel } from '../parts/token-picker.js';
import { resizeCanvas, zoomAnchor, zoomAt, panBy, fitView, setCentre } from './geometry.js';
import { readColours } from './drawing.js';

export function localPoint(widget, event) {
  const box = widget.canvas.getBoundingClientRect();
  return [event.clientX - box.left, event.clientY - box.top];
}

export function showHover(widget, id, px, py) {
  if (id < 0) { widget.tip.hidden = true; return; }
  const text = tokenLabel(widget.model, id);
  widget.tip.textContent = text;
  widget.tip.hidden = false;
  widget.tip.style.left = `${Math.min(widget.width - 60, px + 12)}px`;
  widget.tip.style.top = `${Math.max(0, py - 28)}px`;
  widget.hoverText.textContent = `Under the pointer: ${text} (id ${id}).`;
}

/** Says, over the map, how to zoom with the wheel: the page scrolled instead. */
export function hintWheel(widget) {
  widget.wheelHint.hidden = false;
  clearTimeout(widget.wheelHintTimer);
  widget.wheelHintTimer = setTimeout(() => { widget.wheelHint.hidden = true; }, 1500);
}

export function listenToInput(widget) {
  const canvas = widget.canvas;
  canvas.addEventListener('pointerdown', (event) => {
    const [x, y] = localPoint(widget, event);
    widget.pointers.set(event.pointerId, { x, y, startX: x, startY: y, type: event.pointerType });
    // A click into the map lets the wheel zoom it until the pointer leaves.
    if (event.pointerType === 'mouse') {
      widget.wheelArmed = true;
      widget.wheelHint.hidden = true;
    }
    if (event.pointerType === 'mouse' || widget.moveMode || widget.pointers.size > 1) canvas.setPointerCapture?.(event.pointerId);
  });
  canvas.addEventListener('pointermove', (event) => {
    const [x, y] = localPoint(widget, event);
    const pointer = widget.pointers.get(event.pointerId);
    if (!pointer) {
      if (event.pointerType === 'mouse') showHover(widget, widget.tokenAt(x, y), x, y);
      return;
    }
    if (widget.pointers.size === 2) {
      // Two fingers: pan by the midpoint, zoom by the spread, around the picked word while it is on the map.
      const [a, b] = [...widget.pointers.values()];
      const before = { mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
      pointer.x = x; pointer.y = y;
      const after = { mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
      panBy(widget, after.mx - before.mx, after.my - before.my);
      if (before.d > 0) {
        const [ax, ay] = zoomAnchor(widget);
        zoomAt(widget, after.d / before.d, ax, ay);
      }
      return;
    }
    const dragging = pointer.type === 'mouse' ? (event.buttons & 1) === 1 : widget.moveMode;
    if (dragging) panBy(widget, x - pointer.x, y - pointer.y);
    pointer.x = x; pointer.y = y;
  });
  const end = (event) => {
    const pointer = widget.pointers.get(event.pointerId);
    widget.pointers.delete(event.pointerId);
    if (!pointer || event.type === 'pointercancel') return;
    const [x, y] = localPoint(widget, event);
    // A tap or click, not a drag: names and picks the token under it.
    if (Math.hypot(x - pointer.startX, y - pointer.startY) < 8 && widget.pointers.size === 0) {
      const id = widget.tokenAt(x, y, pointer.type === 'mouse' ? 10 : 20);
      showHover(widget, id, x, y);
      // The dot is under the finger already; isolated, the view follows the new word's neighbours.
      if (id >= 0) widget.pick(id, { keepView: !widget.isolated });
    }
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  canvas.addEventListener('pointerleave', (event) => {
    if (event.pointerType !== 'mouse') return;
    widget.tip.hidden = true;
    widget.wheelArmed = false;
  });
  canvas.addEventListener('blur', () => { widget.wheelArmed = false; });
  // The wheel scrolls the page, as everywhere else on it, unless Ctrl or ⌘ is held (a
  // trackpad's pinch comes as a wheel with Ctrl) or the reader has clicked into the map.
  canvas.addEventListener('wheel', (event) => {
    if (!(event.ctrlKey || event.metaKey || widget.wheelArmed)) {
      hintWheel(widget);
      return;
    }
    event.preventDefault();
    const [x, y] = localPoint(widget, event);
    zoomAt(widget, Math.exp(-event.deltaY / 300), x, y);
  }, { passive: false });
  canvas.addEventListener('keydown', (event) => {
    const step = 40;
    const actions = {
      ArrowLeft: () => panBy(widget, step, 0), ArrowRight: () => panBy(widget, -step, 0),
      ArrowUp: () => panBy(widget, 0, step), ArrowDown: () => panBy(widget, 0, -step),
      '+': () => widget.zoomBy(1.5), '=': () => widget.zoomBy(1.5), '-': () => widget.zoomBy(1 / 1.5), 0: () => widget.resetView(),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
  if (typeof ResizeObserver === 'function') {
    let lastWidth = 0;
    new ResizeObserver(() => {
      const width = widget.frame.clientWidth;
      if (!widget.map_ || Math.abs(width - lastWidth) <= 1) return;
      lastWidth = width;
      // The same view at the new width: the whole map fitted again, or the same point of the map in the middle at the same zoom.
      const view = widget.viewState;
      resizeCanvas(widget);
      if (!view || view.whole) fitView(widget);
      else setCentre(widget, view.scale, view.centre);
      widget.draw();
    }).observe(widget.frame);
  }
  // Light or dark as the reader's system is, from the widgets' custom properties.
  const dark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  dark?.addEventListener?.('change', () => { readColours(widget); widget.draw(); });
}
