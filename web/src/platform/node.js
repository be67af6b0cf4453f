// What only Node does for the package: files on disk. Reached through the
// package's own import "#platform" (package.json "imports"), whose "node"
// condition names this file; browsers and bundles for them get browser.js,
// so no bundler meets a node: module. The package imports it only when
// it is given a file path or a file: URL, which only Node reads.
import { readFile } from 'node:fs/promises';

export { dirname, join } from 'node:path';
export { fileURLToPath } from 'node:url';
export { fileSource } from '../sources/file.js';

/** The bytes of the file at `url` (a file: URL): a .wasm the runtime compiles. */
export function readFileBytes(url) {
  return readFile(url);
}
