// A long session of mixed calls, as a reader clicking through the chapter
// makes them: after warm-up neither WebAssembly memory nor the C++ heap of
// any instance grows, traces and cosine maps hold no WebAssembly memory,
// every view handed out at the start still reads the right numbers, and
// dispose() gives everything back.
//
// 4,000 calls by default (about a second); the full run:
//   LONG_SESSION=100000 node --expose-gc --test --test-reporter=spec tests/js/robustness/long-session.test.js
// prints its figures as test diagnostics. LONG_SESSION_SHAPE=gpt2 gives the
// model GPT-2's table sizes (50257 × 768, 1024 positions; random numbers).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { observeInstances, instantiate } from '../../../web/src/runtime.js';
import { makeModel, makeTokenizerJson, uniformRandom } from '../helpers/fixtures.js';
import * as ref from '../helpers/reference.js';

const created = [];
observeInstances((module, role) => created.push({ module, role }));
const { loadModel, rowView, dot, cosine, cosineMatrix } = await import('../../../web/index.js');

const calls = Number(process.env.LONG_SESSION ?? 4000);
const words = [' girl', ' boy', 'Lily', ' Lily', ' saw', ' Max', 'Max', ' three', ' 3', ' the', ' park', ' ran'];
const gpt2 = process.env.LONG_SESSION_SHAPE === 'gpt2';
const fixture = gpt2
  ? makeModel({ words, width: 768, context: 1024, seed: 7, extraRows: 50257 - Object.keys(JSON.parse(makeTokenizerJson(words)).model.vocab).length })
  : makeModel({ words, width: 64, context: 24, seed: 7 });
const { width, context } = fixture;

const heap = (module) => module.heapAllocatedBytes();
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

test(`${calls} mixed calls: memory stops growing, views stay right, dispose frees everything`, async (t) => {
  const fresh = heap(await instantiate());
  const kernels = created.find((c) => c.role === 'kernels').module;
  const before = created.length;
  const model = await loadModel({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer });
  const tables = created.slice(before).find((c) => c.role === 'tables').module;
  const tokenizer = created.slice(before).find((c) => c.role === 'tokenizer').module;
  const vocab = model.vocabSize;
  const tokens = model.vocabulary().length;  // the tokenizer's; wte may have more rows

  // Views handed out at the start, and what they must keep reading.
  const views = [];
  for (let i = 0; i < 8; i++) {
    const row = (i * 37) % vocab;
    views.push({ view: rowView(model.wte, row), expected: Array.from(fixture.wte.subarray(row * width, (row + 1) * width)) });
    views.push({ view: rowView(model.wpe, i), expected: Array.from(fixture.wpe.subarray(i * width, (i + 1) * width)) });
  }
  const whole = model.wte.data;

  const random = uniformRandom(12345);  // seeded, so a failure can be replayed
  const pick = (n) => Math.floor(random() * n);
  const sentence = (n) => Array.from({ length: n }, () => words[pick(words.length)]).join('');
  const held = [];  // Traces kept alive: they must hold no WebAssembly memory.
  const maps = [];  // Cosine maps, likewise.
  const [heldTraces, heldMaps] = gpt2 ? [40, 10] : [1000, 100];  // a 1024-token GPT-2 trace is 9 MiB
  const names = ['trace', 'trace', 'nearest', 'nearest', 'rowView', 'cosine+dot', 'cosine+dot', 'encode+decode',
    'cosineMatrix or misuse', 'tokenize'];
  let counts = {};
  const step = () => {
    const kind = pick(10);
    counts[names[kind]] = (counts[names[kind]] ?? 0) + 1;
    switch (kind) {
      case 0: case 1: {  // trace of a sentence, sometimes too long
        const n = 1 + pick(context + 4);
        const text = sentence(n);
        if (n > context && pick(2)) {
          assert.throws(() => model.trace(text), RangeError);
        } else {
          const trace = model.trace(text, { truncate: true });
          const ids = trace.tokens.map((token) => token.id);
          const row = pick(ids.length);
          assert.equal(trace.embeddings.at(row, 5), Math.fround(fixture.wte[ids[row] * width + 5] + fixture.wpe[row * width + 5]));
          if (held.length < heldTraces) held.push(trace); else held[pick(held.length)] = trace;
        }
        break;
      }
      case 2: case 3: {  // nearest by id, by text, by vector
        const k = 1 + pick(20);
        const which = pick(3);
        const query = which === 0 ? pick(vocab) : which === 1 ? model.tokenText(pick(tokens)) : Array.from(rowView(model.wpe, pick(context)));
        const found = model.nearest(query, k);
        assert.equal(found.length, which === 2 ? k : Math.min(k, vocab - 1));
        break;
      }
      case 4: {  // rowView and a number
        const row = pick(vocab);
        assert.equal(rowView(model.wte, row)[row % width], fixture.wte[row * width + (row % width)]);
        break;
      }
      case 5: case 6: {  // cosine and dot: two views, a view and a copy, trace rows
        const a = rowView(model.wte, pick(vocab)), b = rowView(model.wte, pick(vocab));
        assert.ok(Math.abs(cosine(a, b) - ref.cosine(a, b)) < 1e-5);
        assert.ok(Math.abs(dot(Array.from(a), b) - ref.dot(a, b)) <= ref.dotTolerance(a, b));
        if (held.length) {
          const trace = held[pick(held.length)];
          assert.ok(Number.isFinite(cosine(rowView(trace.embeddings, 0), b)));
        }
        break;
      }
      case 7: {  // text back and forth
        const text = sentence(1 + pick(6));
        assert.equal(model.decode(model.encode(text)), text);
        break;
      }
      case 8: {  // a cosine map now and then; a misuse now and then
        if (pick(20) === 0) {
          const map = pick(2) ? model.cosineMatrix(model.wpe) : cosineMatrix(held.length ? held[0].embeddings : model.wpe);
          assert.ok(Math.abs(map.at(0, 0) - 1) < 1e-5);
          if (maps.length < heldMaps) maps.push(map); else maps[pick(maps.length)] = map;
        } else {
          assert.throws(() => rowView(model.wte, vocab + pick(5)), RangeError);
          assert.throws(() => model.nearest(1, 0), RangeError);
        }
        break;
      }
      default: {  // tokenize
        assert.ok(model.tokenize(sentence(3)).length >= 3);
      }
    }
  };

  // Warm-up: every kind of call, so caches and the tokenizer's buffers settle.
  // The shared kernel instance (vectors of no model) may grow, by design, to
  // the largest cosine map asked of it: ask for the largest first.
  for (let i = 0; i < 500; i++) step();
  cosineMatrix(model.trace(sentence(context), { truncate: true }).embeddings);
  counts = {};
  const memoryBefore = model.memoryUsage();
  const kernelMemoryBefore = kernels.HEAPU8.length;
  const heapsBefore = { tables: heap(tables), tokenizer: heap(tokenizer), kernels: heap(kernels) };
  global.gc?.();
  const jsBefore = process.memoryUsage().heapUsed;

  const started = performance.now();
  for (let i = 0; i < calls; i++) step();
  const elapsed = performance.now() - started;

  global.gc?.();
  const jsAfter = process.memoryUsage().heapUsed;
  const memoryAfter = model.memoryUsage();
  const heapsAfter = { tables: heap(tables), tokenizer: heap(tokenizer), kernels: heap(kernels) };
  t.diagnostic(`${calls} calls in ${(elapsed / 1000).toFixed(2)} s (${Math.round(calls / (elapsed / 1000))} calls/s); kinds ${JSON.stringify(counts)}`);
  t.diagnostic(`WebAssembly memory before/after: tables ${mib(memoryBefore.tables)} / ${mib(memoryAfter.tables)}, ` +
    `tokenizer ${mib(memoryBefore.tokenizer)} / ${mib(memoryAfter.tokenizer)}, kernels ${mib(kernelMemoryBefore)} / ${mib(kernels.HEAPU8.length)}`);
  t.diagnostic(`C++ heap in use before/after: ${JSON.stringify(heapsBefore)} / ${JSON.stringify(heapsAfter)}`);
  t.diagnostic(`JS heap before/after${global.gc ? ' (after gc)' : ''}: ${mib(jsBefore)} / ${mib(jsAfter)}; ${held.length} traces and ${maps.length} cosine maps held`);

  assert.deepEqual(memoryAfter, memoryBefore, 'WebAssembly memory grew');
  assert.equal(kernels.HEAPU8.length, kernelMemoryBefore, 'the shared kernel instance grew');
  assert.deepEqual(heapsAfter, heapsBefore, 'the C++ heap of an instance grew: something was not freed');
  for (const { view, expected } of views) assert.deepEqual(Array.from(view), expected);
  assert.equal(whole.buffer, rowView(model.wte, 0).buffer, 'the tables instance changed its buffer');
  assert.deepEqual(Array.from(whole.subarray(0, width)), Array.from(fixture.wte.subarray(0, width)));

  model.dispose();
  assert.ok(heap(tables) <= fresh + 64, `the tables instance still holds ${heap(tables)} bytes after dispose()`);
  assert.ok(heap(tokenizer) <= fresh + 64, `the tokenizer instance still holds ${heap(tokenizer)} bytes after dispose()`);
  t.diagnostic(`after dispose(): tables instance ${heap(tables)} bytes, tokenizer instance ${heap(tokenizer)} bytes (a fresh instance: ${fresh})`);
});
