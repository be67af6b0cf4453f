// The page's first script (built into the classic script
// web/dist/first-requests.js by tools/page/bundle.mjs, a few kilobytes): run
// as soon as the parser reaches it, before the document's first layout and
// while the bundle still travels and compiles, it asks for the model's
// weights: their first bytes and, for the shipped model, its two tables at
// once; the model's two small files; and it starts compiling the module's
// .wasm. The package's loader, given the same files, takes the requests
// made here (web/src/early-requests.js) instead of asking again, and its
// runtime takes the compile (web/src/early-compile.js).
import { compileWasmEarly } from '../src/early-compile.js';
import { requestFileEarly, requestWeightsEarly } from '../src/early-requests.js';
import { defaultModelFiles } from '../src/default-model.js';
import { modelFilesFromAddress } from './model-choice.js';
import { blobReaderInWorker } from './blob-reader.js';

// Where the shipped model's tables lie in its weights: read from the file's
// header when tools/page/bundle.mjs built this script, which defines this
// constant (the test of the bundle's freshness notices a changed model).
// Asked for beside the first bytes, the tables wait neither for those bytes'
// round trip nor for the main thread, which is laying out the page when they
// arrive; the header then confirms the ranges, or cancels them if the file
// has changed since.
const shippedTables = typeof SHIPPED_MODEL_TABLES === 'undefined' ? [] : SHIPPED_MODEL_TABLES;

// What the first model widget waits for is asked for now (the weights: their
// first bytes and the tables; the module's .wasm; the model's two small
// files): by the time the bundle has run, these are in and the module is
// compiled, so the model's load goes from the instances to the token table
// without waiting on a main-thread task. (Each alone bought nothing while
// the widgets' definitions filled that stretch; with those held back
// (widgets/parts/definitions.js), they do: docs/page.md.)
//
// Each step goes in a task of its own, after the parser's: this script runs
// inside the parser's task, and each fetch() and the Worker's start cost the
// main thread 1–3 ms the first times (at 4× slower, 6–20 ms, and more on a
// busy phone): made here, they made the parser's task the longest of the
// page's load on the phone profile (120–200 ms). The network is not what
// the first widget waits for, so the few milliseconds these requests leave
// later cost it nothing. The bundle, which takes them, arrives well after.
// The URLs are made here: the bundle's stand-in for import.meta.url is this
// script's element (document.currentScript), which a later task has not.
const files = modelFilesFromAddress(location.search, document.baseURI);
const weights = new URL(files.weights, document.baseURI);
const expectedTables = weights.href === defaultModelFiles.weights.href ? shippedTables : [];
const wasm = new URL('../dist/embeddings.wasm', import.meta.url);
const smallFiles = [files.config, files.tokenizer].filter(Boolean).map((file) => new URL(file, document.baseURI));
const blobWorker = new URL('../dist/blob-worker.js', import.meta.url);

// The large bodies (the tables, tokenizer.json) are read in a Worker, not on
// this busy thread (blob-reader.js says why). It starts in the second task,
// long before the first body is in; a body that came sooner would be read
// here.
let readInWorker;
const readBlob = (blob) => (readInWorker ? readInWorker(blob) : blob.arrayBuffer());

// Each as the next task the browser runs (a user-blocking task, where the
// Scheduler API is), in this order, not behind the parser's work and the
// first layout.
const next = (task) => (globalThis.scheduler?.postTask ? scheduler.postTask(task, { priority: 'user-blocking' }) : setTimeout(task, 0));
next(() => requestWeightsEarly(weights, { expectedTables, readBlob }));
next(() => { readInWorker = blobReaderInWorker(blobWorker); });
next(() => compileWasmEarly(wasm));
for (const file of smallFiles) next(() => requestFileEarly(file, { readBlob }));
