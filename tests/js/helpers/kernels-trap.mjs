// Run by tests/js/robustness/failed-instance.test.js in a process of its
// own: it stops the shared kernels' instance (which every later test in a
// process would need) with a trap, and prints what dot() and cosine() of
// plain arrays, and of a model's own rows, give after it, as JSON.
import { observeInstances } from '../../../web/src/runtime.js';
import { makeModel } from './fixtures.js';

let kernels;
observeInstances((module, role) => { if (role === 'kernels') kernels ??= module; });
const { dot, cosine, rowView, loadModel } = await import('../../../web/index.js');
const message = (call) => {
  try {
    call();
    return 'no error';
  } catch (error) {
    return String(error);
  }
};
const fixture = makeModel();
const model = await loadModel({ weights: fixture.weights });
const before = dot([1, 2, 3], [4, 0, -1]);
const trap = message(() => kernels._embeddings_dot(kernels.HEAPU8.length, 0, 64));
const row = rowView(model.wte, 2);
console.log(JSON.stringify({
  before,
  trap,
  dot: message(() => dot([1, 2, 3], [4, 0, -1])),
  cosine: message(() => cosine([1, 2], [2, 1])),
  modelRows: Math.round(cosine(row, rowView(model.wte, 2))),
}));
model.dispose();
