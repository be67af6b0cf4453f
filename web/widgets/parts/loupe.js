// A loupe: on a touch screen a heat map's cell or a trace's strip is a
// couple of pixels wide, too small for a finger. A tap opens this card next
// to the tapped point, inside the window, with the numbers around it as
// buttons big enough to tap (at least 24 CSS px each way); tapping one moves
// there. It closes with its button, Escape, or a tap elsewhere.
import { el } from './dom.js';
import { colorOf, darkTextOn } from './color.js';
import { num } from './format.js';

export class Loupe {
  /**
   * @param {{ label: string, onPick: (r: number, c: number) => void }} options
   *   label names the loupe for screen readers.
   */
  constructor({ label, onPick }) {
    this.onPick = onPick;
    this.title = el('p', { className: 'ew-loupe-title' });
    this.table = el('table', { className: 'ew-loupe-table' });
    this.closeButton = el('button', { type: 'button', className: 'ew-button ew-loupe-close', textContent: '×', 'aria-label': 'Close the loupe' });
    this.element = el('div', { className: 'ew-loupe', role: 'dialog', 'aria-label': label, hidden: true },
      el('div', { className: 'ew-loupe-head' }, this.title, this.closeButton), this.table);
    this.closeButton.addEventListener('click', () => this.close());
    this.element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.close();
    });
    this.table.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-r]');
      if (button) this.onPick(Number(button.dataset.r), Number(button.dataset.c));
    });
    this.outside = (event) => {
      if (!this.element.hidden && !this.element.contains(event.target) && !this.anchorElement?.contains(event.target)) this.close();
    };
    document.addEventListener('pointerdown', this.outside, { passive: true });
  }

  get open() {
    return !this.element.hidden;
  }

  /**
   * Shows the loupe below (or, without room, above) a point given in client
   * coordinates, inside `host` (a positioned element) and inside the window;
   * with `stay`, where it stands (a tap in the loupe moving it along). In
   * place of `x` and `y`, `point()` gives them when the loupe is placed:
   * where a strip is once the tap's other changes have moved it.
   * Each number is written to `digits` decimals (3, as the tables write them, unless said)
   * and coloured on the scale of `limit`; a row may have its own of either.
   *
   * It is placed in the next frame, before that frame is painted: placing
   * it needs its size, and measuring it in the tap's task would lay the page
   * out there, and again for the frame, after the tap's other changes (the
   * trace's strip tap did so twice, 11 and 17 ms on the phone profile).
   * Until then it takes its room but is not seen.
   * @param {{ x: number, y: number, host: HTMLElement, anchor?: HTMLElement, title: string, limit: number, digits?: number,
   *   colLabels: string[], rows: { label: string, limit?: number, digits?: number,
   *   cells: { r: number, c: number, value: number, current?: boolean }[] }[], stay?: boolean,
   *   point?: () => { x: number, y: number } }} what
   */
  show({ x, y, point, host, anchor, title, limit, digits = 3, colLabels, rows, stay = false }) {
    this.anchorElement = anchor ?? host;
    this.title.textContent = title;
    this.table.replaceChildren(
      el('thead', {}, el('tr', {}, el('td'), ...colLabels.map((text) => el('th', { scope: 'col', textContent: text })))),
      el('tbody', {}, ...rows.map((row) => el('tr', {},
        el('th', { scope: 'row', textContent: row.label }),
        ...row.cells.map((cell) => {
          if (!cell) return el('td');
          const scale = row.limit ?? limit, places = row.digits ?? digits;
          const button = el('button', {
            type: 'button',
            className: `ew-loupe-cell${cell.current ? ' ew-loupe-current' : ''}${darkTextOn(cell.value, scale) ? '' : ' ew-loupe-light'}`,
            textContent: num(cell.value, places),
            'data-r': String(cell.r),
            'data-c': String(cell.c),
            'aria-label': `${row.label}, ${colLabels[row.cells.indexOf(cell)]}: ${num(cell.value, places)}`,
          });
          button.style.backgroundColor = colorOf(cell.value, scale);
          if (cell.current) button.setAttribute('aria-current', 'true');
          return el('td', {}, button);
        })))));
    const staying = stay && !this.element.hidden;
    this.element.hidden = false;
    if (this.element.parentElement !== host) host.append(this.element);
    if (staying) return;
    // With `stay` and closed meanwhile: placed again where it was last.
    if (!stay || !this.place) this.place = { point: point ?? (() => ({ x, y })), host };
    this.element.style.visibility = 'hidden';
    this.placing ||= requestAnimationFrame(() => this.#place());
  }

  /** Puts the loupe under the finger if it fits in the window, else above; never past the window's sides. */
  #place() {
    this.placing = 0;
    const { point, host } = this.place;
    if (this.element.hidden) return;
    const { x, y } = point();
    // Measured where it cannot stick out of the page.
    this.element.style.left = '0px';
    const box = host.getBoundingClientRect();
    const width = this.element.offsetWidth, height = this.element.offsetHeight;
    const gap = 18;
    let top = y + gap;
    if (top + height > window.innerHeight - 4 && y - gap - height >= 4) top = y - gap - height;
    top = Math.max(4, Math.min(top, window.innerHeight - height - 4));
    // The page's width, not innerWidth: on a phone innerWidth grows with anything that sticks out.
    const pageWidth = Math.min(window.innerWidth, document.documentElement.clientWidth || window.innerWidth);
    let left = x - width / 2;
    left = Math.max(4, Math.min(left, pageWidth - width - 4));
    this.element.style.left = `${left - box.left}px`;
    this.element.style.top = `${top - box.top}px`;
    this.element.style.visibility = '';
  }

  close() {
    this.element.hidden = true;
  }

  dispose() {
    document.removeEventListener('pointerdown', this.outside);
  }
}

/** The positions of a neighbourhood: `around` ± `reach`, kept inside 0 … size − 1. */
export function neighbourhood(around, reach, size) {
  const span = Math.min(size, 2 * reach + 1);
  const first = Math.max(0, Math.min(size - span, around - reach));
  return Array.from({ length: span }, (_, i) => first + i);
}
