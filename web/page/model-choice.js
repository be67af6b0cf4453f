// Which model the chapter page opens. By default the package's own model;
// the page's address can name another (URLs resolve against the page):
//
//   ?model=FOLDER/      a folder holding model.safetensors, config.json and tokenizer.json
//   ?weights=URL&config=URL&tokenizer=URL   single files; each wins over ?model=
//
// The reader may also open files from their own disk with the page's file
// picker: those are read in the browser and sent nowhere.
import { defaultModelFiles } from '../src/default-model.js';

const FILE_NAMES = { weights: 'model.safetensors', config: 'config.json', tokenizer: 'tokenizer.json' };

/**
 * The files the address names, or the default model's. A parameter given
 * empty is as if absent.
 * @param {string} search location.search
 * @param {string} base the page's address
 */
export function modelFilesFromAddress(search, base) {
  const params = new URLSearchParams(search);
  const folder = params.get('model');
  const named = Object.keys(FILE_NAMES).filter((name) => params.get(name));
  if (!folder && !named.length) return defaultModelFiles;
  const files = {};
  if (folder) {
    const root = new URL(folder.endsWith('/') ? folder : `${folder}/`, base);
    for (const [name, file] of Object.entries(FILE_NAMES)) files[name] = new URL(file, root);
  } else {
    // Single files without a folder: the ones not named are left out (no tokenizer: no text widgets).
    files.weights = defaultModelFiles.weights;
  }
  for (const name of named) files[name] = new URL(params.get(name), base);
  return Object.freeze(files);
}

/**
 * The model files among those a reader picked, by name: the .safetensors
 * file is the weights, a name ending in tokenizer.json the tokenizer, any
 * other .json the config. Throws when no weights file is among them.
 * @param {File[]} picked
 */
export function modelFilesFromPicked(picked) {
  const files = {};
  for (const file of picked) {
    const name = file.name.toLowerCase();
    if (name.endsWith('.safetensors')) files.weights = file;
    else if (name.endsWith('tokenizer.json')) files.tokenizer = file;
    else if (name.endsWith('.json')) files.config = file;
  }
  if (!files.weights) {
    throw new Error(`no .safetensors file among ${picked.map((file) => file.name).join(', ') || 'the files picked'}: ` +
      'pick the model’s model.safetensors, with its config.json and tokenizer.json');
  }
  return files;
}
