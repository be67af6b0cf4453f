// loadModel(): the tables and the tokenizer loaded side by side into their
// own instances, and the Model made of them.
import { describe } from '../matrix.js';
import { checkSignal, settleInput } from '../sources/index.js';
import { defaultModelFiles } from '../default-model.js';
import { loadTables } from './tables.js';
import { loadTokenizer } from './tokenizer-host.js';
import { internalsOf } from './internals.js';
import { unproxied } from '../proxies.js';
import { kernelsReady } from '../kernels.js';
import { Model } from './model.js';
import { yieldToMain } from '../event-loop.js';

function shareTokenizer(model) {
  const host = internalsOf.get(unproxied(model))?.tokenizer;
  if (model.disposed) throw new Error('loadModel: the model whose tokenizer was given has been disposed');
  if (!host) throw new Error('loadModel: the model whose tokenizer was given has no tokenizer');
  host.refs++;
  return host;
}

/**
 * Loads a model's embedding tables (GPT-2, Llama, Mistral, Qwen, Gemma, Phi,
 * GPT-NeoX or OPT tensor names; a sharded checkpoint by its
 * model.safetensors.index.json) and tokenizer.
 *
 * With no argument, loads the default model shipped with the package. Each
 * file may be a URL (browser; the weights are fetched with range requests,
 * so only the two tables travel), a file path (Node), an ArrayBuffer, a
 * typed array or a Blob. `config` may also be an already-parsed object,
 * and `tokenizer` an already-loaded Model whose tokenizer is then shared
 * (training snapshots of one model load without parsing it again). A
 * Promise of any of these is awaited, a fetch() Response is read. `signal`
 * (an AbortSignal) abandons the load: it rejects with the signal's reason.
 *
 * @param {{ weights: any, config?: any, tokenizer?: any, onProgress?: (p: {loaded: number, total: number, stage: string}) => void, signal?: AbortSignal }} [files]
 */
export async function loadModel(files = defaultModelFiles) {
  if (typeof files !== 'object' || files === null || ArrayBuffer.isView(files) || files instanceof ArrayBuffer) {
    throw new TypeError(`loadModel: expected { weights, config, tokenizer }, got ${describe(files)}`);
  }
  const unknown = Object.keys(files).filter((key) => !['weights', 'config', 'tokenizer', 'onProgress', 'signal'].includes(key));
  if (unknown.length) throw new TypeError(`loadModel: unknown option ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  if (files.weights === undefined) throw new TypeError('loadModel: the weights file (a .safetensors) is required');
  const progress = typeof files.onProgress === 'function' ? files.onProgress : () => {};
  const { signal } = files;
  if (signal !== undefined && !(typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal)) {
    throw new TypeError(`loadModel: signal must be an AbortSignal, got ${describe(signal)}`);
  }
  checkSignal(signal);

  // The three files load in parallel; the weights are the slow one. The
  // tokenizer's parse (main-thread work) waits until the tables' requests
  // are on their way, so it runs while their bytes travel rather than
  // delaying the requests.
  let tablesRequested;
  const tablesInFlight = new Promise((resolve) => { tablesRequested = resolve; });
  // The shared instance too (a trace's rows are computed on it): a module
  // that cannot start rejects here, like any file that cannot be read.
  const [tables, tokenizer] = await Promise.all([
    loadTables(files.weights, files.config, progress, tablesRequested, signal),
    files.tokenizer === undefined ? Promise.resolve(undefined)
      : settleInput(files.tokenizer, 'tokenizer', signal).then((tokenizer) => (tokenizer instanceof Model
        ? shareTokenizer(tokenizer) : loadTokenizer(tokenizer, tablesInFlight, signal))),
    kernelsReady,
  ].map((promise) => promise.then((value) => ({ value }), (error) => ({ error }))))
    .then((results) => {
      // A module that cannot start says so first: its .wasm missing (an app
      // whose bundler copied none of the package's files) is what the other
      // files' failures follow from, and its message says what to do.
      const failed = results[2].error ? results[2] : results.find((result) => result.error);
      if (failed) {
        for (const result of results) result.value?.dispose();
        throw failed.error;
      }
      return results.map((result) => result.value);
    });
  await yieldToMain();
  if (signal?.aborted) {
    // Aborted while the last step ran: the caller no longer wants the model.
    tokenizer?.dispose();
    tables.dispose();
    checkSignal(signal);
  }
  if (tokenizer && tokenizer.vocabSize > tables.vocabSize) {
    const message = `${tokenizer.name}: the tokenizer has ${tokenizer.vocabSize} tokens but the token table ` +
      `${tables.wteName} has only ${tables.vocabSize} rows`;
    tokenizer.dispose();
    tables.dispose();
    throw new Error(message);
  }
  // The rows of a padded token table past the tokenizer's last id have no token.
  if (tokenizer) tables.session.setRowsWithTokens(tokenizer.vocabSize);
  return new Model(tables, tokenizer);
}
