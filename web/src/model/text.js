// Text at the boundary with WebAssembly: the longest text taken at once,
// the checks every text-reading method makes, and UTF-8 read back exactly.
import { describe } from '../matrix.js';

/** The longest text encode() and trace() take at once, in bytes of UTF-8 (and the most ids decode() takes). */
export const MAX_TEXT_BYTES = 8 * 1024 * 1024;
const exactUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
// Text up to this many bytes is read from memory by hand when it is ASCII.
const SHORT_TEXT_BYTES = 16;

export function readUtf8(module, pointer, length) {
  const bytes = module.HEAPU8.subarray(pointer, pointer + length);
  // Short ASCII (most decoded tokens) is quicker by hand than through a call to the decoder.
  if (length <= SHORT_TEXT_BYTES) {
    let text = '';
    for (let i = 0; i < length; i++) {
      if (bytes[i] >= 0x80) return exactUtf8.decode(bytes);
      text += String.fromCharCode(bytes[i]);
    }
    return text;
  }
  return exactUtf8.decode(bytes);
}

export function checkText(text, caller) {
  if (typeof text !== 'string') throw new TypeError(`${caller}: expected a string, got ${describe(text)}`);
}

export function tooLong(caller, size, unit) {
  return new RangeError(`${caller}: the text is ${size} ${unit} long; at most ${MAX_TEXT_BYTES} bytes of UTF-8 ` +
    '(8 MiB) can be encoded at once');
}

/**
 * Where each byte of the UTF-8 of `text` (as TextEncoder writes it: a lone
 * surrogate as U+FFFD's three bytes) falls in the string: index b is the
 * UTF-16 index of the character byte b is part of, and the last index (the
 * byte length) is text.length. Turns the core's byte offsets into the
 * string's.
 */
export function utf16Positions(text) {
  const n = text.length;
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { bytes += 4; i++; } else bytes += 3;
  }
  const at = new Uint32Array(bytes + 1);
  let b = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let length = 3;
    const start = i;
    if (c < 0x80) length = 1;
    else if (c < 0x800) length = 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { length = 4; i++; }
    at.fill(start, b, b + length);
    b += length;
  }
  at[bytes] = n;
  return at;
}
