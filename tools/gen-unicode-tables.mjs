#!/usr/bin/env node
// Writes cpp/src/text/unicode/unicode_tables.inc: sorted, merged code point
// ranges for the character classes the GPT-2 pre-tokenizer regex uses.
//
//   node tools/gen-unicode-tables.mjs            # rewrites the file
//   node tools/gen-unicode-tables.mjs --check    # exits 1 when it is stale
//
// The classes come from this Node.js's own Unicode data (V8's regular
// expressions, Unicode property escapes), so the output records which Unicode
// version produced it.
//
// Whitespace follows Hugging Face's Rust `tokenizers`, whose regex engine
// (Oniguruma) reads \s as the Unicode White_Space property. JavaScript's \s is
// a different set: it adds U+FEFF (BYTE ORDER MARK) and leaves out U+0085
// (NEXT LINE). So we use \p{White_Space}, not \s.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const outputPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'cpp', 'src', 'text', 'unicode',
  'unicode_tables.inc');

const classes = [
  { name: 'kLetterRanges', what: '\\p{L} (General_Category Letter: Lu Ll Lt Lm Lo)', regex: /^\p{L}$/u },
  { name: 'kNumberRanges', what: '\\p{N} (General_Category Number: Nd Nl No)', regex: /^\p{N}$/u },
  { name: 'kWhitespaceRanges', what: 'White_Space property (Oniguruma \\s; not JavaScript \\s)', regex: /^\p{White_Space}$/u },
  // What \w means in Rust's `regex` crate, which Hugging Face uses to decide
  // whether an added token with single_word stands alone.
  {
    name: 'kWordRanges',
    what: 'Rust regex \\w (Alphabetic, M, Nd, Pc, Join_Control)',
    regex: /^[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]$/u,
  },
  // The Punctuation pre-tokenizer's test (with ASCII punctuation, in the code).
  { name: 'kPunctuationRanges', what: '\\p{P} (General_Category Punctuation: Pc Pd Ps Pe Pi Pf Po)', regex: /^\p{P}$/u },
];

function rangesOf(regex) {
  const ranges = [];
  for (let code = 0; code <= 0x10ffff; ++code) {
    // Surrogates never appear in valid UTF-8, so they belong to no class.
    if (code >= 0xd800 && code <= 0xdfff) continue;
    if (!regex.test(String.fromCodePoint(code))) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === code - 1) last[1] = code;
    else ranges.push([code, code]);
  }
  return ranges;
}

const hex = (code) => '0x' + code.toString(16).toUpperCase().padStart(4, '0');

let text = '';
text += '// GENERATED FILE, DO NOT EDIT. Regenerate with: node tools/gen-unicode-tables.mjs\n';
text += `// Unicode ${process.versions.unicode} (the data of the Node.js that ran the generator).\n`;
text += '// Each table is a sorted list of disjoint, non-adjacent inclusive ranges {first, last}.\n';
text += '// Included only by cpp/src/text/unicode/unicode.cpp.\n';
for (const { name, what, regex } of classes) {
  const ranges = rangesOf(regex);
  text += `\n// ${what}: ${ranges.length} ranges.\n`;
  text += `static constexpr CodeRange ${name}[] = {\n`;
  for (let i = 0; i < ranges.length; i += 4) {
    const row = ranges.slice(i, i + 4).map(([a, b]) => `{${hex(a)}, ${hex(b)}}`);
    text += `    ${row.join(', ')},\n`;
  }
  text += '};\n';
}

// The general category of every code point, for the regular expressions of
// Split pre-tokenizers (\p{Lu}, \p{M}, ...; cpp/include/embeddings/text/regex/regex.h):
// only the categories those use, as runs of equal category from U+0000 on.
// Each run is one byte, the category in its low 4 bits and the run's length
// minus 1 in its high 4 bits; a length over 15 writes 15 there and the
// length follows as a little-endian base-128 number (7 bits a byte, high bit
// set on all bytes but the last). Surrogates count as "other". About 4 KB
// where a table of ranges would take about 28 KB of the WebAssembly module.
const categories = ['Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'Mn', 'Mc', 'Me', 'Nd', 'Nl', 'No'];
const categoryRegexes = categories.map((name) => new RegExp(`^\\p{${name}}$`, 'u'));
function categoryOf(code) {
  if (code >= 0xd800 && code <= 0xdfff) return 0;
  const s = String.fromCodePoint(code);
  for (let i = 0; i < categoryRegexes.length; ++i) if (categoryRegexes[i].test(s)) return i + 1;
  return 0;
}
const runBytes = [];
let runCount = 0;
for (let code = 0; code <= 0x10ffff; ) {
  const category = categoryOf(code);
  let end = code + 1;
  while (end <= 0x10ffff && categoryOf(end) === category) ++end;
  const length = end - code;
  ++runCount;
  if (length <= 15) {
    runBytes.push(category | ((length - 1) << 4));
  } else {
    runBytes.push(category | (15 << 4));
    let rest = length;
    while (rest >= 0x80) {
      runBytes.push((rest & 0x7f) | 0x80);
      rest >>>= 7;
    }
    runBytes.push(rest);
  }
  code = end;
}
text += `\n// General category runs (0 other, then ${categories.join(' ')} as 1..${categories.length}): ${runCount} runs, ${runBytes.length} bytes.\n`;
text += 'static constexpr unsigned char kCategoryRuns[] = {\n';
for (let i = 0; i < runBytes.length; i += 16) {
  text += `    ${runBytes.slice(i, i + 16).map((b) => '0x' + b.toString(16).toUpperCase().padStart(2, '0')).join(', ')},\n`;
}
text += '};\n';

// Canonical normalization (NFC, NFD; cpp/include/embeddings/text/unicode/normalize.h),
// taken from this Node.js's String.prototype.normalize, as the other
// tables are from its RegExp:
// - each code point's full canonical decomposition, where it has one
//   (Hangul syllables are decomposed by formula, so not listed);
// - the canonical combining class, as a rank (1, 2, ...) that orders the
//   classes as their numbers do: JavaScript does not give the numbers, but
//   NFD reorders two marks exactly when the first one's class is greater,
//   which is all the algorithm needs;
// - the primary composites: (first, second) -> composite for each code
//   point that NFC keeps and whose decomposition ends in `second`.
const character = (code) => String.fromCodePoint(code);
const isHangulSyllable = (code) => code >= 0xac00 && code <= 0xd7a3;
const reorders = (a, b) => (character(a) + character(b)).normalize('NFD') === character(b) + character(a);
const decompositions = [];
const nonStarters = [];
for (let code = 0; code <= 0x10ffff; ++code) {
  if (code >= 0xd800 && code <= 0xdfff) continue;
  const text = character(code);
  const decomposed = text.normalize('NFD');
  if (decomposed !== text) {
    if (!isHangulSyllable(code)) decompositions.push([code, Array.from(decomposed, (c) => c.codePointAt(0))]);
  } else if (reorders(0x0345, code) || reorders(code, 0x0301)) {
    // U+0345 has the greatest class in use (240), U+0301 has 230.
    nonStarters.push(code);
  }
}
nonStarters.sort((a, b) => (reorders(a, b) ? 1 : reorders(b, a) ? -1 : a - b));
const classRanks = [];
let rank = 0;
nonStarters.forEach((code, i) => {
  if (i === 0 || reorders(code, nonStarters[i - 1])) ++rank;
  classRanks.push([code, rank]);
});
classRanks.sort((a, b) => a[0] - b[0]);
const compositions = [];
for (let code = 0; code <= 0x10ffff; ++code) {
  if (code >= 0xd800 && code <= 0xdfff || isHangulSyllable(code)) continue;
  const text = character(code);
  if (text.normalize('NFC') !== text) continue;
  const decomposed = Array.from(text.normalize('NFD'));
  if (decomposed.length < 2) continue;
  const first = decomposed.slice(0, -1).join('').normalize('NFC');
  if (Array.from(first).length !== 1) continue;
  compositions.push([first.codePointAt(0), decomposed[decomposed.length - 1].codePointAt(0), code]);
}
compositions.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
// Mappings of one code point to a few, as {code point, offset in the codes
// array, length}, sorted by code point.
function writeMappings(indexName, codesName, what, mappings) {
  const codes = [];
  text += `\n// ${what}: ${mappings.length} code points. ${indexName}[i] = {code point, offset of its\n`;
  text += `// mapping in ${codesName}, length}.\n`;
  text += `static constexpr DecompositionEntry ${indexName}[] = {\n`;
  for (let i = 0; i < mappings.length; i += 4) {
    const row = mappings.slice(i, i + 4).map(([code, parts]) => {
      const entry = `{${hex(code)}, ${codes.length}, ${parts.length}}`;
      codes.push(...parts);
      return entry;
    });
    text += `    ${row.join(', ')},\n`;
  }
  text += '};\n';
  text += `static constexpr std::uint32_t ${codesName}[] = {\n`;
  for (let i = 0; i < codes.length; i += 8) text += `    ${codes.slice(i, i + 8).map(hex).join(', ')},\n`;
  text += '};\n';
}

writeMappings('kDecompositionIndex', 'kDecompositionCodes', 'Canonical decompositions', decompositions);
text += `\n// Canonical combining classes as ranks (see the generator): ${classRanks.length} code points, ${rank} classes.\n`;
text += 'static constexpr CombiningRank kCombiningRanks[] = {\n';
for (let i = 0; i < classRanks.length; i += 6) {
  text += `    ${classRanks.slice(i, i + 6).map(([code, r]) => `{${hex(code)}, ${r}}`).join(', ')},\n`;
}
text += '};\n';
text += `\n// Primary composites {first, second, composite}, sorted by first then second: ${compositions.length}.\n`;
text += 'static constexpr Composition kCompositions[] = {\n';
for (let i = 0; i < compositions.length; i += 4) {
  text += `    ${compositions.slice(i, i + 4).map(([a, b, c]) => `{${hex(a)}, ${hex(b)}, ${hex(c)}}`).join(', ')},\n`;
}
text += '};\n';

// Compatibility normalization (NFKC, NFKD): each code point's full
// compatibility decomposition where it differs from the canonical one, from
// String.prototype.normalize('NFKD') as the canonical ones are from 'NFD'.
// NFKC composes with the same primary composites as NFC.
const compatibility = [];
for (let code = 0; code <= 0x10ffff; ++code) {
  if (code >= 0xd800 && code <= 0xdfff || isHangulSyllable(code)) continue;
  const text = character(code);
  const decomposed = text.normalize('NFKD');
  if (decomposed !== text.normalize('NFD')) compatibility.push([code, Array.from(decomposed, (c) => c.codePointAt(0))]);
}
writeMappings('kCompatibilityIndex', 'kCompatibilityCodes', 'Compatibility decompositions that differ from the canonical ones', compatibility);

// The Lowercase normalizer: each code point's full lowercase mapping, as
// Rust's char::to_lowercase gives it (one character at a time, so without
// the final-sigma rule of String.prototype.toLowerCase on longer text).
const lowercase = [];
for (let code = 0; code <= 0x10ffff; ++code) {
  if (code >= 0xd800 && code <= 0xdfff) continue;
  const text = character(code);
  const lower = text.toLowerCase();
  if (lower !== text) lowercase.push([code, Array.from(lower, (c) => c.codePointAt(0))]);
}
writeMappings('kLowercaseIndex', 'kLowercaseCodes', 'Lowercase mappings', lowercase);

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(outputPath, 'utf8');
  } catch {}
  if (current !== text) {
    console.error(`${outputPath} is stale (or was made with another Unicode version); rerun the generator`);
    process.exit(1);
  }
  console.error(`${outputPath} is up to date`);
} else {
  writeFileSync(outputPath, text);
  console.error(`wrote ${outputPath}`);
}
