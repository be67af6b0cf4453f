// Gives the widgets marked data-shared a model loaded once by script: the
// way to share a model between widgets that name no files, or to load one
// from bytes (a file picker, IndexedDB) instead of URLs.
import { sharedModel } from '../widgets/index.js';

const files = {
  weights: new URL('../../model/model.safetensors', import.meta.url),
  config: new URL('../../model/config.json', import.meta.url),
  tokenizer: new URL('../../model/tokenizer.json', import.meta.url),
};
// The same files as the widgets' src="../../model/", so this is the same load, not a second one.
const model = sharedModel(files);
for (const widget of document.querySelectorAll('[data-shared]')) widget.model = model;
