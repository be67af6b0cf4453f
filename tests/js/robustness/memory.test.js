// Models that do not fit and instances starved of memory: a load is refused
// by name before it fetches or parses what could not fit, malloc failing in
// a load is an error and not an abort, a model at the edge of memory loads or
// is refused by name, config.json is bounded, and valid files larger than an
// instance's first megabyte load. A model loaded before keeps working.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import { instantiate, observeInstances } from '../../../web/src/runtime.js';
import { loadModel } from '../../../web/index.js';
import { makeModel, rawFile, writeSafetensors, headerEntry as entry } from '../helpers/fixtures.js';
import { bigTokenizerJson, modelForTokenizer } from '../helpers/big-tokenizer.js';
import { fixture, model, loadTheModel, stillWorks } from '../helpers/shared-model.js';

// A test may set `onInstance` to act on the next instance of a role as it
// is created. (Instances are not kept in a list: the tests below fill many
// instances' memory, which a list would keep alive.)
let onInstance = () => {};
observeInstances((module, role) => onInstance(module, role));

const utf8 = new TextEncoder();
let baseline;  // C++ heap of a fresh instance

before(async () => {
  baseline = (await instantiate()).heapAllocatedBytes();
  await loadTheModel();
});
after(() => model.dispose());

describe('models that do not fit in memory', () => {
  // The instances created while this block runs, and a model loaded before
  // it, which must keep working.
  const created = [];
  let survivor;
  before(async () => {
    survivor = await loadModel({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer });
    onInstance = (module, role) => created.push({ module, role });
  });
  after(() => {
    onInstance = () => {};
    survivor.dispose();
  });

  // A server that claims a 5 GiB file: the header is real, the rest is never
  // asked for, because the loader refuses before it fetches the tables (the
  // first request may run a little past the header: it reads ahead so a
  // small header needs no second round trip; those bytes come back as zeros).
  test('a header whose tables and workspace pass 4 GiB is refused before any table is fetched', async () => {
    const rows = 262144, width = 1024, bytes = rows * width * 4;  // two tables of 1 GiB
    const header = rawFile({ 'wte.weight': entry('F32', [rows, width], 0, bytes), 'wpe.weight': entry('F32', [rows, width], bytes, 2 * bytes) });
    const total = header.length + 2 * bytes;
    const requests = [];
    const server = createServer((request, response) => {
      const [, from, to] = /bytes=(\d+)-(\d+)/.exec(request.headers.range ?? '') ?? [];
      requests.push(`${from}-${to}`);
      const begin = Number(from), end = Math.min(Number(to), total - 1);
      if (request.headers.range === undefined || begin >= header.length || end - begin >= 1 << 20) {
        response.writeHead(500).end('the test server serves only the start of the file');
        return;
      }
      const body = new Uint8Array(end - begin + 1);
      body.set(header.subarray(begin, Math.min(end + 1, header.length)));
      response.writeHead(206, { 'Content-Range': `bytes ${begin}-${end}/${total}`, 'Content-Length': body.length });
      response.end(body);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}/huge.safetensors`;
    try {
      const before = created.length;
      await assert.rejects(loadModel({ weights: url }), (error) => {
        assert.match(error.message, new RegExp(`^${url.replace(/[.]/g, '\\.')}: the model needs 5\\d{3}\\.\\d MiB of memory \\(tables 20\\d\\d\\.\\d MiB, workspace 3\\d{3}\\.\\d MiB\\) but this WebAssembly instance can get at most \\d+\\.\\d MiB$`));
        return true;
      });
      assert.ok(requests.every((range) => Number(range.split('-')[0]) < header.length), `fetched ${requests}`);
      const tables = created.slice(before).find((c) => c.role === 'tables').module;
      assert.ok(tables.HEAPU8.length <= 2 ** 21, `memory grew to ${tables.HEAPU8.length}`);
    } finally {
      server.close();
    }
    assert.equal(survivor.trace('Lily').tokens.length, 1);
  });
});

describe('large files that are valid', () => {
  test('a tokenizer.json and a header larger than an instance\'s first megabyte load', async () => {
    // JSON allows any amount of whitespace, and safetensors pads its header with spaces.
    const tokenizer = new TextEncoder().encode(fixture.tokenizerJson + ' '.repeat(3 * 2 ** 20));
    const header = new DataView(fixture.weights.buffer, fixture.weights.byteOffset).getBigUint64(0, true);
    const padding = 2 * 2 ** 20;
    const weights = new Uint8Array(fixture.weights.length + padding);
    weights.set(fixture.weights.subarray(0, 8 + Number(header)));
    weights.fill(0x20, 8 + Number(header), 8 + Number(header) + padding);
    weights.set(fixture.weights.subarray(8 + Number(header)), 8 + Number(header) + padding);
    new DataView(weights.buffer).setBigUint64(0, header + BigInt(padding), true);
    const m = await loadModel({ weights, tokenizer });
    assert.deepEqual(Array.from(m.wte.data), Array.from(fixture.wte));
    assert.deepEqual(m.encode('Lily saw'), model.encode('Lily saw'));
    m.dispose();
  });
});

describe('out of memory', () => {
  /** Takes all of an instance's memory in 1 MiB blocks, then frees every other one. */
  function fragment(module) {
    const blocks = [];
    for (let p; (p = module._malloc(2 ** 20)) !== 0;) blocks.push(p);
    for (let i = 0; i < blocks.length; i += 2) module._free(blocks[i]);
    return blocks.filter((_, i) => i % 2 === 1);
  }

  test('tables that malloc cannot place: an error, and the instance lives on', async () => {
    // wte of 2 MiB: less than the free memory in all, more than any free block.
    const big = makeModel({ width: 128, extraRows: 4096 - 270 });
    let hogged;
    onInstance = (module, role) => {
      if (role === 'tables') hogged = { module, blocks: fragment(module) };
    };
    try {
      await assert.rejects(loadModel({ weights: big.weights, tokenizer: big.tokenizer }), (error) => {
        assert.match(error.message, /^weights \(Uint8Array\): out of memory: the tables need 2\.\d MiB and no more memory could be had for transformer\.wte\.weight$/);
        return true;
      });
    } finally {
      onInstance = () => {};
    }
    // Not aborted: the instance still runs code, and frees what it was given.
    const { module, blocks } = hogged;
    for (const p of blocks) module._free(p);
    assert.ok(module.heapAllocatedBytes() <= baseline + 4096, `${module.heapAllocatedBytes()} bytes still allocated`);
    const m = await loadModel({ weights: big.weights, tokenizer: big.tokenizer });
    assert.equal(m.vocabSize, big.vocabSize);
    m.dispose();
    stillWorks();
  });

  /** Takes all of an instance's memory but `free` contiguous MiB. */
  function leave(module, free) {
    for (const size of [2 ** 28, 2 ** 24]) while (module._malloc(size) !== 0);
    const blocks = [];
    for (let p; (p = module._malloc(2 ** 20)) !== 0;) blocks.push(p);
    for (const p of blocks.slice(-free)) module._free(p);
  }

  test('JSON files whose parse could outgrow the memory left are refused before parsing', async () => {
    // Both files are valid; whitespace pads them to a megabyte, which the
    // check counts at the worst case of a megabyte of "[0,0,0,…]".
    const pad = (text) => new TextEncoder().encode(text + ' '.repeat(2 ** 20));
    const header = new DataView(fixture.weights.buffer, fixture.weights.byteOffset).getBigUint64(0, true);
    const weights = new Uint8Array(fixture.weights.length + 2 ** 20);
    weights.set(fixture.weights.subarray(0, 8 + Number(header)));
    weights.fill(0x20, 8 + Number(header), 8 + Number(header) + 2 ** 20);
    weights.set(fixture.weights.subarray(8 + Number(header)), 8 + Number(header) + 2 ** 20);
    new DataView(weights.buffer).setBigUint64(0, header + 2n ** 20n, true);
    // tokenizer.json is not read as a tree: its loader counts the tables it
    // will build (a 3 MiB file of 60,000 tokens), not the file's whitespace.
    const big = bigTokenizerJson(3 * 2 ** 20);
    const bigTokenizer = modelForTokenizer(new TextEncoder().encode(big.text), big.ids);
    for (const [files, role, message] of [
      [{ weights }, 'tables', /^weights \(Uint8Array\): the header is 1\.0 MiB; reading it could take up to 96\.0 MiB of memory, more than this WebAssembly instance can get \(\d\.\d MiB\)$/],
      [bigTokenizer, 'tokenizer', new RegExp(`^tokenizer \\(Uint8Array\\): loading it needs about \\d\\.\\d MiB of memory \\(model\\.vocab ${big.ids} entries, model\\.merges ${big.ids - 257}, added_tokens 1\\), more than the (\\d+ bytes|\\d\\.\\d MiB) available$`)],
      [{ weights: fixture.weights, config: pad(JSON.stringify(fixture.config)) }, 'tables', /^config \(Uint8Array\): the file is 1\.0 MiB; reading it could take up to 96\.0 MiB/],
    ]) {
      onInstance = (module, created) => { if (created === role) leave(module, 4); };
      try {
        await assert.rejects(loadModel(files), (error) => {
          assert.match(error.message, message);
          return true;
        });
      } finally {
        onInstance = () => {};
      }
      stillWorks();
    }
    // The padded tokenizer.json loads in the same 4 MiB.
    onInstance = (module, created) => { if (created === 'tokenizer') leave(module, 4); };
    try {
      const m = await loadModel({ weights: fixture.weights, tokenizer: pad(fixture.tokenizerJson) });
      assert.deepEqual(m.encode('Lily saw'), model.encode('Lily saw'));
      m.dispose();
    } finally {
      onInstance = () => {};
    }
  });

  test('a tokenizer instance with no memory left: an error naming tokenizer.json', async () => {
    // All memory taken but one 8 KiB block: room for the tokenizer object
    // and the file's text, not for the tables the loader would build, which
    // it counts before building them.
    assert.ok(fixture.tokenizer.length > 1024);
    onInstance = (module, role) => {
      if (role !== 'tokenizer') return;
      const blocks = [];
      for (const size of [2 ** 20, 2 ** 16]) while (module._malloc(size) !== 0);
      for (let p; (p = module._malloc(8192)) !== 0;) blocks.push(p);
      while (module._malloc(64) !== 0);
      module._free(blocks[0]);
    };
    try {
      await assert.rejects(loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer }), (error) => {
        assert.match(error.message, /^tokenizer \(Uint8Array\): loading it needs about \d+ bytes of memory \(model\.vocab 285 entries, model\.merges 28, added_tokens 1\), more than the \d+ bytes available$/);
        return true;
      });
    } finally {
      onInstance = () => {};
    }
    stillWorks();
  });
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
