#!/usr/bin/env node
// Writes cpp/src/text/normalizers/grapheme_breaks.inc: the code points that
// decide where an extended grapheme cluster (UAX #29) goes on, for the
// Precompiled normalizer, which looks a grapheme of fewer than 6 bytes up
// whole (as tokenizers' Precompiled does with unicode-segmentation):
//
//   node tools/gen/grapheme-breaks.mjs            # rewrites the file
//   node tools/gen/grapheme-breaks.mjs --check    # exits 1 when it is stale
//
// JavaScript has no Grapheme_Cluster_Break property escape, so the classes
// are read from this Node.js's own grapheme segmenter (Intl.Segmenter, ICU):
//  - joins: a character that stays in the grapheme of the "a" before it
//    (Extend, ZWJ, SpacingMark: rules GB9, GB9a);
//  - prepends: one that keeps the "a" after it (Prepend: GB9b);
//  - controls: one that even a combining mark after it leaves (CR, LF,
//    Control: GB4).
// Hangul syllables and jamo and the regional indicators go by their ranges,
// in the code.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const outputPath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cpp', 'src', 'text', 'normalizers',
  'grapheme_breaks.inc');
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (text) => {
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
};

const classes = [
  { name: 'kJoinRanges', what: 'Extend, ZWJ and SpacingMark: "a" and it are one grapheme', test: (c) => graphemes(`a${c}`) === 1 },
  { name: 'kPrependRanges', what: 'Prepend: it and "a" are one grapheme', test: (c) => graphemes(`${c}a`) === 1 },
  { name: 'kControlRanges', what: 'CR, LF and Control: it and U+0301 are two', test: (c) => graphemes(`${c}\u0301`) === 2 },
];

function rangesOf(test) {
  const ranges = [];
  for (let code = 0; code <= 0x10ffff; ++code) {
    if (code >= 0xd800 && code <= 0xdfff) continue;  // Not in valid UTF-8.
    if (!test(String.fromCodePoint(code))) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === code - 1) last[1] = code;
    else ranges.push([code, code]);
  }
  return ranges;
}

const hex = (code) => '0x' + code.toString(16).toUpperCase().padStart(4, '0');
let text = '';
text += '// GENERATED FILE, DO NOT EDIT. Regenerate with: node tools/gen/grapheme-breaks.mjs\n';
text += `// Unicode ${process.versions.unicode}, ICU ${process.versions.icu} (the Node.js that ran the generator).\n`;
text += '// Sorted, disjoint, non-adjacent inclusive ranges {first, last}. Included only by\n';
text += '// cpp/src/text/normalizers/precompiled.cpp.\n';
for (const { name, what, test } of classes) {
  const ranges = rangesOf(test);
  text += `\n// ${what}: ${ranges.length} ranges.\n`;
  text += `constexpr std::uint32_t ${name}[][2] = {\n`;
  for (let i = 0; i < ranges.length; i += 4) {
    text += '    ' + ranges.slice(i, i + 4).map(([a, b]) => `{${hex(a)}, ${hex(b)}}`).join(', ') + ',\n';
  }
  text += '};\n';
}

if (process.argv.includes('--check')) {
  const current = readFileSync(outputPath, 'utf8');
  if (current !== text) {
    console.error(`${outputPath} is stale: run node tools/gen/grapheme-breaks.mjs`);
    process.exit(1);
  }
  console.log(`${outputPath} is up to date`);
} else {
  writeFileSync(outputPath, text);
  console.log(`wrote ${outputPath}`);
}
