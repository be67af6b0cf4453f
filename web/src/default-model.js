// The files of the model shipped with the package, in a module of their
// own so that the page's first script can name them without loading the
// package (web/page/first-requests.js). Each is found when it is read, so
// that locateFiles() (files.js) may say where first.
import { packageFile } from './files.js';

/** The files of the model shipped with the package. */
export const defaultModelFiles = Object.freeze({
  get weights() {
    return packageFile('model/model.safetensors', () => new URL('../../model/model.safetensors', import.meta.url));
  },
  get config() {
    return packageFile('model/config.json', () => new URL('../../model/config.json', import.meta.url));
  },
  get tokenizer() {
    return packageFile('model/tokenizer.json', () => new URL('../../model/tokenizer.json', import.meta.url));
  },
});
