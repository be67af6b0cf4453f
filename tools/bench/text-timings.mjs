#!/usr/bin/env node
// How long the text calls take on a megabyte of text of several kinds: the
// refusal trace() gives for text longer than the context, trace() with
// { truncate: true }, and encode(). For docs/robustness.md; not a test.
//   node tools/bench/text-timings.mjs                 the test fixture's small tokenizer
//   node tools/bench/text-timings.mjs model/          a model folder (model.safetensors, tokenizer.json)
import { join } from 'node:path';

import { loadModel } from '../../web/index.js';
import { makeModel } from '../../tests/js/helpers/fixtures.js';

const folder = process.argv[2];
const model = folder
  ? await loadModel({ weights: join(folder, 'model.safetensors'), tokenizer: join(folder, 'tokenizer.json') })
  : await (async () => {
    const fixture = makeModel();
    return loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
  })();

const megabyte = (unit) => unit.repeat(Math.ceil(2 ** 20 / new TextEncoder().encode(unit).length));
const texts = {
  'English words': megabyte('Lily saw Max and a girl in the park. '),
  'one long word': megabyte('a'),
  spaces: megabyte(' '),
  CJK: megabyte('漢字かな'),
  emoji: megabyte('🙂'),
  '<|endoftext|>': megabyte('<|endoftext|>'),
};

function time(call, repeats = 5) {
  call();  // warm-up
  const times = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(repeats / 2)];
}

console.log(`${model.vocabSize} tokens, context ${model.context}; median of 5, in ms`);
console.log('text (1 MiB of UTF-8)'.padEnd(24), 'trace refuses'.padStart(14), 'trace truncate'.padStart(15), 'encode'.padStart(8), 'tokens'.padStart(9));
for (const [name, text] of Object.entries(texts)) {
  const refuse = time(() => {
    try {
      model.trace(text);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  });
  const truncate = time(() => model.trace(text, { truncate: true }));
  let count = 0;
  const encode = time(() => { count = model.encode(text).length; });
  console.log(name.padEnd(24), refuse.toFixed(1).padStart(14), truncate.toFixed(1).padStart(15), encode.toFixed(1).padStart(8), String(count).padStart(9));
}
model.dispose();
