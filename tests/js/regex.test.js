// The regex engine of Split pre-tokenizers (cpp/include/embeddings/text/regex/regex.h)
// against JavaScript's own RegExp with the `u` flag, over random text: the
// same matches at the same places, for the patterns of real tokenizer.json
// files and for patterns that exercise each construct.
//
// The engine runs natively, through tools/regex_matches (tools/build.sh
// native builds it). JavaScript is made to read each pattern as Oniguruma
// (the Rust library's engine) does: \s as the White_Space property, and
// (?i:...) — which Node 20's RegExp does not have — as classes holding each
// ASCII letter's case variants, taken from JavaScript's own case folding
// (/x/iu), so "s" also matches U+017F and "k" U+212A; "." as any character
// but \n (JavaScript's also leaves out \r, U+2028 and U+2029).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { TRICKY, longTexts, randomCodePoints, randomText, storyTexts, uniformRandom } from './helpers/text.js';

const TOOL = fileURLToPath(new URL('../../build/native/regex_matches', import.meta.url));

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
        out += pattern.slice(i, close + 1);
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
  return new RegExp(out, 'gu');
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
  assert.equal(run.status, 0, `regex_matches ${JSON.stringify(pattern)}: ${run.stdout.slice(0, 300)}${run.stderr}`);
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
  CONSTRUCT_PATTERNS.forEach((pattern, i) => compareOn(pattern, 1000 + i));
});

test('regex: what the engine does not implement is refused, by name', () => {
  const refusals = [
    ['^a', /the anchor "\^"/], ['a$', /the anchor "\$"/], ['\\d+', /the escape "\\d"/], ['\\w', /the escape "\\w"/],
    ['\\bx', /the escape "\\b"/], ['a+?', /lazy or possessive/], ['a++', /lazy or possessive/],
    ['(?<name>a)', /a group "\(\?<"/], ['[[a]]', /nested class/], ['[a&&b]', /class intersection/],
    ['\\p{Greek}', /the property \\p\{Greek\}/], ['(?i:é)', /non-ASCII letter inside \(\?i/],
    ['(?i:\\p{Lu})', /\\p\{Lu\} inside \(\?i/], ['(?:a*)*', /can match the empty string/], ['(a', /"\)" expected/],
    ['a)', /unmatched "\)"/], ['[a', /"\]" expected/], ['*a', /nothing to repeat/], ['a{3,2}', /m < n/],
    ['a{1001}', /a count over 1000/], ['[z-a]', /range out of order/], ['[\\S]', /\\S inside a class/],
    ['((a{1000}){1000}){1000}', /counted repeats make over 1048576 instructions/],
    ['('.repeat(65) + 'a' + ')'.repeat(65), /groups nested over 64 deep/], ['('.repeat(100000), /groups nested over 64 deep/],
  ];
  for (const [pattern, message] of refusals) {
    const input = JSON.stringify(pattern) + '\n';
    const run = spawnSync(TOOL, { input, encoding: 'utf8' });
    assert.equal(run.status, 1, pattern);
    assert.match(run.stdout, message, pattern);
  }
});
