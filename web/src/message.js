// Text from a file, shown in a message as the C++ messages show it
// (cpp/include/embeddings/common/message.h): cut to a readable length, and unable
// to change how the rest of the message reads.

/** Bytes of UTF-8 shown before the cut ("..." marks one), as kQuotedTextLimit. */
export const QUOTED_TEXT_LIMIT = 40;

// C0 and C1 controls, DEL, the line and paragraph separators and the
// bidirectional formatting characters: what message.h escapes.
const ESCAPED = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

const utf8Length = (code) => (code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4);

/**
 * `text` as a JSON-style string literal for a message, exactly as message.h's
 * quote() writes the same text in UTF-8: double-quoted, cut at a character
 * boundary after QUOTED_TEXT_LIMIT bytes of UTF-8, lone surrogates as
 * U+FFFD, and controls, separators and direction marks as \uXXXX escapes
 * (\n, \r and \t as such).
 */
export function quote(text) {
  let out = '"', bytes = 0;
  for (const character of text) {
    let code = character.codePointAt(0);
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;  // a lone surrogate, as TextEncoder writes it
    bytes += utf8Length(code);
    if (bytes > QUOTED_TEXT_LIMIT) return `${out}..."`;
    if (code === 0x22 || code === 0x5c) out += `\\${character}`;
    else if (code === 0x0a) out += '\\n';
    else if (code === 0x0d) out += '\\r';
    else if (code === 0x09) out += '\\t';
    else if (ESCAPED.test(character)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += String.fromCodePoint(code);
  }
  return `${out}"`;
}

/** Whether `text` holds a character quote() would escape (a control, a separator, a direction mark). */
export function hasEscapedCharacters(text) {
  return ESCAPED.test(text);
}
