// A token table of Qwen 2.5 0.5B's shape (151,936 × 896, BF16, no position
// table), generated on disk by the test: it loads in Node, and nearest and
// trace work over all of it. (Llama 3.2 1B's 128,256 × 2,048 is in
// tools/bench/scale.mjs only: CI has two cores.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadModel } from '../../../web/index.js';
import { writeBf16Checkpoint } from '../helpers/big-checkpoint.js';
import { bigTokenizerJson } from '../helpers/big-tokenizer.js';

const rows = 151936, width = 896;
// Row pairs far apart across the table, so only a scan of every row finds them.
const twins = [[7, 151930], [140000, 300], [70000, 70001]];
let dir, rowOf, model, tokenizerIds;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'embeddings-scale-'));
  const weights = join(dir, 'model.safetensors');
  rowOf = await writeBf16Checkpoint(weights, { rows, width, twins });
  // About 142,000 ids: fewer than the table's rows, as real tokenizers leave padding.
  const tokenizer = bigTokenizerJson(7.5e6);
  tokenizerIds = tokenizer.ids;
  assert.ok(tokenizerIds > 140001 && tokenizerIds < 151930, `tokenizer ids ${tokenizerIds}`);
  model = await loadModel({
    weights,
    config: { model_type: 'qwen2', vocab_size: rows, hidden_size: width, max_position_embeddings: 32768, tie_word_embeddings: true },
    tokenizer: new TextEncoder().encode(tokenizer.text),
  });
});
after(async () => {
  model?.dispose();
  await rm(dir, { recursive: true, force: true });
});

test('the table loads whole: every row is the file\'s BF16 numbers as float32', () => {
  assert.equal(model.vocabSize, rows);
  assert.equal(model.width, width);
  assert.equal(model.wpe, null);
  assert.equal(model.wte.dtype, 'bfloat16');
  for (const r of [0, 1, 65535, 65536, 151935]) {
    assert.deepEqual(model.wte.row(r), rowOf(r), `row ${r}`);
  }
});

test('the table stays in 16 bits: the tables instance holds less than a float32 copy would', () => {
  const tableBytes = rows * width * 2;
  assert.ok(model.wte.data instanceof Uint16Array);
  assert.equal(model.wte.data.length, rows * width);
  // The 16-bit table (260 MiB) and the workspace (a trace of 1,024 rows, a
  // score per row). Widened, the instance held 3.4x the table (879 MiB:
  // the float32 table, the staged 16-bit bytes, the norms); kept in 16 bits
  // it held 1.2x (312 MiB), and 2.0x (520 MiB: the heap grows past what is
  // asked) since the tokenizer families' code joined the module.
  const memory = model.memoryUsage().tables;
  assert.ok(memory < tableBytes * 2.25, `${(memory / 1048576).toFixed(0)} MiB for a ${(tableBytes / 1048576).toFixed(0)} MiB table`);
});

test('nearest scans every row with a token', () => {
  for (const [a, b] of twins.filter(([x, y]) => x < tokenizerIds && y < tokenizerIds)) {
    const [best] = model.nearest(a, 3);
    assert.equal(best.id, b, `row ${a}'s nearest is its twin ${b}`);
    assert.ok(best.score > 0.999 && best.score <= 1, String(best.score));
  }
  // A twin past the tokenizer's last id is padding, never listed.
  assert.ok(model.nearest(7, 5).every((n) => n.id < tokenizerIds));
  const byVector = model.nearest(Array.from(rowOf(70000)), 2).map((n) => n.id);
  assert.deepEqual(byVector.sort((x, y) => x - y), [70000, 70001]);
});

test('trace gives the token rows, and no position rows', () => {
  const trace = model.trace('Once upon a time, in a big forest');
  assert.equal(trace.positionEmbeddings, null);
  trace.tokens.forEach((token, i) => {
    assert.deepEqual(trace.tokenEmbeddings.row(i), rowOf(token.id));
    assert.deepEqual(trace.embeddings.row(i), rowOf(token.id));
  });
  assert.ok(trace.tokens.length > 3);
});
