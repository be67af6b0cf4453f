#!/usr/bin/env node
// The costs of today's models' token tables: a BF16 table of Qwen 2.5
// 0.5B's shape (151,936 × 896) and of Llama 3.2 1B's (128,256 × 2,048),
// generated on disk (never committed), loaded from that file in Node with a
// generated tokenizer of about 93% as many ids; then the same numbers stored
// as float32, side by side. Prints the load time, the WebAssembly memory the
// tables instance holds, and medians of nearest() and trace(). Not part of
// the test suite: the larger table is 525 MB (1 GB as float32).
//
//   node tools/bench-scale.mjs [--only qwen|llama] [--no-f32] [--markdown]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import os from 'node:os';

import { loadModel, backend } from '../web/index.js';
import { writeBf16Checkpoint } from '../tests/js/helpers/big-checkpoint.js';
import { bigTokenizerJson } from '../tests/js/helpers/big-tokenizer.js';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const markdown = args.includes('--markdown');
const dtypes = args.includes('--no-f32') ? ['BF16'] : ['BF16', 'F32'];
const shapes = [
  { name: 'qwen', label: 'Qwen 2.5 0.5B', rows: 151936, width: 896, tokenizerBytes: 7.5e6 },
  { name: 'llama', label: 'Llama 3.2 1B', rows: 128256, width: 2048, tokenizerBytes: 6.5e6 },
].filter((shape) => !only || shape.name === only);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const time = (fn, runs) => median(Array.from({ length: runs }, () => {
  const start = performance.now();
  fn();
  return performance.now() - start;
}));
const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;

const results = [];
for (const shape of shapes) for (const dtype of dtypes) {
  const dir = await mkdtemp(join(tmpdir(), 'embeddings-bench-scale-'));
  try {
    const weights = join(dir, 'model.safetensors');
    let start = performance.now();
    await writeBf16Checkpoint(weights, { rows: shape.rows, width: shape.width, dtype });
    const generate = performance.now() - start;
    const tokenizer = bigTokenizerJson(shape.tokenizerBytes);
    const tokenizerBytes = new TextEncoder().encode(tokenizer.text);
    start = performance.now();
    const model = await loadModel({
      weights,
      config: { vocab_size: shape.rows, hidden_size: shape.width, max_position_embeddings: 32768 },
      tokenizer: tokenizerBytes,
    });
    const load = performance.now() - start;
    const memory = model.memoryUsage();
    const nearest = time(() => model.nearest(12345, 10), 7);
    const text = 'Once upon a time, there was a little girl named Lily. She loved to play outside in the park.';
    const trace = time(() => model.trace(text), 21);
    const tokens = model.trace(text).tokens.length;
    results.push({
      shape: `${shape.label}: ${shape.rows.toLocaleString('en-US')} × ${shape.width.toLocaleString('en-US')} ${dtype}`,
      file: mib(shape.rows * shape.width * (dtype === 'F32' ? 4 : 2)),
      dtype: model.wte.dtype ?? 'float32',
      generate: `${(generate / 1000).toFixed(1)} s`,
      load: `${(load / 1000).toFixed(2)} s`,
      tables: mib(memory.tables),
      nearest: `${nearest.toFixed(0)} ms (${tokenizer.ids.toLocaleString('en-US')} rows with a token)`,
      trace: `${trace.toFixed(2)} ms (${tokens} tokens)`,
      rss: mib(process.memoryUsage().rss),
    });
    model.dispose();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const columns = ['shape', 'file', 'dtype', 'generate', 'load', 'tables', 'nearest', 'trace', 'rss'];
console.log(`Backend ${backend}; Node ${process.version}; ${os.cpus()[0]?.model} (${os.cpus().length} threads)`);
if (markdown) {
  console.log(`| ${columns.join(' | ')} |\n|${columns.map(() => '---').join('|')}|`);
  for (const r of results) console.log(`| ${columns.map((c) => r[c]).join(' | ')} |`);
} else {
  for (const r of results) console.log(columns.map((c) => `${c}: ${r[c]}`).join('\n  '));
}
