// The public API misused, fed awkward text and starved of memory: every
// failure is one clear error (TypeError for a wrong kind of value,
// RangeError for a value out of range, naming the argument and what is
// valid), and the model keeps working afterwards. api.test.js and
// loading.test.js have the first cases; this file has the rest.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from '@huggingface/tokenizers';

import { instantiate, observeInstances } from '../../web/src/runtime.js';
import { makeModel } from './helpers/fixtures.js';
import { bigTokenizerJson, modelForTokenizer } from './helpers/big-tokenizer.js';

// Registered before web/index.js creates any instance; a test may set
// `onInstance` to act on the next instance of a role as it is created.
let onInstance = () => {};
observeInstances((module, role) => onInstance(module, role));
const { loadModel, rowView, dot, cosine, cosineMatrix, Matrix } = await import('../../web/index.js');

const fixture = makeModel();
const { vocabSize, width, context } = fixture;
let model;
let oracle;
let baseline;  // C++ heap of a fresh instance

before(async () => {
  baseline = (await instantiate()).heapAllocatedBytes();
  model = await loadModel({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer });
  oracle = new Tokenizer(JSON.parse(fixture.tokenizerJson), {});
});
after(() => model.dispose());

/** A normal call of each kind, with known answers: the model still works. */
function stillWorks(m = model) {
  assert.deepEqual(Array.from(rowView(m.wte, 4)), Array.from(fixture.wte.subarray(4 * width, 5 * width)));
  assert.deepEqual(m.trace('Lily saw Max').tokens.map((t) => t.text), ['Lily', '·saw', '·Max']);
  assert.equal(m.nearest(3, 2).length, 2);
  assert.ok(Math.abs(cosine(rowView(m.wte, 2), Array.from(rowView(m.wte, 2))) - 1) < 1e-6);
  assert.equal(dot([1, 2, 3], [4, 0, -1]), 1);
}

function expectThrows(call, type, message) {
  assert.throws(call, (error) => {
    assert.equal(error.constructor, type, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, message);
    return true;
  });
  stillWorks();
}

describe('wrong arguments', () => {
  const cases = () => [
    // [what, call, error type, message]
    ['rowView past the last position', () => rowView(model.wpe, context), RangeError, new RegExp(`rowView: row ${context} does not exist; valid rows are 0 to ${context - 1}`)],
    ['rowView with a string index', () => rowView(model.wte, '2'), TypeError, /rowView: the row index must be a number, got the string "2"/],
    ['Matrix.at past the last column', () => model.wte.at(0, width), RangeError, new RegExp(`column ${width} does not exist; valid columns are 0 to ${width - 1}`)],
    ['Matrix.at with NaN', () => model.wte.at(NaN, 0), RangeError, /row NaN does not exist/],
    ['dot of null', () => dot(null, [1]), TypeError, /dot: a must be an array or typed array of numbers, got null/],
    ['dot of BigInt64Arrays', () => dot(new BigInt64Array(2), new BigInt64Array(2)), TypeError, /a must be an array or typed array of numbers, got a BigInt64Array/],
    ['dot of an array-like object', () => dot({ length: 1, 0: 1 }, [1]), TypeError, /got an object \(Object\)/],
    ['dot with a string inside', () => dot([1, '2'], [1, 2]), TypeError, /dot: a\[1\] is the string "2", not a number/],
    ['cosine of different lengths', () => cosine(rowView(model.wte, 1), [1, 2, 3]), RangeError, new RegExp(`cosine: the vectors have different lengths \\(${width} and 3\\)`)],
    ['cosine with one argument', () => cosine([1, 2]), TypeError, /cosine\(a, b\) needs two vectors, got 1/],
    ['nearest with k = 0', () => model.nearest(1, 0), RangeError, new RegExp(`nearest: k must be a whole number from 1 to ${vocabSize}, got 0`)],
    ['nearest with a negative k', () => model.nearest(1, -3), RangeError, /k must be a whole number from 1 to \d+, got -3/],
    ['nearest with k past the vocabulary', () => model.nearest(1, vocabSize + 1), RangeError, new RegExp(`from 1 to ${vocabSize}, got ${vocabSize + 1}`)],
    ['nearest with k = NaN', () => model.nearest(1, NaN), RangeError, /got NaN/],
    ['nearest with k = Infinity', () => model.nearest(1, Infinity), RangeError, /got Infinity/],
    ['nearest with a fractional k', () => model.nearest(1, 2.5), RangeError, /got 2\.5/],
    ['nearest with k as a string', () => model.nearest(1, '5'), TypeError, /nearest: k must be a number, got the string "5"/],
    ['nearest of token NaN', () => model.nearest(NaN), RangeError, new RegExp(`nearest: token id NaN does not exist; valid token ids are 0 to ${vocabSize - 1}`)],
    ['nearest of token -1', () => model.nearest(-1), RangeError, /token id -1 does not exist/],
    ['nearest of token Infinity', () => model.nearest(Infinity), RangeError, /token id Infinity does not exist/],
    ['nearest of a vector with NaN', () => model.nearest(Array.from({ length: width }, (_, i) => (i === 3 ? NaN : 1))), RangeError, /nearest: query\[3\] is NaN; a query vector must hold finite numbers/],
    ['nearest of a vector with Infinity', () => model.nearest(new Float64Array(width).fill(Infinity)), RangeError, /query\[0\] is Infinity/],
    ['nearest of a vector of the wrong length', () => model.nearest(new Float32Array(width + 1)), RangeError, new RegExp(`a query vector needs ${width} numbers, got ${width + 1}`)],
    ['nearest of a vector with a string', () => model.nearest(Array.from({ length: width }, (_, i) => (i ? 1 : 'x'))), TypeError, /query\[0\] is the string "x", not a number/],
    ['nearest of null', () => model.nearest(null), TypeError, /the query must be a token id, a token's text or a vector, got null/],
    ['nearest of a BigInt', () => model.nearest(3n), TypeError, /got bigint 3/],
    ['nearest of a DataView', () => model.nearest(new DataView(new ArrayBuffer(4 * width))), TypeError, /got a DataView/],
    ['nearest of text that is not a token', () => model.nearest('·zebra'), RangeError, /tokenId: "·zebra" is not a single token/],
    ['trace of null', () => model.trace(null), TypeError, /trace: expected a string, got null/],
    ['trace of a number', () => model.trace(42), TypeError, /trace: expected a string, got number 42/],
    ['trace with null options', () => model.trace('Lily', null), TypeError, /trace: options must be an object such as \{ truncate: true \}, got null/],
    ['trace with a string for truncate', () => model.trace('Lily', { truncate: 'yes' }), TypeError, /options\.truncate must be true or false, got the string "yes"/],
    ['encode of undefined', () => model.encode(undefined), TypeError, /encode: expected a string, got undefined/],
    ['encode of a String object', () => model.encode(new String('Lily')), TypeError, /encode: expected a string, got an object \(String\)/],
    ['tokenize of an array', () => model.tokenize(['Lily']), TypeError, /tokenize: expected a string/],
    ['decode of a fractional id', () => model.decode([1.5]), RangeError, new RegExp(`decode: token id 1\\.5 does not exist; valid token ids are 0 to ${vocabSize - 1}`)],
    ['decode of NaN', () => model.decode([0, NaN]), RangeError, /token id NaN does not exist/],
    ['decode of -1', () => model.decode([-1]), RangeError, /token id -1 does not exist/],
    ['decode of an id past the vocabulary', () => model.decode(Int32Array.of(vocabSize)), RangeError, new RegExp(`token id ${vocabSize} does not exist`)],
    ['decode of a string id', () => model.decode(['3']), TypeError, /decode: the token id index must be a number, got the string "3"/],
    ['decode of a string', () => model.decode('abc'), TypeError, /decode: expected an array of token ids, got the string "abc"/],
    ['tokenText of Infinity', () => model.tokenText(Infinity), RangeError, /tokenText: token id Infinity does not exist/],
    ['tokenId of null', () => model.tokenId(null), TypeError, /tokenId: expected a string, got null/],
    ['tokenId of a long text', () => model.tokenId('girl '.repeat(10000)), RangeError, /tokenId: a text of 50000 characters is not a single token \(the longest token has \d+ bytes\)/],
    ['cosineMatrix of an array', () => cosineMatrix([[1, 2], [3, 4]]), TypeError, /cosineMatrix: expected a table such as model\.wpe, got an array of length 2/],
    ['cosineMatrix of too many rows', () => cosineMatrix(new Matrix(new Float32Array(20000), 20000, 1)), RangeError, /a map of 20000 × 20000 numbers is too large \(at most 2048 rows\)/],
    ['a Matrix whose data does not fit its shape', () => new Matrix(new Float32Array(5), 2, 3), RangeError, /Matrix: 2 × 3 needs 6 numbers, data has 5/],
    ['a Matrix with negative rows', () => new Matrix(new Float32Array(0), -1, 0), RangeError, /rows and cols must be non-negative integers/],
  ];
  for (const [name, call, type, message] of cases()) {
    test(name, () => expectThrows(call, type, message));
  }

  test('NaN and infinities in dot and cosine give NaN, as documented, not an error', () => {
    assert.ok(Number.isNaN(dot([NaN, 1], [1, 1])));
    assert.ok(Number.isNaN(cosine([Infinity, 1], [1, 1])));
    assert.equal(dot([Infinity, 0], [1, 0]), Infinity);
    stillWorks();
  });

  test('loadModel with inputs of the wrong kind', async () => {
    for (const [files, message] of [
      [{ weights: fixture.weights, tokenizer: 42 }, /tokenizer must be a URL, a file path, an ArrayBuffer, a typed array, a Blob or a Response; got number 42/],
      [{ weights: fixture.weights, config: 'no such file' }, /^no such file: cannot open the file \(ENOENT\)$/],
      [{ weights: '' }, /weights: the file name is an empty string/],
      [{ weights: null }, /weights must be a URL, a file path, an ArrayBuffer, a typed array, a Blob or a Response; got null/],
      [[], /the weights file \(a \.safetensors\) is required/],
    ]) {
      await assert.rejects(loadModel(files), (error) => error instanceof Error && message.test(error.message));
      stillWorks();
    }
  });
});

describe('a disposed model', () => {
  test('every call says so, and other models keep working', async () => {
    const m = await loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
    const { wte } = m;
    const view = rowView(wte, 5);
    const copy = Array.from(view);
    m.dispose();
    const calls = {
      wte: () => m.wte,
      wpe: () => m.wpe,
      encode: () => m.encode('Lily'),
      decode: () => m.decode([1]),
      tokenize: () => m.tokenize('Lily'),
      tokenText: () => m.tokenText(1),
      tokenId: () => m.tokenId('Lily'),
      vocabulary: () => m.vocabulary(),
      trace: () => m.trace('Lily'),
      nearest: () => m.nearest(1),
      'nearest of a vector': () => m.nearest(copy),
      'nearest of a view': () => m.nearest(view),
      cosineMatrix: () => m.cosineMatrix(wte),
      memoryUsage: () => m.memoryUsage(),
      'rowView of its table': () => rowView(wte, 0),
      'wte.data': () => wte.data,
      'dot of its rows': () => dot(view, view),
      'cosine of its rows': () => cosine(view, view),
    };
    for (const [name, call] of Object.entries(calls)) {
      assert.throws(call, /This model has been disposed; load it again with loadModel\(\)/, name);
      stillWorks();
    }
    // Views taken before stay readable; copies work anywhere.
    assert.deepEqual(Array.from(view), copy);
    assert.ok(Math.abs(cosine(copy, rowView(model.wte, 5)) - 1) < 1e-6);
    // dispose(), delete() and Symbol.dispose may be called again.
    m.dispose();
    m.delete();
    m[Symbol.dispose]();
  });
});

describe('text', () => {
  const texts = {
    empty: '',
    'only spaces': '     ',
    'spaces and newlines': ' \n\n  \t \r\n ',
    emoji: 'Lily 🙂👍🏽 saw 🐈‍⬛',
    CJK: '漢字かなカナ한국어 Lily',
    'control characters': '\u0000\u0007\u001b[31mred\u001b[0m\u007f\u0085\u2028',
    'combining marks and RTL': 'e\u0301 שלום مرحبا',
    '<|endoftext|> typed by a reader': 'Lily<|endoftext|> saw<|endoftext|>',
  };
  for (const [name, text] of Object.entries(texts)) {
    test(`${name}: ids as Hugging Face tokenizers, text back unchanged, a trace`, () => {
      const ids = model.encode(text);
      assert.deepEqual(ids, oracle.encode(text).ids);
      assert.equal(model.decode(ids), text);
      assert.deepEqual(model.tokenize(text).map((t) => t.id), ids);
      if (ids.length <= context) {
        const trace = model.trace(text);
        assert.equal(trace.embeddings.rows, ids.length);
        assert.equal(trace.embeddings.cols, width);
      }
      stillWorks();
    });
  }

  test('<|endoftext|> in a text is the special token, as in Hugging Face tokenizers', () => {
    const eot = model.tokenId('<|endoftext|>');
    assert.equal(eot, vocabSize - 1);
    assert.deepEqual(model.encode('<|endoftext|>'), [eot]);
    assert.deepEqual(model.tokenize('a<|endoftext|>b').map((t) => t.text), ['a', '<|endoftext|>', 'b']);
    // Only the exact spelling: a near miss is ordinary text.
    assert.ok(!model.encode('<|endoftext|').includes(eot));
    assert.ok(!model.encode('<|EndOfText|>').includes(eot));
  });

  test('lone surrogates become U+FFFD, as Hugging Face tokenizers make them', () => {
    for (const text of ['a\uD800b', '\uDC00', 'Lily\uD83D']) {
      const ids = model.encode(text);
      assert.deepEqual(ids, oracle.encode(text).ids);
      assert.deepEqual(ids, model.encode(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD')));
      assert.equal(model.decode(ids), text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
    }
  });

  test('ids that cut a character in two decode to U+FFFD', () => {
    const ids = model.encode('🙂');
    assert.equal(ids.length, 4);  // one token per byte in this small vocabulary
    assert.equal(model.decode(ids.slice(0, 2)), '\uFFFD');
    assert.equal(model.decode([...ids.slice(0, 3), ...model.encode('x')]), '\uFFFDx');
  });

  test('a megabyte of text: trace says it is too long, without encoding all of it', () => {
    const text = 'Lily saw Max and a girl. '.repeat(42000);
    assert.ok(text.length > 1e6);
    expectThrows(() => model.trace(text), RangeError,
      new RegExp(`^trace: the text is more than 4096 tokens long, but the model reads at most ${context}\\. Shorten it, or pass \\{ truncate: true \\} to keep the first ${context}\\.$`));
    const ids = model.encode(text);
    const cut = model.trace(text, { truncate: true });
    assert.deepEqual(cut.tokens.map((t) => t.id), ids.slice(0, context));
    assert.equal(cut.truncated, ids.length - context);
    // Just over the context: the exact count.
    const over = ' girl'.repeat(context + 1);
    expectThrows(() => model.trace(over), RangeError, new RegExp(`the text is ${context + 1} tokens long`));
    // One long word: its length alone proves it is too long.
    expectThrows(() => model.trace('a'.repeat(1e6)), RangeError, /more than 4096 tokens long/);
  });

  test('text over 8 MiB of UTF-8 is refused before it reaches the tokenizer', () => {
    expectThrows(() => model.encode('a'.repeat(9 * 2 ** 20)), RangeError,
      /^encode: the text is 9437184 characters long; at most 8388608 bytes of UTF-8 \(8 MiB\) can be encoded at once$/);
    // Fewer characters than the limit but more bytes (three per character).
    expectThrows(() => model.trace('漢'.repeat(3 * 2 ** 20)), RangeError, /^trace: the text is 9437184 bytes of UTF-8 long/);
    expectThrows(() => model.tokenize('a'.repeat(9 * 2 ** 20)), RangeError, /^tokenize: the text is/);
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
