// The picture of <ew-vocabulary-map>: every token's dot, the groups' marks,
// rings round the picked word, its neighbours and a lit token, and labels
// placed where they do not overlap (label-placement.js). Each works on the
// map's state (state.js).
import { tokenLabel } from '../parts/token-picker.js';
import { VOCABULARY_GROUPS, drawShape } from '../parts/vocabulary-groups.js';
import { placeLabels } from './label-placement.js';
import { toScreen } from './geometry.js';
import { float32Numbers } from '../../src/matrix.js';

/** Other tokens' labels are tried once no more than this many dots are in view (zoomed in). */
const OTHER_LABELS = 250;
const FONT = '12px system-ui, sans-serif';
const BOLD = 'bold 13px system-ui, sans-serif';

/** The colours of the element's theme (light, dark, or a book's own custom properties). */
export function readColours(state) {
  const style = state.style();
  const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  state.colours = {
    ink: read('--ew-ink', '#1d1d1f'), bg: read('--ew-bg', '#ffffff'), muted: read('--ew-muted', '#5c5c66'), accent: read('--ew-accent', '#2458a6'),
  };
}

/** "across: ·man → ·woman" at the bottom right and what up is at the top left, as boxes to keep labels off. */
export function axisCaptions(state, context) {
  const word = (id) => tokenLabel(state.model, id);
  const { from, to, upFrom, upTo } = state.axes;
  const across = `across → from ${word(from)} to ${word(to)}`;
  const up = upFrom === undefined ? 'up ↑ most varied at right angles' : `up ↑ from ${word(upFrom)} to ${word(upTo)}`;
  const a = textWidth(state, context, FONT, across), u = textWidth(state, context, FONT, up);
  return [
    { text: across, left: Math.max(4, state.width - a - 6), top: state.height - 20, right: state.width - 2, bottom: state.height - 4 },
    { text: up, left: 6, top: 4, right: Math.min(state.width - 2, u + 10), bottom: 20 },
  ];
}

export function textWidth(state, context, font, text) {
  const key = `${font}\n${text}`;
  let width = state.textWidths.get(key);
  if (width === undefined) {
    context.font = font;
    width = context.measureText(text).width;
    state.textWidths.set(key, width);
  }
  return width;
}

/** Draws the map on its canvas, as the view is now. */
export function drawMap(state) {
  const context = state.parts.canvas.getContext('2d');
  if (!context || !state.map) return;
  const { ratio } = state;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  drawMapInto(state, context, state.colours);
}

/**
 * The map as the element shows it, on any 2D context of its size in CSS
 * pixels (state.width × state.height): its canvas's, or a figure's
 * (figure-export.js), in `colours` ({ ink, bg, muted, accent }).
 */
export function drawMapInto(state, context, colours) {
  const { width, height } = state;
  context.clearRect(0, 0, width, height);
  const rows = state.map.rows;
  const picked = state.picked !== undefined && state.picked < rows ? state.picked : undefined;
  const isolatedSet = state.isolated && picked !== undefined ? new Set([picked, ...(state.neighbours ?? [])]) : undefined;
  const dots = drawDots(state, context, colours.muted, isolatedSet);
  drawGroupMarks(state, context, colours.bg, dots, isolatedSet);
  // The reader's own axes: their words, and what each direction is, in the picture's corners.
  const captions = state.method === 'axes' && state.axes ? axisCaptions(state, context) : [];
  const rings = ringsOf(state, colours, picked, captions.length > 0);
  const labels = labelsOf(state, context, rings, othersOf(state, dots.visible, rings, isolatedSet));
  const boxes = placeLabels(labels, { width, height, padding: 1, taken: captions });
  drawCaptions(context, captions, colours.muted);
  drawRings(context, labels.slice(0, rings.length));
  drawLabels(context, labels, boxes, colours);
  sayWhatFits(state, labels, boxes, rings.length);
}

/** Whether a point of the screen is on the picture (or within a dot of it). */
const onMap = (state, x, y) => x >= -4 && y >= -4 && x <= state.width + 4 && y <= state.height + 4;

/**
 * Every token's dot, faded where not isolated; returns each dot's place on
 * the screen (screenX, screenY) and the tokens whose dots are on the picture.
 */
function drawDots(state, context, muted, isolatedSet) {
  const { width, height, map } = state, rows = map.rows;
  const visible = [];
  context.fillStyle = muted;
  context.globalAlpha = isolatedSet ? 0.12 : 0.45;
  // Every dot's place on the screen, as toScreen() gives it (the same arithmetic, in the same
  // order, so the same pixels), read straight from the map's numbers: a call and an array per
  // dot made this loop most of a drawing's time on a phone.
  const points = float32Numbers(map);
  const { fit, cx, cy } = state.base, { scale, x: ox, y: oy } = state.view;
  const screenX = new Float64Array(rows), screenY = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const x = width / 2 + ((points[2 * i] - cx) * fit * scale) + ox, y = height / 2 - ((points[2 * i + 1] - cy) * fit * scale) + oy;
    screenX[i] = x;
    screenY[i] = y;
    if (!onMap(state, x, y)) continue;
    visible.push(i);
    context.fillRect(x - 1, y - 1, 2, 2);
  }
  context.globalAlpha = 1;
  return { screenX, screenY, visible };
}

/** The shown groups' marks, each its shape in its colour, over the dots. */
function drawGroupMarks(state, context, bg, { screenX, screenY }, isolatedSet) {
  const rows = state.map.rows;
  for (const group of VOCABULARY_GROUPS) {
    if (!state.shownGroups.has(group.key)) continue;
    context.fillStyle = group.colour;
    context.strokeStyle = bg;
    context.lineWidth = 1;
    for (const id of state.groups[group.key]) {
      if (!(id < rows)) continue;
      const x = screenX[id], y = screenY[id];
      if (!onMap(state, x, y)) continue;
      context.globalAlpha = isolatedSet && !isolatedSet.has(id) ? 0.15 : 1;
      drawShape(context, group.shape, x, y, 4);
      context.fill();
      context.stroke();
    }
  }
  context.globalAlpha = 1;
}

/** The ringed tokens: the axes' words (`withAxes`), the lit token, the picked word and its neighbours. */
function ringsOf(state, { ink, accent }, picked, withAxes) {
  const rows = state.map.rows;
  const rings = [];
  if (withAxes) {
    const { from, to, upFrom, upTo } = state.axes;
    for (const id of [from, to, upFrom, upTo]) {
      if (id !== undefined && id < rows && !rings.some((r) => r.id === id)) {
        rings.push({ id, text: tokenLabel(state.model, id), font: BOLD, radius: 6, colour: accent, line: 2, leaders: true, lit: true });
      }
    }
  }
  if (state.lit && state.lit.id < rows) rings.push({ id: state.lit.id, text: state.lit.label, font: BOLD, radius: 10, colour: accent, line: 3, leaders: true, lit: true });
  if (picked !== undefined) {
    rings.push({ id: picked, text: tokenLabel(state.model, picked), font: BOLD, radius: 7, colour: ink, line: 3, leaders: true });
    for (const id of state.neighbours ?? []) rings.push({ id, text: tokenLabel(state.model, id), font: FONT, radius: 5, colour: ink, line: 2, leaders: true });
  }
  return rings;
}

/** Zoomed in, the other tokens in view (isolated: of the isolated ones), to be labelled where there is room, those nearest the middle first. */
function othersOf(state, visible, rings, isolatedSet) {
  if (visible.length > OTHER_LABELS) return [];
  const { width, height, map } = state;
  const ringed = new Set(rings.map((r) => r.id));
  return visible.filter((id) => !ringed.has(id) && (!isolatedSet || isolatedSet.has(id))).map((id) => {
    const [x, y] = toScreen(state, map.at(id, 0), map.at(id, 1));
    return { id, x, y, far: (x - width / 2) ** 2 + (y - height / 2) ** 2 };
  }).sort((a, b) => a.far - b.far);
}

/** The labels to place, the rings' first: each with its dot's place on the screen and its text's size. */
function labelsOf(state, context, rings, others) {
  const map = state.map;
  return [
    ...rings.map((ring) => {
      const [x, y] = toScreen(state, map.at(ring.id, 0), map.at(ring.id, 1));
      return { ...ring, x, y, width: textWidth(state, context, ring.font, ring.text), height: ring.font === BOLD ? 16 : 15 };
    }),
    ...others.map(({ id, x, y }) => {
      const text = tokenLabel(state.model, id);
      return { id, text, font: FONT, x, y, radius: 2, width: textWidth(state, context, FONT, text), height: 15, leaders: false, other: true };
    }),
  ];
}

function drawCaptions(context, captions, muted) {
  context.font = FONT;
  context.textBaseline = 'middle';
  for (const caption of captions) {
    context.fillStyle = muted;
    context.fillText(caption.text, caption.left, (caption.top + caption.bottom) / 2);
  }
}

function drawRings(context, rings) {
  for (const ring of rings) {
    context.beginPath();
    context.arc(ring.x, ring.y, ring.radius, 0, 2 * Math.PI);
    context.lineWidth = ring.line;
    context.strokeStyle = ring.colour;
    context.stroke();
  }
}

/** Each label that has a box, haloed in the background's colour, with a line to its dot when placed away from it. */
function drawLabels(context, labels, boxes, { ink, bg, muted, accent }) {
  context.textBaseline = 'middle';
  context.lineJoin = 'round';
  labels.forEach((label, k) => {
    const box = boxes[k];
    if (!box) return;
    if (box.leader) {
      const tx = Math.max(box.left, Math.min(box.right, label.x)), ty = Math.max(box.top, Math.min(box.bottom, label.y));
      context.beginPath();
      context.moveTo(label.x, label.y);
      context.lineTo(tx, ty);
      context.lineWidth = 1;
      context.strokeStyle = muted;
      context.stroke();
    }
    context.font = label.font;
    const ty = (box.top + box.bottom) / 2;
    context.lineWidth = 3;
    context.strokeStyle = bg;
    context.strokeText(label.text, box.left, ty);
    context.fillStyle = label.lit ? accent : label.other ? muted : ink;
    context.fillText(label.text, box.left, ty);
  });
}

/** Keeps the labels drawn and the ringed ones left out (for the tests and the text below), and says under the map which had no room. */
function sayWhatFits(state, labels, boxes, ringCount) {
  const { width, height } = state;
  state.labelBoxes = labels.flatMap((label, k) => (boxes[k] ? [{ id: label.id, ...boxes[k] }] : []));
  const leftOut = labels.slice(0, ringCount).filter((label, k) => !boxes[k] && label.x >= 0 && label.y >= 0 && label.x <= width && label.y <= height);
  state.leftOut = leftOut.map((label) => label.id);
  const note = leftOut.length
    ? `${leftOut.length} of the ringed words ${leftOut.length === 1 ? 'has' : 'have'} no room for a label here (${leftOut.map((l) => l.text).join(', ')}): zoom in, or isolate them.`
    : '';
  if (state.parts.fitNote.textContent !== note) state.parts.fitNote.textContent = note;
}
