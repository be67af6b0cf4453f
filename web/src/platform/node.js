// What only Node does for the package: files on disk. Reached through the
// package's own import "#platform" (package.json "imports"), whose "node"
// condition names this file; browsers and bundles for them get browser.js,
// so no bundler meets a node: module. The package imports it only when
// it is given a file path or a file: URL, which only Node reads.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { Worker } from 'node:worker_threads';

export { dirname, join } from 'node:path';
export { fileURLToPath } from 'node:url';
export { fileSource } from '../sources/file.js';

/** The bytes of the file at `url` (a file: URL): a .wasm the runtime compiles. */
export function readFileBytes(url) {
  return readFile(url);
}

/** How many cores this machine has: a map's helper threads are one per other core. */
export function coreCount() {
  return os.availableParallelism?.() ?? os.cpus().length;
}

/**
 * A helper thread of a map (a worker thread running map/layout-helper.js), once
 * it has answered its first message; it does not keep the process alive.
 */
export async function startLayoutHelper(message) {
  const thread = new Worker(new URL('../map/layout-helper.js', import.meta.url));
  thread.unref();
  await new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.postMessage(message);
  });
  return thread;
}

/** The threaded layout module's glue (web/dist/layout-threads.js), for a map on Node's helper threads. */
export function threadedLayoutGlue() {
  return import('../../dist/layout-threads.js');
}
