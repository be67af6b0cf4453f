// The package's entry point: the objects the chapter's Code parts use.
//
//   import { loadModel, rowView, dot, cosine } from 'embeddings-and-position';
//   const model = await loadModel();
//   cosine(rowView(model.wte, 477), rowView(model.wte, 497));
import { instantiate } from './src/runtime.js';
import { setDefaultHost } from './src/vectors.js';

// One shared instance computes on vectors that belong to no model (plain
// arrays, rows of a trace). Its scratch is allocated once, here.
const kernelModule = await instantiate();
const chunk = kernelModule.vectorChunk();
setDefaultHost({
  module: kernelModule,
  vectorA: kernelModule._malloc(chunk * 4),
  vectorB: kernelModule._malloc(chunk * 4),
  sums: kernelModule._malloc(3 * 8),
  chunk,
  checkAlive() {},
});

/** Which SIMD kernels this build runs ("wasm-simd128"). */
export const backend = kernelModule.backendName();

export { Matrix, rowView } from './src/matrix.js';
export { dot, cosine } from './src/vectors.js';
export { loadModel, cosineMatrix, cosineMatrixAsync, defaultModelFiles, Model, Trace } from './src/model/index.js';
export { mapDetails, alignMap } from './src/map.js';
