// The page's first script (built into the classic script
// web/dist/first-requests.js by tools/bundle-page.mjs, a few kilobytes): run
// as soon as the parser reaches it, before the document's first layout and
// while the bundle still travels and compiles, it asks for the model's
// weights (their first bytes, then at once the two tables). The package's
// loader, given the same weights, takes the requests made here
// (web/src/early-requests.js) instead of asking again.
import { requestWeightsEarly } from '../src/early-requests.js';
import { modelFilesFromAddress } from './model-choice.js';

requestWeightsEarly(new URL(modelFilesFromAddress(location.search, document.baseURI).weights, document.baseURI));
