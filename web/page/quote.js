// A value of the address quoted in the page's status line.

// Controls, line separators and bidirectional overrides, shown as escapes when a value is quoted.
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A value quoted in the status line: at most `length` characters, every control shown as an escape. */
export function quoted(value, length = 60) {
  const text = String(value).slice(0, length * 6).replace(UNSHOWABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
