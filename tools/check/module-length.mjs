#!/usr/bin/env node
// Lists the JavaScript modules and C++ files (sources and headers) longer
// than a limit (500 lines by default) in the given folders, and fails if
// there are any: a file that long holds more than one job, and is split by
// job (docs/design.md). Built output (dist/), installed packages
// (node_modules/) and generated tables (.inc) are not read.
//   node tools/check/module-length.mjs [--limit N] PATH...
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

const args = process.argv.slice(2);
let limit = 500;
const paths = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--limit') limit = Number(args[++i]);
  else paths.push(args[i]);
}

function modules(path) {
  if (statSync(path).isDirectory()) {
    if (['dist', 'node_modules'].includes(basename(path))) return [];
    return readdirSync(path).sort().flatMap((name) => modules(join(path, name)));
  }
  return /\.(m?js|cpp|cc|h|hpp)$/.test(path) ? [path] : [];
}

const long = paths.flatMap(modules).map((path) => {
  const text = readFileSync(path, 'utf8');
  return { path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
}).filter(({ lines }) => lines > limit);
for (const { path, lines } of long) console.error(`${path}: ${lines} lines (at most ${limit})`);
if (long.length) {
  console.error(`${long.length} file${long.length === 1 ? ' is' : 's are'} over ${limit} lines: split each by job.`);
  process.exit(1);
}
console.log(`No JavaScript module or C++ file over ${limit} lines in ${paths.join(' ')}.`);
