// The files of the model shipped with the package, in a module of their
// own so that the page's first script can name them without loading the
// package (web/page/first-requests.js).

/** The files of the model shipped with the package. */
export const defaultModelFiles = Object.freeze({
  weights: new URL('../../model/model.safetensors', import.meta.url),
  config: new URL('../../model/config.json', import.meta.url),
  tokenizer: new URL('../../model/tokenizer.json', import.meta.url),
});
