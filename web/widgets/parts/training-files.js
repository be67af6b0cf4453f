// Where a training slider finds its model's training files: the snapshots'
// index, the snapshots and the loss curve.
import { defaultModelFiles } from '../../src/default-model.js';
import { packageFile } from '../../src/files.js';
import { isNode } from '../../src/runtime.js';
import { readBytes } from '../../src/sources/index.js';
import { snapshotIndexOf } from './model-source.js';

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

/**
 * Reads what a training slider needs before its first snapshot: the
 * snapshots' index (each entry given its URL), the model's config (the
 * snapshots share it) and, when no loaded model lends one, its
 * tokenizer.json's bytes; and says where the loss curve is. `snapshots`
 * and `curve` are the element's attributes of those names, if set.
 * Rejects with an error that names the index's path and has a heading.
 */
export async function loadTrainingFiles(files, { snapshots, curve, needTokenizer }) {
  // The default model's training files are named one by one (a bundler
  // renames and moves each); another model's lie next to its weights.
  const named = await defaultTrainingFiles(files);
  const indexUrl = snapshots ? new URL(snapshots, document.baseURI) : named?.('snapshots/index.json') ?? snapshotIndexOf(files);
  const snapshotUrl = (file) => (!snapshots && named?.(`snapshots/${file}`)) || new URL(file, indexUrl);
  const [index, config, tokenizer] = await Promise.all([
    fetchOk(indexUrl).then((response) => response.json()),
    files.config ? fetchOk(files.config).then((response) => response.json()) : undefined,
    needTokenizer && files.tokenizer ? fetchOk(files.tokenizer).then((response) => response.arrayBuffer()) : undefined,
  ]).catch((error) => {
    const reason = new Error(`No training snapshots could be loaded from ${indexUrl.pathname}: ${error.message}`);
    reason.heading = 'The training snapshots could not be loaded.';
    throw reason;
  });
  if (!Array.isArray(index.snapshots) || !index.snapshots.length) throw new Error(`${indexUrl.pathname} lists no snapshots`);
  const curveUrl = curve ? new URL(curve, document.baseURI)
    : named?.('training-curve.json') ?? new URL('training-curve.json', new URL(String(files.weights), document.baseURI));
  return { snapshots: index.snapshots.map((entry) => ({ ...entry, url: snapshotUrl(entry.file) })), config, tokenizer, curveUrl };
}
