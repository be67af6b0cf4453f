// Broken model files through loadModel, as a reader's page would meet them:
// safetensors, dtypes, config.json and tokenizer.json, each broken in the
// ways docs/robustness.md lists. Each gives one Error that names the file
// and the problem, nothing stays allocated in the WebAssembly instances the
// load created, and a model loaded before keeps working; the messages stay
// short and read as what they say, whatever names the files hold.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { instantiate, observeInstances } from '../../../web/src/runtime.js';
import { makeModel, rawFile, writeSafetensors, headerEntry as entry } from '../helpers/fixtures.js';

// Registered before web/index.js creates any instance.
const created = [];
observeInstances((module, role) => created.push({ module, role }));
const { loadModel, rowView, cosine } = await import('../../../web/index.js');

// Tables of a bit over 1 MiB, so that a half-loaded model would show in the heap.
const fixture = makeModel({ width: 64, context: 16, extraRows: 4000 });
const utf8 = new TextEncoder();
let dir;
let survivor;
let baseline;  // C++ heap of a fresh instance

const tokenizerWith = (change) => {
  const json = JSON.parse(fixture.tokenizerJson);
  change(json);
  return JSON.stringify(json);
};

/** IEEE half and bfloat16 bit patterns of a few exactly representable numbers. */
const halves = { 1: 0x3c00, '-2': 0xc000, 0.5: 0x3800, 65504: 0x7bff };
const bfloats = { 1: 0x3f80, '-5': 0xc0a0, 0.25: 0x3e80, 3: 0x4040 };
const u16 = (values) => new Uint8Array(Uint16Array.from(values).buffer);

before(async () => {
  baseline = (await instantiate()).heapAllocatedBytes();
  dir = await mkdtemp(join(tmpdir(), 'embeddings-broken-'));
  await writeFile(join(dir, 'model.safetensors'), fixture.weights);
  await writeFile(join(dir, 'tokenizer.json'), fixture.tokenizer);
  survivor = await loadModel({ weights: join(dir, 'model.safetensors'), config: fixture.config, tokenizer: join(dir, 'tokenizer.json') });
});
after(async () => {
  survivor.dispose();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Writes the files, loads them, and checks the one error: its type, that it
 * starts with the failing file's name, and what it says. Then checks that
 * the instances the load created hold nothing, and the survivor works.
 */
async function expectOneError(files, failing, message) {
  const paths = { weights: join(dir, 'model.safetensors'), tokenizer: join(dir, 'tokenizer.json') };
  for (const [role, content] of Object.entries(files)) {
    if (role === 'config' && typeof content === 'object' && !(content instanceof Uint8Array)) {
      paths.config = content;
      continue;
    }
    paths[role] = join(dir, `${role}-${Math.random().toString(36).slice(2)}`);
    await writeFile(paths[role], content);
  }
  const before = created.length;
  let caught;
  try {
    const model = await loadModel(paths);
    model.dispose();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof Error, 'loadModel must reject');
  assert.ok(!(caught instanceof AggregateError), 'one error, not several');
  const name = typeof paths[failing] === 'string' ? paths[failing] : `${failing} (object)`;
  assert.ok(caught.message.startsWith(`${name}: `), `"${caught.message}" should start with the file's name`);
  assert.match(caught.message, message);
  assert.ok(!caught.message.includes('\n'), 'one line');
  // Nothing half-loaded: every instance this load created is back to an empty heap.
  for (const { module, role } of created.slice(before)) {
    assert.ok(module.heapAllocatedBytes() <= baseline + 4096, `${role} instance still holds ${module.heapAllocatedBytes()} bytes`);
  }
  // The model loaded before is untouched and still works.
  assert.deepEqual(Array.from(rowView(survivor.wte, 7)), Array.from(fixture.wte.subarray(7 * 64, 8 * 64)));
  assert.ok(cosine(rowView(survivor.wte, 3), rowView(survivor.wte, 3)) > 0.9999);
  assert.equal(survivor.trace('Lily saw Max').tokens.length, 3);
  assert.equal(survivor.nearest(5, 3).length, 3);
  return caught;
}

const good = fixture.weights;
const headerLength = Number(new DataView(good.buffer, good.byteOffset).getBigUint64(0, true));
const f32 = (n) => new Uint8Array(new Float32Array(n).fill(0.5).buffer);
const twoTables = (wte, wpe, data) => rawFile({ 'wte.weight': wte, 'wpe.weight': wpe }, data);

describe('safetensors', () => {
  const cases = [
    ['truncated inside the length', () => good.subarray(0, 5), /the file is 5 bytes long, too short to hold the 8-byte header length/],
    ['empty', () => new Uint8Array(0), /the file is 0 bytes long/],
    ['truncated inside the header', () => good.subarray(0, 8 + 20), /the header length is \d+ bytes but the file has only 20 bytes after the length/],
    ['truncated inside the data', () => good.subarray(0, good.length - 3), /past the end of the data .* is the file truncated\?/],
    ['a header length larger than the file', () => { const f = good.slice(); new DataView(f.buffer).setBigUint64(0, BigInt(f.length), true); return f; }, /the header length is \d+ bytes but the file has only \d+ bytes/],
    ['an absurd header length', () => { const f = good.slice(); new DataView(f.buffer).setBigUint64(0, 2n ** 60n, true); return f; }, /the header length is 1152921504606846976 bytes, more than the format's limit of 100000000/],
    ['a header length too short for JSON', () => rawFile('{').subarray(0, 9).map((b, i) => (i === 0 ? 1 : b)), /too short for a JSON object/],
    ['a header that is not JSON', () => rawFile('{"wte.weight": {"dtype": "F32",'), /the header is not valid JSON: .* at byte \d+/],
    ['a header that is not an object', () => rawFile('[1, 2, 3]'), /the header does not start with '\{'/],
    ['a tensor entry that is not an object', () => rawFile('{"wte.weight": [1, 2]}'), /tensor "wte\.weight" is an array, not an object/],
    ['offsets past the end', () => twoTables(entry('F32', [2, 3], 0, 24), entry('F32', [1, 3], 24, 40), f32(9)), /tensor "wpe\.weight" has data_offsets \[24, 40\] past the end of the data \(36 bytes/],
    ['overlapping offsets', () => twoTables(entry('F32', [2, 3], 0, 24), entry('F32', [1, 3], 12, 24), f32(9)), /overlaps the tensor before it/],
    ['a gap between tensors', () => twoTables(entry('F32', [2, 3], 0, 24), entry('F32', [1, 3], 28, 40), f32(10)), /the data has a gap of 4 bytes before tensor "wpe\.weight"/],
    ['offsets that do not match shape × dtype', () => twoTables(entry('F32', [2, 4], 0, 24), entry('F32', [1, 3], 24, 36), f32(9)), /has 24 bytes of data but its shape and dtype need 8 × 4/],
    ['offsets that end before they begin', () => twoTables(entry('F32', [2, 3], 24, 0), entry('F32', [1, 3], 24, 36), f32(9)), /data_offsets that end before they begin/],
    ['a shape whose size overflows', () => twoTables(entry('F32', [2 ** 32, 2 ** 32, 16], 0, 24), entry('F32', [1, 3], 24, 36), f32(9)), /element count overflows/],
    ['trailing bytes', () => { const f = new Uint8Array(good.length + 4); f.set(good); return f; }, /the file is truncated or has trailing bytes/],
    ['an unknown dtype', () => twoTables(entry('Q4', [2, 3], 0, 24), entry('F32', [1, 3], 24, 36), f32(9)), /tensor "wte\.weight" has unknown dtype "Q4"/],
    ['an integer table (I32)', () => twoTables(entry('I32', [2, 3], 0, 24), entry('F32', [1, 3], 24, 36), f32(9)), /wte\.weight has dtype I32; only F32, F16 and BF16 tables can be loaded/],
    ['a double-precision table (F64)', () => twoTables(entry('F32', [2, 3], 0, 24), entry('F64', [1, 3], 24, 48), f32(12)), /wpe\.weight has dtype F64; only F32, F16 and BF16/],
    ['an 8-bit float table (F8_E4M3)', () => twoTables(entry('F8_E4M3', [2, 4], 0, 8), entry('F32', [1, 4], 8, 24), f32(6)), /wte\.weight has dtype F8_E4M3; only F32, F16 and BF16/],
    ['no wte', () => writeSafetensors([{ name: 'transformer.wpe.weight', shape: [2, 2], data: new Float32Array(4) }]), /no token embedding table \(wte\): expected a tensor named as one of the families this module reads names it \(transformer\.wte\.weight, wte\.weight, model\.embed_tokens\.weight, gpt_neox\.embed_in\.weight, model\.decoder\.embed_tokens\.weight, decoder\.embed_tokens\.weight\)/],
    ['no wpe', () => writeSafetensors([{ name: 'wte.weight', shape: [2, 2], data: new Float32Array(4) }]), /no position embedding table \(wpe\)/],
    ['wte and wpe of different widths', () => writeSafetensors([{ name: 'wte.weight', shape: [2, 3], data: new Float32Array(6) }, { name: 'wpe.weight', shape: [2, 2], data: new Float32Array(4) }]), /wte\.weight is 3 numbers wide but wpe\.weight is 2; they must have the same width/],
    ['a one-dimensional wte', () => writeSafetensors([{ name: 'wte.weight', shape: [6], data: new Float32Array(6) }, { name: 'wpe.weight', shape: [2, 3], data: new Float32Array(6) }]), /wte\.weight has 1 dimensions; the token embedding table \(wte\) must have 2/],
    ['an empty wpe', () => writeSafetensors([{ name: 'wte.weight', shape: [2, 3], data: new Float32Array(6) }, { name: 'wpe.weight', shape: [0, 3], data: new Float32Array(0) }]), /wpe\.weight is empty \(0 × 3\)/],
    ['both spellings of wte', () => writeSafetensors([{ name: 'wte.weight', shape: [1, 2], data: new Float32Array(2) }, { name: 'transformer.wte.weight', shape: [1, 2], data: new Float32Array(2) }, { name: 'wpe.weight', shape: [1, 2], data: new Float32Array(2) }]), /both transformer\.wte\.weight and wte\.weight are present/],
    ['__metadata__ that is not strings', () => rawFile({ __metadata__: { step: 7 } }), /__metadata__ entry "step" is not a string/],
  ];
  for (const [name, weights, message] of cases) {
    test(name, () => expectOneError({ weights: weights() }, 'weights', message));
  }
});

describe('dtypes', () => {
  test('F16 and BF16 tables are kept in 16 bits and read as float32 exactly', async () => {
    const wteValues = [1, -2, 0.5, 65504, 1, 1];
    const wpeValues = [1, -5, 0.25, 3, 1, -5];
    const weights = rawFile(
      { 'wte.weight': entry('F16', [2, 3], 0, 12), 'wpe.weight': entry('BF16', [2, 3], 12, 24) },
      new Uint8Array([...u16(wteValues.map((v) => halves[v])), ...u16(wpeValues.map((v) => bfloats[v]))]),
    );
    const model = await loadModel({ weights });
    assert.deepEqual([...model.wte.row(0), ...model.wte.row(1)], wteValues);
    assert.deepEqual([...model.wpe.row(0), ...model.wpe.row(1)], wpeValues);
    assert.equal(model.wte.dtype, 'float16');
    assert.equal(model.wpe.dtype, 'bfloat16');
    assert.ok(model.wte.data instanceof Uint16Array);
    assert.deepEqual(Array.from(model.wte.data), wteValues.map((v) => halves[v]));
    assert.deepEqual(Array.from(model.wpe.data), wpeValues.map((v) => bfloats[v]));
    model.dispose();
  });
});

describe('config.json', () => {
  const cases = [
    ['vocab_size', { ...fixture.config, vocab_size: fixture.vocabSize + 1 }, new RegExp(`vocab_size is ${fixture.vocabSize + 1} but transformer\\.wte\\.weight has rows: ${fixture.vocabSize}`)],
    ['n_positions', { ...fixture.config, n_positions: 1024 }, /n_positions is 1024 but transformer\.wpe\.weight has rows: 16/],
    ['n_ctx, the older name', { n_ctx: 8 }, /n_ctx is 8 but transformer\.wpe\.weight has rows: 16/],
    ['n_layer', { ...fixture.config, n_layer: 12 }, /n_layer is 12 but the weights hold layers: 1/],
    ['n_head that does not divide n_embd', { ...fixture.config, n_head: 5 }, /n_embd \(64\) is not a multiple of n_head \(5\)/],
    ['a negative size', { ...fixture.config, n_embd: -64 }, /n_embd is not a positive integer/],
    ['a model_type that is not a string', { ...fixture.config, model_type: 7 }, /model_type is not a string/],
  ];
  for (const [name, config, message] of cases) {
    test(name, () => expectOneError({ config }, 'config', message));
  }
  test('a config file that is not an object', () => expectOneError({ config: utf8.encode('[1]') }, 'config', /the top level is not a JSON object/));
  test('a config file that is not JSON', () => expectOneError({ config: utf8.encode('{"n_embd": 64,') }, 'config', /not valid JSON/));
});

describe('tokenizer.json', () => {
  const cases = [
    ['no model', (t) => { delete t.model; }, /model must be an object, found nothing/],
    ['no vocabulary', (t) => { delete t.model.vocab; }, /model\.vocab must be an object, found nothing/],
    ['no merges', (t) => { delete t.model.merges; }, /model\.merges must be an array, found nothing/],
    ['a pre-tokenizer after ByteLevel', (t) => { t.pre_tokenizer = { type: 'Sequence', pretokenizers: [t.pre_tokenizer, { type: 'Digits' }] }; }, /pre_tokenizer: a stage after ByteLevel \(not supported\)/],
    ['a merge naming an unknown token', (t) => { t.model.merges.push('Ġgirl zebra'); }, /model\.merges\[\d+\]: "zebra" is not in model\.vocab/],
    ['a merge whose result is not in the vocabulary', (t) => { t.model.merges.push('L Ġ'); }, /the merged token "LĠ" is not in model\.vocab/],
    ['an added token with the wrong id', (t) => { t.added_tokens[0].id = 3; }, /added_tokens\[0\] \("<\|endoftext\|>"\) has id 3 but model\.vocab gives it id \d+/],
    ['an unsupported normalizer', (t) => { t.normalizer = { type: 'Unidecode' }; }, /normalizer must be null or one of .*, found type "Unidecode" \(not supported\)/],
  ];
  for (const [name, change, message] of cases) {
    test(name, () => expectOneError({ tokenizer: utf8.encode(tokenizerWith(change)) }, 'tokenizer', message));
  }
  test('more tokens than wte has rows', async () => {
    const small = makeModel({ width: 8, context: 4, words: [' girl'] });
    // The message starts with the tokenizer's name: it is the tokenizer that does not fit.
    await expectOneError({ weights: small.weights }, 'tokenizer', /: the tokenizer has \d+ tokens but the token table transformer\.wte\.weight has only \d+ rows$/);
  });
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
