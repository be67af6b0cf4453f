// The first thing the bundle runs: it starts the model's load before the
// widgets are defined and before the package's own kernels instance is up
// (web/index.js waits at its top level for the .wasm to arrive and
// compile). The weights' range requests, the critical path, left earlier
// still, from the page's first script (first-requests.js): this load takes
// them over. The widgets name the same files, so they share this load
// (widgets/parts/model-source.js); page.js waits for it and reports a failure.
import { sharedModel, setPageModelFiles } from '../widgets/parts/model-source.js';
import { deferWidgetDefinitions } from '../widgets/parts/definitions.js';
import { modelChoiceFromAddress } from './model-choice.js';
import { defaultModelFiles } from '../src/default-model.js';

// Only the token table, the first model widget, is defined as its module
// arrives; the page defines the others once the table shows its model
// (page.js), so their upgrades do not stand between the model and the
// table (widgets/definitions.js says why).
deferWidgetDefinitions({ except: ['ew-embedding-table'] });

// The address may name another model (?model=FOLDER/, see model-choice.js):
// every widget that names no files then shows it; if it cannot be opened,
// they show the default model, and page.js says what was wrong. So it does
// for a parameter that is no address the page can fetch (`?model=mailto:x`):
// the default model opens and `addressProblems` names the parameter.
const choice = modelChoiceFromAddress(location.search, document.baseURI);
export const addressProblems = choice.problems;
setPageModelFiles(choice.files, { fallback: defaultModelFiles });
// Marked for the page's timing (tools/bench/page.mjs, the page's tests).
performance.mark('embeddings:model-requested');
sharedModel().catch(() => {});
