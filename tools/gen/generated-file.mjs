// What the table generators share: write the generated file, or with
// --check on the command line tell whether the committed one is what the
// generator makes (exit 1 when it is stale), as the tests run them.
import { readFileSync, writeFileSync } from 'node:fs';

export function writeOrCheck(outputPath, text, staleBecause = '') {
  if (!process.argv.includes('--check')) {
    writeFileSync(outputPath, text);
    console.error(`wrote ${outputPath}`);
    return;
  }
  let current = '';
  try {
    current = readFileSync(outputPath, 'utf8');
  } catch {}
  if (current !== text) {
    console.error(`${outputPath} is stale${staleBecause}; rerun the generator`);
    process.exit(1);
  }
  console.error(`${outputPath} is up to date`);
}
