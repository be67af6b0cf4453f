// The model layer: loadModel() and what it gives.
//   load.js            loadModel: the tables and the tokenizer side by side
//   tables.js          the tables' instance (TablesHost), header and tables
//   shards.js          a sharded checkpoint's index, and the shard it names
//   tokenizer-host.js  the tokenizer's instance (TokenizerHost)
//   module-choice.js   which build of the module a tokenizer.json needs
//   model.js           the Model class
//   trace.js           the Trace class
//   internals.js       what a Model keeps off the object
//   for-widgets.js     the widgets' private accessors
//   text.js            text limits and UTF-8 at the boundary
export { loadModel } from './load.js';
export { Model, cosineMatrix, cosineMatrixAsync } from './model.js';
export { Trace } from './trace.js';
export { defaultModelFiles } from '../default-model.js';
