// The package's entry point: the objects the chapter's Code parts use.
//
//   import { loadModel, rowView, dot, cosine } from 'embeddings-and-position';
//   const model = await loadModel();
//   cosine(rowView(model.wte, 477), rowView(model.wte, 497));
//
// Nothing here awaits at the top level (kernels.js says why): the module
// starts as the package is imported, loadModel() waits for it, and `ready`
// says when dot() and cosine() can take plain arrays without a model.
import { kernelsReady, kernelsBackend } from './src/kernels.js';

/** Resolves once the module is up (dot and cosine on plain arrays work); rejects, like loadModel(), when it cannot start. */
export const ready = kernelsReady.then(() => {
  backend = kernelsBackend();
});
ready.catch(() => {});

/** Which SIMD kernels this build runs ("wasm-simd128"), once `ready` has resolved; '' until then. */
export let backend = '';

export { Matrix, rowView } from './src/matrix.js';
export { dot, cosine } from './src/vectors.js';
export { loadModel, cosineMatrix, cosineMatrixAsync, defaultModelFiles, Model, Trace } from './src/model/index.js';
export { mapDetails, alignMap } from './src/map/index.js';
export { locateFiles } from './src/files.js';
