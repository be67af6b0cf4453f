// The Rust library's offsets as this package gives them: its Node binding's
// getOffsets() counts characters (code points: encode_char_offsets), the
// package UTF-16 units of the JavaScript string.
import assert from 'node:assert/strict';

/** For each code point index of `text` (and its length), the UTF-16 index there. */
export function utf16AtCodePoints(text) {
  const at = [0];
  let i = 0;
  for (const ch of text) at.push(i += ch.length);
  return at;
}

/** A Rust Encoding's offsets, ids and sequence ids as model.encode(text, { offsets: true }) gives them. */
export function rustEncoding(encoding, text, pair = undefined) {
  const at = [utf16AtCodePoints(text), pair === undefined ? null : utf16AtCodePoints(pair)];
  const sequences = encoding.getSequenceIds().map((s) => (s === undefined ? null : s));
  const offsets = encoding.getOffsets().map(([start, end], i) => {
    const positions = at[sequences[i] ?? 0];
    return [positions[start], positions[end]];
  });
  return { ids: Array.from(encoding.getIds()), offsets, sequenceIds: sequences };
}

/** model.encode(text, { offsets: true, ... }) against the Rust library's encoding of the same text. */
export function assertSameOffsets(model, encoding, text, options, what) {
  const ours = model.encode(text, { ...options, offsets: true });
  const rust = rustEncoding(encoding, text, options.pair);
  assert.deepEqual(ours.ids, rust.ids, `${what}: ids with offsets`);
  assert.deepEqual(ours.offsets, rust.offsets, `${what}: offsets`);
  assert.deepEqual(ours.sequenceIds, rust.sequenceIds, `${what}: sequence ids`);
  return ours;
}
