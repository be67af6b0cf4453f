// What the scripts that write fuzz inputs share (make_seeds.mjs,
// make_regressions.mjs): the safetensors target's config marker and byte
// concatenation, and the tokenizer_models target's inputs.
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

/**
 * A tokenizer_models input (tests/fuzz/targets/tokenizer_models.h): a
 * settings byte (bit 0 WordPiece; bit 1 byte_fallback or the "##" prefix;
 * bit 2 WhitespaceSplit; bit 3 an unknown token), max_input_chars_per_word
 * over 4, the tokens a line, an empty line, the text.
 */
export const modelsInput = (settings, maxChars, tokens, text) =>
  concat(Uint8Array.of(settings, maxChars), `${tokens.join('\n')}\n\n${text}`);
