// How numbers, tokens and values are written on the page.

const MINUS = '\u2212';

/** A number as the chapter writes it: 3 decimals, a real minus sign, never "−0.000". */
export function num(x, digits = 3) {
  if (!Number.isFinite(x)) return String(x);
  const text = x.toFixed(digits);
  if (/^-0\.?0*$/.test(text)) return text.slice(1);
  return text.startsWith('-') ? MINUS + text.slice(1) : text;
}

let grouping;
/**
 * A whole number with thousands separators: 524,288. Safe integers are
 * grouped by hand: the first toLocaleString of a page sets up ICU's
 * number formatting, about 120 ms in headless Chromium at full speed (four
 * times that on a slow phone), and the page writes many of these while it
 * loads (only the message for an address too long to read calls it).
 * Anything else goes through one cached Intl.NumberFormat, which writes
 * the same as toLocaleString('en-US').
 */
export function int(n) {
  const x = Number(n);
  if (Number.isSafeInteger(x)) {
    const digits = String(x < 0 ? -x : x);
    let text = digits.length > 3 ? digits.replace(/\B(?=(\d{3})+$)/g, ',') : digits;
    if (x < 0 || Object.is(x, -0)) text = `-${text}`;
    return text;
  }
  grouping ??= new Intl.NumberFormat('en-US');
  return grouping.format(x);
}

/** "about 2 in every 5", "about 1 in every 3": a share as a reader says it. */
export function share(part, whole) {
  const ratio = part / whole;
  if (!(ratio > 0)) return 'none';
  if (ratio >= 0.995) return 'all';
  // The closest fraction with a denominator up to 10, if it is close (else per hundred).
  let best;
  for (let den = 2; den <= 10; den++) {
    const nom = Math.round(ratio * den);
    const error = Math.abs(nom / den - ratio);
    if (nom > 0 && nom < den && (!best || error < best.error - 1e-9)) best = { nom, den, error };
  }
  if (best && best.error <= 0.02) return `about ${best.nom} in every ${best.den}`;
  return `about ${Math.round(ratio * 100)} in every 100`;
}

/** The JavaScript source of a string, as the chapter's code writes it: 'Lily'. */
export function quote(text) {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

const inspect = Symbol.for('nodejs.util.inspect.custom');

/**
 * A value printed as a browser console or Node prints it, shortened where a
 * console would fold it: long arrays show their first numbers, a Matrix its
 * shape and first rows.
 */
export function consoleFormat(value, depth = 0) {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return depth === 0 ? value : quote(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  // Consoles print a function as its source.
  if (typeof value === 'function') {
    const source = Function.prototype.toString.call(value);
    return source.length <= 160 ? source : `ƒ ${value.name || 'anonymous'}()`;
  }
  if (value instanceof Error) return `Uncaught ${value.name}: ${value.message}`;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const shown = Array.from(value.subarray(0, 6), (x) => roundForConsole(x));
    const more = value.length > 6 ? `, … ${value.length - 6} more` : '';
    return `${value.constructor.name}(${value.length}) [${shown.join(', ')}${more}]`;
  }
  if (typeof value[inspect] === 'function' && depth === 0) {
    return value[inspect](1, {}, undefined);
  }
  if (Array.isArray(value)) {
    if (depth > 1) return `Array(${value.length})`;
    const shown = value.slice(0, 10).map((v) => consoleFormat(v, depth + 1));
    return `(${value.length}) [${shown.join(', ')}${value.length > 10 ? ', …' : ''}]`;
  }
  if (typeof value === 'object') {
    if (depth > 1) return '{…}';
    if (typeof value.toString === 'function' && value.toString !== Object.prototype.toString) return value.toString();
    const entries = Object.entries(value).map(([k, v]) => `${k}: ${consoleFormat(v, depth + 1)}`);
    return `{${entries.join(', ')}}`;
  }
  return String(value);
}

// Consoles print float32 numbers in full; six significant digits keep a line readable.
function roundForConsole(x) {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(6)));
}

/** Sizes of a table in words: "4,096 × 128". */
export function shape(rows, cols) {
  return `${int(rows)} × ${int(cols)}`;
}
