// What the scripts that write fuzz inputs share (make_seeds.mjs,
// make_regressions.mjs): the safetensors target's config marker and byte
// concatenation.
const utf8 = new TextEncoder();

/** Separates a safetensors file from its config.json in one input (tests/fuzz/targets/safetensors.h). */
export const CONFIG_MARKER = '\n#config.json#\n';

/** Strings (as UTF-8) and byte arrays, one after the other. */
export function concat(...parts) {
  const arrays = parts.map((p) => (typeof p === 'string' ? utf8.encode(p) : p));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) { out.set(a, at); at += a.length; }
  return out;
}
