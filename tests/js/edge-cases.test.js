// Small cases at the edges of decode() and map(): an id array whose getter
// answers differently when read again, decode's out-of-memory message, and
// PCA of a table with a single column.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, Matrix } from '../../web/index.js';
import { makeModel } from './helpers/fixtures.js';
import { fixture, model, loadTheModel, stillWorks } from './helpers/shared-model.js';

before(loadTheModel);
after(() => model.dispose());

test('decode reads each id once: what is checked is what is decoded, and an error says "decode:" once', () => {
  const ids = model.encode('Lily saw Max');
  let reads = 0;
  // The second read of place 1 would be an id past the vocabulary.
  const fickle = new Proxy(ids, {
    get(target, key, receiver) {
      if (key === '1') return reads++ === 0 ? target[1] : 1e9;
      return Reflect.get(target, key, receiver);
    },
  });
  assert.equal(model.decode(fickle), 'Lily saw Max');
  assert.equal(reads, 1);
  const bad = new Proxy(ids, { get: (target, key, receiver) => (key === '2' ? -1 : Reflect.get(target, key, receiver)) });
  assert.throws(() => model.decode(bad), (error) => {
    assert.equal(error.constructor, RangeError);
    assert.match(error.message, /^decode: ids\[2\] is -1, and token id -1 does not exist; valid token ids are 0 to \d+$/);
    assert.ok(!error.message.includes('decode: decode:'), error.message);
    return true;
  });
  stillWorks();
});

// Issue 34: the bound was the ids times the longest token times 5, so one
// 4 KiB token in the vocabulary made decode(encode(s)) of 1.7 MiB fail
// ("could need 7816.3 MiB"). It is now counted from the ids' own tokens.
test('decode counts the memory it needs from the ids\' own tokens: what fits is decoded, what cannot is refused by name', async () => {
  // Tokens of 2, 4, ... 8,192 a's, each two of the one before.
  const long = makeModel({ extraRows: 13 });
  const json = JSON.parse(long.tokenizerJson);
  for (let piece = 'a'; piece.length < 8192; piece += piece) {
    json.model.merges.push(`${piece} ${piece}`);
    json.model.vocab[piece + piece] = Object.keys(json.model.vocab).length;
  }
  const longest = json.model.vocab['a'.repeat(8192)];
  const m = await loadModel({ weights: long.weights, tokenizer: new TextEncoder().encode(JSON.stringify(json)) });
  try {
    // 200,000 of the longest token are 1.5 GiB of text: more than an instance can have with its copy.
    const count = 200_000;
    assert.throws(() => m.decode(new Int32Array(count).fill(longest)), (error) => {
      assert.equal(error.constructor, RangeError);
      assert.match(error.message, new RegExp(`^decode: out of memory: the text of ${count} tokens needs \\d+\\.\\d MiB$`));
      return true;
    });
    // 200,000 one-letter tokens, and 1.7 MiB of text that is not a's: decoded (both were refused).
    assert.equal(m.decode(new Int32Array(count).fill(97)), 'a'.repeat(count));
    const text = 'Once upon a time. '.repeat(100_000);
    assert.equal(m.decode(m.encode(text)), text);
    assert.equal(m.decode([97, 98]), 'ab');
  } finally {
    m.dispose();
  }
});

test('PCA of a table of one column is a RangeError that says why and what does work', async () => {
  const table = new Matrix(Float32Array.from({ length: 20 }, (_, i) => i % 7), 20, 1, { name: 'one column' });
  await assert.rejects(model.map({ table, method: 'pca' }), (error) => {
    assert.equal(error.constructor, RangeError);
    assert.equal(error.message, "map: PCA maps a table onto its 2 main directions, so it needs at least 2 columns; " +
      "one column has 1 (UMAP, method 'umap', maps a single column too)");
    return true;
  });
  const line = await model.map({ table, method: 'umap', neighbours: 5 });
  assert.equal(line.rows, 20);
  stillWorks();
});
