// Where widgets get their model: one load per set of files, shared by every
// widget on the page that names the same files.
// From src/model/, not the package's index.js: index.js waits at its top
// level for its kernels instance, and a page may start a load before that
// (web/page/start.js does).
import { loadModel, defaultModelFiles } from '../../src/model/index.js';

const loads = new Map();
// What a widget naming no files loads: the package's model, unless the page chose another.
let pageFiles = defaultModelFiles;

/**
 * Sets the model files of every widget that names none (a page that opens
 * another model calls this before its widgets are defined).
 */
export function setPageModelFiles(files) {
  pageFiles = files;
}

/** The files widgets naming none load. */
export function pageModelFiles() {
  return pageFiles;
}

/**
 * The model files an element names. `src` is a folder holding
 * model.safetensors, config.json and tokenizer.json; `weights`, `config` and
 * `tokenizer` name single files and win over `src`. With neither, the
 * package's default model. Relative URLs resolve against the page.
 * @param {Element} element
 */
export function modelFilesOf(element) {
  const base = document.baseURI;
  const folder = element.getAttribute('src');
  let files;
  if (folder) {
    const root = new URL(folder.endsWith('/') ? folder : `${folder}/`, base);
    files = {
      weights: new URL('model.safetensors', root),
      config: new URL('config.json', root),
      tokenizer: new URL('tokenizer.json', root),
    };
  } else {
    files = { ...pageFiles };
  }
  for (const name of ['weights', 'config', 'tokenizer']) {
    const value = element.getAttribute(name);
    if (value) files[name] = new URL(value, base);
  }
  return files;
}

function keyOf(files) {
  return ['weights', 'config', 'tokenizer'].map((name) => String(files[name] ?? '')).join('\n');
}

/**
 * The model of these files, loaded once however many widgets ask.
 * `onProgress` gets { loaded, total, stage } while the weights arrive (also
 * when another widget started the load). A failed load is forgotten, so a
 * later call tries again.
 * @param {{ weights: URL | string, config?: URL | string, tokenizer?: URL | string }} files
 * @param {(progress: { loaded: number, total: number, stage: string }) => void} [onProgress]
 * @returns {Promise<import('../../index.js').Model>}
 */
export function sharedModel(files = pageFiles, onProgress) {
  const key = keyOf(files);
  let load = loads.get(key);
  if (!load) {
    const listeners = new Set();
    load = { listeners, last: undefined };
    // loadModel fetches config.json and tokenizer.json with one plain GET
    // each (so a page can preload them) and the weights with range requests,
    // all three at once.
    load.promise = loadModel({
      weights: files.weights,
      config: files.config,
      tokenizer: files.tokenizer,
      onProgress(progress) {
        load.last = progress;
        for (const listener of listeners) listener(progress);
      },
    });
    load.promise.then(
      () => listeners.clear(),
      () => { listeners.clear(); loads.delete(key); },
    );
    loads.set(key, load);
  }
  if (onProgress) {
    load.listeners.add(onProgress);
    if (load.last) onProgress(load.last);
  }
  return load.promise;
}

/** The snapshots' index next to a model's weights: snapshots/index.json. */
export function snapshotIndexOf(files) {
  return new URL('snapshots/index.json', new URL(String(files.weights), document.baseURI));
}

