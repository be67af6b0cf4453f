// Text for the tokenizer tests: hand-picked awkward strings, a seeded random
// generator that mixes the same classes, and small pure-JS references (UTF-8
// checks, the byte-level alphabet, the book's display form of a token).
import { readFileSync } from 'node:fs';
import { byteToUnicode } from './fixtures.js';

/** The prose corpus (tests/js/corpus/stories.txt): its paragraphs, its lines and the whole file. */
export function storyTexts() {
  const text = readFileSync(new URL('../corpus/stories.txt', import.meta.url), 'utf8');
  const paragraphs = text.split('\n\n');
  return [text, ...paragraphs, ...text.split('\n').filter((line) => line !== '')];
}

// Characters on which JavaScript's regular expressions and Hugging Face's
// Rust library (Oniguruma) disagree, so a JavaScript oracle cannot speak for
// the Rust library there (docs/tokenizer.md):
// - U+0085 NEXT LINE is \s in Oniguruma (White_Space), not in JavaScript;
// - U+FEFF BYTE ORDER MARK is \s in JavaScript, not in Oniguruma;
// - letters and numbers first assigned in Unicode 17.0: Node's \p{L}/\p{N}
//   (and this package's tables, generated from Node) have them, tokenizers
//   0.22 (Unicode 16.0) does not. A few of them, for the pinned tests.
export const NEL = '\u0085';
export const BOM = '\uFEFF';
export const UNICODE_17_LETTERS = [
  '\u{323B0}', '\u{33479}',  // CJK Unified Ideographs Extension J, first and last
  '\u{10940}',               // Sidetic
  '\u{11DB0}',               // Tolong Siki
  '\u{16EA0}',               // Beria Erfe
  '\u{1E6C0}',               // Tai Yo
];
const UNICODE_17_RANGES = [[0x323b0, 0x3347f], [0x10940, 0x1095f], [0x11db0, 0x11def], [0x16ea0, 0x16edf], [0x1e6c0, 0x1e6ff]];

/** True when every oracle here should read `text` as the Rust library does (none of the characters above). */
export function oracleSafe(text) {
  for (const ch of text) {
    if (ch === NEL || ch === BOM) return false;
    const cp = ch.codePointAt(0);
    if (UNICODE_17_RANGES.some(([a, b]) => cp >= a && cp <= b)) return false;
  }
  return true;
}

/**
 * Hand-picked awkward strings (all oracle-safe and well-formed UTF-16).
 * Lone surrogates and the characters above have tests of their own.
 */
export const TRICKY = [
  '', ' ', '  ', '\n', '\n\n', '\t', '\r\n', ' \n ', '\t \t', '   leading', 'trailing   ', '  both  ',
  'a  b', 'a   b', 'a\n\nb', 'a \n b', 'a\t\tb', ' \t\n x', 'x \t\n ', '\n\n\n  \n\t end', '\u00A0\u00A0x',
  'one\u2028two\u2029three', '\u3000\u3000全角', 'thin\u2009space', 'x\u000B\u000Cy', '\r\r\n\n\r',
  'Hello, world!', 'Hello world', '...', '?!?!', '"quoted"', "'single'", '(parens) [brackets] {braces}',
  '--', '—em dash—', '–', '…', '@#$%^&*', 'a.b.c', 'e.g. i.e. etc.', 'http://example.com/a?b=c&d=e#f',
  '#hashtag @mention', '~/path/to/file.txt', 'C:\\Windows\\System32', '<b>bold</b>', '{"key": [1, 2]}',
  '0', '7', '42', '2024', '3.14159', '-273.15', '1,000,000', '12345678901234567890123456789012345678901234567890',
  '1st 2nd 3rd 4th', '½ ¼ ¾', 'x² + y³', 'Ⅻ ⅷ', '٠١٢٣٤٥٦٧٨٩', '१२३', '０１２３', '𝟘𝟙𝟚', '10%', '$5.99', '€20', '£3', '¥100', '₹50',
  "don't", "it's", "I'm", "you're", "we've", "she'll", "he'd", "can't won't", "DON'T", "IT'S", "I'M", "YOU'LL",
  "it'S", "It'S", "it’s", "don’t", "I’m", "'s", "'", "''", "'''s", "rock 'n' roll", "the dogs' bones", "'tis",
  "Mia's ball", "JAMES'S", "x's'd'll",
  '😀', '😀😀', 'Hi 😀!', '👍🏽', '👩🏿‍🚀', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇫🇷🇯🇵🇺🇸', '🇫', '❤️', '1️⃣', '🫠', '🧑‍🤝‍🧑',
  '日本語', '中文字符', '東京タワー', 'ひらがな', 'カタカナ', '한국어', '我爱你。', '「こんにちは」', '𠀀𠀁',
  'café', 'cafe\u0301', 'naïve', 'nai\u0308ve', 'Ångström', 'A\u030Angstro\u0308m', 'ñ', 'n\u0303', 'Ǆ ǅ ǆ', 'ﬁ ﬂ', 'ß ẞ',
  'e\u0301\u0301\u0301', '\u0301', 'Z\u0351\u0364\u036B\u0344a\u0310\u0369lgo',
  'مرحبا بالعالم', 'السلام عليكم', 'שָׁלוֹם עולם', 'नमस्ते दुनिया', 'क्षत्रिय', 'สวัสดี', 'Привет, мир!', 'Γειά σου Κόσμε', 'Բարեւ',
  'mixed עברית and English', 'RTL\u200Fmark', 'zero\u200Bwidth', 'joiner\u200Dhere', 'non\u200Cjoiner', 'word\u2060joiner',
  '\u0000', 'a\u0000b', '\u0001\u0002\u0003', '\u001B[31mred\u001B[0m', '\u007F', '\u0080', '\u009F', 'bell\u0007',
  '<|endoftext|>', 'a<|endoftext|>b', 'end.<|endoftext|>Once', '<|endoftext|><|endoftext|>', ' <|endoftext|> ',
  '<|endoftext|', '|endoftext|>', '<|endoftext|>>', '<<|endoftext|>', '<|end', '<|ENDOFTEXT|>', '<|endoftext |>',
  'Ġ', 'Ċ', 'ĠĠ', 'Ġthe', 'âĢĻ', 'ÃĥÂ', '\u0100\u0120\u0143', '·', '↵', '⇥', '·girl', '<0x41>',
  ' SolidGoldMagikarp', ' davidjl', 'rawdownloadcloneembedreportprint', ' petertodd',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '!!!!!!!!!!!!!!!!!!!!', '                    x',
  'CamelCaseWordsHere', 'snake_case_words', 'kebab-case-words', 'UPPER CASE TEXT', 'MiXeD cAsE',
  'Once upon a time,\nthere was a girl.\n\n"Hi!" she said.\n',
];

/** Long texts: pieces of a thousand bytes and more, and many merges. (js-tiktoken's BPE is quadratic in a piece's length.) */
export function longTexts() {
  return [
    'a'.repeat(1200), ' '.repeat(600) + 'x', '\n'.repeat(300), '9'.repeat(1000), '!?'.repeat(300),
    '😀'.repeat(150), '日本'.repeat(200), 'ab '.repeat(400), ' the'.repeat(300), "it's ".repeat(200),
    'e\u0301'.repeat(200),
  ];
}

/** Uniform numbers in [0, 1) from a seed (mulberry32). */
export function uniformRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Code point ranges that have held only letters, digits, marks, punctuation
// or symbols since long before Unicode 16, so a random pick is never a
// character whose class changed in Unicode 17.
const OLD_RANGES = [
  [0x21, 0x7e], [0xa0, 0xff], [0x100, 0x24f], [0x250, 0x36f], [0x391, 0x3a1], [0x3a3, 0x3ce], [0x400, 0x4ff],
  [0x531, 0x556], [0x5d0, 0x5ea], [0x591, 0x5c7], [0x621, 0x64a], [0x64b, 0x669], [0x905, 0x939], [0x93c, 0x96f],
  [0xe01, 0xe3a], [0x1e00, 0x1eff], [0x2000, 0x2064], [0x20a0, 0x20b5], [0x2100, 0x214f], [0x2150, 0x2188],
  [0x2190, 0x22ff], [0x2460, 0x24ff], [0x2500, 0x25ff], [0x3000, 0x303f], [0x3041, 0x3096], [0x30a1, 0x30fa],
  [0x4e00, 0x9fa5], [0xac00, 0xd7a3], [0xfe30, 0xfe4f], [0xff01, 0xff5e], [0x10330, 0x1034a], [0x1d400, 0x1d454],
  [0x1f300, 0x1f5ff], [0x1f600, 0x1f64f], [0x20000, 0x2a6d6],
];

const WORDS = ['the', 'girl', 'boy', 'Lily', 'Tom', 'saw', 'a', 'big', 'dog', 'ran', 'happy', 'said', 'Once',
  'upon', 'time', 'There', 'was', 'and', 'to', 'play', 'with', 'ball', 'sun', 'tree', 'SolidGoldMagikarp', 'I', 'THE'];
const PUNCT = ['.', ',', '!', '?', '"', "'", ':', ';', '-', '(', ')', '...', '!"', '."', '?!', '—', '…', '*', '/', '#', '&', '%', '`', '~', '[', ']', '_'];
const SPACES = [' ', ' ', ' ', '  ', '   ', '\n', '\n\n', '\t', ' \n', '\n ', '\r\n', '\u00A0', '\u2009', '\u3000', '\u2028', '\u000B', '\u000C', '\u205F'];
const CONTRACTIONS = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'LL", "’s", "’t", "n't", "'"];
const EMOJI = ['😀', '👍', '👍🏻', '👍🏿', '👨‍👩‍👧', '👩‍💻', '🏳️‍🌈', '🇬🇧', '🇩🇪', '❤️', '✨', '🎉', '1️⃣', '#️⃣', '\u200D', '\uFE0F', '🏽'];
const SCRIPTS = ['日本', '語', '中', '文', '한국', 'ひら', 'カタ', 'مرحبا', 'عالم', 'שלום', 'עולם', 'नमस्ते', 'क्ष', 'ไทย',
  'Привет', 'мир', 'Ελλάδα', 'é', 'e\u0301', 'ü', 'u\u0308', 'ñ', 'ø', 'Å', 'ǅ', '\u0301', '\u0308', 'ß', 'ﬁ', '𝔸', '𠀀'];
const CONTROLS = ['\u0000', '\u0001', '\u0007', '\u0008', '\u001B', '\u001F', '\u007F', '\u0080', '\u0090', '\u009F', '\u200B', '\u200E', '\u2060'];
const DIGITS = '0123456789';
const SPECIALS = ['<|endoftext|>', '<|endoftext|>', '<|end', 'endoftext', '<|', '|>'];

/**
 * A random string mixing words, numbers, punctuation, whitespace runs,
 * contractions, emoji, other scripts, control characters, the special token
 * and random old code points. Well-formed and oracle-safe.
 */
export function randomText(random, maxParts = 12) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const parts = [];
  const count = 1 + Math.floor(random() * maxParts);
  for (let i = 0; i < count; i++) {
    const kind = Math.floor(random() * 11);
    if (kind === 0 || kind === 1) {
      let word = pick(WORDS);
      if (random() < 0.2) word = word.toUpperCase();
      parts.push(word);
    } else if (kind === 2) {
      let digits = '';
      const n = 1 + Math.floor(random() * (random() < 0.1 ? 40 : 5));
      for (let j = 0; j < n; j++) digits += DIGITS[Math.floor(random() * 10)];
      parts.push(digits);
    } else if (kind === 3) {
      parts.push(pick(PUNCT));
    } else if (kind === 4) {
      let run = '';
      const n = 1 + Math.floor(random() * 3);
      for (let j = 0; j < n; j++) run += pick(SPACES);
      parts.push(run);
    } else if (kind === 5) {
      parts.push(pick(CONTRACTIONS));
    } else if (kind === 6) {
      parts.push(pick(EMOJI));
    } else if (kind === 7) {
      parts.push(pick(SCRIPTS));
    } else if (kind === 8) {
      parts.push(random() < 0.5 ? pick(CONTROLS) : pick(SPECIALS));
    } else {
      const [a, b] = pick(OLD_RANGES);
      let run = '';
      const n = 1 + Math.floor(random() * 4);
      for (let j = 0; j < n; j++) run += String.fromCodePoint(a + Math.floor(random() * (b - a + 1)));
      parts.push(run);
    }
    if (random() < 0.35) parts.push(' ');
  }
  return parts.join('');
}

/** Any code points at all (surrogates excluded), for round trips only: no oracle reads them. */
export function randomCodePoints(random, length) {
  let text = '';
  for (let i = 0; i < length; i++) {
    const r = random();
    let cp;
    if (r < 0.3) cp = Math.floor(random() * 0x80);
    else if (r < 0.8) cp = Math.floor(random() * 0x10000);
    else cp = 0x10000 + Math.floor(random() * 0x100000);
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    text += String.fromCodePoint(cp);
  }
  return text;
}

/** A random string with lone surrogates (ill-formed UTF-16) among ordinary text. */
export function randomIllFormed(random) {
  const surrogates = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uD83D', '\uDE00'];
  let text = '';
  const count = 1 + Math.floor(random() * 6);
  for (let i = 0; i < count; i++) {
    text += random() < 0.5 ? surrogates[Math.floor(random() * surrogates.length)] : randomText(random, 3);
  }
  return text;
}

// ---- Byte-level helpers -----------------------------------------------------

const fromUnicode = new Map(byteToUnicode().map((ch, b) => [ch, b]));

/** The bytes of a byte-level token string (as in tokenizer.json), or null if it is not one. */
export function byteLevelBytes(token) {
  const bytes = [];
  for (const ch of token) {
    const b = fromUnicode.get(ch);
    if (b === undefined) return null;
    bytes.push(b);
  }
  return Uint8Array.from(bytes);
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `bytes` when they are well-formed UTF-8, else null. */
export function utf8Text(bytes) {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
}

/** Length of the well-formed UTF-8 character at bytes[i], or 0 (Unicode Table 3-7). */
function utf8Length(bytes, i) {
  const b0 = bytes[i];
  const cont = (k, lo = 0x80, hi = 0xbf) => i + k < bytes.length && bytes[i + k] >= lo && bytes[i + k] <= hi;
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

const hexByte = (b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`;

/**
 * The book's display form of a token's bytes, written from docs/tokenizer.md:
 * space "·", newline "↵", tab "⇥"; other control characters (C0, DEL, C1),
 * bytes that are not part of a whole UTF-8 character and the marks "·" "↵"
 * "⇥" themselves as "<0xNN>" per byte; everything else as its character.
 */
export function displayForm(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const n = utf8Length(bytes, i);
    if (n === 0) {
      out += hexByte(bytes[i]);
      i += 1;
      continue;
    }
    const ch = new TextDecoder().decode(bytes.subarray(i, i + n));
    const cp = ch.codePointAt(0);
    if (ch === ' ') out += '·';
    else if (ch === '\n') out += '↵';
    else if (ch === '\t') out += '⇥';
    else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || ch === '·' || ch === '↵' || ch === '⇥') {
      for (let k = 0; k < n; k++) out += hexByte(bytes[i + k]);
    } else out += ch;
    i += n;
  }
  return out;
}
