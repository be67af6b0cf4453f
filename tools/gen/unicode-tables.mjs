#!/usr/bin/env node
// Writes cpp/src/text/unicode/unicode_tables.inc: sorted, merged code point
// ranges for the character classes the GPT-2 pre-tokenizer regex uses.
//
//   node tools/gen/unicode-tables.mjs            # rewrites the file
//   node tools/gen/unicode-tables.mjs --check    # exits 1 when it is stale
//
// The classes come from this Node.js's own Unicode data (V8's regular
// expressions, Unicode property escapes), so the output records which Unicode
// version produced it.
//
// Whitespace follows Hugging Face's Rust `tokenizers`, whose regex engine
// (Oniguruma) reads \s as the Unicode White_Space property. JavaScript's \s is
// a different set: it adds U+FEFF (BYTE ORDER MARK) and leaves out U+0085
// (NEXT LINE). So we use \p{White_Space}, not \s.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeOrCheck } from './generated-file.mjs';

const outputPath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cpp', 'src', 'text', 'unicode',
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
text += '// GENERATED FILE, DO NOT EDIT. Regenerate with: node tools/gen/unicode-tables.mjs\n';
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

// The general category and the script of every code point, and the names
// Split patterns may give them (\p{Lu}, \p{Punctuation}, \p{Han}, \p{Latn};
// cpp/include/embeddings/text/regex/regex.h), from this Node.js's RegExp.
//
// The names are those Oniguruma (the engine of Hugging Face's Rust
// `tokenizers`) accepts, as listed in its doc/UNICODE_PROPERTIES for
// Oniguruma 6.9.10 (Unicode 16.0): every General_Category value and alias
// and every Script value and alias. A newer script that Oniguruma does not
// know (Unicode 17's Sidetic, for one) is refused there, so it is not
// listed here either. Node must know each name (the generator stops if not).
const categoryNames = [
  'C', 'Cc', 'Cf', 'Cn', 'Co', 'Cs', 'L', 'LC', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N',
  'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl',
  'Zp', 'Zs', 'Cased_Letter', 'Close_Punctuation', 'Combining_Mark', 'Connector_Punctuation', 'Control',
  'Currency_Symbol', 'Dash_Punctuation', 'Decimal_Number', 'Enclosing_Mark', 'Final_Punctuation', 'Format',
  'Initial_Punctuation', 'Letter', 'Letter_Number', 'Line_Separator', 'Lowercase_Letter', 'Mark',
  'Math_Symbol', 'Modifier_Letter', 'Modifier_Symbol', 'Nonspacing_Mark', 'Number', 'Open_Punctuation',
  'Other', 'Other_Letter', 'Other_Number', 'Other_Punctuation', 'Other_Symbol', 'Paragraph_Separator',
  'Private_Use', 'punct', 'Punctuation', 'Separator', 'Space_Separator', 'Spacing_Mark', 'Surrogate',
  'Symbol', 'Titlecase_Letter', 'Unassigned', 'Uppercase_Letter',
];
const scriptNames = [
  'Adlam', 'Ahom', 'Anatolian_Hieroglyphs', 'Arabic', 'Armenian', 'Avestan', 'Balinese', 'Bamum',
  'Bassa_Vah', 'Batak', 'Bengali', 'Bhaiksuki', 'Bopomofo', 'Brahmi', 'Braille', 'Buginese', 'Buhid',
  'Canadian_Aboriginal', 'Carian', 'Caucasian_Albanian', 'Chakma', 'Cham', 'Cherokee', 'Chorasmian',
  'Common', 'Coptic', 'Cuneiform', 'Cypriot', 'Cypro_Minoan', 'Cyrillic', 'Deseret', 'Devanagari',
  'Dives_Akuru', 'Dogra', 'Duployan', 'Egyptian_Hieroglyphs', 'Elbasan', 'Elymaic', 'Ethiopic', 'Garay',
  'Georgian', 'Glagolitic', 'Gothic', 'Grantha', 'Greek', 'Gujarati', 'Gunjala_Gondi', 'Gurmukhi',
  'Gurung_Khema', 'Han', 'Hangul', 'Hanifi_Rohingya', 'Hanunoo', 'Hatran', 'Hebrew', 'Hiragana',
  'Imperial_Aramaic', 'Inherited', 'Inscriptional_Pahlavi', 'Inscriptional_Parthian', 'Javanese', 'Kaithi',
  'Kannada', 'Katakana', 'Kawi', 'Kayah_Li', 'Kharoshthi', 'Khitan_Small_Script', 'Khmer', 'Khojki',
  'Khudawadi', 'Kirat_Rai', 'Lao', 'Latin', 'Lepcha', 'Limbu', 'Linear_A', 'Linear_B', 'Lisu', 'Lycian',
  'Lydian', 'Mahajani', 'Makasar', 'Malayalam', 'Mandaic', 'Manichaean', 'Marchen', 'Masaram_Gondi',
  'Medefaidrin', 'Meetei_Mayek', 'Mende_Kikakui', 'Meroitic_Cursive', 'Meroitic_Hieroglyphs', 'Miao', 'Modi',
  'Mongolian', 'Mro', 'Multani', 'Myanmar', 'Nabataean', 'Nag_Mundari', 'Nandinagari', 'New_Tai_Lue', 'Newa',
  'Nko', 'Nushu', 'Nyiakeng_Puachue_Hmong', 'Ogham', 'Ol_Chiki', 'Ol_Onal', 'Old_Hungarian', 'Old_Italic',
  'Old_North_Arabian', 'Old_Permic', 'Old_Persian', 'Old_Sogdian', 'Old_South_Arabian', 'Old_Turkic',
  'Old_Uyghur', 'Oriya', 'Osage', 'Osmanya', 'Pahawh_Hmong', 'Palmyrene', 'Pau_Cin_Hau', 'Phags_Pa',
  'Phoenician', 'Psalter_Pahlavi', 'Rejang', 'Runic', 'Samaritan', 'Saurashtra', 'Sharada', 'Shavian',
  'Siddham', 'SignWriting', 'Sinhala', 'Sogdian', 'Sora_Sompeng', 'Soyombo', 'Sundanese', 'Sunuwar',
  'Syloti_Nagri', 'Syriac', 'Tagalog', 'Tagbanwa', 'Tai_Le', 'Tai_Tham', 'Tai_Viet', 'Takri', 'Tamil',
  'Tangsa', 'Tangut', 'Telugu', 'Thaana', 'Thai', 'Tibetan', 'Tifinagh', 'Tirhuta', 'Todhri', 'Toto',
  'Tulu_Tigalari', 'Ugaritic', 'Unknown', 'Vai', 'Vithkuqi', 'Wancho', 'Warang_Citi', 'Yezidi', 'Yi',
  'Zanabazar_Square',
];
// Their short names and other aliases.
const scriptAliases = [
  'Adlm', 'Aghb', 'Arab', 'Armi', 'Armn', 'Avst', 'Bali', 'Bamu', 'Bass', 'Batk', 'Beng', 'Bhks', 'Bopo',
  'Brah', 'Brai', 'Bugi', 'Buhd', 'Cakm', 'Cans', 'Cari', 'Cher', 'Chrs', 'Copt', 'Cpmn', 'Cprt', 'Cyrl',
  'Deva', 'Diak', 'Dogr', 'Dsrt', 'Dupl', 'Egyp', 'Elba', 'Elym', 'Ethi', 'Gara', 'Geor', 'Glag', 'Gong',
  'Gonm', 'Goth', 'Gran', 'Grek', 'Gujr', 'Gukh', 'Guru', 'Hang', 'Hani', 'Hano', 'Hatr', 'Hebr', 'Hira',
  'Hluw', 'Hmng', 'Hmnp', 'Hung', 'Ital', 'Java', 'Kali', 'Kana', 'Khar', 'Khmr', 'Khoj', 'Kits', 'Knda',
  'Krai', 'Kthi', 'Lana', 'Laoo', 'Latn', 'Lepc', 'Limb', 'Lina', 'Linb', 'Lyci', 'Lydi', 'Mahj', 'Maka',
  'Mand', 'Mani', 'Marc', 'Medf', 'Mend', 'Merc', 'Mero', 'Mlym', 'Mong', 'Mroo', 'Mtei', 'Mult', 'Mymr',
  'Nagm', 'Nand', 'Narb', 'Nbat', 'Nkoo', 'Nshu', 'Ogam', 'Olck', 'Onao', 'Orkh', 'Orya', 'Osge', 'Osma',
  'Ougr', 'Palm', 'Pauc', 'Perm', 'Phag', 'Phli', 'Phlp', 'Phnx', 'Plrd', 'Prti', 'Qaac', 'Qaai', 'Rjng',
  'Rohg', 'Runr', 'Samr', 'Sarb', 'Saur', 'Sgnw', 'Shaw', 'Shrd', 'Sidd', 'Sind', 'Sinh', 'Sogd', 'Sogo',
  'Sora', 'Soyo', 'Sund', 'Sunu', 'Sylo', 'Syrc', 'Tagb', 'Takr', 'Tale', 'Talu', 'Taml', 'Tang', 'Tavt',
  'Telu', 'Tfng', 'Tglg', 'Thaa', 'Tibt', 'Tirh', 'Tnsa', 'Todr', 'Tutg', 'Ugar', 'Vaii', 'Vith', 'Wara',
  'Wcho', 'Xpeo', 'Xsux', 'Yezi', 'Yiii', 'Zanb', 'Zinh', 'Zyyy', 'Zzzz',
];
// The 30 categories in the order of unicode::Category; Cn (unassigned) is
// what no other category claims.
const categories = ['Cn', 'Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'Mn', 'Mc', 'Me', 'Nd', 'Nl', 'No', 'Pc', 'Pd', 'Ps', 'Pe',
  'Pi', 'Pf', 'Po', 'Sm', 'Sc', 'Sk', 'So', 'Zs', 'Zl', 'Zp', 'Cc', 'Cf', 'Cs', 'Co'];
const isValidPattern = (source) => {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
};
// Every code point but the surrogates, in order, as one string: a property's
// runs are the matches of \p{...}+ in it.
let everyCodePoint = '';
for (let code = 0; code <= 0x10ffff; ++code) if (code < 0xd800 || code > 0xdfff) everyCodePoint += String.fromCodePoint(code);
function runsOf(property) {
  const runs = [];
  for (const match of everyCodePoint.matchAll(new RegExp(`\\p{${property}}+`, 'gu'))) {
    const text = match[0];
    const first = text.codePointAt(0);
    const last = text.codePointAt(text.length - (text.codePointAt(text.length - 2) > 0xffff ? 2 : 1));
    // A run never crosses the surrogates: U+D7FF and U+E000 differ in category and script.
    runs.push([first, last]);
  }
  return runs;
}
// One value (category or script index) per code point, as runs of equal
// value from U+0000 on.
function valueRuns(runsByValue, fill) {
  const value = new Uint8Array(0x110000).fill(fill);
  runsByValue.forEach((runs, v) => { for (const [a, b] of runs) value.fill(v, a, b + 1); });
  const out = [];
  for (let code = 0; code <= 0x10ffff;) {
    let end = code + 1;
    while (end <= 0x10ffff && value[end] === value[code]) ++end;
    out.push([value[code], end - code]);
    code = end;
  }
  return out;
}
const base128 = (bytes, n) => {
  while (n >= 0x80) {
    bytes.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  bytes.push(n);
};
const writeBytes = (name, bytes) => {
  text += `static constexpr unsigned char ${name}[] = {\n`;
  for (let i = 0; i < bytes.length; i += 16) {
    text += `    ${bytes.slice(i, i + 16).map((b) => '0x' + b.toString(16).toUpperCase().padStart(2, '0')).join(', ')},\n`;
  }
  text += '};\n';
};

// General categories: each run is one byte, the category (its index above)
// in its low 5 bits and the run's length minus 1 in its high 3 bits; a
// length over 7 writes 7 there and the length follows as a little-endian
// base-128 number (7 bits a byte, high bit set on all bytes but the last).
const categoryRuns = valueRuns(categories.map((c) => (c === 'Cn' ? [] : c === 'Cs' ? [[0xd800, 0xdfff]] : runsOf(`gc=${c}`))), 0);
const categoryBytes = [];
for (const [category, length] of categoryRuns) {
  if (length <= 7) {
    categoryBytes.push(category | ((length - 1) << 5));
  } else {
    categoryBytes.push(category | (7 << 5));
    base128(categoryBytes, length);
  }
}
text += `\n// General categories (${categories.join(' ')} as 0..${categories.length - 1}) of every code point:\n`;
text += `// ${categoryRuns.length} runs, ${categoryBytes.length} bytes (the generator describes the packing).\n`;
writeBytes('kCategoryRuns', categoryBytes);

// Scripts: the long names of scriptNames that Node takes as Script values,
// Unknown first (index 0, what no other script claims); each short name is
// the long one it matches at the long one's first code point (scripts
// partition the code points). Each run is the script's index in one byte
// and the run's length as a base-128 number.
const longScripts = ['Unknown', ...scriptNames.filter((name) => name !== 'Unknown')];
for (const name of [...scriptNames, ...scriptAliases]) {
  if (!isValidPattern(`\\p{Script=${name}}`)) throw new Error(`Node does not know the script ${name}`);
}
const scriptRunsById = longScripts.map((name) => (name === 'Unknown' ? [] : runsOf(`Script=${name}`)));
const aliases = [];
for (const name of scriptAliases) {
  const regex = new RegExp(`^\\p{Script=${name}}$`, 'u');
  const id = longScripts.findIndex((long, i) => (i === 0 ? regex.test('\u0378') : regex.test(String.fromCodePoint(scriptRunsById[i][0][0]))));
  if (id < 0) throw new Error(`the script alias ${name} matches no script`);
  aliases.push([name, id]);
}
const scriptRuns = valueRuns(scriptRunsById, 0);
const scriptBytes = [];
for (const [script, length] of scriptRuns) {
  scriptBytes.push(script);
  base128(scriptBytes, length);
}
text += `\n// Scripts (kScriptNames' indexes) of every code point: ${scriptRuns.length} runs, ${scriptBytes.length} bytes;\n`;
text += '// each run is the index in one byte, then the length in base 128 (see the generator).\n';
writeBytes('kScriptRuns', scriptBytes);
text += `\n// The scripts' long names, by index: ${longScripts.length}.\n`;
text += 'static constexpr const char* kScriptNames[] = {\n';
for (let i = 0; i < longScripts.length; i += 6) text += `    ${longScripts.slice(i, i + 6).map((n) => `"${n}"`).join(', ')},\n`;
text += '};\n';

// The names \p{...} takes, as Oniguruma compares them: lower case, without
// spaces, hyphens and underscores; sorted. A general category's value is
// the set of categories it names (bit 1 << index), a script's its index.
const looseName = (name) => name.replace(/[ _-]/g, '').toLowerCase();
const propertyNames = [];
// A code point of each category (its first), to test each name against.
const sample = [];
let start = 0;
for (const [v, length] of categoryRuns) {
  if (sample[v] === undefined) sample[v] = start;
  start += length;
}
for (const name of categoryNames) {
  if (!isValidPattern(`\\p{General_Category=${name}}`)) throw new Error(`Node does not know the category ${name}`);
  const regex = new RegExp(`^\\p{General_Category=${name}}$`, 'u');
  let mask = 0;
  categories.forEach((c, i) => {
    if (regex.test(String.fromCodePoint(sample[i]))) mask |= 1 << i;
  });
  propertyNames.push([looseName(name), 'Categories', mask >>> 0]);
}
longScripts.forEach((name, id) => propertyNames.push([looseName(name), 'Script', id]));
// Three more of Oniguruma's names that are unions of categories or a range.
propertyNames.push(['any', 'Categories', (2 ** categories.length - 1) >>> 0]);
propertyNames.push(['assigned', 'Categories', (2 ** categories.length - 2) >>> 0]);
propertyNames.push(['ascii', 'Ascii', 0]);
for (const [name, id] of aliases) propertyNames.push([looseName(name), 'Script', id]);
const byName = new Map();
for (const entry of propertyNames) {
  const known = byName.get(entry[0]);
  if (known && (known[1] !== entry[1] || known[2] !== entry[2])) throw new Error(`two meanings for ${entry[0]}`);
  byName.set(entry[0], entry);
}
const sortedNames = [...byName.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
text += `\n// Property names as Oniguruma compares them (lower case; no " ", "-", "_"), sorted: ${sortedNames.length}.\n`;
text += 'static constexpr PropertyName kPropertyNames[] = {\n';
for (const [name, kind, value] of sortedNames) {
  text += `    {"${name}", PropertyName::Kind::${kind}, ${kind === 'Categories' ? '0x' + value.toString(16).toUpperCase() : value}},\n`;
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

writeOrCheck(outputPath, text, ' (or was made with another Unicode version)');
