// Where the vocabulary map's labels go: beside their dots, never over one
// another, most important first; what cannot fit is left out.
//
// Greedy, as map labelling usually is: each label in turn tries a list of
// candidate places around its dot (right, left, above, below, the corners),
// then, when `leaders` allows, places farther out in columns beside it,
// joined to the dot by a line, and takes the first that stays inside the picture
// and overlaps no label placed before it and no dot it must keep clear
// (`obstacles`). The boxes already placed sit in a uniform grid of cells,
// so a try looks only at the few boxes in the cells it covers, not at all
// of them (docs/map.md has the times).
// Written here rather than taken from a library: @d3fc/d3fc-label-layout
// has a greedy strategy too, but as a D3 component over SVG with d3's
// selection modules behind it, for a canvas that needs the boxes alone;
// the placement itself is a page of code.

/** Cell size of the grid, in CSS pixels: about a label's height. */
const CELL = 24;

// Directions of the candidate places, as unit steps from the dot: the
// order is the order of preference (right of the dot reads best).
const DIRECTIONS = [
  [1, 0], [-1, 0], [1, -1], [1, 1], [-1, -1], [-1, 1], [0, -1], [0, 1],
];
/** How far from the dot, beyond its radius, a label sits beside it. */
const NEAR = 3;
/**
 * With a leader: columns of places to the right and left of the dot, at
 * these distances, a row above or below another (nearest rows first), and
 * places straight above and below. A tight cluster's labels then stand in
 * two columns beside it, each joined to its dot.
 */
const FAR = [18, 44];
const ROWS = [0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5];

/** The box of a label of size w × h placed in direction (dx, dy) at distance d from (x, y). */
function boxAt(x, y, w, h, [dx, dy], d) {
  const left = dx > 0 ? x + d : dx < 0 ? x - d - w : x - w / 2;
  const top = dy > 0 ? y + d : dy < 0 ? y - d - h : y - h / 2;
  return { left, top, right: left + w, bottom: top + h };
}

/** Every place a label may take, in order of preference: beside the dot, then (with leaders) farther out. */
function* candidates(x, y, w, h, radius, leaders) {
  for (const direction of DIRECTIONS) yield { box: boxAt(x, y, w, h, direction, radius + NEAR), leader: false };
  if (!leaders) return;
  for (const distance of FAR) {
    for (const row of ROWS) {
      const top = y - h / 2 + row * (h + 2);
      for (const left of [x + radius + distance, x - radius - distance - w]) {
        yield { box: { left, top, right: left + w, bottom: top + h }, leader: true };
      }
    }
    for (const dy of [-1, 1]) yield { box: boxAt(x, y, w, h, [0, dy], radius + distance), leader: true };
  }
}

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** A uniform grid of boxes over a picture, for finding those a box may overlap. */
class BoxGrid {
  constructor(width, height) {
    this.columns = Math.max(1, Math.ceil(width / CELL));
    this.rows = Math.max(1, Math.ceil(height / CELL));
    // Made as boxes arrive: most cells of a map's picture stay empty.
    this.cells = new Array(this.columns * this.rows);
  }

  #range(box) {
    const clamp = (v, n) => Math.max(0, Math.min(n - 1, Math.floor(v / CELL)));
    return [clamp(box.left, this.columns), clamp(box.top, this.rows), clamp(box.right, this.columns), clamp(box.bottom, this.rows)];
  }

  add(box) {
    const [c0, r0, c1, r1] = this.#range(box);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const key = r * this.columns + c;
        (this.cells[key] ??= []).push(box);
      }
    }
  }

  hits(box) {
    const [c0, r0, c1, r1] = this.#range(box);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = this.cells[r * this.columns + c];
        if (cell) for (const other of cell) if (overlaps(box, other)) return true;
      }
    }
    return false;
  }
}

/**
 * Places labels in a picture of `width` × `height` CSS pixels.
 *
 * @param {Array<{ x: number, y: number, width: number, height: number, radius?: number, leaders?: boolean }>} labels
 *   most important first: the dot at (x, y) of `radius` (default 3), the
 *   label's size; `leaders` lets it sit farther out, joined by a line.
 * @param {{ width: number, height: number, obstacles?: Array<{ x: number, y: number, radius: number }>,
 *   taken?: Array<{ left: number, top: number, right: number, bottom: number }>, padding?: number }} picture
 *   obstacles: dots no label may cover (the dots of labels with leaders
 *   are obstacles already, and each other label's once it is placed);
 *   taken: boxes already used (a caption);
 *   padding: space kept around each label.
 * @returns {Array<{ left: number, top: number, right: number, bottom: number, leader: boolean } | null>}
 *   each label's box (without the padding), or null when it does not fit.
 */
export function placeLabels(labels, { width, height, obstacles = [], taken = [], padding = 1 }) {
  // Labels and dots apart: a label whose own dot lies under a label placed before it is left out.
  const grid = new BoxGrid(width, height), dots = new BoxGrid(width, height);
  for (const box of taken) grid.add(box);
  const dotBox = ({ x, y, radius = 3 }) => ({ left: x - radius, top: y - radius, right: x + radius, bottom: y + radius });
  const inside = ({ x, y }) => x >= 0 && y >= 0 && x <= width && y <= height;
  // Dots kept clear from the start: the obstacles, and the dots of the labels that may take a leader (the
  // ringed ones). Any other label's dot is kept clear once its label is placed, so that it stays beside it.
  for (const dot of [...obstacles, ...labels.filter((label) => label.leaders)]) if (inside(dot)) dots.add(dotBox(dot));
  return labels.map((label) => {
    const { x, y, radius = 3 } = label;
    if (!inside(label) || (!label.leaders && grid.hits(dotBox(label)))) return null;
    for (const { box, leader } of candidates(x, y, label.width, label.height, radius, label.leaders)) {
      if (box.left < 0 || box.top < 0 || box.right > width || box.bottom > height) continue;
      const padded = { left: box.left - padding, top: box.top - padding, right: box.right + padding, bottom: box.bottom + padding };
      if (grid.hits(padded) || dots.hits(padded)) continue;
      grid.add(padded);
      if (!label.leaders) dots.add(dotBox(label));
      return { ...box, leader };
    }
    return null;
  });
}
