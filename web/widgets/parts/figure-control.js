// What a widget offers a book's authors: its figures, each as SVG or PNG,
// from its API (element.figure({ format, which, scale, dpi, widthMm })) and
// from a small control under it ("Save a figure"). The drawing code and the
// SVG writer load only when a figure is first asked for (the page's bundle
// leaves them out), and import nothing that holds state: what they need of
// a model or a widget's drawing comes through the widget and `label`.
import { el } from './dom.js';
import { tokenLabel } from './token-picker.js';

/** The PNG sizes the control offers: twice the screen's CSS pixels, and 300 dpi at 120 mm wide (a book's text width). */
export const CONTROL_SIZES = Object.freeze([
  { label: 'PNG 2×', options: { format: 'png', scale: 2 }, suffix: '@2x.png' },
  { label: 'PNG 300 dpi, 120 mm wide', options: { format: 'png', dpi: 300, widthMm: 120 }, suffix: '-300dpi.png' },
]);

/**
 * Gives a widget class figure(), figureNames and the control: `names(widget)`
 * lists the figures it shows now (the first is the default), and `load()`
 * imports the module whose figureSpec(widget, name) describes one.
 */
export function installFigures(WidgetClass, { names, load }) {
  const build = WidgetClass.prototype.build;
  Object.defineProperties(WidgetClass.prototype, {
    /** The names of the figures this widget shows now, for figure({ which }). */
    figureNames: {
      configurable: true,
      get() {
        return this.model ? names(this) : [];
      },
    },
    /**
     * One of the widget's figures for a book, with its caption and the
     * model's name: SVG markup ({ format: 'svg' }, the default), or a PNG
     * Blob ({ format: 'png', scale: 2 } or { format: 'png', dpi: 300, widthMm: 120 }).
     */
    figure: {
      configurable: true,
      async value(options = {}) {
        if (typeof options !== 'object' || options === null) throw new TypeError(`figure: options must be an object such as { format: 'svg' }, got ${String(options)}`);
        const available = this.figureNames;
        if (!available.length) throw new Error(`figure: ${this.localName} has no figure to give before its model is shown`);
        const which = options.which ?? available[0];
        if (!available.includes(which)) throw new RangeError(`figure: ${this.localName} has no figure '${which}' now; it has ${available.map((n) => `'${n}'`).join(', ')}`);
        const [{ figureSpec }, { exportFigure }] = await Promise.all([load(), import('./figure-export.js')]);
        // Token texts come from here: the figure modules load apart from the page's bundle, and read no model themselves.
        const label = (id) => tokenLabel(this.model, id);
        return exportFigure(figureSpec(this, which, { label }), this.model, options);
      },
    },
    build: {
      configurable: true,
      value() {
        build.call(this);
        this.append(figureControl(this));
      },
    },
  });
}

/** Saves a Blob as a file the browser downloads. */
function download(blob, name) {
  const link = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
}

/** The control: which figure (where there are several), and a button per format. */
function figureControl(widget) {
  const select = el('select', { className: 'ew-input ew-figure-which', 'aria-label': 'Which figure' });
  const status = el('span', { className: 'ew-figure-status', role: 'status' });
  const save = async (options, suffix) => {
    const which = select.value || widget.figureNames[0];
    status.textContent = `Making ${which}${suffix}…`;
    try {
      const made = await widget.figure({ ...options, which });
      const blob = typeof made === 'string' ? new Blob([made], { type: 'image/svg+xml' }) : made;
      download(blob, `${which}${suffix}`);
      status.textContent = `Saved ${which}${suffix} (${Math.max(1, Math.round(blob.size / 1024))} KB).`;
    } catch (error) {
      status.textContent = `No figure: ${error.message}`;
    }
  };
  const buttons = [{ label: 'SVG', options: { format: 'svg' }, suffix: '.svg' }, ...CONTROL_SIZES].map(({ label, options, suffix }) => {
    const button = el('button', { type: 'button', className: 'ew-button', textContent: label });
    button.addEventListener('click', () => save(options, suffix));
    return button;
  });
  const details = el('details', { className: 'ew-figure-save' },
    el('summary', { textContent: 'Save a figure for a book' }),
    el('div', { className: 'ew-buttons' }, select, ...buttons), status);
  // The list is made when the control opens: the figures follow what the widget shows.
  details.addEventListener('toggle', () => {
    if (!details.open) return;
    const names = widget.figureNames;
    select.replaceChildren(...names.map((name) => el('option', { value: name, textContent: name })));
    select.hidden = names.length < 2;
    for (const button of buttons) button.disabled = !names.length;
  });
  return details;
}
