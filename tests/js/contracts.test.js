// Contracts a curious user tests: a padded token table, text that starts
// with a byte order mark, a model loaded at the edge of memory, a hostile
// config.json, views kept past dispose(), and file names and keys made to
// spoil the messages that quote them. docs/robustness.md lists each promise.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import { observeInstances } from '../../web/src/runtime.js';
import { makeModel, writeSafetensors } from './helpers/fixtures.js';

let onInstance = () => {};
observeInstances((module, role) => onInstance(module, role));
const { loadModel, rowView } = await import('../../web/index.js');

const utf8 = new TextEncoder();

describe('a token table with rows that have no token', () => {
  test('nearest never lists a padded row (nanoGPT and llm.c pad GPT-2 to 50,304)', async () => {
    const fixture = makeModel({ extraRows: 40 });
    const model = await loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
    try {
      const tokens = model.vocabulary().length;
      assert.equal(model.vocabSize, tokens + 40);
      for (const query of [3, tokens + 5, rowView(model.wte, tokens + 39)]) {
        const found = model.nearest(query, model.vocabSize);
        assert.ok(found.length >= tokens - 1, `${found.length} results`);
        for (const { id, text } of found) {
          assert.ok(id < tokens, `padded row ${id} listed`);
          assert.equal(text, model.tokenText(id));
          assert.notEqual(model.decode([id]), undefined);
        }
      }
      assert.equal(model.nearest(3, 5).length, 5);
    } finally {
      model.dispose();
    }
  });

  test('nor an id that the tokenizer leaves unused (a gap in its numbering)', async () => {
    const fixture = makeModel({ extraRows: 8 });
    // Move the special token 6 ids up: ids in between have no token.
    const json = JSON.parse(fixture.tokenizerJson);
    const special = json.added_tokens[0];
    delete json.model.vocab[special.content];
    special.id += 6;
    json.model.vocab[special.content] = special.id;
    const model = await loadModel({ weights: fixture.weights, tokenizer: utf8.encode(JSON.stringify(json)) });
    try {
      const unused = new Set(model.vocabulary().flatMap((text, id) => (text === '' ? [id] : [])));
      assert.equal(unused.size, 6);
      for (const k of [1, 10, model.vocabSize]) {
        const found = model.nearest(2, k);
        assert.equal(found.length, Math.min(k, model.vocabulary().length - unused.size - 1));
        for (const { id } of found) assert.ok(!unused.has(id), `unused id ${id} listed`);
      }
    } finally {
      model.dispose();
    }
  });
});

test('decode(encode(s)) === s for a text that starts with U+FEFF and is longer than 16 bytes', async () => {
  const fixture = makeModel();
  const model = await loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
  try {
    for (const text of ['\uFEFFLily saw Max and the girl saw three boys', '\uFEFF\uFEFFshort', '\uFEFF', `\uFEFF${'x'.repeat(100000)}`]) {
      assert.equal(model.decode(model.encode(text)), text);
    }
  } finally {
    model.dispose();
  }
});

describe('memory', () => {
  /** Takes all of an instance's memory but `free` contiguous MiB. */
  function leave(module, free) {
    while (module._malloc(2 ** 28) !== 0);
    const blocks = [];
    for (let p; (p = module._malloc(2 ** 20)) !== 0;) blocks.push(p);
    for (const p of blocks.slice(-free)) module._free(p);
  }

  test('at the edge of memory, a model with big metadata loads or is refused by name, never aborts', async () => {
    // 124 MiB left and 1.25 MiB of metadata (its parse is budgeted at 120
    // MiB). Coarse steps of the token table (4,096 rows, about 4 MiB) find
    // where the model stops fitting; fine steps (256 rows) then cross that
    // edge, where the tables and workspace fit but what is made after them
    // (the metadata's copy and JSON text, over 2.5 MiB) would not unless the
    // budget counted it.
    const width = 256, context = 16, free = 124, coarse = 4096, fine = 256;
    const notes = 'n\u00e9 '.repeat(5 * 2 ** 16);
    const largest = 147456;
    const wte = new Float32Array(largest * width);
    for (let i = 0; i < wte.length; i += 97) wte[i] = 1 + (i % 13);
    const wpe = new Float32Array(context * width).fill(0.5);
    const outcomes = new Map();
    const attempt = async (vocab) => {
      const weights = writeSafetensors([
        { name: 'wte.weight', shape: [vocab, width], data: wte.subarray(0, vocab * width) },
        { name: 'wpe.weight', shape: [context, width], data: wpe },
      ], { format: 'pt', notes });
      onInstance = (module, role) => { if (role === 'tables') leave(module, free); };
      try {
        const model = await loadModel({ weights });
        assert.equal(model.metadata.notes, notes);
        assert.equal(model.nearest(7, 3).length, 3);
        model.dispose();
        outcomes.set(vocab, true);
      } catch (error) {
        assert.equal(error.constructor, Error, `${vocab} rows: ${error.constructor.name}: ${error.message}`);
        assert.match(error.message, /^weights \(Uint8Array\): (the model needs \d+\.\d MiB of memory|out of memory)/);
        outcomes.set(vocab, false);
      } finally {
        onInstance = () => {};
      }
      return outcomes.get(vocab);
    };
    // `low` rows load and `low + coarse` do not.
    let low = 106496;
    if (await attempt(low)) {
      while (await attempt(low + coarse)) {
        low += coarse;
        assert.ok(low + coarse <= largest, `still loading at ${low} rows`);
      }
    } else {
      do {
        low -= coarse;
        assert.ok(low > 0, 'nothing loads');
      } while (!(await attempt(low)));
    }
    for (let vocab = low + fine; vocab < low + coarse; vocab += fine) await attempt(vocab);
    const results = [...outcomes.values()];
    assert.ok(results.includes(true) && results.includes(false), [...outcomes].join(' '));
  });

  test('config.json is bounded: a large one is refused by name before it is read', async () => {
    const fixture = makeModel();
    const huge = utf8.encode(JSON.stringify({ ...fixture.config, padding: 'x'.repeat(5 * 2 ** 20) }));
    await assert.rejects(loadModel({ weights: fixture.weights, config: huge }), (error) => {
      assert.equal(error.message, 'config (Uint8Array): the file is 5.0 MiB; a model configuration may hold at most 4.0 MiB (GPT-2\'s has under a kilobyte)');
      return true;
    });
    const many = utf8.encode(JSON.stringify({ ...fixture.config, unknown: new Array(300000).fill(0) }));
    await assert.rejects(loadModel({ weights: fixture.weights, config: many }), (error) => {
      assert.match(error.message, /^config \(Uint8Array\): not valid JSON: more than 65536 values at byte \d+$/);
      return true;
    });
    // A real configuration with a label map of a thousand classes loads.
    const id2label = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [String(i), `class ${i}`]));
    const model = await loadModel({ weights: fixture.weights, config: { ...fixture.config, id2label } });
    assert.equal(model.config.layers, fixture.config.n_layer);
    model.dispose();
  });
});

test('a view kept past dispose() holds the whole instance; a copy holds only its numbers', async () => {
  const fixture = makeModel();
  const model = await loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
  const view = rowView(model.wte, 4);
  const copy = model.wte.row(4);
  const memory = model.memoryUsage().tables;
  model.dispose();
  // The view is still readable (as documented) and still a window on the
  // instance's memory, which it keeps alive; the copy is its own.
  assert.equal(view.buffer.byteLength, memory);
  assert.equal(copy.buffer.byteLength, fixture.width * 4);
  assert.deepEqual(Array.from(copy), Array.from(fixture.wte.subarray(4 * fixture.width, 5 * fixture.width)));
  assert.deepEqual(Array.from(view), Array.from(copy));
});

describe('messages stay short and read as what they say', () => {
  const overrides = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

  test('a megabyte-long tensor name with a direction override', async () => {
    const name = `\u202Egnp.${'a'.repeat(2 ** 20)}\n`;
    const weights = writeSafetensors([
      { name: 'wte.weight', shape: [2, 2], data: new Float32Array(4) },
      { name, dtype: 'Q4', shape: [1], data: new Uint8Array(4) },
    ]);
    await assert.rejects(loadModel({ weights }), (error) => {
      assert.ok(error.message.length < 200, `${error.message.length} characters`);
      assert.ok(!overrides.test(error.message), JSON.stringify(error.message.slice(0, 200)));
      assert.match(error.message, /^weights \(Uint8Array\): tensor "\\u202egnp\.a+\.\.\." has unknown dtype "Q4"$/);
      return true;
    });
  });

  test('a megabyte-long duplicate key in the header, metadata and tokenizer.json', async () => {
    const fixture = makeModel();
    const key = `\u2066${'k'.repeat(2 ** 20)}`;
    const header = `{"${key}":1,"${key}":2}`;
    const padded = header + ' '.repeat((8 - (utf8.encode(header).length % 8)) % 8);
    const headerBytes = utf8.encode(padded);
    const weights = new Uint8Array(8 + headerBytes.length);
    new DataView(weights.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
    weights.set(headerBytes, 8);
    const json = fixture.tokenizerJson.replace('"version":"1.0"', `"version":"1.0","${key}":1,"${key}":2`);
    for (const files of [{ weights }, { weights: fixture.weights, tokenizer: utf8.encode(json) }]) {
      await assert.rejects(loadModel(files), (error) => {
        assert.ok(error.message.length < 200, `${error.message.length} characters`);
        assert.ok(!overrides.test(error.message), JSON.stringify(error.message.slice(0, 200)));
        assert.match(error.message, /duplicate key "\\u2066k+\.\.\." at byte \d+$/);
        return true;
      });
    }
  });
});
