// The page's first script (built into the classic script
// web/dist/first-requests.js by tools/bundle-page.mjs, a few kilobytes): run
// as soon as the parser reaches it, before the document's first layout and
// while the bundle still travels and compiles, it asks for the model's
// weights: their first bytes and, for the shipped model, its two tables at
// once. The package's loader, given the same weights, takes the requests
// made here (web/src/early-requests.js) instead of asking again.
import { requestWeightsEarly } from '../src/early-requests.js';
import { defaultModelFiles } from '../src/default-model.js';
import { modelFilesFromAddress } from './model-choice.js';

// Where the shipped model's tables lie in its weights: read from the file's
// header when tools/bundle-page.mjs built this script, which defines this
// constant (the test of the bundle's freshness notices a changed model).
// Asked for beside the first bytes, the tables wait neither for those bytes'
// round trip nor for the main thread, which is laying out the page when they
// arrive; the header then confirms the ranges, or cancels them if the file
// has changed since.
const shippedTables = typeof SHIPPED_MODEL_TABLES === 'undefined' ? [] : SHIPPED_MODEL_TABLES;

const weights = new URL(modelFilesFromAddress(location.search, document.baseURI).weights, document.baseURI);
requestWeightsEarly(weights, { expectedTables: weights.href === defaultModelFiles.weights.href ? shippedTables : [] });
