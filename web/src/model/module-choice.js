// Which build of the module a tokenizer.json needs.
//
// Whether a tokenizer.json has a component only embeddings-full.wasm holds
// (runtime.js): the chapter's module reads GPT-2's components only (a ByteLevel
// pre-tokenizer, no normalizer, a ByteLevel decoder and post-processor or
// none, BPE without byte_fallback or subword affixes: the kinds of
// cpp/src/text/tokenizer_json/registry_chapter.cpp). Any other "type"
// (every other normalizer, pre-tokenizer, model, decoder and
// post-processor), a null pre-tokenizer, byte_fallback or an affix needs
// the full one. A token
// that merely contains such words (never seen in a real file) costs a
// needless fetch, not a wrong id: the full module reads every file the
// chapter's module does, identically; and where this test misses, the chapter's
// module refuses by name and the full one is fetched then.
const FULL_MODULE_TYPE = /"type"\s*:\s*"(?!(?:ByteLevel|BPE)")/;
const FULL_MODULE_SETTING =
  /"pre_tokenizer"\s*:\s*null|"byte_fallback"\s*:\s*true|"(?:continuing_subword_prefix|end_of_word_suffix)"\s*:\s*"[^"]/;
const utf8 = new TextEncoder();
export const LEFT_OUT = /is left out of this build|are left out of this build/;
// The two patterns are tried on the file's bytes without decoding the file:
// each member whose key is one of these (found by a byte of it that is rare
// in a vocabulary, "_" or the "y" of "type", then checked byte by byte) is
// read as `"key":` and the value after its colon, decoded alone.
const FULL_MODULE_KEYS = ['type', 'pre_tokenizer', 'byte_fallback', 'continuing_subword_prefix', 'end_of_word_suffix']
  .map((key) => {
    const quoted = utf8.encode(`"${key}"`);
    const anchor = key.includes('_') ? 0x5f : 0x79;
    return { key, quoted, anchor, offset: quoted.indexOf(anchor) };
  });
// The keys by their anchor byte: a vocabulary has hundreds of "y"s, and
// each is checked against its own anchor's keys only, byte by byte, with no
// call per byte (the scan runs once per load, before V8 has optimised it).
const FULL_MODULE_ANCHORS = [0x79, 0x5f].map((anchor) => ({ anchor, keys: FULL_MODULE_KEYS.filter((key) => key.anchor === anchor) }));
const MEMBER_VALUE_BYTES = 64;
const memberValueDecoder = new TextDecoder();
/** Whether the file needs the full module (web/index.js does not export it; the loader and the tests use it). */
export function needsFullModule(bytes) {
  const isSpace = (b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
  for (const { anchor, keys } of FULL_MODULE_ANCHORS) {
    for (let found = bytes.indexOf(anchor); found >= 0; found = bytes.indexOf(anchor, found + 1)) {
      for (let k = 0; k < keys.length; k++) {
        const { key, quoted, offset } = keys[k];
        const start = found - offset;
        if (start < 0) continue;
        let same = 0;
        while (same < quoted.length && bytes[start + same] === quoted[same]) same++;
        if (same < quoted.length) continue;
        let value = start + quoted.length;
        while (isSpace(bytes[value])) value++;
        if (bytes[value] !== 0x3a) continue;  // ':'
        value++;
        while (isSpace(bytes[value])) value++;
        const member = `"${key}":${memberValueDecoder.decode(bytes.subarray(value, value + MEMBER_VALUE_BYTES))}`;
        if (FULL_MODULE_TYPE.test(member) || FULL_MODULE_SETTING.test(member)) return true;
      }
    }
  }
  return false;
}
