// Which model the chapter page opens. By default the package's own model;
// the page's address can name another (URLs resolve against the page):
//
//   ?model=FOLDER/      a folder holding model.safetensors, config.json and tokenizer.json
//   ?weights=URL&config=URL&tokenizer=URL   single files; each wins over ?model=
//
// The reader may also open files from their own disk with the page's file
// picker: those are read in the browser and sent nowhere.
import { defaultModelFiles } from '../src/default-model.js';
import { quoted } from './quote.js';

const FILE_NAMES = { weights: 'model.safetensors', config: 'config.json', tokenizer: 'tokenizer.json' };
const PARAMETERS = ['model', ...Object.keys(FILE_NAMES)];
/** The longest address a parameter may hold (a file's URL; real ones are far shorter). */
export const MAX_ADDRESS = 2048;

/**
 * A parameter's URL against the page, or why it is none the page can
 * fetch: too long, not a URL (`http://[::1`), or of a scheme that is not
 * the page's own nor http(s) (`mailto:x`, `javascript:`, `data:`).
 */
function urlOf(name, value, base, folder) {
  if (value.length > MAX_ADDRESS) return { problem: `${value.length.toLocaleString('en-US')} characters long, more than the ${MAX_ADDRESS.toLocaleString('en-US')} an address here may have` };
  let url;
  try {
    url = new URL(folder && !value.endsWith('/') ? `${value}/` : value, base);
  } catch {
    return { problem: 'not an address the page can read' };
  }
  const own = new URL(base).protocol;
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== own) {
    return { problem: `a ${url.protocol} address, and the page fetches only http: and https: ones` };
  }
  return { url };
}

/**
 * The model the address names: `{ files, problems }`. `files` are the
 * files of ?model= (a folder) and ?weights=, ?config=, ?tokenizer= (single
 * files, each winning over ?model=), or the default model's when none is
 * given, a parameter given empty being as if absent. Any parameter that
 * cannot be used makes it the default model, and `problems` names each
 * ({ name, value, reason }), for the page to say. Never throws.
 * @param {string} search location.search
 * @param {string} base the page's address
 */
export function modelChoiceFromAddress(search, base) {
  const params = new URLSearchParams(typeof search === 'string' ? search : '');
  const given = PARAMETERS.filter((name) => params.get(name));
  if (!given.length) return { files: defaultModelFiles, problems: [] };
  const urls = {};
  const problems = [];
  for (const name of given) {
    const value = params.get(name);
    const { url, problem } = urlOf(name, value, base, name === 'model');
    if (url) urls[name] = url;
    else problems.push({ name, value: quoted(value), reason: problem });
  }
  if (problems.length) return { files: defaultModelFiles, problems };
  const files = {};
  if (urls.model) {
    for (const [name, file] of Object.entries(FILE_NAMES)) files[name] = new URL(file, urls.model);
  } else {
    // Single files without a folder: the ones not named are left out (no tokenizer: no text widgets).
    files.weights = defaultModelFiles.weights;
  }
  for (const name of Object.keys(FILE_NAMES)) if (urls[name]) files[name] = urls[name];
  return { files: Object.freeze(files), problems };
}

/**
 * The files the address names, or the default model's (also when a
 * parameter cannot be used: modelChoiceFromAddress says which).
 * @param {string} search location.search
 * @param {string} base the page's address
 */
export function modelFilesFromAddress(search, base) {
  return modelChoiceFromAddress(search, base).files;
}

/** The problems of modelChoiceFromAddress in a sentence for the page's status line, or ''. */
export function addressProblemsInWords(problems) {
  if (!problems.length) return '';
  const each = problems.map(({ name, value, reason }) => `?${name}=${value} is ${reason}`);
  return `The address could not be used (${each.join('; ')}), so the page shows its own model.`;
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
