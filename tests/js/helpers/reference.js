// A tiny pure-JS reference for the public API, in double precision.
import { widen } from '../../../web/src/matrix.js';

export function dot(a, b) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

export function cosine(a, b) {
  const aa = dot(a, a), bb = dot(b, b);
  if (aa === 0 || bb === 0) return 0;
  return Math.max(-1, Math.min(1, dot(a, b) / Math.sqrt(aa * bb)));
}

export function row(data, width, i) {
  return data.subarray(i * width, (i + 1) * width);
}

/** Every token ranked by cosine to the query, best first, ties by smaller id. */
export function nearest(wte, width, query, k, exclude = -1) {
  const rows = wte.length / width;
  const scored = [];
  for (let id = 0; id < rows; id++) {
    if (id !== exclude) scored.push({ id, score: cosine(query, row(wte, width, id)) });
  }
  scored.sort((x, y) => (y.score - x.score) || (x.id - y.id));
  return scored.slice(0, k);
}

/** Token rows, position rows and their float32 sums for some ids. */
export function trace(wte, wpe, width, ids) {
  const n = ids.length;
  const token = new Float32Array(n * width), position = new Float32Array(n * width), sum = new Float32Array(n * width);
  ids.forEach((id, i) => {
    for (let c = 0; c < width; c++) {
      token[i * width + c] = wte[id * width + c];
      position[i * width + c] = wpe[i * width + c];
      sum[i * width + c] = Math.fround(wte[id * width + c] + wpe[i * width + c]);
    }
  });
  return { token, position, sum };
}

/** Tolerance for a float32 dot product of n terms against the double reference. */
export function dotTolerance(a, b) {
  let magnitude = 0;
  for (let i = 0; i < a.length; i++) magnitude += Math.abs(a[i] * b[i]);
  return (a.length + 2) * 2 ** -23 * magnitude + 1e-12;
}

/**
 * Reads named float32 tensors from safetensors bytes in plain JS, as an
 * independent check of the C++ loader (F32 only).
 */
export function readSafetensorsF32(bytes, names) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const out = {};
  for (const name of names) {
    const entry = header[name];
    if (!entry || entry.dtype !== 'F32') throw new Error(`no F32 tensor ${name}`);
    const [begin, end] = entry.data_offsets;
    const start = 8 + headerLength + begin;
    out[name] = { shape: entry.shape, data: new Float32Array(bytes.slice(start, 8 + headerLength + end).buffer) };
  }
  return out;
}

/**
 * The heat maps' colour limit as robustLimit (web/widgets/color.js) first
 * computed it: the 99.5th percentile of |x| over an evenly spaced sample of
 * about 20,000 numbers, by sorting the whole sample (a typed array sorts
 * NaN last); 1 where that is not a positive number.
 */
export function sortedColourLimit(data, dtype = 'float32') {
  const n = data.length;
  if (n === 0) return 1;
  const step = Math.max(1, Math.floor(n / 20000));
  const sample = new Float64Array(Math.ceil(n / step));
  for (let i = 0, k = 0; i < n; i += step, k++) sample[k] = data[i];
  const values = dtype === 'float32' ? sample : widen(Uint16Array.from(sample), dtype);
  for (let k = 0; k < sample.length; k++) sample[k] = Math.abs(values[k]);
  sample.sort();
  const value = sample[Math.min(sample.length - 1, Math.floor(sample.length * 0.995))];
  return value > 0 ? value : 1;
}
