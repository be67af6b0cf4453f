// Run by tests/js/api/disposal.test.js as `node --expose-gc` (the test runner
// cannot pass the flag): loads four models, disposes them while an array
// still holds them, and prints as JSON the external memory (WebAssembly
// memories count there) the models added, loaded and then disposed, after
// garbage collection, beside one token table's bytes.
import { loadModel } from '../../../web/index.js';
import { makeModel } from './fixtures.js';

const fixture = makeModel({ extraRows: 8000, width: 256 });
async function collect() {
  // Twice, with a turn between: what a finalizer frees goes in the second.
  for (let i = 0; i < 2; i++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().external;
}

const baseline = await collect();
const kept = [];
for (let i = 0; i < 4; i++) kept.push(await loadModel({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer }));
const loaded = await collect() - baseline;
for (const model of kept) model.dispose();
const disposed = await collect() - baseline;
console.log(JSON.stringify({ tableBytes: fixture.wte.byteLength, loaded, disposed, kept: kept.filter((m) => m.disposed).length }));
