// Where widgets get their model: one load per set of files, shared by every
// widget on the page that names the same files.
// From src/model/, not the package's index.js: index.js waits at its top
// level for its kernels instance, and a page may start a load before that
// (web/page/start.js does).
import { loadModel, defaultModelFiles } from '../../src/model/index.js';

const loads = new Map();
// What a widget naming no files loads: the package's model, unless the page chose another.
let pageFiles = defaultModelFiles;

// What the page's widgets show when the page's own files cannot be opened, and why they could not.
let pageFallback;
let pageFailure;

/**
 * Sets the model files of every widget that names none (a page that opens
 * another model calls this before its widgets are defined). With
 * `fallback`, a load of these files that fails gives the fallback's model
 * instead (the page's default model, say), to every widget asking, and
 * the page's files become the fallback's: a wrong address never leaves the
 * page without a model. pageModelFailure() says what went wrong.
 */
export function setPageModelFiles(files, { fallback } = {}) {
  pageFiles = files;
  pageFallback = fallback && keyOf(fallback) !== keyOf(files) ? { from: keyOf(files), files: fallback } : undefined;
  pageFailure = undefined;
}

/** Why the page's own files could not be opened, when their fallback is shown instead: { error, files }, or undefined. */
export function pageModelFailure() {
  return pageFailure;
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
    const report = (progress) => {
      load.last = progress;
      for (const listener of listeners) listener(progress);
    };
    // loadModel fetches config.json and tokenizer.json with one plain GET
    // each (so a page can preload them) and the weights with range requests,
    // all three at once.
    load.promise = loadModel({ weights: files.weights, config: files.config, tokenizer: files.tokenizer, onProgress: report });
    const fallback = pageFallback;
    if (fallback && fallback.from === key) {
      // The page's files failed: every widget asking for them gets the fallback's model, and later ones ask for it.
      load.promise = load.promise.catch((error) => {
        pageFailure = { error, files };
        if (keyOf(pageFiles) === key) pageFiles = fallback.files;
        return sharedModel(fallback.files, report);
      });
    }
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

