// Where a training slider finds its model's training files: the snapshots'
// index, the snapshots and the loss curve.
import { defaultModelFiles } from '../../src/default-model.js';
import { packageFile } from '../../src/files.js';
import { isNode } from '../../src/runtime.js';
import { readBytes } from '../../src/sources/index.js';

/**
 * For the default model's files: a function from a training file's path in
 * model/ ("snapshots/index.json", "training-curve.json") to its URL, or
 * undefined for a file it does not know. Undefined for any other model,
 * whose training files lie next to its weights. A bundler gives the default
 * model's files names of their own, so none is found beside another: each
 * is named in web/dist/default-training.js, built from the snapshots' index,
 * which only this element imports (an app without it copies none of them).
 */
export async function defaultTrainingFiles(files) {
  if (String(files.weights) !== String(defaultModelFiles.weights)) return undefined;
  const { default: named } = await import('../../dist/default-training.js');
  return (path) => (Object.hasOwn(named, path) ? packageFile(`model/${path}`, named[path]) : undefined);
}

/** fetch(url), or an error naming the file and its HTTP status. */
export async function fetchOk(url) {
  // The package's own files under Vitest's jsdom are file: URLs, which Node's fetch does not read.
  if (isNode && new URL(url, document.baseURI).protocol === 'file:') return new Response((await readBytes(url, 'file')).bytes);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${new URL(url, document.baseURI).pathname}: HTTP ${response.status}`);
  return response;
}
